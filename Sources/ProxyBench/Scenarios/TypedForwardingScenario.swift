import ProxyBenchHarness

/// `typed-forwarding`: a HeadlessUI list host dispatching did-select to its
/// delegate, directly and through typed proxies (issue 4, DESIGN "Performance").
///
/// To fill in (each variant a `.timedLoop`; setup untimed, one did-select per iteration):
/// - `direct` (baseline): the user's delegate set on the list host, no proxy.
/// - `proxy`: one proxy installed through the host's delegate slot, no hooks.
///   Targets: ≤ 1.25× `direct`, 0 allocations per call.
/// - `proxy-after-hook`: the same proxy with one `.after` hook incrementing a
///   counter. Target: ≤ 2× `direct`.
/// - `chain-3`: three different proxy types stacked on the slot. Target: ≤ 3× `direct`.
/// - `autotrack-memory`: AutoTrack's list capture building an event into an
///   in-memory sink.
///
/// The shape of a body, once HeadlessUI's list host exists (names illustrative):
///
/// ```swift
/// body: .timedLoop {
///   let list = ListView(sections: [1])          // untimed setup
///   let delegate = CountingListDelegate()
///   list.delegate = delegate
///   _ = list.delegateSlot.install(BenchListProxy.self)
///   let indexPath = opaque(IndexPath(row: 0, section: 0))
///   return { iterations in
///     for _ in 0..<iterations { list.dispatchDidSelect(at: indexPath) }
///     blackHole(delegate)
///   }
/// }
/// ```
@MainActor
func typedForwardingScenario() -> Scenario {
  let note = "not yet available: needs the HeadlessUI list host (typed-forwarding bodies pending)"
  return Scenario(
    id: "typed-forwarding",
    summary: "list host dispatching did-select: direct delegate vs typed proxies",
    baseline: "direct",
    variants: [
      Variant(id: "direct", body: .unavailable(note: note)),
      Variant(
        id: "proxy", targets: [.ratioToBaselineAtMost(1.25), .allocationsPerOperationAtMost(0)],
        body: .unavailable(note: note)),
      Variant(id: "proxy-after-hook", targets: [.ratioToBaselineAtMost(2)], body: .unavailable(note: note)),
      Variant(id: "chain-3", targets: [.ratioToBaselineAtMost(3)], body: .unavailable(note: note)),
      Variant(id: "autotrack-memory", targets: [.medianAtMost(2_000)], body: autoTrackMemoryBody()),
    ])
}
