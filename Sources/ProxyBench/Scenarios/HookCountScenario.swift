import ProxyBenchHarness

/// The hook counts `hook-count` covers.
let hookCounts = [1, 10, 100]

/// `hook-count`: per-call cost as the number of installed hooks grows.
///
/// Variant ids `<kind>-<hooks>`: `typed-proxy-1`, `typed-proxy-10`,
/// `typed-proxy-100`, then `wrapping-…`, `subclass-…`, `proxy-…`. Each is a
/// `.timedLoop` making one call per iteration with that many `.after` hooks
/// installed: on a DelegateProxyKit typed proxy (a list host dispatching
/// did-select), or as one CaptureStrategies strategy with that many `.after`
/// handlers on the sent selector (the `dispatch-model` loop; for `proxy` the
/// captured selector, so the forward-invocation path). `typed-proxy-1` is the
/// baseline.
@MainActor
func hookCountScenario() -> Scenario {
  var variants: [Variant] = []
  for hooks in hookCounts {
    variants.append(
      Variant(id: "typed-proxy-\(hooks)", body: .timedLoop { listLoop(proxies: 1, afterHook: true, hooks: hooks) }))
  }
  for kind in strategyIDs {
    for hooks in hookCounts {
      variants.append(
        Variant(id: "\(kind)-\(hooks)", body: .timedLoop { captureSendLoop(strategyID: kind, hooks: hooks) }))
    }
  }
  return Scenario(
    id: "hook-count",
    summary: "per-call cost with 1, 10 and 100 hooks installed",
    baseline: "typed-proxy-1",
    variants: variants)
}
