import CaptureStrategies
import ProxyBenchHarness

/// The instance and class counts `install` covers: 1, 100 and 10,000
/// instances spread over 1 class, and 100 and 10,000 instances over 100 classes.
let installShapes: [(instances: Int, classes: Int)] = [(1, 1), (100, 1), (10_000, 1), (100, 100), (10_000, 100)]

/// The capture strategies compared by `install` and `hook-count`.
let strategyIDs = ["wrapping", "subclass", "proxy"]

/// `install`: the cost of installing and removing each capture strategy, and
/// the memory each installed instance retains.
///
/// Variant ids (`i` instances over `c` classes, objects spread round-robin;
/// one strategy with one `.after` handler, installed without a host):
/// - `<strategy>-i<I>-c<C>`, e.g. `subclass-i10000-c100`: a
///   `.preparedBatch(operations: I)` whose untimed `prepare` builds the `C`
///   classes, the `I` objects and the strategy, and whose batch installs the
///   strategy on every object, then removes every installation; ns per
///   instance for the pair. Wrapping is class-wide, so only the first install
///   per class wraps (the others return the class's installation) and only the
///   first remove per class unwraps. One group per strategy, `install-<strategy>`,
///   with `<strategy>-i1-c1` as its baseline: the ratios show how the cost per
///   instance changes with the population, never one strategy against another's
///   class patch.
/// - `memory-<strategy>-i<I>-c<C>`: heap bytes retained per installed
///   instance, a `.custom(unit: .bytesPerInstance)` measurement of the live
///   heap before and after installing on all `I` objects (the installations
///   kept in a pre-sized array, as a caller would keep them). For the subclass
///   strategy every sample also checks that exactly `C` generated classes were
///   made, one per original class however many instances share it. One group
///   per strategy, `install-memory-<strategy>`, with `memory-<strategy>-i100-c1`
///   as its baseline. Target: the dynamic
///   subclass's memory is flat per class — at 10,000 instances over 1 or 100
///   classes each instance retains at most 1.1× what it does at 100 instances of
///   one class, because instances of a class share one generated subclass.
@MainActor
func installScenario() -> Scenario {
  var variants: [Variant] = []
  for strategy in strategyIDs {
    for shape in installShapes {
      variants.append(
        Variant(
          id: "\(strategy)-i\(shape.instances)-c\(shape.classes)", group: "install-\(strategy)",
          body: .preparedBatch(operations: shape.instances) {
            installBatch(strategyID: strategy, instances: shape.instances, classes: shape.classes)
          }))
    }
  }
  for strategy in strategyIDs {
    for shape in installShapes {
      variants.append(
        Variant(
          id: "memory-\(strategy)-i\(shape.instances)-c\(shape.classes)", group: "install-memory-\(strategy)",
          targets: strategy == "subclass" && shape.instances == 10_000 ? [.ratioToBaselineAtMost(1.1)] : [],
          body: .custom(unit: .bytesPerInstance) { context in
            installMemory(context: context, strategyID: strategy, instances: shape.instances, classes: shape.classes)
          }))
    }
  }
  return Scenario(
    id: "install",
    summary: "install + remove per instance, and retained bytes per instance, for each strategy",
    baseline: "wrapping-i1-c1",
    naming: "<strategy>-i<I>-c<C>: install + remove on I instances spread over C classes (ns per instance);"
      + " memory-<strategy>-i<I>-c<C>: heap bytes each installed instance retains",
    groups: strategyIDs.flatMap { strategy in
      [
        VariantGroup(id: "install-\(strategy)", baseline: "\(strategy)-i1-c1"),
        VariantGroup(id: "install-memory-\(strategy)", baseline: "memory-\(strategy)-i100-c1"),
      ]
    },
    variants: variants)
}

/// Builds the population and strategy, and returns the batch that installs on every object and
/// then removes every installation.
@MainActor
private func installBatch(strategyID: String, instances: Int, classes: Int) -> @MainActor () -> Void {
  let population = makeBenchPopulation(instances: instances, classes: classes)
  let strategy = strategyKind(forBenchID: strategyID).makeStrategy(
    handlers: benchHandlers(count: 1, counter: IsolatedCounter()))
  var installations: [any CaptureInstallation] = []
  installations.reserveCapacity(instances)
  return {
    withExtendedLifetime(population) {
      for object in population.objects { installations.append(benchInstall(strategy, on: object)) }
      for installation in installations { benchRemove(installation) }
    }
    blackHole(installations.count)
  }
}

/// Heap bytes retained per installed instance, one value per sample.
@MainActor
private func installMemory(
  context: MeasurementContext, strategyID: String, instances: Int, classes: Int
) -> CustomMeasurement {
  guard let liveBytes = context.environment.liveBytes else {
    return CustomMeasurement(values: [0], allocationsPerOperation: nil)
  }
  let kind = strategyKind(forBenchID: strategyID)
  var values: [Double] = []
  var allocations: UInt64? = 0
  for _ in 0..<context.configuration.batchSampleCount {
    let population = makeBenchPopulation(instances: instances, classes: classes)
    let strategy = kind.makeStrategy(handlers: benchHandlers(count: 1, counter: IsolatedCounter()))
    var installations: [any CaptureInstallation] = []
    installations.reserveCapacity(instances)
    let generatedBefore = DynamicSubclassStrategy.generatedClassCount
    let before = liveBytes()
    let sample = context.time {
      withExtendedLifetime(population) {
        for object in population.objects { installations.append(benchInstall(strategy, on: object)) }
      }
    }
    let after = liveBytes()
    if kind == .dynamicSubclass {
      let generated = DynamicSubclassStrategy.generatedClassCount - generatedBefore
      precondition(
        generated == classes,
        "install/memory-subclass: \(generated) generated classes for \(classes) classes (expected one per class)")
    }
    values.append(Double(after - before) / Double(instances))
    allocations = allocations.flatMap { total in sample.allocations.map { total + $0 } }
    for installation in installations { benchRemove(installation) }
    withExtendedLifetime(population) {}
  }
  let operations = Double(instances * context.configuration.batchSampleCount)
  return CustomMeasurement(values: values, allocationsPerOperation: allocations.map { Double($0) / operations })
}
