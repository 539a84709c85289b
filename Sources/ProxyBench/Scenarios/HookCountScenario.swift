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
/// captured selector, so the forward-invocation path). One group per kind,
/// `hook-count-<kind>`, with `<kind>-1` as its baseline: the ratios show how a
/// kind's cost grows with its hooks, never one model against another. The typed
/// proxy's targets: 10 hooks at most 2 times one hook, 100 at most 12 times.
@MainActor
func hookCountScenario() -> Scenario {
  var variants: [Variant] = []
  let typedTargets: [Int: [PerformanceTarget]] = [10: [.ratioToBaselineAtMost(2)], 100: [.ratioToBaselineAtMost(12)]]
  for hooks in hookCounts {
    variants.append(
      Variant(
        id: "typed-proxy-\(hooks)", group: "hook-count-typed-proxy", targets: typedTargets[hooks] ?? [],
        body: .timedLoop { listLoop(proxies: 1, afterHook: true, hooks: hooks) }))
  }
  for kind in strategyIDs {
    for hooks in hookCounts {
      variants.append(
        Variant(
          id: "\(kind)-\(hooks)", group: "hook-count-\(kind)",
          body: .timedLoop { captureSendLoop(strategyID: kind, hooks: hooks) }))
    }
  }
  return Scenario(
    id: "hook-count",
    summary: "per-call cost with 1, 10 and 100 hooks installed",
    baseline: "typed-proxy-1",
    naming: "<kind>-<N>: one call with N after hooks (typed proxy) or N after handlers (strategy) installed",
    groups: (["typed-proxy"] + strategyIDs).map { VariantGroup(id: "hook-count-\($0)", baseline: "\($0)-1") },
    variants: variants)
}
