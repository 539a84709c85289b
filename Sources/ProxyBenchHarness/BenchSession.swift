/// Runs the selected scenarios one variant at a time, reporting progress.
@MainActor
package struct BenchSession {
  /// The runner that measures each variant.
  package var runner: BenchRunner
  /// Receives one progress line per variant (the command sends them to stderr).
  package var progress: (String) -> Void

  /// Creates a session.
  ///
  /// - Parameters:
  ///   - runner: The runner that measures each variant.
  ///   - progress: Receives one line per variant.
  package init(runner: BenchRunner, progress: @escaping (String) -> Void) {
    self.runner = runner
    self.progress = progress
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
        let measurement = runner.measure(variant)
        let seconds = Double(runner.environment.now() &- started) / 1e9
        if let measurement {
          let summary = SampleSummary(samples: measurement.samples)
          let allocations = ValueFormatter.allocations(measurement.allocationsPerOperation)
          progress(
            "\(counter) \(name): \(ValueFormatter.measured(summary.median)) \(measurement.unit.symbol)"
              + " (p10 \(ValueFormatter.measured(summary.p10)), p90 \(ValueFormatter.measured(summary.p90)))"
              + ", \(allocations) allocs/op [\(ValueFormatter.ratio(seconds)) s]")
        } else {
          var note = "not measured"
          if case .unavailable(let reason) = variant.body { note = reason }
          progress("\(counter) \(name): skipped, \(note)")
        }
        outcomes.append((variant, measurement))
      }
      return ScenarioReport.build(scenario: scenario, outcomes: outcomes)
    }
  }
}
