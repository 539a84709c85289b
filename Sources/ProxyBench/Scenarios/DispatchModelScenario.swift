import ProxyBenchHarness

/// `dispatch-model`: one `(ListHost, IndexPath) -> Void` message sent through the CaptureStrategies
/// dispatch model, without capture and with each strategy installed.
///
/// Every variant is a `.timedLoop` over `send` to a delegate whose implementation bumps a counter;
/// the class, object and strategy are built in setup, and each strategy runs the same single
/// trivial `.after` handler, so the ratios measure the capture path and nothing else.
/// - `send` (baseline): a cached `send`, no capture. Target: 0 allocations (its time is reported,
///   never judged: the strategies are judged as ratios to it).
/// - `wrapping`: the class's method replaced by the recording wrapper. Target: ≤ 1.3× `send`.
/// - `subclass`: the object isa-swizzled to the generated subclass. Target: ≤ 1.3× `send`.
/// - `proxy-forwarding-target`: a selector the proxy does not capture, sent to the proxy, which
///   hands it to the delegate through its forwarding-target hook. Target: ≤ 2× `send`.
/// - `proxy-forward-invocation`: the captured selector sent to the proxy, reified as a
///   `MessageInvocation` and run through the handlers. Reported as measured; no target.
@MainActor
func dispatchModelScenario() -> Scenario {
  Scenario(
    id: "dispatch-model",
    summary: "message send in the dispatch model: no capture vs each capture strategy",
    baseline: "send",
    variants: [
      Variant(
        id: "send", targets: [.allocationsPerOperationAtMost(0)],
        body: .timedLoop { captureSendLoop(strategyID: nil) }),
      Variant(
        id: "wrapping", targets: [.ratioToBaselineAtMost(1.3)],
        body: .timedLoop { captureSendLoop(strategyID: "wrapping") }),
      Variant(
        id: "subclass", targets: [.ratioToBaselineAtMost(1.3)],
        body: .timedLoop { captureSendLoop(strategyID: "subclass") }),
      Variant(
        id: "proxy-forwarding-target", targets: [.ratioToBaselineAtMost(2)],
        body: .timedLoop { captureSendLoop(strategyID: "proxy", selector: uncapturedSelector) }),
      Variant(
        id: "proxy-forward-invocation",
        body: .timedLoop { captureSendLoop(strategyID: "proxy") }),
    ])
}
