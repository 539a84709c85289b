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
  /// The ratio to the group baseline: the median of paired rounds with its spread, or an unpaired
  /// estimate; `nil` when the baseline was not measured or has another unit. A baseline's own is
  /// ``RatioEstimate/identity(_:)``.
  package var baselineRatio: RatioEstimate?
  /// Ratios to the variants that targets name (``PerformanceTarget/ratioToVariantAtMost(_:_:)``),
  /// one per named variant that was measured in the same unit.
  package var variantRatios: [RatioEstimate]
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

  /// Creates a result; ``ScenarioReport/build(scenario:outcomes:repeats:)`` makes these from measurements.
  package init(
    scenario: String, variant: String, group: String? = nil, groupBaseline: String, kind: Scenario.Kind = .product,
    unit: ResultUnit, summary: SampleSummary, baselineRatio: RatioEstimate?, variantRatios: [RatioEstimate] = [],
    allocationsPerOperation: Double?, operationsPerSample: Int, isBaseline: Bool, targets: [PerformanceTarget],
    repeats: Int = 1
  ) {
    self.scenario = scenario
    self.variant = variant
    self.group = group ?? scenario
    self.groupBaseline = groupBaseline
    self.kind = kind
    self.unit = unit
    self.summary = summary
    self.baselineRatio = baselineRatio
    self.variantRatios = variantRatios
    self.allocationsPerOperation = allocationsPerOperation
    self.operationsPerSample = operationsPerSample
    self.isBaseline = isBaseline
    self.targets = targets
    self.repeats = repeats
  }

  /// The median ratio to the group baseline, or `nil` when unknown.
  package var ratioToBaseline: Double? { baselineRatio?.median }

  /// The ratio `target` is judged by: to the group baseline, or to the variant it names.
  ///
  /// - Parameter target: One of ``targets``.
  /// - Returns: The estimate, or `nil` for an allocation target or an unmeasured reference.
  package func ratio(for target: PerformanceTarget) -> RatioEstimate? {
    guard let reference = target.reference(groupBaseline: groupBaseline) else { return nil }
    if reference == groupBaseline { return baselineRatio }
    return variantRatios.first { $0.reference == reference }
  }

  /// The verdict on one target, or `nil` when a figure it needs is missing.
  ///
  /// - Parameter target: One of ``targets``.
  /// - Returns: Met, missed or undecided.
  package func verdict(for target: PerformanceTarget) -> TargetVerdict? {
    target.verdict(ratio: ratio(for: target), allocationsPerOperation: allocationsPerOperation)
  }

  /// Every target's verdict combined (``TargetVerdict/combining(_:)``): `nil` when there are no
  /// targets or a needed figure is missing.
  package var targetVerdict: TargetVerdict? {
    guard !targets.isEmpty else { return nil }
    var verdicts: [TargetVerdict] = []
    for target in targets {
      guard let verdict = verdict(for: target) else { return nil }
      verdicts.append(verdict)
    }
    return TargetVerdict.combining(verdicts)
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
  /// A variant's ratio to its group's baseline, and to each variant its targets name, is the paired
  /// estimate from `pairedRatios` when there is one, and otherwise the unpaired estimate of the two
  /// sample sets, only when both share a unit.
  ///
  /// - Parameters:
  ///   - scenario: The scenario.
  ///   - outcomes: Each selected variant with its measurement (`nil` = unavailable).
  ///   - pairedRatios: Paired estimates by variant id, each keyed by its reference's id.
  ///   - repeats: How many times each variant was measured.
  /// - Returns: The report.
  package static func build(
    scenario: Scenario, outcomes: [(variant: Variant, measurement: BenchRunner.Measurement?)],
    pairedRatios: [String: [String: RatioEstimate]] = [:], repeats: Int = 1
  ) -> ScenarioReport {
    var measured: [String: BenchRunner.Measurement] = [:]
    for outcome in outcomes {
      if let measurement = outcome.measurement { measured[outcome.variant.id] = measurement }
    }
    var entries: [Entry] = []
    for (variant, measurement) in outcomes {
      guard let measurement else {
        let note: String
        if case .unavailable(let reason) = variant.body { note = reason } else { note = "not measured" }
        entries.append(.skipped(SkippedVariant(scenario: scenario.id, variant: variant.id, note: note)))
        continue
      }
      let group = scenario.groupID(of: variant)
      let baseline = scenario.baselineID(ofGroup: group)
      func estimate(against reference: String) -> RatioEstimate? {
        if let paired = pairedRatios[variant.id]?[reference] { return paired }
        guard let other = measured[reference], other.unit == measurement.unit else { return nil }
        return RatioEstimate(reference: reference, samples: measurement.samples, referenceSamples: other.samples)
      }
      let baselineRatio = variant.id == baseline ? RatioEstimate.identity(baseline) : estimate(against: baseline)
      var references: [String] = []
      for reference in variant.targets.compactMap(\.referenceVariant) where !references.contains(reference) {
        references.append(reference)
      }
      let allocations = measurement.allocationsPerOperation.flatMap { $0.isFinite ? $0 : nil }
      entries.append(
        .measured(
          VariantResult(
            scenario: scenario.id, variant: variant.id, group: group, groupBaseline: baseline, kind: scenario.kind,
            unit: measurement.unit, summary: SampleSummary(samples: measurement.samples), baselineRatio: baselineRatio,
            variantRatios: references.compactMap(estimate(against:)), allocationsPerOperation: allocations,
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
  /// How ratios were measured: rounds, their length and the seed of their order.
  package var pairing: PairingSettings
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
  ///   - pairing: How ratios were measured.
  ///   - load: The machine's load, or `nil` when it could not be read.
  ///   - scenarios: The scenario reports.
  package init(
    machine: MachineInfo, configurationName: String, repeats: Int = 1, pairing: PairingSettings,
    load: MachineLoad? = nil, scenarios: [ScenarioReport]
  ) {
    self.machine = machine
    self.configurationName = configurationName
    self.repeats = repeats
    self.pairing = pairing
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

  /// Target verdicts of one kind: how many variants with targets met them all, missed one, or were
  /// undecided, out of how many were judged.
  ///
  /// - Parameter kind: Product or harness self-check.
  /// - Returns: The counts.
  package func targetCounts(_ kind: Scenario.Kind) -> TargetCounts {
    let verdicts = results.filter { $0.kind == kind }.compactMap(\.targetVerdict)
    return TargetCounts(
      met: verdicts.filter { $0 == .met }.count, missed: verdicts.filter { $0 == .missed }.count,
      undecided: verdicts.filter { $0 == .undecided }.count)
  }

  /// The summary line, e.g. `product targets: 9 met, 3 missed, 2 undecided of 14; harness self-checks: 5 met,
  /// 0 missed, 0 undecided of 5; noise: quiet`.
  package var summaryLine: String {
    let harness = targetCounts(.harnessSelfCheck)
    var line = "product targets: \(targetCounts(.product).text)"
    if harness.judged > 0 { line += "; harness self-checks: \(harness.text)" }
    line += "; noise: \(noise.summary)"
    return line
  }
}

/// How many variants' targets were met, missed or undecided.
package struct TargetCounts: Equatable, Sendable {
  /// Variants whose targets were all met.
  package var met: Int
  /// Variants with a missed target.
  package var missed: Int
  /// Variants with an undecided target and none missed.
  package var undecided: Int

  /// Creates counts.
  package init(met: Int, missed: Int, undecided: Int) {
    self.met = met
    self.missed = missed
    self.undecided = undecided
  }

  /// Variants judged: met, missed or undecided.
  package var judged: Int { met + missed + undecided }

  /// The counts in words, e.g. `9 met, 3 missed, 2 undecided of 14`.
  package var text: String {
    "\(met) met, \(missed) missed, \(undecided) undecided of \(judged)"
  }
}

/// How a run measured its ratios, for the reports.
package struct PairingSettings: Equatable, Sendable {
  /// Paired rounds of two timed loops, per repetition.
  package var rounds: Int
  /// Paired rounds involving a prepared batch, per repetition.
  package var batchRounds: Int
  /// The time each side of a round of timed loops aims to last.
  package var roundNanoseconds: UInt64
  /// The seed of the rounds' order (`--seed`).
  package var seed: UInt64

  /// The settings of a configuration.
  ///
  /// - Parameter configuration: The run's configuration.
  package init(_ configuration: BenchConfiguration) {
    rounds = configuration.roundCount
    batchRounds = configuration.batchRoundCount
    roundNanoseconds = configuration.roundNanoseconds
    seed = configuration.pairingSeed
  }

  /// The method in one sentence, for the table, the README and `--help`.
  package var sentence: String {
    "each ratio is the median of \(rounds) paired rounds (\(batchRounds) for prepared batches) of about"
      + " \(ValueFormatter.compact(Double(roundNanoseconds) / 1e6)) ms a side, the two sides in an order drawn"
      + " with seed \(seed); a target is met or missed when the ratio's interquartile range is wholly on one"
      + " side of its limit, undecided when the range straddles it"
  }
}
