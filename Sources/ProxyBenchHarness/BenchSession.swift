import DelegateProxyKitSupport

/// Runs the selected scenarios one variant at a time, reporting progress.
///
/// A group's baseline, and every variant the harness cannot interleave with it (custom
/// measurements, or a rate against a time), is measured on its own. Every other variant is measured in rounds alternating with its group's
/// baseline (``BenchRunner/measurePair(_:against:seed:)``): its own figures are its side of those
/// rounds and its ratio the rounds' median. A target naming another variant gets rounds of its own
/// against that variant.
@MainActor
package struct BenchSession {
  /// The runner that measures each variant.
  package var runner: BenchRunner
  /// Receives one progress line per variant (the command sends them to stderr).
  package var progress: (String) -> Void
  /// How many times each variant is measured; the best measurement is kept (`--repeat`).
  package var repeats: Int

  /// Creates a session.
  ///
  /// - Parameters:
  ///   - runner: The runner that measures each variant.
  ///   - repeats: How many times to measure each variant; at least 1.
  ///   - progress: Receives one line per variant.
  package init(runner: BenchRunner, repeats: Int = 1, progress: @escaping (String) -> Void) {
    precondition(repeats >= 1, "at least one repetition")
    self.runner = runner
    self.repeats = repeats
    self.progress = progress
  }

  /// The best of several measurements of one variant: the lowest median for a cost, the highest for
  /// a rate (`higherIsBetter`). Each measurement keeps its own samples, so the best one's p10 and p90
  /// stay its own.
  ///
  /// - Parameter measurements: At least one measurement, all in one unit.
  /// - Returns: The best one.
  package static func best(of measurements: [BenchRunner.Measurement]) -> BenchRunner.Measurement {
    precondition(!measurements.isEmpty, "best of no measurements")
    let medians = measurements.map { SampleSummary(samples: $0.samples).median }
    var bestIndex = 0
    for index in medians.indices.dropFirst() {
      let better =
        measurements[index].unit.higherIsBetter
        ? medians[index] > medians[bestIndex] : medians[index] < medians[bestIndex]
      if better { bestIndex = index }
    }
    return measurements[bestIndex]
  }

  /// Measures every selected variant.
  ///
  /// - Parameter selection: The scenarios and variants to measure, from ``ScenarioSelection/apply(to:)``.
  /// - Returns: One report per scenario, in order.
  package func run(_ selection: [(scenario: Scenario, variants: [Variant])]) -> [ScenarioReport] {
    let total = selection.reduce(0) { $0 + $1.variants.count }
    let width = String(total).count
    var index = 0
    return selection.map { scenario, variants in
      var outcomes: [(variant: Variant, measurement: BenchRunner.Measurement?)] = []
      var pairedRatios: [String: [String: RatioEstimate]] = [:]
      for variant in variants {
        index += 1
        let counter = "[\(String(repeating: " ", count: width - String(index).count))\(index)/\(total)]"
        let name = "\(scenario.id)/\(variant.id)"
        let started = runner.environment.now()
        let baselineID = scenario.baselineID(ofGroup: scenario.groupID(of: variant))
        var measurement: BenchRunner.Measurement?
        var ratios: [String: RatioEstimate] = [:]
        if variant.id != baselineID, let baseline = pairable(baselineID, for: variant, in: scenario) {
          let paired = measurePaired(variant, against: baseline, name: name)
          measurement = paired.measurement
          ratios[baselineID] = paired.estimate
        } else {
          measurement = measureAlone(variant)
        }
        if measurement != nil {
          for reference in variant.targets.compactMap(\.referenceVariant)
          where reference != baselineID && ratios[reference] == nil {
            guard let other = pairable(reference, for: variant, in: scenario) else { continue }
            ratios[reference] = measurePaired(variant, against: other, name: name).estimate
          }
        }
        pairedRatios[variant.id] = ratios
        let seconds = Double(runner.environment.now() &- started) / 1e9
        if let measurement {
          progress("\(counter) \(name): " + describe(measurement, ratios: ratios, seconds: seconds))
        } else {
          var note = "not measured"
          if case .unavailable(let reason) = variant.body { note = reason }
          progress("\(counter) \(name): skipped, \(note)")
        }
        outcomes.append((variant, measurement))
      }
      return ScenarioReport.build(scenario: scenario, outcomes: outcomes, pairedRatios: pairedRatios, repeats: repeats)
    }
  }

  /// The variant `id` of `scenario` when it and `variant` can be interleaved with each other.
  private func pairable(_ id: String, for variant: Variant, in scenario: Scenario) -> Variant? {
    guard let other = scenario.variants.first(where: { $0.id == id }), runner.canPair(variant, with: other)
    else { return nil }
    return other
  }

  /// A variant measured on its own, `repeats` times, keeping the best.
  private func measureAlone(_ variant: Variant) -> BenchRunner.Measurement? {
    guard let first = runner.measure(variant) else { return nil }
    guard repeats > 1 else { return first }
    var all = [first]
    for _ in 1..<repeats { if let again = runner.measure(variant) { all.append(again) } }
    return BenchSession.best(of: all)
  }

  /// A variant interleaved with `reference`, `repeats` times: the variant's best side, and the
  /// estimate over every round of every repetition.
  private func measurePaired(
    _ variant: Variant, against reference: Variant, name: String
  ) -> (measurement: BenchRunner.Measurement?, estimate: RatioEstimate?) {
    let seed = SplitMix64.seed(runner.configuration.pairingSeed, mixedWith: "\(name)~\(reference.id)")
    var sides: [BenchRunner.Measurement] = []
    var ratios: [Double] = []
    for repetition in 0..<repeats {
      guard
        let paired = runner.measurePair(
          variant, against: reference, seed: SplitMix64.seed(seed, mixedWith: String(repetition)))
      else { break }
      sides.append(paired.variant)
      ratios += paired.roundRatios
    }
    return (
      sides.isEmpty ? nil : BenchSession.best(of: sides),
      ratios.isEmpty ? nil : RatioEstimate(reference: reference.id, roundRatios: ratios)
    )
  }

  private func describe(
    _ measurement: BenchRunner.Measurement, ratios: [String: RatioEstimate], seconds: Double
  ) -> String {
    let summary = SampleSummary(samples: measurement.samples)
    let noisy = NoiseCheck.relativeSpread(summary) > NoiseCheck.rowSpreadLimit ? " noisy" : ""
    let allocations = ValueFormatter.allocations(measurement.allocationsPerOperation)
    var line = "\(ValueFormatter.measured(summary.median)) \(measurement.unit.symbol)"
    line += " (p10 \(ValueFormatter.measured(summary.p10)), p90 \(ValueFormatter.measured(summary.p90)))"
    for estimate in ratios.values.sorted(by: { $0.reference < $1.reference }) {
      line += ", \(ValueFormatter.ratio(estimate.median))× \(estimate.reference) (IQR \(estimate.spreadLabel)"
      line += ", \(estimate.rounds) rounds)"
    }
    return line + ", \(allocations) allocs/op [\(ValueFormatter.ratio(seconds)) s]\(noisy)"
  }
}
