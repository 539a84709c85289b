import DelegateProxyKit
import DelegateProxyKitTestSupport
import Synchronization
import Testing

@Suite struct DelegateSlotTests {
  @Test func theSlotHoldsTheDelegateItWasToldWeakly() {
    let slot = DelegateSlot<any ProbeDelegate>()
    var delegate: RecordingProbe? = RecordingProbe()
    weak let released = delegate
    slot.delegateDidChange(to: delegate)
    let inner = slot.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    let outer = slot.install(OtherProbeProxy.self) { OtherProbeProxy() }
    outer.one(1)
    // Removing the innermost proxy relinks the next one to the delegate the slot keeps.
    slot.remove(inner)
    outer.one(2)
    #expect(delegate?.log == ["one 1", "one 2"])
    #expect(outer.forwardee === delegate)
    delegate = nil
    #expect(released == nil)
    #expect(outer.forwardee == nil)
  }

  @Test func theHostKeepsReturningTheUsersDelegate() throws {
    let host = ProbeHost()
    let delegate = RecordingProbe()
    host.delegate = delegate
    host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    #expect(host.delegate === delegate)
    #expect(host.target !== delegate)
    host.tap(4)
    #expect(delegate.log == ["one 4"])
  }

  @Test func installingTheSameTypeTwiceReturnsTheExistingProxy() throws {
    let host = ProbeHost()
    let first = host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    var madeAgain = false
    let second = host.install(ProbeDelegateProxy.self) {
      madeAgain = true
      return ProbeDelegateProxy()
    }
    #expect(first === second)
    #expect(!madeAgain)
    #expect(host.delegateSlot.proxies.count == 1)
  }

  @Test func twoProxyTypesStackAndBothCapture() throws {
    let host = ProbeHost()
    let delegate = RecordingProbe()
    host.delegate = delegate
    let log = RecordingLog()
    let inner = host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    let outer = host.install(OtherProbeProxy.self) { OtherProbeProxy() }
    inner.hookBefore(\.one) { _ in log.append("inner") }
    outer.hookBefore(\.one) { _ in log.append("outer") }
    host.tap(1)
    #expect(log.all == ["outer", "inner"])
    #expect(delegate.log == ["one 1"])
    #expect(
      host.delegateSlot.proxies.map { ObjectIdentifier($0) } == [ObjectIdentifier(outer), ObjectIdentifier(inner)])
  }

  @Test(arguments: [true, false])
  func removalInEitherOrderKeepsTheRestWorking(innerFirst: Bool) throws {
    let host = ProbeHost()
    let delegate = RecordingProbe()
    host.delegate = delegate
    let log = RecordingLog()
    let inner = host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    let outer = host.install(OtherProbeProxy.self) { OtherProbeProxy() }
    inner.hookBefore(\.one) { _ in log.append("inner") }
    outer.hookBefore(\.one) { _ in log.append("outer") }

    let (first, second): (DelegateProxy<any ProbeDelegate>, DelegateProxy<any ProbeDelegate>) =
      innerFirst ? (inner, outer) : (outer, inner)
    #expect(host.remove(first))
    #expect(!host.remove(first))
    host.tap(1)
    #expect(log.all == [innerFirst ? "outer" : "inner"])
    #expect(host.remove(second))
    host.tap(2)
    #expect(log.all.count == 1)
    #expect(delegate.log == ["one 1", "one 2"])
    #expect(host.delegateSlot.head == nil)
  }

  @Test func resettingTheDelegateRetargetsTheChain() throws {
    let host = ProbeHost()
    let first = RecordingProbe()
    let second = RecordingProbe()
    host.delegate = first
    let proxy = host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    _ = host.install(OtherProbeProxy.self) { OtherProbeProxy() }
    let counter = Counter()
    proxy.hookAfter(\.one) { _ in counter.increment() }

    host.tap(1)
    host.delegate = second
    host.tap(2)
    #expect(host.delegate === second)
    #expect(first.log == ["one 1"])
    #expect(second.log == ["one 2"])

    host.delegate = nil
    host.tap(3)
    #expect(host.select(3) == true)
    #expect(counter.count == 3)
    #expect(host.delegateSlot.proxies.count == 2)
  }

  @Test func nothingLeaks() throws {
    weak var weakHost: ProbeHost?
    weak var weakProxy: ProbeDelegateProxy?
    weak var weakOther: OtherProbeProxy?
    weak var weakDelegate: RecordingProbe?
    do {
      let host = ProbeHost()
      let delegate = RecordingProbe()
      host.delegate = delegate
      let proxy = host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
      let other = host.install(OtherProbeProxy.self) { OtherProbeProxy() }
      proxy.hookAfter(\.one) { [weak proxy] _ in _ = proxy?.hooks.count }
      other.hookBefore(\.one) { [unowned other] _ in _ = other.hooks.count }
      try proxy.hooks.addHook(for: "one(_:)", at: .before) { _ in _ = delegate.log }
      _ = try proxy.invocations(of: \.one)
      host.tap(1)
      weakHost = host
      weakProxy = proxy
      weakOther = other
      weakDelegate = delegate
    }
    #expect(weakHost == nil)
    #expect(weakProxy == nil)
    #expect(weakOther == nil)
    #expect(weakDelegate == nil)
  }

  @Test func theSlotDoesNotKeepTheDelegateAlive() throws {
    let host = ProbeHost()
    weak var weakDelegate: RecordingProbe?
    host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    do {
      let delegate = RecordingProbe()
      host.delegate = delegate
      weakDelegate = delegate
    }
    #expect(weakDelegate == nil)
    #expect(host.select(3) == true)
  }
}

@Suite struct SlotDispatchTests {
  @Test func aDispatchKeepsTheHeadAliveWhileItsCallRemovesIt() {
    let host = ProbeHost()
    let delegate = RecordingProbe()
    host.delegate = delegate
    weak var installed: ProbeDelegateProxy?
    var aliveAfterRemoval: Bool?
    do {
      let proxy = host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
      installed = proxy
      proxy.hookBefore(\.one) { _ in
        if let proxy = installed { host.remove(proxy) }
        aliveAfterRemoval = installed != nil
      }
    }
    #expect(installed != nil)
    host.tap(1)
    // The slot no longer holds the proxy, but the call that was inside it kept it until it returned.
    #expect(aliveAfterRemoval == true)
    #expect(installed == nil)
    #expect(host.delegateSlot.proxies.isEmpty)
    host.tap(2)
    #expect(delegate.log == ["one 2"])
  }

  @Test func aChainKeepsTheProxyItForwardsToAliveWhileThatProxysCallRemovesIt() {
    // The outer proxy calls the inner one borrowed, without retaining it. The delegate removes
    // the inner proxy from the chain during the call: the slot and the outer proxy both let go
    // of it, yet the inner proxy's call still has its after hooks to run.
    final class Remover: ProbeDelegate {
      var onOne: () -> Void = {}
      func one(_ a: Int) { onOne() }
    }
    let host = ProbeHost()
    let delegate = Remover()
    host.delegate = delegate
    weak var inner: ProbeDelegateProxy?
    var aliveInsideTheCall: Bool?
    var innerAfterHooks = 0
    do {
      let proxy = host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
      inner = proxy
      proxy.hookAfter(\.one) { _ in innerAfterHooks += 1 }
    }
    let outer = host.install(OtherProbeProxy.self) { OtherProbeProxy() }
    delegate.onOne = {
      if let proxy = inner { host.remove(proxy) }
      aliveInsideTheCall = inner != nil
    }
    host.tap(1)
    #expect(aliveInsideTheCall == true)
    #expect(innerAfterHooks == 1)
    // Released once the call that was inside it returned.
    #expect(inner == nil)
    #expect(host.delegateSlot.proxies.map { ObjectIdentifier($0) } == [ObjectIdentifier(outer)])
    let outerCount = Counter()
    outer.hookAfter(\.one) { _ in outerCount.increment() }
    host.tap(2)
    #expect(outerCount.count == 1)
    #expect(innerAfterHooks == 1)
  }

  @Test func aDispatchWithoutAProxyCallsTheDelegateOrNothing() {
    let host = ProbeHost()
    #expect(host.delegateSlot.dispatch(orElse: host.delegate) { $0.shouldSelect(1) } == nil)
    let delegate = RecordingProbe()
    host.delegate = delegate
    #expect(host.delegateSlot.dispatch(orElse: host.delegate) { $0.shouldSelect(1) } == true)
    #expect(delegate.log == ["shouldSelect 1"])
  }
}

@Suite struct ReentrancyGuardTests {
  @Test func proxiesPointingAtEachOtherDoNotLoopForever() throws {
    let first = ProbeDelegateProxy()
    let second = OtherProbeProxy()
    first.forwardee = second
    second.forwardee = first
    let reported = RecordingLog()
    first.hooks.setErrorHandler { reported.append("\($0)") }
    second.hooks.setErrorHandler { reported.append("\($0)") }
    first.one(1)
    #expect(first.shouldSelect(2) == true)
    #expect(reported.all.count == 2)
    #expect(reported.all.first?.contains("loop") == true)
  }

  @Test func twoChainsReachingTheSameProxyKindCountOnce() throws {
    // host A's chain: trackerA → delegate. Host B's user sets B.delegate = trackerA (a proxy of
    // the same kind), so B's calls pass trackerB and then trackerA: only trackerB counts them.
    let delegate = RecordingProbe()
    let hostA = ProbeHost()
    hostA.delegate = delegate
    let trackerA = hostA.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    let hostB = ProbeHost()
    let trackerB = hostB.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    hostB.delegate = trackerA
    let countA = Counter()
    let countB = Counter()
    trackerA.hookAfter(\.one) { _ in countA.increment() }
    trackerB.hookAfter(\.one) { _ in countB.increment() }

    hostB.tap(1)
    #expect(countB.count == 1)
    #expect(countA.count == 0)
    hostA.tap(2)
    #expect(countA.count == 1)
    #expect(delegate.log == ["one 1", "one 2"])
  }

  @Test func onlyAProxyThatAProxyForwardsToReadsTheChainThatLedToIt() {
    let delegate = RecordingProbe()
    let inner = ProbeDelegateProxy(forwardee: delegate)
    let innerCount = Counter()
    inner.hookAfter(\.one) { _ in innerCount.increment() }
    inner.one(1)
    #if DEBUG
      #expect(inner.hooks.forwardingPathReads.load(ordering: .relaxed) == 0)
    #endif
    // Once a proxy of the same kind forwards to it, a call through that proxy finds it in the
    // chain, and only the outer proxy counts the call.
    let outer = ProbeDelegateProxy(forwardee: inner)
    let outerCount = Counter()
    outer.hookAfter(\.one) { _ in outerCount.increment() }
    outer.one(2)
    inner.one(3)
    #expect(innerCount.count == 2)
    #expect(outerCount.count == 1)
    #expect(delegate.log == ["one 1", "one 2", "one 3"])
    #if DEBUG
      #expect(inner.hooks.forwardingPathReads.load(ordering: .relaxed) == 2)
      #expect(outer.hooks.forwardingPathReads.load(ordering: .relaxed) == 0)
    #endif
  }

  @Test func eachThreadFollowsOnlyItsOwnChain() async {
    // Chains of two proxies, one chain per thread, all called at once. Each thread's forwarding
    // path holds its own chain only: no call is taken for a loop, and since the inner proxies are
    // of another type than the outer ones, every inner after hook runs, once per call.
    final class CountingProbe: ProbeDelegate, Sendable {
      let ones = AtomicCounter()
      func one(_ a: Int) { ones.increment() }
    }
    let threads = 4
    let calls = 2_000
    let delegates = (0..<threads).map { _ in CountingProbe() }
    let innerHooks = (0..<threads).map { _ in AtomicCounter() }
    let reported = AtomicCounter()
    let chains = (0..<threads).map { thread in
      let inner = ProbeDelegateProxy(forwardee: delegates[thread])
      let counter = innerHooks[thread]
      inner.hookAfter(\.one) { _ in counter.increment() }
      inner.hooks.setErrorHandler { _ in reported.increment() }
      let outer = OtherProbeProxy(forwardee: inner)
      outer.hooks.setErrorHandler { _ in reported.increment() }
      return SharedProxy(outer)
    }
    await runOnThreads(
      chains.map { chain in
        { @Sendable in
          for call in 0..<calls { chain.proxy.one(call) }
        }
      })
    #expect(reported.value == 0)
    for thread in 0..<threads {
      #expect(delegates[thread].ones.value == calls, "thread \(thread)")
      #expect(innerHooks[thread].value == calls, "thread \(thread)")
    }
  }

  @Test func aDelegateThatCallsBackIntoItsHostIsNotMistakenForALoop() throws {
    final class Reentrant: ProbeDelegate, @unchecked Sendable {
      weak var host: ProbeHost?
      var calls: [Int] = []
      func one(_ a: Int) {
        calls.append(a)
        if a > 0 { host?.tap(a - 1) }
      }
    }
    let host = ProbeHost()
    let delegate = Reentrant()
    delegate.host = host
    host.delegate = delegate
    host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    host.install(OtherProbeProxy.self) { OtherProbeProxy() }
    host.tap(3)
    #expect(delegate.calls == [3, 2, 1, 0])
  }
}
