import ProxyBenchHarness

/// `dispatch-model`: one message sent through the CaptureStrategies dispatch
/// model, without capture and with each strategy installed.
///
/// To fill in (each a `.timedLoop`; build the class, object and strategy in setup):
/// - `send` (baseline): a cached `send` with no capture. Target: ≤ 15 ns median.
/// - `wrapping`: the method's implementation replaced by a recording wrapper.
///   Target: ≤ 1.3× `send`.
/// - `subclass`: the object isa-swizzled to the dynamic subclass. Target: ≤ 1.3× `send`.
/// - `proxy-forwarding-target`: an uncaptured selector sent to the proxy
///   (fast `forwardingTarget` path). Target: ≤ 2× `send`.
/// - `proxy-forward-invocation`: a captured selector sent to the proxy
///   (reified invocation). Reported as measured; no target.
@MainActor
func dispatchModelScenario() -> Scenario {
  let note = "not yet available: needs the CaptureStrategies dispatch model (dispatch-model bodies pending)"
  return Scenario(
    id: "dispatch-model",
    summary: "message send in the dispatch model: no capture vs each capture strategy",
    baseline: "send",
    variants: [
      Variant(id: "send", targets: [.medianAtMost(15)], body: .unavailable(note: note)),
      Variant(id: "wrapping", targets: [.ratioToBaselineAtMost(1.3)], body: .unavailable(note: note)),
      Variant(id: "subclass", targets: [.ratioToBaselineAtMost(1.3)], body: .unavailable(note: note)),
      Variant(id: "proxy-forwarding-target", targets: [.ratioToBaselineAtMost(2)], body: .unavailable(note: note)),
      Variant(id: "proxy-forward-invocation", body: .unavailable(note: note)),
    ])
}
