/// Measures variants: calibration, warm-up, samples, allocation counts.
///
/// For a timed loop the runner doubles the iteration count until one run
/// lasts a tenth of the sample budget (the best of three timings, so that one
/// preempted timing cannot stop it early), scales it to the full budget, warms up,
/// then takes `sampleCount` samples. Each sample reads the allocation counter
/// and the clock just before and just after the loop, so allocations per
/// operation cover the measured operations and nothing else.
@MainActor
package struct BenchRunner {
  /// How long and how often to measure.
  package var configuration: BenchConfiguration
  /// The clock and counters.
  package var environment: MeasurementEnvironment

  /// Creates a runner.
  ///
  /// - Parameters:
  ///   - configuration: How long and how often to measure.
  ///   - environment: The clock and counters.
  package init(configuration: BenchConfiguration, environment: MeasurementEnvironment) {
    self.configuration = configuration
    self.environment = environment
  }

  /// The figures for one measured variant, before ratios are known.
  package struct Measurement: Equatable, Sendable {
    /// The unit of `samples`.
    package var unit: ResultUnit
    /// One value per sample.
    package var samples: [Double]
    /// Allocations per operation, or `nil` when not counted.
    package var allocationsPerOperation: Double?
    /// Operations per sample (calibrated iterations or the batch size); 0 for custom measurements.
    package var operationsPerSample: Int

    /// Creates a measurement.
    package init(unit: ResultUnit, samples: [Double], allocationsPerOperation: Double?, operationsPerSample: Int) {
      self.unit = unit
      self.samples = samples
      self.allocationsPerOperation = allocationsPerOperation
      self.operationsPerSample = operationsPerSample
    }
  }

  /// Measures one variant.
  ///
  /// - Parameter variant: The variant.
  /// - Returns: Its figures, or `nil` for an unavailable variant.
  package func measure(_ variant: Variant) -> Measurement? {
    switch variant.body {
    case .timedLoop(let setup):
      return measureLoop(setup(), settle: {})
    case .settledLoop(let setup):
      let loop = setup()
      return measureLoop(loop.run, settle: loop.settle)
    case .preparedBatch(let operations, let prepare):
      return measureBatch(operations: operations, prepare: prepare)
    case .preparedRateBatch(let unit, let operations, let prepare):
      return measureBatch(operations: operations, prepare: prepare, rate: unit)
    case .custom(let unit, let measure):
      let result = measure(MeasurementContext(configuration: configuration, environment: environment))
      precondition(!result.values.isEmpty, "variant '\(variant.id)' returned no samples")
      return Measurement(
        unit: unit, samples: result.values, allocationsPerOperation: result.allocationsPerOperation,
        operationsPerSample: 0)
    case .unavailable:
      return nil
    }
  }

  /// Picks the number of iterations one sample of `loop` should run.
  ///
  /// - Parameters:
  ///   - loop: The loop to calibrate.
  ///   - budget: How long one sample should last; the configuration's sample time when `nil`.
  ///   - settle: Runs untimed after each timing of `loop`.
  /// - Returns: Iterations per sample, within `1...maxIterationsPerSample`.
  package func calibrate(_ loop: (Int) -> Void, budget: UInt64? = nil, settle: () -> Void = {}) -> Int {
    let budget = Double(budget ?? configuration.sampleNanoseconds)
    let cap = configuration.maxIterationsPerSample
    var iterations = 1
    while true {
      var elapsed = Double(time { loop(iterations) })
      settle()
      if elapsed >= budget / 10, iterations < cap {
        // One timing preempted by another process can look long enough and stop the growth at a
        // fraction of the iterations the budget needs: confirm with the best of three.
        for _ in 0..<2 {
          elapsed = min(elapsed, Double(time { loop(iterations) }))
          settle()
        }
      }
      if elapsed >= budget / 10 || iterations >= cap {
        guard elapsed > 0 else { return cap }
        let scaled = (budget / elapsed * Double(iterations)).rounded()
        return scaled >= Double(cap) ? cap : max(1, Int(scaled))
      }
      // Grow fast while far from the budget, carefully when close.
      let factor = elapsed < budget / 1000 ? 10 : 2
      iterations = iterations > cap / factor ? cap : iterations * factor
    }
  }

  private func measureLoop(_ loop: (Int) -> Void, settle: () -> Void) -> Measurement {
    let iterations = calibrate(loop, settle: settle)
    let warmupEnd = environment.now() &+ configuration.warmupNanoseconds
    repeat {
      loop(iterations)
      settle()
    } while environment.now() < warmupEnd

    let context = MeasurementContext(configuration: configuration, environment: environment)
    var samples: [Double] = []
    samples.reserveCapacity(configuration.sampleCount)
    var allocations: UInt64? = 0
    for _ in 0..<configuration.sampleCount {
      let sample = context.time { loop(iterations) }
      settle()
      samples.append(Double(sample.nanoseconds) / Double(iterations))
      allocations = allocations.flatMap { total in sample.allocations.map { total &+ $0 } }
    }
    return Measurement(
      unit: .nanosecondsPerOperation, samples: samples,
      allocationsPerOperation: allocations.map { Double($0) / Double(iterations * configuration.sampleCount) },
      operationsPerSample: iterations)
  }

  /// Measures a prepared batch: nanoseconds per operation, or with `rate`, operations per second
  /// in that unit.
  private func measureBatch(
    operations: Int, prepare: @MainActor () -> @MainActor () -> Void, rate: ResultUnit? = nil
  ) -> Measurement {
    precondition(operations >= 1, "a prepared batch needs at least one operation")
    let context = MeasurementContext(configuration: configuration, environment: environment)
    // One untimed round warms caches and code paths.
    prepare()()
    var samples: [Double] = []
    var allocations: UInt64? = 0
    for _ in 0..<configuration.batchSampleCount {
      let batch = prepare()
      let sample = context.time { batch() }
      samples.append(
        rate == nil
          ? Double(sample.nanoseconds) / Double(operations)
          : Self.rate(operations: operations, nanoseconds: sample.nanoseconds))
      allocations = allocations.flatMap { total in sample.allocations.map { total &+ $0 } }
    }
    return Measurement(
      unit: rate ?? .nanosecondsPerOperation, samples: samples,
      allocationsPerOperation: allocations.map { Double($0) / Double(operations * configuration.batchSampleCount) },
      operationsPerSample: operations)
  }

  /// Operations per second of `operations` done in `nanoseconds` (a batch too fast for the clock
  /// counts as one nanosecond long).
  static func rate(operations: Int, nanoseconds: UInt64) -> Double {
    Double(operations) / (Double(max(nanoseconds, 1)) / 1e9)
  }

  func time(_ body: () -> Void) -> UInt64 {
    let start = environment.now()
    body()
    return environment.now() &- start
  }
}
