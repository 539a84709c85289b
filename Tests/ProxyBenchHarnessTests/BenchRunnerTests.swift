import ProxyBenchHarness
import Testing

@MainActor
@Suite struct BenchRunnerTests {
  @Test func timedLoopReportsNanosecondsPerIterationAndAllocations() throws {
    let clock = FakeClock()
    let runner = BenchRunner(configuration: Fixtures.tiny, environment: clock.environment)
    let variant = Variant(
      id: "loop",
      body: .timedLoop {
        return { iterations in
          clock.nanoseconds += UInt64(3 * iterations)
          clock.allocations += UInt64(2 * iterations)
        }
      })
    let measurement = try #require(runner.measure(variant))
    #expect(measurement.unit == .nanosecondsPerOperation)
    #expect(measurement.samples.count == Fixtures.tiny.sampleCount)
    #expect(measurement.samples.allSatisfy { $0 == 3 })
    #expect(measurement.allocationsPerOperation == 2)
  }

  @Test func aSettledLoopSettlesAfterEveryRunAndOutsideTheTiming() throws {
    let clock = FakeClock()
    let runner = BenchRunner(configuration: Fixtures.tiny, environment: clock.environment)
    var runs = 0
    var settles = 0
    var unsettledRuns = 0
    let variant = Variant(
      id: "settled",
      body: .settledLoop {
        SettledLoop(
          run: { iterations in
            if runs != settles { unsettledRuns += 1 }
            runs += 1
            clock.nanoseconds += UInt64(3 * iterations)
            clock.allocations += UInt64(iterations)
          },
          settle: {
            settles += 1
            clock.nanoseconds += 1_000_000  // the other threads' work: never timed
            clock.allocations += 1_000
          })
      })
    let measurement = try #require(runner.measure(variant))
    #expect(measurement.samples == Array(repeating: 3, count: Fixtures.tiny.sampleCount))
    #expect(measurement.allocationsPerOperation == 1)
    // Calibration, warm-up and samples: each run was settled before the next.
    #expect(runs > Fixtures.tiny.sampleCount)
    #expect(settles == runs)
    #expect(unsettledRuns == 0)
  }

  @Test func calibrationFillsTheSampleBudget() {
    let clock = FakeClock()
    let runner = BenchRunner(configuration: Fixtures.tiny, environment: clock.environment)
    let iterations = runner.calibrate { clock.nanoseconds += UInt64(2 * $0) }
    // 10,000 ns budget at 2 ns per iteration.
    #expect(iterations == 5_000)
  }

  @Test func onePreemptedTimingDoesNotCutCalibrationShort() {
    let clock = FakeClock()
    let runner = BenchRunner(configuration: Fixtures.tiny, environment: clock.environment)
    var calls = 0
    let iterations = runner.calibrate { iterations in
      calls += 1
      // 2 ns per iteration; the fourth run (40 iterations) is preempted for 5 µs, which alone would pass
      // a tenth of the 10 µs budget and scale 40 iterations up to only 79.
      clock.nanoseconds += UInt64(2 * iterations) + (calls == 4 ? 5_000 : 0)
    }
    #expect(iterations == 5_000)
  }

  @Test func calibrationStopsAtTheIterationCap() {
    let clock = FakeClock()
    var configuration = Fixtures.tiny
    configuration.maxIterationsPerSample = 1_000
    let runner = BenchRunner(configuration: configuration, environment: clock.environment)
    #expect(runner.calibrate { _ in } == 1_000)
  }

  @Test func preparedBatchTimesOnlyTheBatch() throws {
    let clock = FakeClock()
    let runner = BenchRunner(configuration: Fixtures.tiny, environment: clock.environment)
    var preparations = 0
    let variant = Variant(
      id: "batch",
      body: .preparedBatch(operations: 10) {
        preparations += 1
        clock.nanoseconds += 1_000_000  // untimed setup
        clock.allocations += 500
        return {
          clock.nanoseconds += 50
          clock.allocations += 10
        }
      })
    let measurement = try #require(runner.measure(variant))
    #expect(measurement.samples == [5, 5, 5])
    #expect(measurement.allocationsPerOperation == 1)
    #expect(preparations == Fixtures.tiny.batchSampleCount + 1)
  }

  @Test func preparedRateBatchReportsOperationsPerSecondOfTheBatchAlone() throws {
    let clock = FakeClock()
    let runner = BenchRunner(configuration: Fixtures.tiny, environment: clock.environment)
    let variant = Variant(
      id: "rate",
      body: .preparedRateBatch(unit: .eventsPerSecond, operations: 1_000) {
        clock.nanoseconds += 7_000_000  // untimed setup
        return { clock.nanoseconds += 4_000_000 }
      })
    let measurement = try #require(runner.measure(variant))
    #expect(measurement.unit == .eventsPerSecond)
    #expect(measurement.samples == Array(repeating: 250_000, count: Fixtures.tiny.batchSampleCount))
    #expect(measurement.operationsPerSample == 1_000)
  }

  @Test func customMeasurementKeepsItsUnitAndValues() throws {
    let runner = BenchRunner(configuration: Fixtures.tiny, environment: FakeClock().environment)
    let variant = Variant(
      id: "memory",
      body: .custom(unit: .bytesPerInstance) { _ in
        CustomMeasurement(values: [48, 32, 40], allocationsPerOperation: 1)
      })
    let measurement = try #require(runner.measure(variant))
    #expect(measurement.unit == .bytesPerInstance)
    #expect(SampleSummary(samples: measurement.samples).median == 40)
  }

  @Test func unavailableVariantIsNotMeasured() {
    let runner = BenchRunner(configuration: Fixtures.tiny, environment: FakeClock().environment)
    #expect(runner.measure(Variant(id: "later", body: .unavailable(note: "pending"))) == nil)
  }

  @Test func withoutAnAllocationCounterAllocationsAreUnknown() throws {
    let clock = FakeClock()
    let runner = BenchRunner(
      configuration: Fixtures.tiny, environment: MeasurementEnvironment(now: { clock.nanoseconds }))
    let variant = Variant(id: "loop", body: .timedLoop { { clock.nanoseconds += UInt64($0) } })
    #expect(try #require(runner.measure(variant)).allocationsPerOperation == nil)
  }

  @Test func sessionComputesRatiosAndReportsProgress() throws {
    let clock = FakeClock()
    var lines: [String] = []
    let session = BenchSession(
      runner: BenchRunner(configuration: Fixtures.tiny, environment: clock.environment),
      progress: { lines.append($0) })
    let loop = { (cost: UInt64) in Variant.Body.timedLoop { { clock.nanoseconds += cost * UInt64($0) } } }
    let scenario = Scenario(
      id: "demo", summary: "", baseline: "base",
      variants: [
        Variant(id: "base", body: loop(2)),
        Variant(id: "double", targets: [.ratioToBaselineAtMost(1.5)], body: loop(4)),
        Variant(id: "later", body: .unavailable(note: "not yet available")),
        Variant(
          id: "bytes",
          body: .custom(unit: .bytesPerInstance) { _ in CustomMeasurement(values: [16], allocationsPerOperation: 1) }
        ),
      ])
    let reports = session.run(ScenarioSelection(patterns: []).apply(to: [scenario]))
    let report = try #require(reports.first)
    #expect(report.results.map(\.variant) == ["base", "double", "bytes"])
    // A ratio only within one group and one unit: the bytes row shares no unit with its baseline.
    #expect(report.results.map(\.ratioToBaseline) == [1, 2, nil])
    #expect(report.results.map(\.groupBaseline) == ["base", "base", "base"])
    #expect(report.results[1].targetVerdict == .missed)
    #expect(report.skipped == [SkippedVariant(scenario: "demo", variant: "later", note: "not yet available")])
    #expect(lines.count == 4)
    #expect(lines[0].hasPrefix("[1/4] demo/base: 2.00 ns/op"))
    #expect(lines[2] == "[3/4] demo/later: skipped, not yet available")
  }

  @Test func groupsHaveTheirOwnBaselines() throws {
    let clock = FakeClock()
    let session = BenchSession(
      runner: BenchRunner(configuration: Fixtures.tiny, environment: clock.environment), progress: { _ in })
    let loop = { (cost: UInt64) in Variant.Body.timedLoop { { clock.nanoseconds += cost * UInt64($0) } } }
    let scenario = Scenario(
      id: "demo", summary: "", baseline: "base", groups: [VariantGroup(id: "other", baseline: "other-1")],
      variants: [
        Variant(id: "base", body: loop(2)),
        Variant(id: "other-1", group: "other", body: loop(10)),
        Variant(id: "other-10", group: "other", targets: [.ratioToBaselineAtMost(3)], body: loop(20)),
      ])
    let report = try #require(session.run(ScenarioSelection(patterns: []).apply(to: [scenario])).first)
    #expect(report.results.map(\.group) == ["demo", "other", "other"])
    #expect(report.results.map(\.ratioToBaseline) == [1, 1, 2])
    #expect(report.results.map(\.isBaseline) == [true, true, false])
    #expect(report.results[2].targetVerdict == .met)
    // Filtering for a group's variant keeps that group's baseline, not the main one.
    let picked = ScenarioSelection(patterns: ["demo/other-10"]).apply(to: [scenario])
    #expect(picked.first?.variants.map(\.id) == ["other-1", "other-10"])
  }

  @Test func repeatKeepsTheBestMeasurement() {
    let slow = BenchRunner.Measurement(
      unit: .nanosecondsPerOperation, samples: [5, 5, 5], allocationsPerOperation: 0, operationsPerSample: 1)
    let fast = BenchRunner.Measurement(
      unit: .nanosecondsPerOperation, samples: [3, 4, 9], allocationsPerOperation: 0, operationsPerSample: 1)
    #expect(BenchSession.best(of: [slow, fast]) == fast)
    let lowRate = BenchRunner.Measurement(
      unit: .eventsPerSecond, samples: [100], allocationsPerOperation: nil, operationsPerSample: 0)
    let highRate = BenchRunner.Measurement(
      unit: .eventsPerSecond, samples: [200], allocationsPerOperation: nil, operationsPerSample: 0)
    #expect(BenchSession.best(of: [lowRate, highRate]) == highRate)
  }
}
