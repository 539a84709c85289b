/// Runs the selected scenarios one variant at a time, reporting progress.
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
      for variant in variants {
        index += 1
        let counter = "[\(String(repeating: " ", count: width - String(index).count))\(index)/\(total)]"
        let name = "\(scenario.id)/\(variant.id)"
        let started = runner.environment.now()
        var measurement = runner.measure(variant)
        if let first = measurement, repeats > 1 {
          var all = [first]
          for _ in 1..<repeats { if let again = runner.measure(variant) { all.append(again) } }
          measurement = BenchSession.best(of: all)
        }
        let seconds = Double(runner.environment.now() &- started) / 1e9
        if let measurement {
          let summary = SampleSummary(samples: measurement.samples)
          let noisy = NoiseCheck.relativeSpread(summary) > NoiseCheck.rowSpreadLimit ? " noisy" : ""
          let allocations = ValueFormatter.allocations(measurement.allocationsPerOperation)
          progress(
            "\(counter) \(name): \(ValueFormatter.measured(summary.median)) \(measurement.unit.symbol)"
              + " (p10 \(ValueFormatter.measured(summary.p10)), p90 \(ValueFormatter.measured(summary.p90)))"
              + ", \(allocations) allocs/op [\(ValueFormatter.ratio(seconds)) s]\(noisy)")
        } else {
          var note = "not measured"
          if case .unavailable(let reason) = variant.body { note = reason }
          progress("\(counter) \(name): skipped, \(note)")
        }
        outcomes.append((variant, measurement))
      }
      return ScenarioReport.build(scenario: scenario, outcomes: outcomes, repeats: repeats)
    }
  }
}
