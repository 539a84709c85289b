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

  /// A paired estimate around `median`: quartiles `median ± halfSpread`, extremes twice as far.
  static func estimate(_ median: Double, halfSpread: Double = 0.02, reference: String = "base") -> RatioEstimate {
    RatioEstimate(
      reference: reference, median: median, lowerQuartile: median - halfSpread, upperQuartile: median + halfSpread,
      minimum: median - 2 * halfSpread, maximum: median + 2 * halfSpread, rounds: 11)
  }

  static func result(
    _ variant: String, median: Double, baseline: Bool = false, ratio: Double? = nil, ratioHalfSpread: Double = 0.02,
    variantRatios: [RatioEstimate] = [], targets: [PerformanceTarget] = [], unit: ResultUnit = .nanosecondsPerOperation,
    spread: Double = 0.1, kind: Scenario.Kind = .product, group: String? = nil
  ) -> VariantResult {
    VariantResult(
      scenario: "demo", variant: variant, group: group, groupBaseline: "base", kind: kind, unit: unit,
      summary: SampleSummary(median: median, p10: median * (1 - spread / 2), p90: median * (1 + spread / 2), count: 5),
      baselineRatio: baseline ? .identity("base") : ratio.map { estimate($0, halfSpread: ratioHalfSpread) },
      variantRatios: variantRatios, allocationsPerOperation: 0, operationsPerSample: 100, isBaseline: baseline,
      targets: targets)
  }

  static func report() -> BenchReport {
    let scenario = ScenarioReport(
      id: "demo", summary: "a & b < c", baselineVariantID: "base",
      entries: [
        .measured(result("base", median: 1, baseline: true, ratio: 1)),
        .measured(result("fast", median: 1.1, ratio: 1.1, targets: [.ratioToBaselineAtMost(1.25)])),
        .measured(result("slow", median: 90, ratio: 90, targets: [.ratioToBaselineAtMost(2)], spread: 0.5)),
        .measured(
          result("close", median: 1.24, ratio: 1.24, ratioHalfSpread: 0.03, targets: [.ratioToBaselineAtMost(1.25)])),
        .measured(
          result(
            "generated", median: 1.12, ratio: 1.12, variantRatios: [estimate(1.02, reference: "fast")],
            targets: [.ratioToVariantAtMost("fast", 1.05)])),
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
      machine: machine, configurationName: "quick", repeats: 3, pairing: PairingSettings(tiny),
      load: MachineLoad(loadAverageBefore: 0.2, otherLoadBefore: 0.1, otherLoadDuring: 0.1),
      scenarios: [scenario, harness])
  }
}
