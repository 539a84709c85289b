/// Renders the README's Performance table from a JSON report (`proxy-bench --markdown`).
///
/// It renders from the report's JSON document, not from the run in memory, so that
/// `proxy-bench --from-json Benchmarks/proxy-bench.json --markdown PATH` reproduces the committed
/// table byte for byte and CI can check the README against the committed JSON.
///
/// The table holds every group of product variants that has a target, baseline included; the
/// other groups stay in the full report (`Benchmarks/proxy-bench.txt`).
package enum MarkdownTable {
  /// Renders the table with the run line above it and the reading notes below it.
  ///
  /// - Parameter document: A report.
  /// - Returns: Markdown ending with a newline.
  package static func render(_ document: JSONReport.Document) -> String {
    let machine = document.machine
    let repeatNote = document.run.repeat > 1 ? ", best of \(document.run.repeat) per row" : ""
    var output = "Run: `proxy-bench` (\(document.run.configuration)\(repeatNote)), \(machine.date), \(machine.cpu),"
    output += " \(machine.cores) cores, \(machine.os), Swift \(machine.swiftVersion) \(machine.buildConfiguration).\n"
    let summary = document.summary
    output += "Product targets: \(summary.productTargetsMet) met, \(summary.productTargetsMissed) missed,"
    output += " \(summary.productTargetsUndecided) undecided of \(summary.productTargetsJudged)"
    output += " (harness self-checks apart: \(summary.harnessChecksMet) met of \(summary.harnessChecksJudged))."
    output += " Noise: **\(document.noise.verdict)**"
    output += document.noise.reasons.isEmpty ? ".\n\n" : " (\(document.noise.reasons.joined(separator: "; "))).\n\n"

    let judgedGroups = Set(
      document.results.filter { $0.kind == Scenario.Kind.product.rawValue && !$0.targets.isEmpty }.map(\.group))
    output += "| group: variant | median | p10–p90 | × group baseline (IQR) | allocs/op | target | result |\n"
    output += "| --- | ---: | ---: | ---: | ---: | --- | --- |\n"
    for result in document.results where judgedGroups.contains(result.group) {
      var name = "\(result.group): `\(result.variant)`"
      if result.baseline { name += " (baseline)" }
      if result.noisy { name += " ≈noisy" }
      let unit = "\(result.unit)" + (result.better == "higher" ? " ↑" : "")
      let ratio = result.baseline ? "1 (baseline)" : result.baselineRatio.map(describe) ?? "–"
      var verdict = result.target == nil ? "" : result.targetVerdict.map(emphasised) ?? "n/a"
      // A ratio to a variant other than the group baseline is not in the ratio column: say it here.
      for target in result.targets where target.reference != nil && target.reference != result.groupBaseline {
        verdict += "; \(target.label): " + (target.ratio.map(describe) ?? "–")
      }
      output += "| \(name) | \(ValueFormatter.measured(result.median)) \(unit)"
      output += " | \(ValueFormatter.measured(result.p10))–\(ValueFormatter.measured(result.p90))"
      output += " | \(ratio) | \(ValueFormatter.allocations(result.allocationsPerOp)) | \(result.target ?? "")"
      output += " | \(verdict) |\n"
    }
    output += "\n× group baseline: the row's cost over its group baseline's, in the same unit and run:"
    output += " \(document.run.method)."
    output += " Lower is better, except for rates marked ↑ (events/s). A ratio marked unpaired is the ratio of two"
    output += " separately measured medians, its range their quartiles'. Targets are ratios or allocation counts;"
    output += " absolute times are reported, never judged. ≈noisy: the row's (p90 − p10) / median passed"
    output += " \(ValueFormatter.compact(document.noise.rowSpreadLimit)).\n"
    return output
  }

  /// A ratio with its interquartile range, e.g. `1.10× (1.08–1.12)`.
  private static func describe(_ ratio: JSONReport.Ratio) -> String {
    let range = "\(ValueFormatter.ratio(ratio.q1))–\(ValueFormatter.ratio(ratio.q3))"
    return "\(ValueFormatter.ratio(ratio.median))× (\(range)\(ratio.rounds > 0 ? "" : ", unpaired"))"
  }

  /// A verdict as the table shows it: a missed target in bold.
  private static func emphasised(_ verdict: String) -> String {
    verdict == TargetVerdict.missed.rawValue ? "**missed**" : verdict
  }
}
