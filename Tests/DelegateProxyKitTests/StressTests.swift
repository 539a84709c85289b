import DelegateProxyKit
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
  var callsPerProxy = 4_000
  /// Install-or-remove operations each churn thread performs.
  var churnOperations = 3_000

  var callsPerForwardingThread: Int { proxiesPerForwardingThread * callsPerProxy }
  var totalCalls: Int { forwardingThreads * callsPerForwardingThread }

  /// Calls of one selector per forwarding thread: call `n` goes to selector `n % 3`.
  func callsPerForwardingThread(selectorIndex: Int) -> Int {
    proxiesPerForwardingThread * ((callsPerProxy - selectorIndex + 2) / 3)
  }
}

/// A proxy type used only here, so its type-wide hooks never reach another test.
final class StressProbeProxy: DelegateProxy<any ProbeDelegate>, @unchecked Sendable {
  private weak var target: (any ProbeDelegate)?
  override var weakForwardee: (any ProbeDelegate)? {
    get { target }
    set { target = newValue }
  }
  override class var methods: [ProxyMethod] {
    [.void("one(_:)"), .value("shouldSelect(_:)"), .optional("height(forRow:)")]
  }
}

extension StressProbeProxy: ProbeDelegate {
  func one(_ a: Int) { forward(#function, a) { $0.one(a) } }
  func shouldSelect(_ row: Int) -> Bool { forward(#function, row, orElse: true) { $0.shouldSelect(row) } }
  func height(forRow row: Int) -> Double? { forward(#function, row) { $0.height(forRow: row) } }
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

/// The hook registries of the proxies currently in use, for churn threads to pick from.
final class PublishedRegistries: Sendable {
  private let slots: SanitizerVisibleMutex<[HookRegistry?]>
  init(count: Int) { slots = SanitizerVisibleMutex(Array(repeating: nil, count: count)) }
  func publish(_ registry: HookRegistry?, at index: Int) { slots.withLock { $0[index] = registry } }
  func registry(at index: Int) -> HookRegistry? { slots.withLock { $0[index] } }
}

/// What churn threads did, to check against what the hooks saw.
final class ChurnLedger: Sendable {
  /// Plain hooks installed; each must later be removed (`true`) or die with its proxy.
  let plainInstalled = AtomicCounter()
  let plainRemoved = AtomicCounter()
  let plainDiedWithProxy = AtomicCounter()
  let plainRemovedTwiceReturnedTrue = AtomicCounter()
  /// Installs refused because the proxy had been deallocated in the meantime.
  let installsRefused = AtomicCounter()
  /// Run-once hooks, with what removing their token answered (`nil`: the proxy was gone).
  let onceInstalled = AtomicCounter()
  let onceSettled = SanitizerVisibleMutex<[(removed: Bool?, probe: OnceProbe)]>([])
  /// Short-lived proxies made and dropped by churn threads.
  let proxiesMadeAndDropped = AtomicCounter()
}

/// One run-once hook: whether it ran, and how often.
final class OnceProbe: Sendable {
  let runs = AtomicCounter()
}

@Suite struct StressTests {
  @Test(arguments: StressSubject.allCases)
  func hooksChurnOnFourThreadsWhileFourThreadsForward(_ subject: StressSubject) throws {
    switch subject {
    case .typedProxy: try stressTypedProxy(StressFigures())
    }
  }

  private func stressTypedProxy(_ figures: StressFigures) throws {
    let typeHooks = StressProbeProxy.typeHooks
    try #require(typeHooks.isEmpty, "another test left type-wide hooks on StressProbeProxy")

    // Hooks that stay installed for the whole run: their fire counts must equal the call counts.
    let typeWideBefore = AtomicCounter()
    let typeWideInstead = AtomicCounter()
    var stickyTypeTokens: [HookToken] = []
    for selector in ["one(_:)", "shouldSelect(_:)", "height(forRow:)"] {
      stickyTypeTokens.append(
        try StressProbeProxy.addTypeHook(for: selector, at: .before) { _ in typeWideBefore.increment() })
    }
    stickyTypeTokens.append(
      try StressProbeProxy.addTypeInsteadHook(for: "shouldSelect(_:)") { call in
        typeWideInstead.increment()
        call.proceed()
      })

    let delegates = (0..<figures.forwardingThreads).map { _ in StressDelegate() }
    let instanceAfter = (0..<figures.forwardingThreads).map { _ in AtomicCounter() }
    let wrongResults = AtomicCounter()
    let registries = PublishedRegistries(count: figures.forwardingThreads)
    let ledger = ChurnLedger()
    let everyRegistry = SanitizerVisibleMutex<[HookRegistry]>([])

    var bodies: [@Sendable () -> Void] = []
    for thread in 0..<figures.forwardingThreads {
      bodies.append {
        let delegate = delegates[thread]
        for _ in 0..<figures.proxiesPerForwardingThread {
          // Each forwarding thread uses only proxies it made: proxies are confined to one isolation.
          let proxy = StressProbeProxy(forwardee: delegate)
          let counter = instanceAfter[thread]
          for selector in ["one(_:)", "shouldSelect(_:)", "height(forRow:)"] {
            _ = try? proxy.addHook(for: selector, at: .after) { _ in counter.increment() }
          }
          everyRegistry.withLock { $0.append(proxy.hooks) }
          registries.publish(proxy.hooks, at: thread)
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
          registries.publish(nil, at: thread)
        }
      }
    }
    for thread in 0..<figures.churnThreads {
      bodies.append {
        churn(
          seed: 0x5EED_0000 + UInt64(thread), operations: figures.churnOperations,
          forwardingThreads: figures.forwardingThreads, registries: registries, ledger: ledger)
      }
    }
    runOnThreads(bodies)

    // Every call reached the original exactly once, with its result unchanged.
    for (thread, delegate) in delegates.enumerated() {
      #expect(delegate.ones.value == figures.callsPerForwardingThread(selectorIndex: 0), "thread \(thread)")
      #expect(delegate.selects.value == figures.callsPerForwardingThread(selectorIndex: 1), "thread \(thread)")
      #expect(delegate.heights.value == figures.callsPerForwardingThread(selectorIndex: 2), "thread \(thread)")
      #expect(instanceAfter[thread].value == figures.callsPerForwardingThread, "thread \(thread)")
    }
    #expect(wrongResults.value == 0)
    // Every capture counted exactly once.
    #expect(typeWideBefore.value == figures.totalCalls)
    #expect(typeWideInstead.value == figures.forwardingThreads * figures.callsPerForwardingThread(selectorIndex: 1))
    // The churn threads' books balance.
    #expect(ledger.plainInstalled.value > 0)
    #expect(ledger.plainInstalled.value == ledger.plainRemoved.value + ledger.plainDiedWithProxy.value)
    #expect(ledger.plainRemovedTwiceReturnedTrue.value == 0)
    #expect(ledger.onceInstalled.value > 0)
    // A run-once hook removed by its token never ran; one its token found gone was claimed by a
    // call and ran exactly once; none ran twice.
    let once = ledger.onceSettled.withLock { $0.map { (removed: $0.removed, runs: $0.probe.runs.value) } }
    #expect(once.count == ledger.onceInstalled.value)
    #expect(once.filter { $0.removed == true && $0.runs != 0 }.isEmpty)
    #expect(once.filter { $0.removed == false && $0.runs != 1 }.isEmpty)
    #expect(once.filter { $0.runs > 1 }.isEmpty)
    #expect(ledger.proxiesMadeAndDropped.value > 0)
    // Nothing is left installed.
    #expect(typeHooks.count == stickyTypeTokens.count)
    for token in stickyTypeTokens { #expect(try token.remove()) }
    #expect(typeHooks.count == 0)
    let leftover = everyRegistry.withLock { $0.map(\.count) }
    #expect(leftover.allSatisfy { $0 == 0 }, "hooks left on dead proxies: \(leftover)")
  }
}

/// One churn thread: installs hooks (plain, run-once, observers; on the type or on a proxy in
/// use), removes them in random order, sometimes twice, and makes and drops proxies of its own.
private func churn(
  seed: UInt64, operations: Int, forwardingThreads: Int, registries: PublishedRegistries, ledger: ChurnLedger
) {
  var random = SplitMix64(seed: seed)
  let selectors = ["one(_:)", "shouldSelect(_:)", "height(forRow:)"]
  var plain: [HookToken] = []
  var once: [(token: HookToken, probe: OnceProbe)] = []

  func removePlain(_ token: HookToken) {
    do {
      if try token.remove() {
        ledger.plainRemoved.increment()
        // Removing again is a no-op.
        if (try? token.remove()) == true { ledger.plainRemovedTwiceReturnedTrue.increment() }
      } else {
        // A plain hook cannot vanish on its own: `false` would mean it was lost.
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

  for _ in 0..<operations {
    let registry: HookRegistry
    if random.oneIn(3) {
      registry = StressProbeProxy.typeHooks
    } else if let published = registries.registry(at: random.below(forwardingThreads)) {
      registry = published
    } else {
      registry = StressProbeProxy.typeHooks
    }
    let selector = random.pick(selectors)
    switch random.below(10) {
    case 0...3:
      do {
        let token: HookToken
        switch random.below(4) {
        case 0: token = try registry.addHook(for: selector, at: .before) { _ in }
        case 1: token = try registry.addHook(for: selector, at: .after) { _ in }
        case 2: token = try registry.observe(selector) { _ in }
        default: token = try registry.addInsteadHook(for: selector) { $0.proceed() }
        }
        ledger.plainInstalled.increment()
        plain.append(token)
      } catch {
        ledger.installsRefused.increment()
      }
    case 4:
      let probe = OnceProbe()
      if let token = try? registry.addHook(for: selector, at: .after, once: true, { _ in probe.runs.increment() }) {
        ledger.onceInstalled.increment()
        once.append((token, probe))
      } else {
        ledger.installsRefused.increment()
      }
    case 5...7:
      if !plain.isEmpty { removePlain(plain.remove(at: random.below(plain.count))) }
    case 8:
      if !once.isEmpty { settleOnce(once.remove(at: random.below(once.count))) }
    default:
      // A proxy of the same type made, hooked and dropped on this thread.
      let proxy = StressProbeProxy()
      if let token = try? proxy.addHook(for: selector, at: .before, { _ in }) {
        ledger.plainInstalled.increment()
        plain.append(token)
      }
      ledger.proxiesMadeAndDropped.increment()
    }
  }
  for token in plain { removePlain(token) }
  for entry in once { settleOnce(entry) }
}
