import DelegateProxyKit
import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Synchronization
import Testing

/// What the stress test drives. The typed proxy is the only subject in this target; the capture
/// strategies get the same test, with the same figures, in `CaptureStrategiesTests`.
enum StressSubject: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case typedProxy

  var testDescription: String { rawValue }
}

/// The sizes of one stress run. Counts only: nothing in the run is timed.
struct StressFigures: Sendable {
  /// Threads that forward calls, each through proxies of its own.
  var forwardingThreads = 4
  /// Threads that install and remove hooks (and make and drop proxies) meanwhile.
  var churnThreads = 4
  /// Proxies each forwarding thread makes, uses and drops, one after another.
  var proxiesPerForwardingThread = 5
  /// Calls each forwarding thread makes through each of its proxies.
  var callsPerProxy = StressSize.scaled(4_000)
  /// Install-or-remove operations each churn thread performs.
  var churnOperations = StressSize.scaled(3_000)

  var callsPerForwardingThread: Int { proxiesPerForwardingThread * callsPerProxy }
  var totalCalls: Int { forwardingThreads * callsPerForwardingThread }

  /// Calls of one method per forwarding thread: call `n` goes to method `n % 3`.
  func callsPerForwardingThread(selectorIndex: Int) -> Int {
    proxiesPerForwardingThread * ((callsPerProxy - selectorIndex + 2) / 3)
  }
}

/// A proxy type used only here, so its type-wide hooks never reach another test.
final class StressProbeProxy: DelegateProxy<any ProbeDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let one = DelegateMethod<Int, Void>("one(_:)")
    let shouldSelect = DelegateMethod<Int, Bool>("shouldSelect(_:)")
    let height = DelegateMethod<Int, Double?>("height(forRow:)")
  }
  static let methods = Methods()
}

extension StressProbeProxy: ProbeDelegate {
  func one(_ a: Int) { forward(Self.methods.one, a) { $0.one($1) } }
  func shouldSelect(_ row: Int) -> Bool {
    forward(Self.methods.shouldSelect, row, orElse: true) { $0.shouldSelect($1) }
  }
  func height(forRow row: Int) -> Double? {
    forward(Self.methods.height, row, orElse: nil) { $0.height(forRow: $1) }
  }
}

/// Counts every call it receives, per method, and answers predictably.
final class StressDelegate: ProbeDelegate, Sendable {
  let ones = AtomicCounter()
  let selects = AtomicCounter()
  let heights = AtomicCounter()
  var total: Int { ones.value + selects.value + heights.value }

  func one(_ a: Int) { ones.increment() }
  func shouldSelect(_ row: Int) -> Bool {
    selects.increment()
    return row % 7 != 3
  }
  func height(forRow row: Int) -> Double? {
    heights.increment()
    return row.isMultiple(of: 5) ? nil : Double(row)
  }
}

/// The proxies the forwarding threads are using right now, for churn threads to hook.
///
/// A churn thread uses a proxy only inside ``withProxy(at:_:)``, under the lock, and a forwarding
/// thread withdraws its proxy before dropping it: so a proxy is always deallocated on the thread
/// that made it, and a token of a withdrawn proxy's hook finds the proxy gone.
final class PublishedProxies: Sendable {
  private let slots: SanitizerVisibleMutex<[SharedProxy<StressProbeProxy>?]>
  init(count: Int) { slots = SanitizerVisibleMutex(Array(repeating: nil, count: count)) }

  func publish(_ proxy: SharedProxy<StressProbeProxy>?, at index: Int) { slots.withLock { $0[index] = proxy } }

  /// Runs `body` with the proxy published at `index`; `nil` when there is none.
  func withProxy<Result: Sendable>(at index: Int, _ body: (StressProbeProxy) -> Result) -> Result? {
    slots.withLock { slots in slots[index].map { body($0.proxy) } }
  }
}

/// What churn threads did, to check against what the hooks saw.
final class ChurnLedger: Sendable {
  /// Hooks installed that run every time; each must later be removed (`true`) or die with its proxy.
  let plainInstalled = AtomicCounter()
  let plainRemoved = AtomicCounter()
  let plainDiedWithProxy = AtomicCounter()
  let plainRemovedTwiceReturnedTrue = AtomicCounter()
  /// Installs refused (none expected: a churn thread hooks only proxies that are alive).
  let installsRefused = AtomicCounter()
  /// Run-once hooks, with what removing their token answered (`nil`: the proxy was gone).
  let onceInstalled = AtomicCounter()
  let onceSettled = SanitizerVisibleMutex<[(removed: Bool?, probe: OnceProbe)]>([])
  /// Short-lived proxies made and dropped by churn threads.
  let proxiesMadeAndDropped = AtomicCounter()
}

/// One run-once hook: how often it ran.
final class OnceProbe: Sendable {
  let runs = AtomicCounter()
}

/// Type-wide hooks are process-wide, so the stress test owns `StressProbeProxy` alone.
@Suite struct StressTests {
  @Test(arguments: StressSubject.allCases)
  func typedHooksChurnOnFourThreadsWhileFourThreadsForward(_ subject: StressSubject) async throws {
    switch subject {
    case .typedProxy: try await stressTypedProxy(StressFigures())
    }
  }

  private func stressTypedProxy(_ figures: StressFigures) async throws {
    let typeHooks = StressProbeProxy.typeHooks
    try #require(typeHooks.isEmpty, "another test left type-wide hooks on StressProbeProxy")

    // Hooks that stay installed for the whole run: their fire counts must equal the call counts.
    let typeWideBefore = AtomicCounter()
    let typeWideInstead = AtomicCounter()
    let stickyTypeTokens: [HookToken] = [
      StressProbeProxy.hookBefore(\.one) { _ in typeWideBefore.increment() },
      StressProbeProxy.hookBefore(\.shouldSelect) { _ in typeWideBefore.increment() },
      StressProbeProxy.hookBefore(\.height) { _ in typeWideBefore.increment() },
      StressProbeProxy.hookInstead(\.shouldSelect) { original, row in
        typeWideInstead.increment()
        return original(row)
      },
    ]

    let delegates = (0..<figures.forwardingThreads).map { _ in StressDelegate() }
    let instanceAfter = (0..<figures.forwardingThreads).map { _ in AtomicCounter() }
    let wrongResults = AtomicCounter()
    let published = PublishedProxies(count: figures.forwardingThreads)
    let ledger = ChurnLedger()
    let everyRegistry = SanitizerVisibleMutex<[HookRegistry]>([])

    var bodies: [@Sendable () -> Void] = []
    for thread in 0..<figures.forwardingThreads {
      bodies.append {
        let delegate = delegates[thread]
        for _ in 0..<figures.proxiesPerForwardingThread {
          // Each forwarding thread makes its calls only through proxies it made.
          let proxy = StressProbeProxy(forwardee: delegate)
          let counter = instanceAfter[thread]
          _ = proxy.hookAfter(\.one) { _ in counter.increment() }
          _ = proxy.hookAfter(\.shouldSelect) { _, _ in counter.increment() }
          _ = proxy.hookAfter(\.height) { _, _ in counter.increment() }
          everyRegistry.withLock { $0.append(proxy.hooks) }
          published.publish(SharedProxy(proxy), at: thread)
          for call in 0..<figures.callsPerProxy {
            switch call % 3 {
            case 0:
              proxy.one(call)
            case 1:
              if proxy.shouldSelect(call) != (call % 7 != 3) { wrongResults.increment() }
            default:
              if proxy.height(forRow: call) != (call.isMultiple(of: 5) ? nil : Double(call)) {
                wrongResults.increment()
              }
            }
          }
          published.publish(nil, at: thread)
        }
      }
    }
    for thread in 0..<figures.churnThreads {
      bodies.append {
        churn(
          seed: 0x5EED_0000 + UInt64(thread), operations: figures.churnOperations,
          forwardingThreads: figures.forwardingThreads, published: published, ledger: ledger)
      }
    }
    await runOnThreads(bodies)

    // Every call reached the delegate exactly once, with its result unchanged.
    for (thread, delegate) in delegates.enumerated() {
      #expect(delegate.ones.value == figures.callsPerForwardingThread(selectorIndex: 0), "thread \(thread)")
      #expect(delegate.selects.value == figures.callsPerForwardingThread(selectorIndex: 1), "thread \(thread)")
      #expect(delegate.heights.value == figures.callsPerForwardingThread(selectorIndex: 2), "thread \(thread)")
      #expect(instanceAfter[thread].value == figures.callsPerForwardingThread, "thread \(thread)")
    }
    #expect(wrongResults.value == 0)
    // The hooks installed for the whole run counted every call exactly once.
    #expect(typeWideBefore.value == figures.totalCalls)
    #expect(typeWideInstead.value == figures.forwardingThreads * figures.callsPerForwardingThread(selectorIndex: 1))
    // The churn threads' books balance.
    #expect(ledger.plainInstalled.value > 0)
    #expect(ledger.plainInstalled.value == ledger.plainRemoved.value + ledger.plainDiedWithProxy.value)
    #expect(ledger.plainDiedWithProxy.value > 0)
    #expect(ledger.plainRemovedTwiceReturnedTrue.value == 0)
    #expect(ledger.installsRefused.value == 0)
    #expect(ledger.onceInstalled.value > 0)
    // A run-once hook removed by its token never ran; one its token found gone was claimed by a
    // call and ran exactly once; none ran twice.
    let once = ledger.onceSettled.withLock { $0.map { (removed: $0.removed, runs: $0.probe.runs.value) } }
    #expect(once.count == ledger.onceInstalled.value)
    #expect(once.filter { $0.removed == true && $0.runs != 0 }.isEmpty)
    #expect(once.filter { $0.removed == false && $0.runs != 1 }.isEmpty)
    #expect(once.filter { $0.runs > 1 }.isEmpty)
    #expect(ledger.proxiesMadeAndDropped.value > 0)
    // Nothing is left installed: the counts are back to zero.
    #expect(typeHooks.count == stickyTypeTokens.count)
    for token in stickyTypeTokens { #expect(try token.remove()) }
    #expect(typeHooks.count == 0 && typeHooks.isEmpty)
    let leftover = everyRegistry.withLock { $0.map(\.count) }
    #expect(leftover.allSatisfy { $0 == 0 }, "hooks left on dead proxies: \(leftover)")
  }
}

/// The typed hooks a churn thread installs.
private enum ChurnHook: CaseIterable {
  case before, after, instead
}

/// Installs one typed hook on method `method` (0: `one`, 1: `shouldSelect`, 2: `height`) of
/// `proxy`, or on every `StressProbeProxy` when `proxy` is `nil`. The hooks do nothing visible:
/// the instead hook passes the call on unchanged, so results stay checkable.
private func installChurnHook(
  _ kind: ChurnHook, method: Int, on proxy: StressProbeProxy?
) throws(DelegateProxyError) -> HookToken {
  switch (kind, method, proxy) {
  case (.before, 0, let proxy?): proxy.hookBefore(\.one) { _ in }
  case (.before, 1, let proxy?): proxy.hookBefore(\.shouldSelect) { _ in }
  case (.before, _, let proxy?): proxy.hookBefore(\.height) { _ in }
  case (.after, 0, let proxy?): proxy.hookAfter(\.one) { _ in }
  case (.after, 1, let proxy?): proxy.hookAfter(\.shouldSelect) { _, _ in }
  case (.after, _, let proxy?): proxy.hookAfter(\.height) { _, _ in }
  case (.instead, 0, let proxy?): proxy.hookInstead(\.one) { original, a in original(a) }
  case (.instead, 1, let proxy?): proxy.hookInstead(\.shouldSelect) { original, row in original(row) }
  case (.instead, _, let proxy?): proxy.hookInstead(\.height) { original, row in original(row) }
  case (.before, 0, nil): StressProbeProxy.hookBefore(\.one) { _ in }
  case (.before, 1, nil): StressProbeProxy.hookBefore(\.shouldSelect) { _ in }
  case (.before, _, nil): StressProbeProxy.hookBefore(\.height) { _ in }
  case (.after, 0, nil): StressProbeProxy.hookAfter(\.one) { _ in }
  case (.after, 1, nil): StressProbeProxy.hookAfter(\.shouldSelect) { _, _ in }
  case (.after, _, nil): StressProbeProxy.hookAfter(\.height) { _, _ in }
  case (.instead, 0, nil): StressProbeProxy.hookInstead(\.one) { original, a in original(a) }
  case (.instead, 1, nil): StressProbeProxy.hookInstead(\.shouldSelect) { original, row in original(row) }
  case (.instead, _, nil): StressProbeProxy.hookInstead(\.height) { original, row in original(row) }
  }
}

/// Installs a run-once typed after hook that counts its runs in `probe`.
private func installOnceHook(
  method: Int, on proxy: StressProbeProxy?, probe: OnceProbe
) throws(DelegateProxyError) -> HookToken {
  switch (method, proxy) {
  case (0, let proxy?): proxy.hookAfter(\.one, once: true) { _ in probe.runs.increment() }
  case (1, let proxy?): proxy.hookAfter(\.shouldSelect, once: true) { _, _ in probe.runs.increment() }
  case (_, let proxy?): proxy.hookAfter(\.height, once: true) { _, _ in probe.runs.increment() }
  case (0, nil): StressProbeProxy.hookAfter(\.one, once: true) { _ in probe.runs.increment() }
  case (1, nil): StressProbeProxy.hookAfter(\.shouldSelect, once: true) { _, _ in probe.runs.increment() }
  case (_, nil): StressProbeProxy.hookAfter(\.height, once: true) { _, _ in probe.runs.increment() }
  }
}

/// One churn thread: installs typed hooks (every-time and run-once; on the type or on a proxy
/// in use), removes them in random order, sometimes twice, and makes and drops proxies of its own.
private func churn(
  seed: UInt64, operations: Int, forwardingThreads: Int, published: PublishedProxies, ledger: ChurnLedger
) {
  var random = SplitMix64(seed: seed)
  var plain: [HookToken] = []
  var once: [(token: HookToken, probe: OnceProbe)] = []

  func removePlain(_ token: HookToken) {
    do {
      if try token.remove() {
        ledger.plainRemoved.increment()
        // Removing again is a no-op.
        if (try? token.remove()) == true { ledger.plainRemovedTwiceReturnedTrue.increment() }
      } else {
        // A hook that is not run-once cannot vanish on its own: `false` would mean it was lost.
        ledger.plainRemovedTwiceReturnedTrue.increment()
      }
    } catch {
      ledger.plainDiedWithProxy.increment()
    }
  }

  func settleOnce(_ entry: (token: HookToken, probe: OnceProbe)) {
    let removed = try? entry.token.remove()
    ledger.onceSettled.withLock { $0.append((removed, entry.probe)) }
  }

  /// Installs with `install` on a published proxy, or type-wide (`nil`) one time in three or when
  /// the chosen thread has no proxy published.
  func onSomeTarget(
    _ install: (StressProbeProxy?) -> Result<HookToken, DelegateProxyError>
  ) -> Result<HookToken, DelegateProxyError> {
    if !random.oneIn(3), let result = published.withProxy(at: random.below(forwardingThreads), { install($0) }) {
      return result
    }
    return install(nil)
  }

  for _ in 0..<operations {
    let method = random.below(3)
    switch random.below(10) {
    case 0...3:
      let kind = random.pick(ChurnHook.allCases)
      let installed = onSomeTarget { proxy in
        Result { () throws(DelegateProxyError) in try installChurnHook(kind, method: method, on: proxy) }
      }
      switch installed {
      case .success(let token):
        ledger.plainInstalled.increment()
        plain.append(token)
      case .failure:
        ledger.installsRefused.increment()
      }
    case 4:
      let probe = OnceProbe()
      let installed = onSomeTarget { proxy in
        Result { () throws(DelegateProxyError) in try installOnceHook(method: method, on: proxy, probe: probe) }
      }
      switch installed {
      case .success(let token):
        ledger.onceInstalled.increment()
        once.append((token, probe))
      case .failure:
        ledger.installsRefused.increment()
      }
    case 5...7:
      if !plain.isEmpty { removePlain(plain.remove(at: random.below(plain.count))) }
    case 8:
      if !once.isEmpty { settleOnce(once.remove(at: random.below(once.count))) }
    default:
      // A proxy of the same type made, hooked and dropped on this thread.
      let proxy = StressProbeProxy()
      if let token = try? installChurnHook(random.pick(ChurnHook.allCases), method: method, on: proxy) {
        ledger.plainInstalled.increment()
        plain.append(token)
      }
      ledger.proxiesMadeAndDropped.increment()
    }
  }
  for token in plain { removePlain(token) }
  for entry in once { settleOnce(entry) }
}
