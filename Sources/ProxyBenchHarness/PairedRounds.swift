import DelegateProxyKitSupport

/// Interleaved measurement of two variants: the ratios targets are judged by.
///
/// Both variants are set up, calibrated so that one side of a round lasts about
/// ``BenchConfiguration/roundNanoseconds`` (a prepared batch lasts what it lasts), and warmed up.
/// Then each round times one sample of each, in an order drawn from a seeded generator, and gives
/// one ratio: the variant's time per operation over the reference's. A slow phase of a shared
/// machine that lasts longer than a round lands on both sides and cancels out of that round's
/// ratio; the order is drawn so that neither side always runs first, after the other has warmed
/// or cooled the caches.
extension BenchRunner {
  /// What interleaving a variant with a reference measured.
  package struct PairedMeasurement: Equatable, Sendable {
    /// The variant's side: one sample per round.
    package var variant: Measurement
    /// The reference's side: one sample per round.
    package var reference: Measurement
    /// One ratio per round (variant over reference), in round order; rounds whose reference took
    /// no time are left out.
    package var roundRatios: [Double]
    /// Whether the variant ran first, per round, in round order.
    package var variantFirst: [Bool]
  }

  /// Whether the harness can interleave `variant` with another: timed loops and prepared batches
  /// (of time or of a rate) can; custom measurements take all their samples at once and cannot.
  ///
  /// - Parameter variant: A variant.
  /// - Returns: `true` for a timed loop or a prepared batch.
  package func canPair(_ variant: Variant) -> Bool {
    pairingUnit(variant.body) != nil
  }

  /// Whether the harness can interleave `variant` with `other`: both can be paired and report in
  /// the same unit (a time with a time, a rate with a rate of the same unit).
  ///
  /// - Parameters:
  ///   - variant: A variant.
  ///   - other: Another variant.
  /// - Returns: `true` when ``measurePair(_:against:seed:)`` can measure them.
  package func canPair(_ variant: Variant, with other: Variant) -> Bool {
    guard let unit = pairingUnit(variant.body) else { return false }
    return pairingUnit(other.body) == unit
  }

  /// The unit a pairable body's side of a round is reported in, or `nil` when it cannot be paired.
  private func pairingUnit(_ body: Variant.Body) -> ResultUnit? {
    switch body {
    case .timedLoop, .settledLoop, .preparedBatch: .nanosecondsPerOperation
    case .preparedRateBatch(let unit, _, _): unit
    case .custom, .unavailable: nil
    }
  }

  /// Measures `variant` and `reference` in alternating rounds.
  ///
  /// - Parameters:
  ///   - variant: The variant judged.
  ///   - reference: The variant it is compared with.
  ///   - seed: Seeds the order of each round's two sides.
  /// - Returns: Both sides' samples and the round ratios, or `nil` when the two cannot be paired
  ///   (``canPair(_:with:)``). For rates, samples are rates and each round's ratio is the
  ///   variant's rate over the reference's.
  package func measurePair(_ variant: Variant, against reference: Variant, seed: UInt64) -> PairedMeasurement? {
    guard canPair(variant, with: reference) else { return nil }
    // The reference is set up first, as it would be when measured on its own before the variant.
    guard let referenceSide = sampler(for: reference.body), let variantSide = sampler(for: variant.body) else {
      return nil
    }
    referenceSide.warmUp()
    variantSide.warmUp()
    let rounds = referenceSide.isBatch || variantSide.isBatch ? configuration.batchRoundCount : configuration.roundCount
    var generator = SplitMix64(seed: seed)
    var variantSamples: [Double] = []
    var referenceSamples: [Double] = []
    var ratios: [Double] = []
    var order: [Bool] = []
    var variantAllocations: UInt64? = 0
    var referenceAllocations: UInt64? = 0
    for _ in 0..<rounds {
      let variantFirst = generator.next() & 1 == 0
      let first = variantFirst ? variantSide.sample() : referenceSide.sample()
      let second = variantFirst ? referenceSide.sample() : variantSide.sample()
      let (mine, theirs) = variantFirst ? (first, second) : (second, first)
      let perOperation = Double(mine.nanoseconds) / Double(variantSide.operations)
      let referencePerOperation = Double(theirs.nanoseconds) / Double(referenceSide.operations)
      let isRate = variantSide.rate != nil
      if isRate {
        variantSamples.append(Self.rate(operations: variantSide.operations, nanoseconds: mine.nanoseconds))
        referenceSamples.append(Self.rate(operations: referenceSide.operations, nanoseconds: theirs.nanoseconds))
      } else {
        variantSamples.append(perOperation)
        referenceSamples.append(referencePerOperation)
      }
      order.append(variantFirst)
      // A rate's ratio is the variant's rate over the reference's: the reference's time per
      // operation over the variant's.
      let ratio = isRate ? referencePerOperation / perOperation : perOperation / referencePerOperation
      if referencePerOperation > 0, ratio.isFinite { ratios.append(ratio) }
      variantAllocations = variantAllocations.flatMap { total in mine.allocations.map { total &+ $0 } }
      referenceAllocations = referenceAllocations.flatMap { total in theirs.allocations.map { total &+ $0 } }
    }
    func measurement(_ side: Sampler, _ samples: [Double], _ allocations: UInt64?) -> Measurement {
      Measurement(
        unit: side.rate ?? .nanosecondsPerOperation, samples: samples,
        allocationsPerOperation: allocations.map { Double($0) / Double(side.operations * rounds) },
        operationsPerSample: side.operations)
    }
    return PairedMeasurement(
      variant: measurement(variantSide, variantSamples, variantAllocations),
      reference: measurement(referenceSide, referenceSamples, referenceAllocations), roundRatios: ratios,
      variantFirst: order)
  }

  /// One side of a pair, set up and calibrated.
  private struct Sampler {
    var operations: Int
    var isBatch: Bool
    /// The unit of a rate batch's samples; `nil` for times.
    var rate: ResultUnit? = nil
    var warmUp: () -> Void
    var sample: () -> (nanoseconds: UInt64, allocations: UInt64?)
  }

  private func sampler(for body: Variant.Body) -> Sampler? {
    let context = MeasurementContext(configuration: configuration, environment: environment)
    switch body {
    case .timedLoop(let setup):
      return loopSampler(setup(), settle: {}, context: context)
    case .settledLoop(let setup):
      let loop = setup()
      return loopSampler(loop.run, settle: loop.settle, context: context)
    case .preparedBatch(let operations, let prepare):
      return batchSampler(operations: operations, prepare: prepare, rate: nil, context: context)
    case .preparedRateBatch(let unit, let operations, let prepare):
      return batchSampler(operations: operations, prepare: prepare, rate: unit, context: context)
    case .custom, .unavailable:
      return nil
    }
  }
}

extension BenchRunner {
  private func loopSampler(
    _ loop: @escaping @MainActor (Int) -> Void, settle: @escaping @MainActor () -> Void, context: MeasurementContext
  ) -> Sampler {
    let iterations = calibrate(loop, budget: configuration.roundNanoseconds, settle: settle)
    return Sampler(
      operations: iterations, isBatch: false,
      warmUp: {
        let end = environment.now() &+ configuration.warmupNanoseconds
        repeat {
          loop(iterations)
          settle()
        } while environment.now() < end
      },
      sample: {
        let timed = context.time { loop(iterations) }
        settle()
        return timed
      })
  }

  private func batchSampler(
    operations: Int, prepare: @escaping @MainActor () -> @MainActor () -> Void, rate: ResultUnit?,
    context: MeasurementContext
  ) -> Sampler {
    precondition(operations >= 1, "a prepared batch needs at least one operation")
    return Sampler(
      operations: operations, isBatch: true, rate: rate, warmUp: { prepare()() },
      sample: {
        let batch = prepare()
        return context.time { batch() }
      })
  }
}

extension SplitMix64 {
  /// A pair's own seed: the run's seed mixed with the pair's name (FNV-1a), so the order of a pair's
  /// rounds is the same whatever else the run selects.
  ///
  /// ```swift
  /// var generator = SplitMix64(seed: SplitMix64.seed(22, mixedWith: "typed-forwarding/proxy~direct"))
  /// ```
  ///
  /// - Parameters:
  ///   - seed: The run's seed.
  ///   - name: The pair's name, e.g. `typed-forwarding/proxy~direct`.
  /// - Returns: The pair's seed.
  package static func seed(_ seed: UInt64, mixedWith name: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in name.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    return hash ^ seed
  }
}
