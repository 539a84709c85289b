import ProxyBenchHarness

/// Every scenario `proxy-bench` knows, in report order.
///
/// To add a scenario: write `func myScenario() -> Scenario` in its own file
/// under `Scenarios/`, add it to ``all()``, and add its `scenario/variant`
/// lines to `.ci/bench-expected.txt` once it measures something.
@MainActor
enum ScenarioRegistry {
  /// The scenarios, in report order.
  static func all() -> [Scenario] {
    [
      harnessScenario(),
      typedForwardingScenario(),
      asyncForwardingScenario(),
      dispatchModelScenario(),
      installScenario(),
      hookCountScenario(),
      autoTrackScenario(),
    ]
  }
}
