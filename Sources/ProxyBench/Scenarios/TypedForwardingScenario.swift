import DelegateProxyKit
import Foundation
import HeadlessUI
import ProxyBenchHarness
import Synchronization

/// `typed-forwarding`: a HeadlessUI list host dispatching did-select to its delegate, directly
/// and through typed proxies (issue 4, DESIGN "Performance").
///
/// Every variant drives `ListView.dispatchDidSelect(at:)`, the host's one-call entry, in a hot
/// loop; setup (hosts, delegates, proxies, hooks) is untimed.
/// - `direct` (baseline): the user's delegate set on the list host, no proxy.
/// - `proxy`: one `ListViewDelegateProxy` installed through the host's delegate slot, no hooks.
/// - `proxy-after-hook`: the same proxy with one `.after` hook incrementing an atomic counter.
/// - `chain-3`: three proxy types stacked on the slot.
/// - `autotrack-memory`: AutoTrack's list capture building an event into an in-memory sink.
@MainActor
func typedForwardingScenario() -> Scenario {
  Scenario(
    id: "typed-forwarding",
    summary: "list host dispatching did-select: direct delegate vs typed proxies",
    baseline: "direct",
    variants: [
      Variant(id: "direct", body: .timedLoop { listLoop(proxies: 0, afterHook: false) }),
      Variant(
        id: "proxy", targets: [.ratioToBaselineAtMost(1.25), .allocationsPerOperationAtMost(0)],
        body: .timedLoop { listLoop(proxies: 1, afterHook: false) }),
      Variant(
        id: "proxy-after-hook", targets: [.ratioToBaselineAtMost(2)],
        body: .timedLoop { listLoop(proxies: 1, afterHook: true) }),
      Variant(
        id: "chain-3", targets: [.ratioToBaselineAtMost(3)], body: .timedLoop { listLoop(proxies: 3, afterHook: false) }
      ),
      autoTrackMemoryVariant(),
    ])
}

/// The selector every typed-forwarding variant dispatches.
let didSelectSelector = "listView(_:didSelectRowAt:)"

/// Builds a list host with `proxies` proxies (0–3) and returns the timed loop.
@MainActor
func listLoop(proxies: Int, afterHook: Bool, hooks: Int = 1) -> @MainActor @Sendable (Int) -> Void {
  let list = ListView()
  let delegate = CountingListDelegate()
  list.delegate = delegate
  var installed: [DelegateProxyBase] = []
  if proxies >= 1 { installed.append(try! list.installProxy(ListViewDelegateProxy())) }
  if proxies >= 2 { installed.append(try! list.installProxy(SecondListProxy())) }
  if proxies >= 3 { installed.append(try! list.installProxy(ThirdListProxy())) }
  let counter = BenchCounter()
  if afterHook, let proxy = installed.first {
    for _ in 0..<hooks {
      _ = try! proxy.addHook(for: didSelectSelector, at: .after) { _ in counter.increment() }
    }
  }
  let indexPath = opaque(IndexPath(row: 0, section: 0))
  // The slot keeps the proxies alive; `installed` is only for setting up hooks.
  return { iterations in
    for _ in 0..<iterations { list.dispatchDidSelect(at: indexPath) }
    blackHole(delegate.count)
    blackHole(counter.value)
  }
}

/// A delegate that counts did-select calls.
@MainActor
final class CountingListDelegate: ListViewDelegate {
  var count = 0
  func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) { count &+= 1 }
}

/// A counter a `Sendable` hook can bump: one relaxed atomic add.
final class BenchCounter: Sendable {
  private let storage = Atomic<Int>(0)
  func increment() { storage.add(1, ordering: .relaxed) }
  var value: Int { storage.load(ordering: .relaxed) }
}

/// A second proxy kind, standing for another library's list proxy (it forwards did-select only;
/// the benchmark dispatches nothing else).
final class SecondListProxy: DelegateProxy<any ListViewDelegate> {
  private weak var target: (any ListViewDelegate)?
  override var weakForwardee: (any ListViewDelegate)? {
    get { target }
    set { target = newValue }
  }
  override class var methods: [ProxyMethod] { [.void(didSelectSelector)] }
}

extension SecondListProxy: ListViewDelegate {
  func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) {
    forward(#function, listView, indexPath) { $0.listView($1, didSelectRowAt: $2) }
  }
}

/// A third proxy kind, for `chain-3`.
final class ThirdListProxy: DelegateProxy<any ListViewDelegate> {
  private weak var target: (any ListViewDelegate)?
  override var weakForwardee: (any ListViewDelegate)? {
    get { target }
    set { target = newValue }
  }
  override class var methods: [ProxyMethod] { [.void(didSelectSelector)] }
}

extension ThirdListProxy: ListViewDelegate {
  func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) {
    forward(#function, listView, indexPath) { $0.listView($1, didSelectRowAt: $2) }
  }
}
