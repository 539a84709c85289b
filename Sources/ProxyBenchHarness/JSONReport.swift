import Foundation

/// Encodes a run as the benchmark's JSON report.
///
/// The shape, which `.ci/check-bench-json.py` checks:
///
/// ```json
/// {
///   "machine": {"cpu": "…", "cores": 2, "os": "…", "swift_version": "6.3.1",
///               "build_configuration": "release", "date": "2025-…Z", "allocation_counting": true},
///   "run": {"configuration": "quick"},
///   "results": [{"scenario": "harness", "variant": "class-alloc", "unit": "ns/op",
///                "median_ns": 18.2, "p10_ns": 18.0, "p90_ns": 18.9, "ratio_to_baseline": 40.1,
///                "allocations_per_op": 1.0, "baseline": false, "samples": 25, "operations_per_sample": 1000000,
///                "target": "≤1 allocs", "target_met": true}],
///   "skipped": [{"scenario": "dispatch-model", "variant": "send", "note": "not yet available: …"}]
/// }
/// ```
///
/// `median_ns`, `p10_ns` and `p90_ns` hold the value in `unit`, which is
/// `ns/op` except for the few size and rate variants. `ratio_to_baseline` and
/// `allocations_per_op` are `null` when unknown; `target` and `target_met`
/// appear only for variants with targets.
package enum JSONReport {
  /// Encodes a report as pretty-printed JSON with sorted keys.
  ///
  /// - Parameter report: The run.
  /// - Returns: UTF-8 JSON ending with a newline.
  /// - Throws: `EncodingError` if a value cannot be encoded (the report never holds non-finite numbers).
  package static func encode(_ report: BenchReport) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    var data = try encoder.encode(Document(report: report))
    data.append(contentsOf: Array("\n".utf8))
    return data
  }

  private struct Document: Encodable {
    var machine: Machine
    var run: Run
    var results: [Entry]
    var skipped: [Skipped]

    init(report: BenchReport) {
      machine = Machine(info: report.machine)
      run = Run(configuration: report.configurationName)
      results = report.results.map(Entry.init)
      skipped = report.skipped.map { Skipped(scenario: $0.scenario, variant: $0.variant, note: $0.note) }
    }
  }

  private struct Run: Encodable {
    var configuration: String
  }

  private struct Machine: Encodable {
    var info: MachineInfo

    enum CodingKeys: String, CodingKey {
      case cpu, cores, os, date
      case swiftVersion = "swift_version"
      case buildConfiguration = "build_configuration"
      case allocationCounting = "allocation_counting"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(info.cpu, forKey: .cpu)
      try container.encode(info.cores, forKey: .cores)
      try container.encode(info.os, forKey: .os)
      try container.encode(info.swiftVersion, forKey: .swiftVersion)
      try container.encode(info.buildConfiguration, forKey: .buildConfiguration)
      try container.encode(info.date, forKey: .date)
      try container.encode(info.allocationCounting, forKey: .allocationCounting)
    }
  }

  private struct Entry: Encodable {
    var result: VariantResult

    enum CodingKeys: String, CodingKey {
      case scenario, variant, unit, baseline, samples, target
      case medianNanoseconds = "median_ns"
      case p10Nanoseconds = "p10_ns"
      case p90Nanoseconds = "p90_ns"
      case ratioToBaseline = "ratio_to_baseline"
      case ratioReference = "ratio_reference"
      case allocationsPerOperation = "allocations_per_op"
      case operationsPerSample = "operations_per_sample"
      case targetMet = "target_met"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(result.scenario, forKey: .scenario)
      try container.encode(result.variant, forKey: .variant)
      try container.encode(result.unit.symbol, forKey: .unit)
      try container.encode(result.summary.median, forKey: .medianNanoseconds)
      try container.encode(result.summary.p10, forKey: .p10Nanoseconds)
      try container.encode(result.summary.p90, forKey: .p90Nanoseconds)
      // Encoded explicitly so that an unknown figure reads as null rather than a missing key.
      try container.encode(result.ratioToBaseline, forKey: .ratioToBaseline)
      try container.encode(result.ratioReference, forKey: .ratioReference)
      try container.encode(result.allocationsPerOperation, forKey: .allocationsPerOperation)
      try container.encode(result.isBaseline, forKey: .baseline)
      try container.encode(result.summary.count, forKey: .samples)
      try container.encode(result.operationsPerSample, forKey: .operationsPerSample)
      if !result.targets.isEmpty {
        try container.encode(result.targetLabel, forKey: .target)
        try container.encode(result.targetsMet, forKey: .targetMet)
      }
    }
  }

  private struct Skipped: Encodable {
    var scenario: String
    var variant: String
    var note: String
  }
}
