import ProxyBenchHarness

/// `harness`: the harness measuring things whose answer is known, so a run
/// shows that timing, allocation counting, batches and custom units work.
///
/// - `empty-loop` (baseline): the loop and ``blackHole(_:)`` alone, the floor
///   under every timed loop; 0 allocations.
/// - `closure-call`: a call through an opaque closure.
/// - `existential-call`: a call through a class-bound protocol existential,
///   the shape of a delegate call; 0 allocations.
/// - `class-alloc`: allocating one class instance per iteration; exactly
///   1 allocation per operation, which proves the allocator is counted.
/// - `batch-alloc`: the same through a prepared batch of 1,000 operations.
/// - `instance-memory`: heap bytes retained per live instance of a class with
///   one stored `Int` (a custom measurement in bytes/instance, its own group).
///
/// Its targets check the harness, not the product: the run's summary counts them apart.
@MainActor
func harnessScenario() -> Scenario {
  Scenario(
    id: "harness",
    summary: "self-test of the measuring harness: known costs and allocation counts",
    baseline: "empty-loop",
    kind: .harnessSelfCheck,
    groups: [VariantGroup(id: "harness-memory", baseline: "instance-memory")],
    variants: [
      Variant(
        id: "empty-loop", targets: [.allocationsPerOperationAtMost(0)],
        body: .timedLoop {
          return { iterations in
            for index in 0..<iterations { blackHole(index) }
          }
        }),
      Variant(
        id: "closure-call",
        body: .timedLoop {
          let increment: (Int) -> Int = opaque({ $0 &+ 1 })
          return { iterations in
            for index in 0..<iterations { blackHole(increment(index)) }
          }
        }),
      Variant(
        id: "existential-call", targets: [.allocationsPerOperationAtMost(0)],
        body: .timedLoop {
          let responder: any HarnessResponder = opaque(HarnessCounter())
          return { iterations in
            for index in 0..<iterations { blackHole(responder.respond(to: index)) }
          }
        }),
      Variant(
        id: "class-alloc", targets: [.allocationsPerOperationAtMost(1)],
        body: .timedLoop {
          return { iterations in
            for index in 0..<iterations { blackHole(HarnessBox(index)) }
          }
        }),
      Variant(
        id: "batch-alloc", targets: [.allocationsPerOperationAtMost(1)],
        body: .preparedBatch(operations: 1_000) {
          var boxes: [HarnessBox] = []
          boxes.reserveCapacity(1_000)
          return {
            for index in 0..<1_000 { boxes.append(HarnessBox(index)) }
            blackHole(boxes)
          }
        }),
      Variant(
        id: "instance-memory", group: "harness-memory",
        body: .custom(unit: .bytesPerInstance) { context in
          instanceMemory(context: context, instances: 10_000)
        }),
    ])
}

/// Measures live heap bytes per `HarnessBox` by keeping `instances` alive.
@MainActor
private func instanceMemory(context: MeasurementContext, instances: Int) -> CustomMeasurement {
  guard let liveBytes = context.environment.liveBytes else {
    return CustomMeasurement(values: [0], allocationsPerOperation: nil)
  }
  var values: [Double] = []
  var allocations: UInt64? = 0
  for _ in 0..<context.configuration.batchSampleCount {
    var boxes: [HarnessBox] = []
    boxes.reserveCapacity(instances)
    let before = liveBytes()
    let sample = context.time {
      for index in 0..<instances { boxes.append(HarnessBox(index)) }
    }
    values.append(Double(liveBytes() - before) / Double(instances))
    allocations = allocations.flatMap { total in sample.allocations.map { total + $0 } }
    blackHole(boxes)
  }
  let operations = Double(instances * context.configuration.batchSampleCount)
  return CustomMeasurement(values: values, allocationsPerOperation: allocations.map { Double($0) / operations })
}

/// A class-bound protocol, called through an existential like a delegate.
protocol HarnessResponder: AnyObject {
  /// Answers a call.
  func respond(to value: Int) -> Int
}

/// The responder behind `harness/existential-call`.
final class HarnessCounter: HarnessResponder {
  private var total = 0

  func respond(to value: Int) -> Int {
    total &+= value
    return total
  }
}

/// The smallest heap object: a class with one stored `Int`.
final class HarnessBox {
  let value: Int

  init(_ value: Int) {
    self.value = value
  }
}
