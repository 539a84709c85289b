/// Renders a run as a plain-text table, one block per scenario.
///
/// Columns: variant, its group's baseline, median, p10, p90, unit (with `↑` for rates), ratio to
/// the group baseline with its interquartile range over the paired rounds, allocations per
/// operation, target, verdict (met, missed or undecided) and a noisy mark. A ratio to a variant a
/// target names gets a line under the rows. Skipped variants get one line with their note.
package enum TableRenderer {
  /// What the columns mean, printed once above the scenarios.
  package static let legend = """
    How to read: variants are compared in groups; '×base' is a row's cost over its group baseline's
    (same unit, same run), measured in paired rounds: the median of the per-round ratios, with their
    interquartile range under 'IQR' ('unpaired': the ratio of two separate medians). Lower is better,
    except units marked ↑ (rates). Targets are ratios or allocation counts; absolute times are
    reported, never judged. A ratio target is met or missed when its IQR is wholly on one side of the
    limit, undecided when the IQR straddles it. 'noisy': \(NoiseCheck.thresholds).
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
    output += "ratios: \(report.pairing.sentence)\n"
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
      "variant", "group baseline", "median", "p10", "p90", "unit", "×base", "IQR", "allocs/op", "target", "result",
      "noise",
    ]
    let rightAligned: Set<Int> = [2, 3, 4, 6, 7, 8]
    var rows: [[String]] = []
    var otherRatios: [String] = []
    for result in scenario.results {
      rows.append(cells(result))
      otherRatios += variantRatioLines(result)
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
    for ratio in otherRatios { output += ratio + "\n" }
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

  /// A result's row, one cell per column of the header.
  private static func cells(_ result: VariantResult) -> [String] {
    let verdict = result.targetVerdict?.rawValue ?? (result.targets.isEmpty ? "" : "n/a")
    var ratio = "-"
    var range = ""
    if let estimate = result.baselineRatio {
      ratio = ValueFormatter.ratio(estimate.median)
      if !result.isBaseline { range = spread(estimate) }
    }
    return [
      result.variant, result.isBaseline ? "(baseline)" : result.groupBaseline,
      ValueFormatter.measured(result.summary.median), ValueFormatter.measured(result.summary.p10),
      ValueFormatter.measured(result.summary.p90), result.unit.symbol + (result.unit.higherIsBetter ? " ↑" : ""),
      ratio, range, ValueFormatter.allocations(result.allocationsPerOperation), result.targetLabel, verdict,
      result.isNoisy ? "noisy" : "",
    ]
  }

  /// One line per target of `result` that names another variant: the ratio to it and the verdict.
  private static func variantRatioLines(_ result: VariantResult) -> [String] {
    var lines: [String] = []
    for target in result.targets {
      guard let reference = target.referenceVariant else { continue }
      let ratio = result.ratio(for: target)
      let figure = ratio.map { "\(ValueFormatter.ratio($0.median))× (IQR \(spread($0)))" } ?? "not measured"
      let verdict = result.verdict(for: target)?.rawValue ?? "n/a"
      lines.append("  \(result.variant) over \(reference): \(figure), target \(target.label): \(verdict)")
    }
    return lines
  }

  /// An estimate's interquartile range, e.g. `1.08–1.12`, marked `unpaired` when it is not from
  /// paired rounds.
  private static func spread(_ estimate: RatioEstimate) -> String {
    estimate.spreadLabel + (estimate.isPaired ? "" : " unpaired")
  }
}
