import Foundation

/// The benchmark's JSON report, schema 3: encoded from a run, and read back to render the README
/// table from a committed report.
///
/// The shape, which `.ci/check-bench-json.py` checks:
///
/// ```json
/// {
///   "schema_version": 3,
///   "machine": {"cpu": "…", "cores": 2, "os": "…", "swift_version": "6.3.1",
///               "build_configuration": "release", "date": "2026-…Z", "allocation_counting": true},
///   "run": {"configuration": "full", "repeat": 3, "rounds": 41, "batch_rounds": 11,
///           "round_nanoseconds": 10000000, "seed": 22, "method": "each ratio is the median of …"},
///   "noise": {"verdict": "noisy", "reasons": ["…"], "noisy_rows": 3, "rows": 70,
///             "load_average_before": 1.9, "other_load_before": 0.8, "other_load_during": 0.7,
///             "row_spread_limit": 0.2, "other_load_limit": 0.25, "noisy_row_share_limit": 0.1},
///   "summary": {"product_targets_met": 9, "product_targets_missed": 3, "product_targets_undecided": 2,
///               "product_targets_judged": 14, "harness_checks_met": 5, "harness_checks_missed": 0,
///               "harness_checks_undecided": 0, "harness_checks_judged": 5, "line": "product targets: …"},
///   "groups": [{"scenario": "install", "group": "install-subclass", "baseline": "subclass-i1-c1",
///               "unit": "ns/op", "better": "lower"}],
///   "results": [{"scenario": "typed-forwarding", "variant": "proxy", "kind": "product",
///                "group": "typed-forwarding", "group_baseline": "direct", "baseline": false,
///                "unit": "ns/op", "better": "lower", "median": 41.2, "p10": 40.8, "p90": 43.0,
///                "spread": 0.05, "noisy": false, "ratio_to_baseline": 1.1,
///                "baseline_ratio": {"reference": "direct", "median": 1.1, "q1": 1.08, "q3": 1.12,
///                                   "min": 1.02, "max": 1.3, "rounds": 41},
///                "allocations_per_op": 0, "samples": 41, "operations_per_sample": 240000, "repeats": 3,
///                "targets": [{"kind": "ratio_at_most", "limit": 1.25, "label": "≤1.25× base",
///                             "reference": "direct", "ratio": {"reference": "direct", …},
///                             "verdict": "met"}],
///                "target": "≤1.25× base, 0 allocs", "target_verdict": "met"}],
///   "skipped": [{"scenario": "…", "variant": "…", "note": "…"}]
/// }
/// ```
///
/// `median`, `p10` and `p90` are in `unit`; `better` says whether `lower` or `higher` values are
/// better. `ratio_to_baseline` is the median of the per-round ratios to the group baseline
/// (`baseline_ratio`, with its quartiles `q1`, `q3` and extremes), only within one group and one
/// unit, and `null` otherwise; `rounds` is 0 for an unpaired estimate (custom measurements: the
/// ratio of the medians, quartiles over quartiles) and for a baseline's own ratio of 1. A target's
/// `reference` is the variant its ratio is relative to (`null` for an allocation target), its
/// `ratio` the estimate it is judged by, and its `verdict` `met`, `missed`, `undecided` or `null`
/// when a needed figure is missing. `allocations_per_op` is `null` when not counted. The noise fields
/// about load are `null` where the load cannot be read. `target` and `target_verdict` appear only
/// for variants with targets.
package enum JSONReport {
  /// The schema version this tool writes and reads.
  package static let schemaVersion = 3

  /// Encodes a report as pretty-printed JSON with sorted keys.
  ///
  /// - Parameter report: The run.
  /// - Returns: UTF-8 JSON ending with a newline.
  /// - Throws: `EncodingError` if a value cannot be encoded (the report never holds non-finite numbers).
  package static func encode(_ report: BenchReport) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    var data = try encoder.encode(Document(report: report))
    data.append(contentsOf: Array("\n".utf8))
    return data
  }

  /// Reads a report written by ``encode(_:)``.
  ///
  /// - Parameter data: The JSON.
  /// - Returns: The document.
  /// - Throws: `DecodingError`, or ``ProxyBenchError/cannotRead(path:reason:)`` for another schema version.
  package static func decode(_ data: Data) throws -> Document {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let document = try decoder.decode(Document.self, from: data)
    guard document.schemaVersion == schemaVersion else {
      throw ProxyBenchError.cannotRead(
        path: "report", reason: "schema_version \(document.schemaVersion), expected \(schemaVersion)")
    }
    return document
  }

  /// The whole report.
  package struct Document: Codable, Equatable, Sendable {
    package var schemaVersion: Int
    package var machine: MachineInfo
    package var run: Run
    package var noise: Noise
    package var summary: Summary
    package var groups: [Group]
    package var results: [Result]
    package var skipped: [Skipped]

    /// Builds the document of a run.
    package init(report: BenchReport) {
      schemaVersion = JSONReport.schemaVersion
      machine = report.machine
      run = Run(
        configuration: report.configurationName, repeat: report.repeats, rounds: report.pairing.rounds,
        batchRounds: report.pairing.batchRounds, roundNanoseconds: report.pairing.roundNanoseconds,
        seed: report.pairing.seed, method: report.pairing.sentence)
      let verdict = report.noise
      noise = Noise(
        verdict: verdict.isNoisy ? "noisy" : "quiet", reasons: verdict.reasons, noisyRows: verdict.noisyRows,
        rows: verdict.rows, loadAverageBefore: report.load?.loadAverageBefore,
        otherLoadBefore: report.load?.otherLoadBefore, otherLoadDuring: report.load?.otherLoadDuring,
        rowSpreadLimit: NoiseCheck.rowSpreadLimit, otherLoadLimit: NoiseCheck.otherLoadLimit,
        noisyRowShareLimit: NoiseCheck.noisyRowShareLimit)
      let product = report.targetCounts(.product)
      let harness = report.targetCounts(.harnessSelfCheck)
      summary = Summary(
        productTargetsMet: product.met, productTargetsMissed: product.missed,
        productTargetsUndecided: product.undecided, productTargetsJudged: product.judged,
        harnessChecksMet: harness.met, harnessChecksMissed: harness.missed, harnessChecksUndecided: harness.undecided,
        harnessChecksJudged: harness.judged, line: report.summaryLine)
      var groups: [Group] = []
      for result in report.results where !groups.contains(where: { $0.group == result.group }) {
        groups.append(
          Group(
            scenario: result.scenario, group: result.group, baseline: result.groupBaseline, unit: result.unit.symbol,
            better: result.unit.better))
      }
      self.groups = groups
      results = report.results.map(Result.init)
      skipped = report.skipped.map { Skipped(scenario: $0.scenario, variant: $0.variant, note: $0.note) }
    }
  }

  /// How the run was made.
  package struct Run: Codable, Equatable, Sendable {
    package var configuration: String
    package var `repeat`: Int
    package var rounds: Int
    package var batchRounds: Int
    package var roundNanoseconds: UInt64
    package var seed: UInt64
    package var method: String
  }

  /// The noise check: verdict, reasons, readings and thresholds.
  package struct Noise: Codable, Equatable, Sendable {
    package var verdict: String
    package var reasons: [String]
    package var noisyRows: Int
    package var rows: Int
    package var loadAverageBefore: Double?
    package var otherLoadBefore: Double?
    package var otherLoadDuring: Double?
    package var rowSpreadLimit: Double
    package var otherLoadLimit: Double
    package var noisyRowShareLimit: Double

    package func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(verdict, forKey: .verdict)
      try container.encode(reasons, forKey: .reasons)
      try container.encode(noisyRows, forKey: .noisyRows)
      try container.encode(rows, forKey: .rows)
      try container.encode(loadAverageBefore, forKey: .loadAverageBefore)
      try container.encode(otherLoadBefore, forKey: .otherLoadBefore)
      try container.encode(otherLoadDuring, forKey: .otherLoadDuring)
      try container.encode(rowSpreadLimit, forKey: .rowSpreadLimit)
      try container.encode(otherLoadLimit, forKey: .otherLoadLimit)
      try container.encode(noisyRowShareLimit, forKey: .noisyRowShareLimit)
    }
  }

  /// Target counts: product targets apart from the harness's self-checks.
  package struct Summary: Codable, Equatable, Sendable {
    package var productTargetsMet: Int
    package var productTargetsMissed: Int
    package var productTargetsUndecided: Int
    package var productTargetsJudged: Int
    package var harnessChecksMet: Int
    package var harnessChecksMissed: Int
    package var harnessChecksUndecided: Int
    package var harnessChecksJudged: Int
    package var line: String
  }

  /// A group of variants and its baseline.
  package struct Group: Codable, Equatable, Sendable {
    package var scenario: String
    package var group: String
    package var baseline: String
    package var unit: String
    package var better: String
  }

  /// A ratio with its spread (``RatioEstimate``).
  package struct Ratio: Codable, Equatable, Sendable {
    package var reference: String
    package var median: Double
    package var q1: Double
    package var q3: Double
    package var min: Double
    package var max: Double
    package var rounds: Int

    init(_ estimate: RatioEstimate) {
      reference = estimate.reference
      median = estimate.median
      q1 = estimate.lowerQuartile
      q3 = estimate.upperQuartile
      min = estimate.minimum
      max = estimate.maximum
      rounds = estimate.rounds
    }
  }

  /// One target and its verdict.
  package struct Target: Codable, Equatable, Sendable {
    package var kind: String
    package var limit: Double
    package var label: String
    package var reference: String?
    package var ratio: Ratio?
    package var verdict: String?

    package func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(kind, forKey: .kind)
      try container.encode(limit, forKey: .limit)
      try container.encode(label, forKey: .label)
      try container.encode(reference, forKey: .reference)
      try container.encode(ratio, forKey: .ratio)
      try container.encode(verdict, forKey: .verdict)
    }
  }

  /// One measured variant.
  package struct Result: Codable, Equatable, Sendable {
    package var scenario: String
    package var variant: String
    package var kind: String
    package var group: String
    package var groupBaseline: String
    package var baseline: Bool
    package var unit: String
    package var better: String
    package var median: Double
    package var p10: Double
    package var p90: Double
    package var spread: Double
    package var noisy: Bool
    package var ratioToBaseline: Double?
    package var baselineRatio: Ratio?
    package var allocationsPerOp: Double?
    package var samples: Int
    package var operationsPerSample: Int
    package var repeats: Int
    package var targets: [Target]
    package var target: String?
    package var targetVerdict: String?

    init(_ result: VariantResult) {
      scenario = result.scenario
      variant = result.variant
      kind = result.kind.rawValue
      group = result.group
      groupBaseline = result.groupBaseline
      baseline = result.isBaseline
      unit = result.unit.symbol
      better = result.unit.better
      median = result.summary.median
      p10 = result.summary.p10
      p90 = result.summary.p90
      spread = result.relativeSpread
      noisy = result.isNoisy
      ratioToBaseline = result.ratioToBaseline
      baselineRatio = result.baselineRatio.map(Ratio.init)
      allocationsPerOp = result.allocationsPerOperation
      samples = result.summary.count
      operationsPerSample = result.operationsPerSample
      repeats = result.repeats
      targets = result.targets.map { target in
        Target(
          kind: target.kind, limit: target.limit, label: target.label,
          reference: target.reference(groupBaseline: result.groupBaseline),
          ratio: result.ratio(for: target).map(Ratio.init), verdict: result.verdict(for: target)?.rawValue)
      }
      target = result.targets.isEmpty ? nil : result.targetLabel
      targetVerdict = result.targetVerdict?.rawValue
    }

    package func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(scenario, forKey: .scenario)
      try container.encode(variant, forKey: .variant)
      try container.encode(kind, forKey: .kind)
      try container.encode(group, forKey: .group)
      try container.encode(groupBaseline, forKey: .groupBaseline)
      try container.encode(baseline, forKey: .baseline)
      try container.encode(unit, forKey: .unit)
      try container.encode(better, forKey: .better)
      try container.encode(median, forKey: .median)
      try container.encode(p10, forKey: .p10)
      try container.encode(p90, forKey: .p90)
      try container.encode(spread, forKey: .spread)
      try container.encode(noisy, forKey: .noisy)
      // Encoded explicitly so that an unknown figure reads as null rather than a missing key.
      try container.encode(ratioToBaseline, forKey: .ratioToBaseline)
      try container.encode(baselineRatio, forKey: .baselineRatio)
      try container.encode(allocationsPerOp, forKey: .allocationsPerOp)
      try container.encode(samples, forKey: .samples)
      try container.encode(operationsPerSample, forKey: .operationsPerSample)
      try container.encode(repeats, forKey: .repeats)
      try container.encode(targets, forKey: .targets)
      if let target {
        try container.encode(target, forKey: .target)
        try container.encode(targetVerdict, forKey: .targetVerdict)
      }
    }
  }

  /// A variant that was not measured.
  package struct Skipped: Codable, Equatable, Sendable {
    package var scenario: String
    package var variant: String
    package var note: String
  }
}
