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
    targets: [PerformanceTarget] = [], unit: ResultUnit = .nanosecondsPerOperation
  ) -> VariantResult {
    VariantResult(
      scenario: "demo", variant: variant, unit: unit,
      summary: SampleSummary(median: median, p10: median * 0.9, p90: median * 1.1, count: 5),
      ratioToBaseline: ratio, ratioReference: ratio == nil ? nil : "base", allocationsPerOperation: 0,
      operationsPerSample: 100, isBaseline: baseline, targets: targets)
  }

  static func report() -> BenchReport {
    let scenario = ScenarioReport(
      id: "demo", summary: "a & b < c", baselineVariantID: "base",
      entries: [
        .measured(result("base", median: 1, baseline: true, ratio: 1)),
        .measured(result("fast", median: 1.1, ratio: 1.1, targets: [.ratioToBaselineAtMost(1.25)])),
        .measured(result("slow", median: 90, ratio: 90, targets: [.ratioToBaselineAtMost(2)])),
        .skipped(SkippedVariant(scenario: "demo", variant: "later", note: "not yet available: \"soon\"")),
      ])
    return BenchReport(machine: machine, configurationName: "quick", scenarios: [scenario])
  }
}
