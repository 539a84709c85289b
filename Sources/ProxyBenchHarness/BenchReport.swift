/// The figures of one measured variant, as reported.
package struct VariantResult: Equatable, Sendable {
  /// The scenario id.
  package var scenario: String
  /// The variant id.
  package var variant: String
  /// The group id (the scenario id for the scenario's main group).
  package var group: String
  /// The id of the group's baseline variant, which `ratioToBaseline` is relative to.
  package var groupBaseline: String
  /// Product or harness self-check (from the scenario).
  package var kind: Scenario.Kind
  /// The unit of `summary`.
  package var unit: ResultUnit
  /// Median, p10 and p90 of the samples.
  package var summary: SampleSummary
  /// Median divided by the group baseline's median, or `nil` when the baseline was not measured or
  /// has another unit.
  package var ratioToBaseline: Double?
  /// Allocations per operation, or `nil` when allocations are not counted.
  package var allocationsPerOperation: Double?
  /// Operations timed per sample (0 for custom measurements).
  package var operationsPerSample: Int
  /// Whether this variant is its group's baseline.
  package var isBaseline: Bool
  /// The targets checked against this result.
  package var targets: [PerformanceTarget]
  /// How many times the variant was measured; the figures are the best of them (`--repeat`).
  package var repeats: Int

  /// Creates a result; ``ScenarioReport/build(scenario:outcomes:)`` makes these from measurements.
  package init(
    scenario: String, variant: String, group: String? = nil, groupBaseline: String, kind: Scenario.Kind = .product,
    unit: ResultUnit, summary: SampleSummary, ratioToBaseline: Double?, allocationsPerOperation: Double?,
    operationsPerSample: Int, isBaseline: Bool, targets: [PerformanceTarget], repeats: Int = 1
  ) {
    self.scenario = scenario
    self.variant = variant
    self.group = group ?? scenario
    self.groupBaseline = groupBaseline
    self.kind = kind
    self.unit = unit
    self.summary = summary
    self.ratioToBaseline = ratioToBaseline
    self.allocationsPerOperation = allocationsPerOperation
    self.operationsPerSample = operationsPerSample
    self.isBaseline = isBaseline
    self.targets = targets
    self.repeats = repeats
  }

  /// Every target's verdict: `true` when all are met, `false` when any is
  /// missed, `nil` when there are no targets or a needed figure is missing.
  package var targetsMet: Bool? {
    guard !targets.isEmpty else { return nil }
    var allMet = true
    for target in targets {
      let verdict = target.isMet(ratio: ratioToBaseline, allocationsPerOperation: allocationsPerOperation)
      guard let verdict else { return nil }
      allMet = allMet && verdict
    }
    return allMet
  }

  /// The targets as one label, e.g. `≤1.25× base, 0 allocs`; empty without targets.
  package var targetLabel: String {
    targets.map(\.label).joined(separator: ", ")
  }

  /// The p10–p90 spread relative to the median, e.g. `0.04` for ±2 %.
  package var relativeSpread: Double {
    NoiseCheck.relativeSpread(summary)
  }

  /// Whether the row's spread passes ``NoiseCheck/rowSpreadLimit``.
  package var isNoisy: Bool {
    relativeSpread > NoiseCheck.rowSpreadLimit
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
  /// The main group's baseline variant id.
  package var baselineVariantID: String
  /// Product or harness self-check.
  package var kind: Scenario.Kind
  /// How the variant ids are built, if they encode parameters.
  package var naming: String?
  /// The selected variants, in the scenario's order.
  package var entries: [Entry]

  /// Creates a scenario report.
  package init(
    id: String, summary: String, baselineVariantID: String, kind: Scenario.Kind = .product, naming: String? = nil,
    entries: [Entry]
  ) {
    self.id = id
    self.summary = summary
    self.baselineVariantID = baselineVariantID
    self.kind = kind
    self.naming = naming
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
  /// A variant's ratio is relative to its group's baseline, and only when both share a unit.
  ///
  /// - Parameters:
  ///   - scenario: The scenario.
  ///   - outcomes: Each selected variant with its measurement (`nil` = unavailable).
  ///   - repeats: How many times each variant was measured.
  /// - Returns: The report.
  package static func build(
    scenario: Scenario, outcomes: [(variant: Variant, measurement: BenchRunner.Measurement?)], repeats: Int = 1
  ) -> ScenarioReport {
    var summaries: [String: (unit: ResultUnit, median: Double)] = [:]
    for outcome in outcomes {
      guard let measurement = outcome.measurement else { continue }
      summaries[outcome.variant.id] = (measurement.unit, SampleSummary(samples: measurement.samples).median)
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
      let group = scenario.groupID(of: variant)
      let baseline = scenario.baselineID(ofGroup: group)
      var ratio: Double?
      if let reference = summaries[baseline], reference.unit == measurement.unit, reference.median > 0 {
        let value = summary.median / reference.median
        ratio = value.isFinite ? value : nil
      }
      let allocations = measurement.allocationsPerOperation.flatMap { $0.isFinite ? $0 : nil }
      entries.append(
        .measured(
          VariantResult(
            scenario: scenario.id, variant: variant.id, group: group, groupBaseline: baseline, kind: scenario.kind,
            unit: measurement.unit, summary: summary, ratioToBaseline: ratio, allocationsPerOperation: allocations,
            operationsPerSample: measurement.operationsPerSample, isBaseline: variant.id == baseline,
            targets: variant.targets, repeats: repeats)))
    }
    return ScenarioReport(
      id: scenario.id, summary: scenario.summary, baselineVariantID: scenario.baselineVariantID, kind: scenario.kind,
      naming: scenario.naming, entries: entries)
  }
}

/// A whole run: the machine, its load, and every scenario's report.
package struct BenchReport: Equatable, Sendable {
  /// Where and how the run happened.
  package var machine: MachineInfo
  /// The configuration's name (`full` or `quick`).
  package var configurationName: String
  /// How many times each variant was measured (`--repeat`); figures are the best of them.
  package var repeats: Int
  /// The machine's load before and during the run, when it could be read.
  package var load: MachineLoad?
  /// The scenarios, in registry order.
  package var scenarios: [ScenarioReport]

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - machine: Where and how the run happened.
  ///   - configurationName: `full`, `quick`, or another name.
  ///   - repeats: How many times each variant was measured.
  ///   - load: The machine's load, or `nil` when it could not be read.
  ///   - scenarios: The scenario reports.
  package init(
    machine: MachineInfo, configurationName: String, repeats: Int = 1, load: MachineLoad? = nil,
    scenarios: [ScenarioReport]
  ) {
    self.machine = machine
    self.configurationName = configurationName
    self.repeats = repeats
    self.load = load
    self.scenarios = scenarios
  }

  /// Every measured variant, scenario by scenario.
  package var results: [VariantResult] { scenarios.flatMap(\.results) }

  /// Every skipped variant, scenario by scenario.
  package var skipped: [SkippedVariant] { scenarios.flatMap(\.skipped) }

  /// The noise verdict of the run.
  package var noise: NoiseVerdict {
    NoiseCheck.verdict(results: results, load: load, cores: machine.cores)
  }

  /// Target verdicts of one kind: how many variants with targets met them all, out of how many were judged.
  ///
  /// - Parameter kind: Product or harness self-check.
  /// - Returns: Met and judged counts.
  package func targetCounts(_ kind: Scenario.Kind) -> (met: Int, judged: Int) {
    let judged = results.filter { $0.kind == kind }.compactMap(\.targetsMet)
    return (judged.filter { $0 }.count, judged.count)
  }

  /// The summary line, e.g. `product targets: 9 of 14 met; harness self-checks: 5 of 5 met; noise: quiet`.
  package var summaryLine: String {
    let product = targetCounts(.product)
    let harness = targetCounts(.harnessSelfCheck)
    var line = "product targets: \(product.met) of \(product.judged) met"
    if harness.judged > 0 { line += "; harness self-checks: \(harness.met) of \(harness.judged) met" }
    line += "; noise: \(noise.summary)"
    return line
  }
}
