import DelegateProxyKit
import Dispatch
import ProxyBenchHarness

/// `async-forwarding`: a host awaiting an `async` delegate method, directly and through a typed
/// proxy, with and without a typed after hook.
///
/// The loop runs in a detached task (the harness's loops are synchronous): each sample starts
/// one task that awaits `iterations` calls and blocks the harness until it ends. The task's
/// start and the hand-back cost a few microseconds per sample, well under 0.1 ns per call at the
/// tens of thousands of iterations a sample calibrates to.
/// - `direct` (baseline): the host awaits its weak delegate.
/// - `proxy`: one `AsyncPingProxy` installed through the host's delegate slot, no hooks.
/// - `proxy-after-hook`: the same proxy with one typed after hook adding to an atomic counter.
/// - `hand-written-proxy` (reported, no target): the least any proxy can be — a class with one
///   `async` method that awaits its weak delegate, no slot, no hooks, no library code. It shows
///   what the extra `async` frame of a proxy's method costs by itself, so `proxy` can be read
///   against that floor as well as against `direct`.
@MainActor
func asyncForwardingScenario() -> Scenario {
  Scenario(
    id: "async-forwarding",
    summary: "host awaiting an async delegate method: direct vs typed proxy",
    baseline: "direct",
    variants: [
      Variant(id: "direct", body: asyncLoop(proxy: false, afterHook: false)),
      Variant(
        id: "proxy", targets: [.ratioToBaselineAtMost(1.2)], body: asyncLoop(proxy: true, afterHook: false)),
      Variant(
        id: "proxy-after-hook", targets: [.ratioToBaselineAtMost(1.4)],
        body: asyncLoop(proxy: true, afterHook: true)),
      Variant(id: "hand-written-proxy", body: asyncHandWrittenLoop()),
    ])
}

/// A delegate protocol with one `async` method that runs in its caller's isolation.
protocol AsyncPingDelegate: AnyObject {
  nonisolated(nonsending) func ping(_ value: Int) async -> Int
}

/// A host holding its delegate weakly behind a slot, as HeadlessUI hosts do.
final class AsyncPingHost {
  let delegateSlot = DelegateSlot<any AsyncPingDelegate>()
  weak var delegate: (any AsyncPingDelegate)? {
    didSet { delegateSlot.delegateDidChange(to: delegate) }
  }

  nonisolated(nonsending) func dispatch(_ value: Int) async -> Int {
    await (delegateSlot.head ?? delegate)?.ping(value) ?? 0
  }
}

extension AsyncPingHost: DelegateHosting {
  var hostedDelegate: (any AsyncPingDelegate)? { delegate }
}

/// The delegate: answers without suspending, so the loop measures the call path only.
final class AsyncPingDelegateImpl: AsyncPingDelegate {
  var total = 0
  nonisolated(nonsending) func ping(_ value: Int) async -> Int {
    total &+= value
    return total
  }
}

/// The typed proxy for ``AsyncPingDelegate``.
final class AsyncPingProxy: DelegateProxy<any AsyncPingDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let ping = AsyncDelegateMethod<Int, Int>("ping(_:)")
  }
  static let methods = Methods()
}

extension AsyncPingProxy: AsyncPingDelegate, DelegateConvertible {
  var asDelegate: any AsyncPingDelegate { self }
  // As the generator writes it (and WritingAProxy recommends): folded into the protocol witness, so
  // a forwarded call takes one `async` frame instead of two.
  @inline(__always)
  nonisolated(nonsending) func ping(_ value: Int) async -> Int {
    await forward(Self.methods.ping, value, orElse: 0) { await $0.ping($1) }
  }
}

/// The smallest proxy that keeps the delegate protocol: it adds one `async` frame and a weak
/// load to the direct call, and nothing else.
final class AsyncPingHandWrittenProxy: AsyncPingDelegate {
  weak var delegate: (any AsyncPingDelegate)?
  nonisolated(nonsending) func ping(_ value: Int) async -> Int {
    await delegate?.ping(value) ?? 0
  }
}

/// Everything one async variant measures, handed to the detached task that runs the loop.
private final class AsyncPingRig: @unchecked Sendable {
  // @unchecked: used by one task at a time; the harness waits for each task before the next.
  let host = AsyncPingHost()
  let delegate = AsyncPingDelegateImpl()
  let counter = IsolatedCounter()

  /// Holds the hand-written proxy strongly: the host's delegate reference is weak.
  private var handWritten: AsyncPingHandWrittenProxy?

  init(handWrittenProxy: Void) {
    let proxy = AsyncPingHandWrittenProxy()
    proxy.delegate = delegate
    handWritten = proxy
    host.delegate = proxy
  }

  init(proxy: Bool, afterHook: Bool) {
    host.delegate = delegate
    guard proxy else { return }
    let installed = host.installProxy(AsyncPingProxy())
    if afterHook {
      let counter = counter
      installed.hookAfter(\.ping) { result, _ in counter.add(result & 1) }
    }
  }

  /// Awaits `iterations` dispatches in a detached task and waits for it.
  func run(_ iterations: Int) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      var sum = 0
      for index in 0..<iterations { sum &+= await self.host.dispatch(index) }
      blackHole(sum)
      done.signal()
    }
    done.wait()
  }
}

@MainActor
private func asyncLoop(proxy: Bool, afterHook: Bool) -> Variant.Body {
  // A timed loop, so the harness can interleave it with its baseline: each sample is one task.
  .timedLoop {
    let rig = AsyncPingRig(proxy: proxy, afterHook: afterHook)
    return { iterations in
      rig.run(iterations)
      blackHole(rig.counter.value)
    }
  }
}

@MainActor
private func asyncHandWrittenLoop() -> Variant.Body {
  .timedLoop {
    let rig = AsyncPingRig(handWrittenProxy: ())
    return { iterations in
      rig.run(iterations)
      blackHole(rig.delegate.total)
    }
  }
}
