import CaptureStrategies
import DelegateProxyKit
import Foundation
import ProxyBenchHarness
import Synchronization

// Fixtures shared by `dispatch-model`, `install` and `hook-count`: delegate classes in the
// CaptureStrategies dispatch model, the strategies under their benchmark ids, and the timed loops.

/// The selector every CaptureStrategies variant measures (captured by the strategies).
let capturedSelector = ListHost.didSelectRow

/// A selector with the same shape that no strategy captures: what
/// `dispatch-model/proxy-forwarding-target` sends through the proxy.
let uncapturedSelector = RuntimeSelector("listView:didDeselectRowAtIndexPath:")

/// A class name no earlier setup used: class names are global in the dispatch model, and setups
/// run again for every sample of a prepared batch.
@MainActor
func uniqueBenchClassName(_ base: String) -> String {
  benchClassSerial += 1
  return "\(base)_Bench\(benchClassSerial)"
}

@MainActor private var benchClassSerial = 0

/// The strategy kind behind a benchmark id (`wrapping`, `subclass`, `proxy`).
func strategyKind(forBenchID id: String) -> CaptureStrategyKind {
  switch id {
  case "wrapping": .wrapping
  case "subclass": .dynamicSubclass
  case "proxy": .proxy
  default: preconditionFailure("unknown strategy id '\(id)'")
  }
}

/// A delegate class whose did-select and did-deselect implementations do what an app's trivial
/// delegate does: bump a counter.
///
/// The fixtures' counters are ``IsolatedCounter``s: a counter that shared a cache line with one
/// of the model's objects would make every send wait on its atomic add, in some runs and not in
/// others, depending on where the allocator put it.
@MainActor
func makeBenchDelegateClass(counter: IsolatedCounter) -> RuntimeClass {
  let body = Implementation { (_: RuntimeObject, _: inout Message) in counter.increment() }
  do {
    return try Runtime.makeClass(
      named: uniqueBenchClassName("BenchDelegate"),
      methods: [capturedSelector: body, uncapturedSelector: body])
  } catch {
    preconditionFailure("capture bench: \(error)")
  }
}

/// `hooks` trivial `.after` handlers on the measured selector, each bumping `counter`.
func benchHandlers(count hooks: Int, counter: IsolatedCounter) -> [CaptureHandler] {
  (0..<hooks).map { _ in CaptureHandler.after(capturedSelector) { _, _ in counter.increment() } }
}

/// Installs `strategy` on `object`, stopping the run if the model refuses (a bug, not a figure).
func benchInstall(_ strategy: any CaptureStrategy, on object: RuntimeObject) -> any CaptureInstallation {
  do {
    return try strategy.install(on: object)
  } catch {
    preconditionFailure("capture bench: install failed: \(error)")
  }
}

/// Removes `installation`, stopping the run if the model refuses.
func benchRemove(_ installation: any CaptureInstallation) {
  do {
    try installation.remove()
  } catch {
    preconditionFailure("capture bench: remove failed: \(error)")
  }
}

/// The timed loop sending `selector` (with a host and an index path, as the list host does) to a
/// delegate, through strategy `strategyID` with `hooks` `.after` handlers, or with no capture when
/// `strategyID` is `nil`.
@MainActor
func captureSendLoop(
  strategyID: String?, hooks: Int = 1, selector: RuntimeSelector = capturedSelector, inlineHandler: Bool = false
) -> @MainActor (Int) -> Void {
  let delegateCounter = IsolatedCounter()
  let handlerCounter = IsolatedCounter()
  let object = RuntimeObject(class: makeBenchDelegateClass(counter: delegateCounter))
  var installation: (any CaptureInstallation)?
  if let strategyID {
    let strategy = strategyKind(forBenchID: strategyID).makeStrategy(
      handlers: benchHandlers(count: hooks, counter: handlerCounter))
    installation = benchInstall(strategy, on: object)
  }
  let receiver = opaque(installation?.receiver ?? object)
  let host = opaque(ListHost())
  let indexPath = opaque(IndexPath(indexes: [0, 1]))
  let sent = opaque(selector)
  // One send warms the method cache (the first send after an install rebuilds it).
  sendOrStop(receiver, sent, host, indexPath)
  if inlineHandler {
    // The handler the strategies run, called by hand after the send: the baseline for capture.
    let body: @Sendable () -> Void = { handlerCounter.increment() }
    let handler = opaque(body)
    return { iterations in
      for _ in 0..<iterations {
        sendOrStop(receiver, sent, host, indexPath)
        handler()
      }
      blackHole(delegateCounter.value)
      blackHole(handlerCounter.value)
      withExtendedLifetime((object, installation)) {}
    }
  }
  return { iterations in
    for _ in 0..<iterations { sendOrStop(receiver, sent, host, indexPath) }
    blackHole(delegateCounter.value)
    blackHole(handlerCounter.value)
    withExtendedLifetime((object, installation)) {}
  }
}

/// One `send` of a `(ListHost, IndexPath) -> Void` message.
@inline(__always)
func sendOrStop(_ receiver: RuntimeObject, _ selector: RuntimeSelector, _ host: ListHost, _ indexPath: IndexPath) {
  do {
    try receiver.send(selector, host, indexPath)
  } catch {
    preconditionFailure("capture bench: send failed: \(error)")
  }
}

/// `classes` delegate classes and `instances` objects spread over them round-robin.
@MainActor
func makeBenchPopulation(instances: Int, classes: Int) -> (classes: [RuntimeClass], objects: [RuntimeObject]) {
  let counter = IsolatedCounter()
  let made = (0..<classes).map { _ in makeBenchDelegateClass(counter: counter) }
  var objects: [RuntimeObject] = []
  objects.reserveCapacity(instances)
  for index in 0..<instances { objects.append(RuntimeObject(class: made[index % classes])) }
  return (made, objects)
}
