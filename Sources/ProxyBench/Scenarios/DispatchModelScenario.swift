import CaptureStrategies
import Foundation
import ProxyBenchHarness

/// `dispatch-model`: one `(ListHost, IndexPath) -> Void` message sent through the CaptureStrategies
/// dispatch model, without capture and with each strategy installed, against two baselines that
/// take the model and the benchmark's own handler out of the ratios.
///
/// Every variant is a `.timedLoop`; the class, object and strategy are built in setup, and each
/// strategy runs the same single trivial `.after` handler (an atomic add). The delegate's and
/// the handler's counters are ``IsolatedCounter``s, so that their atomic adds cost the same in
/// every run whatever the allocator put beside them.
///
/// Main group, baseline `send`:
/// - `send`: a cached `send`, no capture. Target: 0 allocations.
/// - `direct-call`: the same method body called through a Swift protocol existential, no model.
///   Target: ≥ 0.25× `send`, that is `send` ≤ 4× a direct call (`objc_msgSend` is about 2–3× a C
///   function call).
/// - `proxy-forwarding-target`: a selector the proxy does not capture, sent to the proxy, which
///   hands it to the delegate through its forwarding-target hook. Target: ≤ 1.5× `send`.
/// - `proxy-forward-invocation`: the captured selector sent to the proxy, reified as a
///   `MessageInvocation` and run through the handlers. Reported as measured; no target.
///
/// Group `capture`, baseline `send-inline-handler` (a send followed by the same handler called by
/// hand: what instrumenting the code by hand costs):
/// - `wrapping`: the class's method replaced by the recording wrapper. Target: ≤ 1.3× the baseline.
/// - `subclass`: the object isa-swizzled to the generated subclass. Target: ≤ 1.3× the baseline.
@MainActor
func dispatchModelScenario() -> Scenario {
  Scenario(
    id: "dispatch-model",
    summary: "message send in the dispatch model: no capture vs each capture strategy",
    baseline: "send",
    groups: [VariantGroup(id: "dispatch-model-capture", baseline: "send-inline-handler")],
    variants: [
      Variant(
        id: "send", targets: [.allocationsPerOperationAtMost(0)],
        body: .timedLoop { captureSendLoop(strategyID: nil) }),
      Variant(
        id: "direct-call", targets: [.ratioToBaselineAtLeast(0.25)],
        body: .timedLoop { directCallLoop() }),
      Variant(
        id: "proxy-forwarding-target", targets: [.ratioToBaselineAtMost(1.5)],
        body: .timedLoop { captureSendLoop(strategyID: "proxy", selector: uncapturedSelector) }),
      Variant(
        id: "proxy-forward-invocation",
        body: .timedLoop { captureSendLoop(strategyID: "proxy") }),
      Variant(
        id: "send-inline-handler", group: "dispatch-model-capture",
        body: .timedLoop { captureSendLoop(strategyID: nil, inlineHandler: true) }),
      Variant(
        id: "wrapping", group: "dispatch-model-capture", targets: [.ratioToBaselineAtMost(1.3)],
        body: .timedLoop { captureSendLoop(strategyID: "wrapping") }),
      Variant(
        id: "subclass", group: "dispatch-model-capture", targets: [.ratioToBaselineAtMost(1.3)],
        body: .timedLoop { captureSendLoop(strategyID: "subclass") }),
    ])
}

/// A delegate protocol with the model's message shape, for `direct-call`.
protocol ModelMessageDelegate: AnyObject {
  func didSelect(_ host: ListHost, _ indexPath: IndexPath)
}

/// The direct-call delegate: the same body as the model's delegate class (a bump of a counter
/// on a cache line of its own).
final class ModelMessageCounter: ModelMessageDelegate {
  let counter = IsolatedCounter()
  func didSelect(_ host: ListHost, _ indexPath: IndexPath) { counter.increment() }
}

/// The `direct-call` loop: the method called through an existential, as a Swift host calls its
/// delegate.
@MainActor
func directCallLoop() -> @MainActor (Int) -> Void {
  let delegate = ModelMessageCounter()
  let target: any ModelMessageDelegate = opaque(delegate)
  let host = opaque(ListHost())
  let indexPath = opaque(IndexPath(indexes: [0, 1]))
  return { iterations in
    for _ in 0..<iterations { target.didSelect(host, indexPath) }
    blackHole(delegate.counter.value)
  }
}
