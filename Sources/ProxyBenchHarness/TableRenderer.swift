/// Renders a run as a plain-text table, one block per scenario.
///
/// Columns: variant, median, p10, p90, unit, ratio to baseline, allocations
/// per operation, target and result (PASS or MISS). Skipped variants get one
/// line with their note.
package enum TableRenderer {
  /// Renders the scenarios.
  ///
  /// - Parameter report: The run.
  /// - Returns: The table, ending with a newline.
  package static func render(_ report: BenchReport) -> String {
    var output = "proxy-bench (\(report.configurationName)) on \(report.machine.cpu), \(report.machine.cores) cores,"
    output += " \(report.machine.os), Swift \(report.machine.swiftVersion) \(report.machine.buildConfiguration),"
    output += " \(report.machine.date)\n"
    if report.machine.buildConfiguration != "release" {
      output += "warning: debug build; figures are meaningless. Use: swift run -c release proxy-bench\n"
    }
    if !report.machine.allocationCounting {
      output += "note: allocations are not counted in this build (allocs/op shows n/a)\n"
    }
    for scenario in report.scenarios {
      output += "\n" + render(scenario)
    }
    let judged = report.results.compactMap(\.targetsMet)
    if !judged.isEmpty {
      let passed = judged.filter { $0 }.count
      output += "\ntargets: \(passed) of \(judged.count) met\n"
    }
    return output
  }

  /// Renders one scenario's block.
  ///
  /// - Parameter scenario: The scenario report.
  /// - Returns: A heading line and the aligned rows.
  package static func render(_ scenario: ScenarioReport) -> String {
    let header = ["variant", "median", "p10", "p90", "unit", "×base", "allocs/op", "target", "result"]
    let rightAligned: Set<Int> = [1, 2, 3, 5, 6]
    var rows: [[String]] = []
    var notes: [(Int, String)] = []
    for entry in scenario.entries {
      switch entry {
      case .measured(let result):
        let name = result.isBaseline ? "\(result.variant) (baseline)" : result.variant
        let verdict = result.targetsMet.map { $0 ? "PASS" : "MISS" } ?? (result.targets.isEmpty ? "" : "n/a")
        rows.append([
          name, ValueFormatter.measured(result.summary.median), ValueFormatter.measured(result.summary.p10),
          ValueFormatter.measured(result.summary.p90), result.unit.symbol,
          result.ratioToBaseline.map(ValueFormatter.ratio) ?? "-",
          ValueFormatter.allocations(result.allocationsPerOperation), result.targetLabel, verdict,
        ])
      case .skipped(let skipped):
        notes.append((rows.count, "\(skipped.variant): skipped, \(skipped.note)"))
        rows.append([])
      }
    }
    var widths = header.map(\.count)
    for row in rows where !row.isEmpty {
      for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
    }
    func line(_ cells: [String]) -> String {
      let padded = cells.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return rightAligned.contains(column) ? padding + cell : cell + padding
      }
      var text = padded.joined(separator: "  ")
      while text.hasSuffix(" ") { text.removeLast() }
      return "  " + text
    }
    var output = "\(scenario.id): \(scenario.summary)\n"
    output += line(header) + "\n"
    let noteByRow = Dictionary(notes, uniquingKeysWith: { first, _ in first })
    for (index, row) in rows.enumerated() {
      output += (noteByRow[index].map { "  " + $0 } ?? line(row)) + "\n"
    }
    return output
  }
}
