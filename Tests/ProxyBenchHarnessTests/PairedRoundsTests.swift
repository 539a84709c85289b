import DelegateProxyKitSupport
import ProxyBenchHarness
import Testing

/// A timed loop on the fake clock costing `cost` nanoseconds per iteration.
@MainActor
private func loop(_ clock: FakeClock, cost: UInt64) -> Variant.Body {
  .timedLoop { { clock.nanoseconds += cost * UInt64($0) } }
}

@MainActor
@Suite struct PairedRoundsTests {
  @Test func eachRoundGivesOneRatioOfTheTwoSidesTimePerOperation() throws {
    let clock = FakeClock()
    let runner = BenchRunner(configuration: Fixtures.tiny, environment: clock.environment)
    let paired = try #require(
      runner.measurePair(
        Variant(id: "proxy", body: loop(clock, cost: 5)), against: Variant(id: "direct", body: loop(clock, cost: 2)),
        seed: 1))
    #expect(paired.roundRatios.count == Fixtures.tiny.roundCount)
    #expect(paired.roundRatios.allSatisfy { $0 == 2.5 })
    #expect(paired.variant.samples.allSatisfy { $0 == 5 })
    #expect(paired.reference.samples.allSatisfy { $0 == 2 })
    // Each side is calibrated to the round length on its own.
    #expect(paired.variant.operationsPerSample * 5 == Int(Fixtures.tiny.roundNanoseconds))
    #expect(paired.reference.operationsPerSample * 2 == Int(Fixtures.tiny.roundNanoseconds))
  }

  @Test func theOrderWithinEachRoundFollowsTheSeed() throws {
    var configuration = Fixtures.tiny
    configuration.roundCount = 64
    let clock = FakeClock()
    let runner = BenchRunner(configuration: configuration, environment: clock.environment)
    // The sides log which of them ran, so the order can be read back from what the loops saw.
    var log: [String] = []
    func logging(_ name: String) -> Variant.Body {
      .timedLoop {
        return { iterations in
          clock.nanoseconds += UInt64(iterations)
          log.append(name)
        }
      }
    }
    let variant = Variant(id: "v", body: logging("v"))
    let reference = Variant(id: "r", body: logging("r"))
    let first = try #require(runner.measurePair(variant, against: reference, seed: 7))
    let rounds = log.suffix(2 * configuration.roundCount)
    let observed = stride(from: rounds.startIndex, to: rounds.endIndex, by: 2).map { rounds[$0] == "v" }
    #expect(observed == first.variantFirst)
    // Both orders occur, neither side always runs first.
    #expect(first.variantFirst.contains(true) && first.variantFirst.contains(false))
    // The same seed gives the same order; another seed another one.
    #expect(try #require(runner.measurePair(variant, against: reference, seed: 7)).variantFirst == first.variantFirst)
    #expect(try #require(runner.measurePair(variant, against: reference, seed: 8)).variantFirst != first.variantFirst)
    var generator = SplitMix64(seed: 7)
    #expect(first.variantFirst == (0..<64).map { _ in generator.next() & 1 == 0 })
  }

  @Test func aSlowPhaseLandsOnBothSidesOfARoundAndCancelsOut() throws {
    // The machine slows down 5-fold for whole stretches of time: every other 400 µs of fake time.
    // A round (two sides of about 10 µs, five times that when slow) mostly falls within one phase,
    // so most round ratios, and their median, stay exact.
    let clock = FakeClock()
    func slowdown() -> UInt64 { (clock.nanoseconds / 400_000) % 2 == 1 ? 5 : 1 }
    var configuration = Fixtures.tiny
    configuration.roundCount = 41
    let runner = BenchRunner(configuration: configuration, environment: clock.environment)
    let variant = Variant(id: "v", body: .timedLoop { { clock.nanoseconds += 3 * slowdown() * UInt64($0) } })
    let reference = Variant(id: "r", body: .timedLoop { { clock.nanoseconds += 2 * slowdown() * UInt64($0) } })
    let paired = try #require(runner.measurePair(variant, against: reference, seed: 3))
    let estimate = RatioEstimate(reference: "r", roundRatios: paired.roundRatios)
    #expect(estimate.median == 1.5)
    // The slowdown did reach the samples themselves.
    #expect(paired.variant.samples.contains(15) || paired.reference.samples.contains(10))
  }

  @Test func whatASettledSideLeavesRunningNeverLandsOnTheOtherSide() throws {
    // The variant's runs leave work behind (a delivery stage still building) that slows whatever
    // runs next by 10 ns per iteration the variant ran, until it is settled.
    let clock = FakeClock()
    var leftover: UInt64 = 0
    func payLeftover() {
      clock.nanoseconds += leftover
      leftover = 0
    }
    let runner = BenchRunner(configuration: Fixtures.tiny, environment: clock.environment)
    let variant = Variant(
      id: "tracked",
      body: .settledLoop {
        SettledLoop(
          run: { iterations in
            payLeftover()
            clock.nanoseconds += 4 * UInt64(iterations)
            leftover = 10 * UInt64(iterations)
          },
          settle: payLeftover)
      })
    let reference = Variant(
      id: "untracked",
      body: .timedLoop {
        return { iterations in
          payLeftover()
          clock.nanoseconds += 2 * UInt64(iterations)
        }
      })
    let paired = try #require(runner.measurePair(variant, against: reference, seed: 5))
    #expect(paired.roundRatios.count == Fixtures.tiny.roundCount)
    #expect(paired.roundRatios.allSatisfy { $0 == 2 })
    #expect(paired.reference.samples.allSatisfy { $0 == 2 })
  }

  @Test func preparedBatchesPairWithTheBatchRoundCount() throws {
    let clock = FakeClock()
    let runner = BenchRunner(configuration: Fixtures.tiny, environment: clock.environment)
    let batch = Variant(
      id: "batch",
      body: .preparedBatch(operations: 10) {
        clock.nanoseconds += 1_000_000  // untimed preparation
        return { clock.nanoseconds += 80 }
      })
    let paired = try #require(
      runner.measurePair(batch, against: Variant(id: "loop", body: loop(clock, cost: 4)), seed: 1))
    #expect(paired.roundRatios == Array(repeating: 2, count: Fixtures.tiny.batchRoundCount))
  }

  @Test func rateBatchesPairAndEachRoundGivesTheRatioOfTheRates() throws {
    // The machine slows 4-fold from the second round on; each round's ratio stays exact. Both sides
    // are prepared once to warm up, then once per round, so `preparations` says which round runs.
    let clock = FakeClock()
    var preparations = 0
    func slowdown() -> UInt64 { (preparations + 1) / 2 >= 3 ? 4 : 1 }
    func rate(_ nanosecondsPerEvent: UInt64) -> Variant.Body {
      .preparedRateBatch(unit: .eventsPerSecond, operations: 100) {
        preparations += 1
        return { clock.nanoseconds += 100 * nanosecondsPerEvent * slowdown() }
      }
    }
    let runner = BenchRunner(configuration: Fixtures.tiny, environment: clock.environment)
    let paired = try #require(
      runner.measurePair(
        Variant(id: "file", body: rate(40)), against: Variant(id: "memory", body: rate(10)),
        seed: 5))
    // The file sink does a quarter of the in-memory rate: the ratio is of rates, not of times.
    #expect(paired.roundRatios == Array(repeating: 0.25, count: Fixtures.tiny.batchRoundCount))
    #expect(paired.variant.unit == .eventsPerSecond && paired.reference.unit == .eventsPerSecond)
    #expect(paired.variant.samples.first == 25_000_000)
    #expect(paired.reference.samples.first == 100_000_000)
    #expect(paired.reference.samples.contains(25_000_000))
  }

  @Test func aRateDoesNotPairWithATimeOrAnotherUnit() {
    let clock = FakeClock()
    let runner = BenchRunner(configuration: Fixtures.tiny, environment: clock.environment)
    let rate = Variant(
      id: "rate", body: .preparedRateBatch(unit: .eventsPerSecond, operations: 1) { { clock.nanoseconds += 1 } })
    let bytes = Variant(
      id: "bytes",
      body: .preparedRateBatch(unit: ResultUnit(symbol: "bytes/s", higherIsBetter: true), operations: 1) {
        { clock.nanoseconds += 1 }
      })
    let time = Variant(id: "loop", body: loop(clock, cost: 1))
    #expect(runner.canPair(rate) && runner.canPair(rate, with: rate))
    #expect(!runner.canPair(rate, with: time) && !runner.canPair(time, with: rate))
    #expect(!runner.canPair(rate, with: bytes))
    #expect(runner.measurePair(rate, against: time, seed: 1) == nil)
  }

  @Test func customMeasurementsCannotBePaired() {
    let runner = BenchRunner(configuration: Fixtures.tiny, environment: FakeClock().environment)
    let custom = Variant(
      id: "bytes",
      body: .custom(unit: .bytesPerInstance) { _ in CustomMeasurement(values: [1], allocationsPerOperation: nil) })
    #expect(!runner.canPair(custom))
    #expect(runner.measurePair(custom, against: custom, seed: 1) == nil)
  }

  @Test func pairSeedsDependOnTheRunSeedAndThePairsName() {
    let seed = SplitMix64.seed(22, mixedWith: "typed-forwarding/proxy~direct")
    #expect(seed == SplitMix64.seed(22, mixedWith: "typed-forwarding/proxy~direct"))
    #expect(seed != SplitMix64.seed(23, mixedWith: "typed-forwarding/proxy~direct"))
    #expect(seed != SplitMix64.seed(22, mixedWith: "typed-forwarding/chain-3~direct"))
  }
}

@Suite struct RatioEstimateTests {
  @Test func pairedEstimateIsTheMedianOfTheRoundsWithQuartilesAndExtremes() {
    let estimate = RatioEstimate(reference: "direct", roundRatios: [1.4, 1.0, 1.2, 1.3, 1.1])
    #expect(estimate.median == 1.2)
    #expect(estimate.lowerQuartile == 1.1)
    #expect(estimate.upperQuartile == 1.3)
    #expect(estimate.minimum == 1.0)
    #expect(estimate.maximum == 1.4)
    #expect(estimate.rounds == 5)
    #expect(estimate.isPaired)
    #expect(estimate.spreadLabel == "1.10–1.30")
  }

  @Test func quartilesInterpolateBetweenRounds() {
    // Ranks 0.75 and 2.25 of four rounds.
    let estimate = RatioEstimate(reference: "r", roundRatios: [1, 2, 3, 4])
    #expect(estimate.median == 2.5)
    #expect(estimate.lowerQuartile == 1.75)
    #expect(estimate.upperQuartile == 3.25)
  }

  @Test func unpairedEstimateDividesMediansAndCrossesQuartiles() throws {
    let estimate = try #require(
      RatioEstimate(reference: "r", samples: [2, 4, 6, 8, 10], referenceSamples: [1, 2, 3, 4, 5]))
    #expect(estimate.median == 2)
    #expect(estimate.lowerQuartile == 1)  // p25 4 over p75 4
    #expect(estimate.upperQuartile == 4)  // p75 8 over p25 2
    #expect(estimate.minimum == 0.4)
    #expect(estimate.maximum == 10)
    #expect(!estimate.isPaired)
    #expect(RatioEstimate(reference: "r", samples: [1], referenceSamples: [0]) == nil)
  }

  @Test func aBaselineAgainstItselfIsExactlyOne() {
    let identity = RatioEstimate.identity("direct")
    #expect([identity.median, identity.lowerQuartile, identity.upperQuartile] == [1, 1, 1])
    #expect(identity.rounds == 0)
  }
}

@MainActor
@Suite struct PairedSessionTests {
  private let clock = FakeClock()

  private func run(_ scenario: Scenario, patterns: [String] = [], repeats: Int = 1) -> ScenarioReport? {
    let session = BenchSession(
      runner: BenchRunner(configuration: Fixtures.tiny, environment: clock.environment), repeats: repeats,
      progress: { _ in })
    return session.run(ScenarioSelection(patterns: patterns).apply(to: [scenario])).first
  }

  @Test func variantsAreJudgedByTheirPairedRatioToTheBaseline() throws {
    let scenario = Scenario(
      id: "demo", summary: "", baseline: "base",
      variants: [
        Variant(id: "base", body: loop(clock, cost: 20)),
        Variant(id: "proxy", targets: [.ratioToBaselineAtMost(1.25)], body: loop(clock, cost: 24)),
        Variant(id: "slow", targets: [.ratioToBaselineAtMost(1.25)], body: loop(clock, cost: 30)),
        Variant(
          id: "bytes",
          body: .custom(unit: .bytesPerInstance) { _ in CustomMeasurement(values: [16], allocationsPerOperation: 1) }),
      ])
    let report = try #require(run(scenario))
    let proxy = try #require(report.results.first { $0.variant == "proxy" })
    let estimate = try #require(proxy.baselineRatio)
    #expect(estimate.median == 1.2)
    #expect(estimate.rounds == Fixtures.tiny.roundCount)
    #expect(proxy.targetVerdict == .met)
    #expect(report.results.first { $0.variant == "slow" }?.targetVerdict == .missed)
    #expect(report.results.first { $0.variant == "base" }?.baselineRatio == .identity("base"))
    // A custom measurement is not paired, and has no ratio across units.
    #expect(report.results.first { $0.variant == "bytes" }?.baselineRatio == nil)
  }

  @Test func aRatioThatStraddlesTheLimitIsUndecided() throws {
    // The variant alternates between 0.95 and 1.05 times the baseline from one sample to the next.
    var calls = 0
    let wobbling = Variant.Body.timedLoop {
      return { iterations in
        calls += 1
        clock.nanoseconds += UInt64(calls % 2 == 0 ? 19 : 21) * UInt64(iterations)
      }
    }
    let scenario = Scenario(
      id: "demo", summary: "", baseline: "base",
      variants: [
        Variant(id: "base", body: loop(clock, cost: 20)),
        Variant(id: "close", targets: [.ratioToBaselineAtMost(1)], body: wobbling),
      ])
    let close = try #require(run(scenario)?.results.last)
    let estimate = try #require(close.baselineRatio)
    #expect(estimate.lowerQuartile < 1 && estimate.upperQuartile > 1)
    #expect(close.targetVerdict == .undecided)
  }

  @Test func aTargetNamingAnotherVariantGetsRoundsAgainstThatVariant() throws {
    let scenario = Scenario(
      id: "demo", summary: "", baseline: "direct",
      variants: [
        Variant(id: "direct", body: loop(clock, cost: 20)),
        Variant(id: "proxy", body: loop(clock, cost: 40)),
        Variant(id: "generated", targets: [.ratioToVariantAtMost("proxy", 1.05)], body: loop(clock, cost: 41)),
        Variant(id: "heavier", targets: [.ratioToVariantAtMost("proxy", 1.05)], body: loop(clock, cost: 44)),
      ])
    // Selecting only the generated row still measures what its target names, and the baseline.
    #expect(
      ScenarioSelection(patterns: ["demo/generated"]).apply(to: [scenario]).first?.variants.map(\.id) == [
        "direct", "proxy", "generated",
      ])
    let report = try #require(run(scenario, patterns: ["demo/generated", "demo/heavier"]))
    let generated = try #require(report.results.first { $0.variant == "generated" })
    let toProxy = try #require(generated.variantRatios.first)
    #expect(toProxy.reference == "proxy")
    #expect(toProxy.median == 1.025)
    #expect(toProxy.rounds == Fixtures.tiny.roundCount)
    #expect(generated.ratioToBaseline == 2.05)
    #expect(generated.targetVerdict == .met)
    #expect(report.results.first { $0.variant == "heavier" }?.targetVerdict == .missed)
  }

  @Test func repeatsPoolTheirRounds() throws {
    let scenario = Scenario(
      id: "demo", summary: "", baseline: "base",
      variants: [Variant(id: "base", body: loop(clock, cost: 2)), Variant(id: "double", body: loop(clock, cost: 4))])
    let report = try #require(run(scenario, repeats: 3))
    #expect(report.results.last?.baselineRatio?.rounds == 3 * Fixtures.tiny.roundCount)
  }
}
