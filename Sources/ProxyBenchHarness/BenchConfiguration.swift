/// How long and how often the harness measures.
package struct BenchConfiguration: Equatable, Sendable {
  /// A name for reports: `full` or `quick`.
  package var name: String
  /// Time spent running a timed loop before its samples are taken.
  package var warmupNanoseconds: UInt64
  /// The time one sample of a timed loop aims to last; iterations are calibrated to it.
  package var sampleNanoseconds: UInt64
  /// Samples per timed loop.
  package var sampleCount: Int
  /// Samples per prepared batch (each needs fresh, untimed preparation).
  package var batchSampleCount: Int
  /// An upper bound on iterations per sample, so an empty loop cannot run forever.
  package var maxIterationsPerSample: Int
  /// The time each side of a paired round aims to last (timed loops are calibrated to it).
  package var roundNanoseconds: UInt64
  /// Paired rounds of two timed loops; one ratio per round.
  package var roundCount: Int
  /// Paired rounds when either side is a prepared batch (each round prepares both batches afresh).
  package var batchRoundCount: Int
  /// Seeds the generator that orders each round's two sides (`--seed`); mixed with the pair's
  /// names, so a pair's order does not depend on what else the run measures.
  package var pairingSeed: UInt64

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - name: `full`, `quick` or a name of your own.
  ///   - warmupNanoseconds: Warm-up time per timed loop.
  ///   - sampleNanoseconds: Target duration of one sample.
  ///   - sampleCount: Samples per timed loop; at least 1.
  ///   - batchSampleCount: Samples per prepared batch; at least 1.
  ///   - maxIterationsPerSample: Iteration cap per sample; at least 1.
  ///   - roundNanoseconds: Target duration of each side of a paired round; `sampleNanoseconds` when `nil`.
  ///   - roundCount: Paired rounds of two timed loops; `sampleCount` when `nil`.
  ///   - batchRoundCount: Paired rounds involving a prepared batch; `batchSampleCount` when `nil`.
  ///   - pairingSeed: Seeds the order of each round's two sides.
  package init(
    name: String, warmupNanoseconds: UInt64, sampleNanoseconds: UInt64, sampleCount: Int, batchSampleCount: Int,
    maxIterationsPerSample: Int = 1 << 32, roundNanoseconds: UInt64? = nil, roundCount: Int? = nil,
    batchRoundCount: Int? = nil, pairingSeed: UInt64 = BenchConfiguration.defaultPairingSeed
  ) {
    precondition(sampleCount >= 1 && batchSampleCount >= 1, "at least one sample")
    precondition(maxIterationsPerSample >= 1, "at least one iteration")
    precondition((roundCount ?? 1) >= 1 && (batchRoundCount ?? 1) >= 1, "at least one paired round")
    self.name = name
    self.warmupNanoseconds = warmupNanoseconds
    self.sampleNanoseconds = sampleNanoseconds
    self.sampleCount = sampleCount
    self.batchSampleCount = batchSampleCount
    self.maxIterationsPerSample = maxIterationsPerSample
    self.roundNanoseconds = roundNanoseconds ?? sampleNanoseconds
    self.roundCount = roundCount ?? sampleCount
    self.batchRoundCount = batchRoundCount ?? batchSampleCount
    self.pairingSeed = pairingSeed
  }

  /// The seed of the round order unless `--seed` gives another.
  package static let defaultPairingSeed: UInt64 = 22

  /// The default run: 100 ms warm-up, 25 samples of about 20 ms each for a row's own figures, and
  /// 41 paired rounds of about 10 ms a side for its ratios (11 for prepared batches).
  package static let full = BenchConfiguration(
    name: "full", warmupNanoseconds: 100_000_000, sampleNanoseconds: 20_000_000, sampleCount: 25,
    batchSampleCount: 11, roundNanoseconds: 10_000_000, roundCount: 41)

  /// The CI run (`--quick`): 5 ms warm-up, 7 samples of about 5 ms each, and 11 paired rounds of
  /// about 2 ms a side (5 for prepared batches).
  package static let quick = BenchConfiguration(
    name: "quick", warmupNanoseconds: 5_000_000, sampleNanoseconds: 5_000_000, sampleCount: 7, batchSampleCount: 5,
    roundNanoseconds: 2_000_000, roundCount: 11)
}

/// The clock and allocation counters the harness reads, injected so tests
/// can drive the harness with a fake clock.
package struct MeasurementEnvironment {
  /// A monotonic clock in nanoseconds.
  package var now: () -> UInt64
  /// Allocations since process start, or `nil` when allocations are not counted.
  package var allocationCount: (() -> UInt64)?
  /// Heap bytes currently live, or `nil` when not tracked.
  package var liveBytes: (() -> Int64)?

  /// Creates an environment.
  ///
  /// - Parameters:
  ///   - now: A monotonic clock in nanoseconds.
  ///   - allocationCount: The allocation counter, or `nil`.
  ///   - liveBytes: The live-heap reading, or `nil`.
  package init(
    now: @escaping () -> UInt64, allocationCount: (() -> UInt64)? = nil, liveBytes: (() -> Int64)? = nil
  ) {
    self.now = now
    self.allocationCount = allocationCount
    self.liveBytes = liveBytes
  }

  /// The system's monotonic clock (`ContinuousClock`), with no allocation counting.
  package static var systemClock: MeasurementEnvironment {
    let clock = ContinuousClock()
    let origin = clock.now
    return MeasurementEnvironment(now: {
      let elapsed = origin.duration(to: clock.now).components
      return UInt64(elapsed.seconds) * 1_000_000_000 + UInt64(elapsed.attoseconds / 1_000_000_000)
    })
  }
}

/// What a custom measurement may use: the configuration and the environment.
package struct MeasurementContext {
  /// The run's configuration (a custom measurement should take `sampleCount` samples).
  package var configuration: BenchConfiguration
  /// The clock and counters.
  package var environment: MeasurementEnvironment

  /// Creates a context.
  ///
  /// - Parameters:
  ///   - configuration: The run's configuration.
  ///   - environment: The clock and counters.
  package init(configuration: BenchConfiguration, environment: MeasurementEnvironment) {
    self.configuration = configuration
    self.environment = environment
  }

  /// Runs `body` and returns the nanoseconds it took and the allocations it made.
  ///
  /// - Parameter body: The work to time.
  /// - Returns: Elapsed nanoseconds and allocations (`nil` when not counted).
  package func time(_ body: () -> Void) -> (nanoseconds: UInt64, allocations: UInt64?) {
    let allocationsBefore = environment.allocationCount?()
    let start = environment.now()
    body()
    let end = environment.now()
    let allocationsAfter = environment.allocationCount?()
    let allocations = allocationsBefore.flatMap { before in allocationsAfter.map { $0 &- before } }
    return (end &- start, allocations)
  }
}
