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
    for result in scenario.results {
      let name = result.isBaseline ? "\(result.variant) (baseline)" : result.variant
      let verdict = result.targetsMet.map { $0 ? "PASS" : "MISS" } ?? (result.targets.isEmpty ? "" : "n/a")
      rows.append([
        name, ValueFormatter.measured(result.summary.median), ValueFormatter.measured(result.summary.p10),
        ValueFormatter.measured(result.summary.p90), result.unit.symbol,
        result.ratioToBaseline.map(ValueFormatter.ratio) ?? "-",
        ValueFormatter.allocations(result.allocationsPerOperation), result.targetLabel, verdict,
      ])
    }
    var widths = header.map(\.count)
    for row in rows {
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
    if !rows.isEmpty {
      output += line(header) + "\n"
      for row in rows { output += line(row) + "\n" }
    }
    // Skipped variants, grouped by note so pending scenarios take a few lines.
    var groups: [(note: String, variants: [String])] = []
    for skipped in scenario.skipped {
      if let index = groups.firstIndex(where: { $0.note == skipped.note }) {
        groups[index].variants.append(skipped.variant)
      } else {
        groups.append((skipped.note, [skipped.variant]))
      }
    }
    for group in groups {
      output += "  skipped, \(group.note):\n"
      var current = "   "
      for variant in group.variants {
        if current.count + variant.count + 1 > 110 {
          output += current + "\n"
          current = "   "
        }
        current += " " + variant
      }
      output += current + "\n"
    }
    return output
  }
}
