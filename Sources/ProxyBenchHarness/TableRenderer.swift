/// Renders a run as a plain-text table, one block per scenario.
///
/// Columns: variant, its group's baseline, median, p10, p90, unit (with `↑` for rates), ratio to
/// the group baseline, allocations per operation, target, result (PASS or MISS) and a noisy mark.
/// Skipped variants get one line with their note.
package enum TableRenderer {
  /// What the columns mean, printed once above the scenarios.
  package static let legend = """
    How to read: variants are compared in groups; '×base' is a row's median over its group baseline's
    median (same unit, same run). Lower is better, except units marked ↑ (rates). Targets are ratios
    or allocation counts; absolute times are reported, never judged. 'noisy': \(NoiseCheck.thresholds).
    """

  /// Renders the scenarios.
  ///
  /// - Parameter report: The run.
  /// - Returns: The table, ending with a newline.
  package static func render(_ report: BenchReport) -> String {
    var output = "proxy-bench (\(report.configurationName)"
    output += report.repeats > 1 ? ", best of \(report.repeats) per row)" : ")"
    output += " on \(report.machine.cpu), \(report.machine.cores) cores,"
    output += " \(report.machine.os), Swift \(report.machine.swiftVersion) \(report.machine.buildConfiguration),"
    output += " \(report.machine.date)\n"
    if report.machine.buildConfiguration != "release" {
      output += "warning: debug build; figures are meaningless. Use: swift run -c release proxy-bench\n"
    }
    if !report.machine.allocationCounting {
      output += "note: allocations are not counted in this build (allocs/op shows n/a)\n"
    }
    if let load = report.load {
      output += "load: 1-min load average \(ValueFormatter.ratio(load.loadAverageBefore)) before the run;"
      output += " other processes kept \(ValueFormatter.ratio(load.otherLoadBefore)) cores busy before it and"
      output += " \(ValueFormatter.ratio(load.otherLoadDuring)) during it\n"
    }
    output += legend + "\n"
    for scenario in report.scenarios {
      output += "\n" + render(scenario)
    }
    output += "\n" + report.summaryLine + "\n"
    return output
  }

  /// Renders one scenario's block.
  ///
  /// - Parameter scenario: The scenario report.
  /// - Returns: A heading line and the aligned rows.
  package static func render(_ scenario: ScenarioReport) -> String {
    let header = [
      "variant", "group baseline", "median", "p10", "p90", "unit", "×base", "allocs/op", "target", "result", "noise",
    ]
    let rightAligned: Set<Int> = [2, 3, 4, 6, 7]
    var rows: [[String]] = []
    for result in scenario.results {
      let verdict = result.targetsMet.map { $0 ? "PASS" : "MISS" } ?? (result.targets.isEmpty ? "" : "n/a")
      rows.append([
        result.variant, result.isBaseline ? "(baseline)" : result.groupBaseline,
        ValueFormatter.measured(result.summary.median), ValueFormatter.measured(result.summary.p10),
        ValueFormatter.measured(result.summary.p90), result.unit.symbol + (result.unit.higherIsBetter ? " ↑" : ""),
        result.ratioToBaseline.map(ValueFormatter.ratio) ?? "-",
        ValueFormatter.allocations(result.allocationsPerOperation), result.targetLabel, verdict,
        result.isNoisy ? "noisy" : "",
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
    var output = "\(scenario.id): \(scenario.summary)"
    output += scenario.kind == .harnessSelfCheck ? " [harness self-check, not a product target]\n" : "\n"
    if let naming = scenario.naming { output += "  names: \(naming)\n" }
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
