/// The figures of one measured variant, as reported.
package struct VariantResult: Equatable, Sendable {
  /// The scenario id.
  package var scenario: String
  /// The variant id.
  package var variant: String
  /// The unit of `summary`.
  package var unit: ResultUnit
  /// Median, p10 and p90 of the samples.
  package var summary: SampleSummary
  /// Median divided by the reference variant's median, or `nil` when there is none.
  package var ratioToBaseline: Double?
  /// The variant the ratio is relative to (the scenario's baseline, or the
  /// first variant measured in the same unit).
  package var ratioReference: String?
  /// Allocations per operation, or `nil` when allocations are not counted.
  package var allocationsPerOperation: Double?
  /// Operations timed per sample (0 for custom measurements).
  package var operationsPerSample: Int
  /// Whether this variant is the scenario's baseline.
  package var isBaseline: Bool
  /// The targets checked against this result.
  package var targets: [PerformanceTarget]

  /// Creates a result; ``ScenarioReport/build(scenario:outcomes:)`` makes these from measurements.
  package init(
    scenario: String, variant: String, unit: ResultUnit, summary: SampleSummary, ratioToBaseline: Double?,
    ratioReference: String?, allocationsPerOperation: Double?, operationsPerSample: Int, isBaseline: Bool,
    targets: [PerformanceTarget]
  ) {
    self.scenario = scenario
    self.variant = variant
    self.unit = unit
    self.summary = summary
    self.ratioToBaseline = ratioToBaseline
    self.ratioReference = ratioReference
    self.allocationsPerOperation = allocationsPerOperation
    self.operationsPerSample = operationsPerSample
    self.isBaseline = isBaseline
    self.targets = targets
  }

  /// Every target's verdict: `true` when all are met, `false` when any is
  /// missed, `nil` when there are no targets or a needed figure is missing.
  package var targetsMet: Bool? {
    guard !targets.isEmpty else { return nil }
    var allMet = true
    for target in targets {
      let verdict = target.isMet(
        median: summary.median, ratio: ratioToBaseline, allocationsPerOperation: allocationsPerOperation)
      guard let verdict else { return nil }
      allMet = allMet && verdict
    }
    return allMet
  }

  /// The targets as one label, e.g. `≤1.25×, 0 allocs`; empty without targets.
  package var targetLabel: String {
    targets.map { $0.label(unit: unit) }.joined(separator: ", ")
  }
}

/// A selected variant that was not measured, and why.
package struct SkippedVariant: Equatable, Sendable {
  /// The scenario id.
  package var scenario: String
  /// The variant id.
  package var variant: String
  /// Why it was skipped, e.g. `not yet available: needs CaptureStrategies`.
  package var note: String

  /// Creates a skipped entry.
  package init(scenario: String, variant: String, note: String) {
    self.scenario = scenario
    self.variant = variant
    self.note = note
  }
}

/// One scenario's part of a run, in variant order.
package struct ScenarioReport: Equatable, Sendable {
  /// A measured or skipped variant.
  package enum Entry: Equatable, Sendable {
    /// A measured variant.
    case measured(VariantResult)
    /// A variant with no figures.
    case skipped(SkippedVariant)
  }

  /// The scenario id.
  package var id: String
  /// What the scenario measures.
  package var summary: String
  /// The baseline variant's id.
  package var baselineVariantID: String
  /// The selected variants, in the scenario's order.
  package var entries: [Entry]

  /// Creates a scenario report.
  package init(id: String, summary: String, baselineVariantID: String, entries: [Entry]) {
    self.id = id
    self.summary = summary
    self.baselineVariantID = baselineVariantID
    self.entries = entries
  }

  /// The measured variants.
  package var results: [VariantResult] {
    entries.compactMap { if case .measured(let result) = $0 { result } else { nil } }
  }

  /// The skipped variants.
  package var skipped: [SkippedVariant] {
    entries.compactMap { if case .skipped(let skipped) = $0 { skipped } else { nil } }
  }

  /// Builds a scenario report from raw measurements, computing ratios.
  ///
  /// A variant's ratio is relative to the baseline when both share a unit;
  /// otherwise to the first measured variant with the variant's unit.
  ///
  /// - Parameters:
  ///   - scenario: The scenario.
  ///   - outcomes: Each selected variant with its measurement (`nil` = unavailable).
  /// - Returns: The report.
  package static func build(scenario: Scenario, outcomes: [(variant: Variant, measurement: BenchRunner.Measurement?)])
    -> ScenarioReport
  {
    var summaries: [String: (unit: ResultUnit, median: Double)] = [:]
    var firstOfUnit: [ResultUnit: String] = [:]
    for outcome in outcomes {
      guard let measurement = outcome.measurement else { continue }
      let median = SampleSummary(samples: measurement.samples).median
      summaries[outcome.variant.id] = (measurement.unit, median)
      if firstOfUnit[measurement.unit] == nil { firstOfUnit[measurement.unit] = outcome.variant.id }
    }
    var entries: [Entry] = []
    for (variant, measurement) in outcomes {
      guard let measurement else {
        let note: String
        if case .unavailable(let reason) = variant.body { note = reason } else { note = "not measured" }
        entries.append(.skipped(SkippedVariant(scenario: scenario.id, variant: variant.id, note: note)))
        continue
      }
      let summary = SampleSummary(samples: measurement.samples)
      var reference: String?
      if let baseline = summaries[scenario.baselineVariantID], baseline.unit == measurement.unit {
        reference = scenario.baselineVariantID
      } else {
        reference = firstOfUnit[measurement.unit]
      }
      var ratio: Double?
      if let reference, let referenceMedian = summaries[reference]?.median, referenceMedian > 0 {
        let value = summary.median / referenceMedian
        ratio = value.isFinite ? value : nil
      }
      let allocations = measurement.allocationsPerOperation.flatMap { $0.isFinite ? $0 : nil }
      entries.append(
        .measured(
          VariantResult(
            scenario: scenario.id, variant: variant.id, unit: measurement.unit, summary: summary,
            ratioToBaseline: ratio, ratioReference: ratio == nil ? nil : reference,
            allocationsPerOperation: allocations, operationsPerSample: measurement.operationsPerSample,
            isBaseline: variant.id == scenario.baselineVariantID, targets: variant.targets)))
    }
    return ScenarioReport(
      id: scenario.id, summary: scenario.summary, baselineVariantID: scenario.baselineVariantID, entries: entries)
  }
}

/// A whole run: the machine and every scenario's report.
package struct BenchReport: Equatable, Sendable {
  /// Where and how the run happened.
  package var machine: MachineInfo
  /// The configuration's name (`full` or `quick`).
  package var configurationName: String
  /// The scenarios, in registry order.
  package var scenarios: [ScenarioReport]

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - machine: Where and how the run happened.
  ///   - configurationName: `full`, `quick`, or another name.
  ///   - scenarios: The scenario reports.
  package init(machine: MachineInfo, configurationName: String, scenarios: [ScenarioReport]) {
    self.machine = machine
    self.configurationName = configurationName
    self.scenarios = scenarios
  }

  /// Every measured variant, scenario by scenario.
  package var results: [VariantResult] { scenarios.flatMap(\.results) }

  /// Every skipped variant, scenario by scenario.
  package var skipped: [SkippedVariant] { scenarios.flatMap(\.skipped) }
}
