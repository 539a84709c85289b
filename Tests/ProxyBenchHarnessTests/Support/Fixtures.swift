import ProxyBenchHarness

/// A clock that only moves when a test advances it.
@MainActor
final class FakeClock {
  var nanoseconds: UInt64 = 0
  var allocations: UInt64 = 0

  var environment: MeasurementEnvironment {
    MeasurementEnvironment(now: { self.nanoseconds }, allocationCount: { self.allocations }, liveBytes: { 0 })
  }
}

enum Fixtures {
  static let machine = MachineInfo(
    cpu: "Test CPU <x86>", cores: 2, os: "TestOS", swiftVersion: "6.3", buildConfiguration: "release",
    date: "2026-01-01T00:00:00Z", allocationCounting: true)

  static let tiny = BenchConfiguration(
    name: "test", warmupNanoseconds: 1_000, sampleNanoseconds: 10_000, sampleCount: 5, batchSampleCount: 3)

  static func result(
    _ variant: String, median: Double, baseline: Bool = false, ratio: Double? = nil,
    targets: [PerformanceTarget] = [], unit: ResultUnit = .nanosecondsPerOperation, spread: Double = 0.1,
    kind: Scenario.Kind = .product, group: String? = nil
  ) -> VariantResult {
    VariantResult(
      scenario: "demo", variant: variant, group: group, groupBaseline: "base", kind: kind, unit: unit,
      summary: SampleSummary(median: median, p10: median * (1 - spread / 2), p90: median * (1 + spread / 2), count: 5),
      ratioToBaseline: ratio, allocationsPerOperation: 0, operationsPerSample: 100, isBaseline: baseline,
      targets: targets)
  }

  static func report() -> BenchReport {
    let scenario = ScenarioReport(
      id: "demo", summary: "a & b < c", baselineVariantID: "base",
      entries: [
        .measured(result("base", median: 1, baseline: true, ratio: 1)),
        .measured(result("fast", median: 1.1, ratio: 1.1, targets: [.ratioToBaselineAtMost(1.25)])),
        .measured(result("slow", median: 90, ratio: 90, targets: [.ratioToBaselineAtMost(2)], spread: 0.5)),
        .skipped(SkippedVariant(scenario: "demo", variant: "later", note: "not yet available: \"soon\"")),
      ])
    let harness = ScenarioReport(
      id: "self", summary: "harness", baselineVariantID: "base", kind: .harnessSelfCheck,
      entries: [
        .measured(
          result(
            "check", median: 1, targets: [.allocationsPerOperationAtMost(0)], kind: .harnessSelfCheck, group: "self"))
      ])
    return BenchReport(
      machine: machine, configurationName: "quick", repeats: 3,
      load: MachineLoad(loadAverageBefore: 0.2, otherLoadBefore: 0.1, otherLoadDuring: 0.1),
      scenarios: [scenario, harness])
  }
}
