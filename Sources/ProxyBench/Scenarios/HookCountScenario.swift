import DelegateProxyKit
import HeadlessUI
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
///
/// Every kind's hook does the same work, an increment of an atomic counter, so a row's growth is
/// what the kind pays per hook it runs. A typed hook that also reads its arguments is priced in
/// `typed-forwarding/proxy-after-hook` (it reads the index path's row, which on Linux is a call
/// into Foundation for each hook).
///
/// `install-remove`, in a group of its own (reported, no target): installing and removing one
/// typed after hook on a proxy that already has one, what a hook change costs. Each of the two
/// publishes a snapshot and frees the one it replaced; on Linux that includes one `membarrier`
/// system call, the price of hooked calls' plain hazard-slot stores.
@MainActor
func hookCountScenario() -> Scenario {
  var variants: [Variant] = []
  let typedTargets: [Int: [PerformanceTarget]] = [10: [.ratioToBaselineAtMost(2)], 100: [.ratioToBaselineAtMost(12)]]
  for hooks in hookCounts {
    variants.append(
      Variant(
        id: "typed-proxy-\(hooks)", group: "hook-count-typed-proxy", targets: typedTargets[hooks] ?? [],
        body: .timedLoop { listLoop(proxies: 1, afterHook: true, hooks: hooks, countsOnly: true) }))
  }
  for kind in strategyIDs {
    for hooks in hookCounts {
      variants.append(
        Variant(
          id: "\(kind)-\(hooks)", group: "hook-count-\(kind)",
          body: .timedLoop { captureSendLoop(strategyID: kind, hooks: hooks) }))
    }
  }
  variants.append(
    Variant(id: "install-remove", group: "hook-count-install", body: .timedLoop { installRemoveLoop() }))
  return Scenario(
    id: "hook-count",
    summary: "per-call cost with 1, 10 and 100 hooks installed",
    baseline: "typed-proxy-1",
    naming: "<kind>-<N>: one call with N after hooks (typed proxy) or N after handlers (strategy) installed;"
      + " install-remove: one typed hook installed and removed",
    groups: (["typed-proxy"] + strategyIDs).map { VariantGroup(id: "hook-count-\($0)", baseline: "\($0)-1") }
      + [VariantGroup(id: "hook-count-install", baseline: "install-remove")],
    variants: variants)
}

/// Builds a list host with the generated list proxy and one typed after hook, and returns a loop
/// that installs and removes a second typed after hook per iteration.
@MainActor
func installRemoveLoop() -> @MainActor @Sendable (Int) -> Void {
  let list = ListView()
  let delegate = CountingListDelegate()
  list.delegate = delegate
  let proxy = list.installProxy(ListViewDelegateProxy())
  let counter = IsolatedCounter()
  proxy.hookAfter(\.didSelectRow) { _, indexPath in counter.add(indexPath.row) }
  return { iterations in
    for _ in 0..<iterations {
      let token = proxy.hookAfter(\.didSelectRow) { _, indexPath in counter.add(indexPath.row) }
      do { try token.remove() } catch { preconditionFailure("a token just returned is live: \(error)") }
    }
    blackHole(counter.value)
  }
}
