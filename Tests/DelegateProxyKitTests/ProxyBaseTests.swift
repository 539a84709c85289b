import DelegateProxyKit
import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Foundation
import Synchronization
import Testing

/// The proxy bases for the three protocol shapes: NSObjectProtocol, Sendable, both. Each proxy
/// is compared with the same delegate called directly.
@Suite struct ProxyBaseTests {
  // MARK: (a) NSObjectProtocol

  @Test func anNSObjectProtocolProxyForwardsAsTheDelegateAnswers() throws {
    let direct = RecordingArchiveDelegate()
    let delegate = RecordingArchiveDelegate()
    let proxy = ArchiveProbeProxy(forwardee: delegate)

    #expect(proxy.archive("a", willEncode: 3) == direct.archive("a", willEncode: 3))
    try proxy.archiveDidFinish("a")
    try direct.archiveDidFinish("a")
    #expect(delegate.log.all == direct.log.all)
    #expect(delegate.log.all == ["willEncode a 3", "didFinish a"])

    // The error reaches the caller by identity.
    let thrown = #expect(throws: ProbeFailure.self) { try proxy.archiveDidFinish("bad") }
    #expect(thrown === delegate.failure)

    // Without a forwardee: the host's own answer, nothing thrown.
    proxy.forwardee = nil
    #expect(proxy.archive("b", willEncode: 5) == 5)
    try proxy.archiveDidFinish("bad")
  }

  @Test func nsObjectProtocolRequirementsAreTheProxysOwn() {
    let delegate = RecordingArchiveDelegate()
    let proxy = ArchiveProbeProxy(forwardee: delegate)
    let asProtocol: any ArchiveProbeDelegate = proxy
    // NSObject answers for the proxy itself, never for the forwardee.
    #expect(asProtocol.isEqual(proxy))
    #expect(!asProtocol.isEqual(delegate))
    #expect(asProtocol.hash == proxy.hash && asProtocol.hash != delegate.hash)
    #expect(asProtocol.`self`() === proxy)
    #expect(!asProtocol.isProxy())
    #expect(delegate.log.all.isEmpty)
  }

  @Test func hooksOnAnNSObjectProtocolProxyRunOnceInOrder() throws {
    let delegate = RecordingArchiveDelegate()
    let proxy = ArchiveProbeProxy(forwardee: delegate)
    let log = delegate.log
    proxy.hookBefore(\.willEncode) { name, count in log.append("before \(name) \(count)") }
    proxy.hookInstead(\.willEncode) { original, name, count in
      log.append("instead")
      return original(name, count + 1)
    }
    proxy.hookAfter(\.willEncode) { result, name, _ in log.append("after \(name) \(result)") }
    var outcomes: [String] = []
    proxy.hookAfter(\.didFinish) { outcome, name in
      if case .failure(let error) = outcome { outcomes.append("\(name) \(error as AnyObject === delegate.failure)") }
    }

    #expect(proxy.archive("x", willEncode: 1) == 4)
    #expect(log.all == ["before x 1", "instead", "willEncode x 2", "after x 4"])
    #expect(throws: ProbeFailure.self) { try proxy.archiveDidFinish("bad") }
    #expect(outcomes == ["bad true"])
  }

  // MARK: (b) Sendable

  @Test func aSendableProxyForwardsAsTheDelegateAnswers() throws {
    let direct = RecordingTicker()
    let delegate = RecordingTicker()
    let proxy = TickerProbeProxy(forwardee: delegate)

    for count in [0, 9, 10] {
      proxy.tick(count)
      direct.tick(count)
      #expect(proxy.shouldContinue(after: count) == direct.shouldContinue(after: count))
      #expect(try proxy.validate(count) == direct.validate(count))
    }
    #expect(delegate.log.all == direct.log.all)
    #expect(delegate.ticks.value == 19)
    let thrown = #expect(throws: ProbeFailure.self) { try proxy.validate(-1) }
    #expect(thrown === delegate.failure)

    #expect(proxy.forwardee === delegate)
    proxy.forwardee = nil
    #expect(proxy.forwardee == nil)
    #expect(proxy.shouldContinue(after: 50))  // the fallback
    #expect(try proxy.validate(-1) == -1)  // the fallback; nothing thrown
  }

  @Test func sendableHooksRunOnceInOrderAndSeeTheSameError() throws {
    let delegate = RecordingTicker()
    let proxy = TickerProbeProxy(forwardee: delegate)
    let log = RecordingLog()
    proxy.hookBefore(\.tick) { count in log.append("before \(count)") }
    proxy.hookAfter(\.tick) { count in log.append("after \(count)") }
    proxy.hookBefore(\.tick, once: true) { count in log.append("once \(count)") }
    proxy.hookInstead(\.shouldContinue) { original, count in
      log.append("instead \(count)")
      return !original(count)
    }
    let failure = delegate.failure
    proxy.hookAfter(\.validate) { outcome, count in
      switch outcome {
      case .success(let value): log.append("validated \(count) \(value)")
      case .failure(let error): log.append("failed \(count) \(error as AnyObject === failure)")
      }
    }

    proxy.tick(1)
    proxy.tick(2)
    #expect(proxy.shouldContinue(after: 3) == false)
    #expect(try proxy.validate(4) == 5)
    #expect(throws: ProbeFailure.self) { try proxy.validate(-1) }
    #expect(
      log.all == [
        "before 1", "once 1", "after 1", "before 2", "after 2", "instead 3", "validated 4 5", "failed -1 true",
      ])
    #expect(delegate.log.all == ["tick 1", "tick 2"])
  }

  @Test func hooksAreInstalledAndRemovedFromOtherThreads() async throws {
    let delegate = RecordingTicker()
    let proxy = TickerProbeProxy(forwardee: delegate)
    let fired = AtomicCounter()
    let tokens = SanitizedBox<[HookToken]>([])
    await runOnThreads(
      (0..<4).map { _ in
        {
          let token = proxy.hookAfter(\.tick) { count in fired.add(count) }
          tokens.withValue { $0.append(token) }
        }
      })
    proxy.tick(1)
    #expect(fired.value == 4)
    let removed = AtomicCounter()
    let installed = tokens.withValue { $0 }
    await runOnThreads(installed.map { token in { if try! token.remove() { removed.increment() } } })
    #expect(removed.value == 4)
    #expect(proxy.hooks.isEmpty)
    proxy.tick(1)
    #expect(fired.value == 4)
  }

  // MARK: (c) NSObjectProtocol and Sendable

  @Test func aRefinedNSObjectSendableProxyForwardsEveryKindOfCall() async throws {
    let direct = RecordingTransfer()
    let delegate = RecordingTransfer()
    let proxy = TransferTaskProbeProxy(forwardee: delegate)
    let answers = RecordingLog()

    for (id, bytes) in [(1, 10), (2, 5_000)] {
      proxy.transfer(id, didReceive: bytes) { answers.append("proxy \($0)") }
      direct.transfer(id, didReceive: bytes) { answers.append("direct \($0)") }
      #expect(try proxy.transfer(id, willSend: bytes) == direct.transfer(id, willSend: bytes))
      #expect(await proxy.prepare(id) == direct.prepare(id))
    }
    proxy.transfer(3, didFinishWith: nil)
    direct.transfer(3, didFinishWith: nil)
    #expect(delegate.log.all == direct.log.all)
    #expect(answers.all == ["proxy true", "direct true", "proxy false", "direct false"])
    let thrown = #expect(throws: ProbeFailure.self) { try proxy.transfer(4, willSend: -1) }
    #expect(thrown === delegate.failure)
    #expect(proxy.isEqual(proxy) && !proxy.isEqual(delegate))
  }

  @Test func hooksReachInheritedAndAsyncRequirements() async throws {
    let delegate = RecordingTransfer()
    let proxy = TransferTaskProbeProxy(forwardee: delegate)
    let log = RecordingLog()
    proxy.hookBefore(\.transfer.didReceive) { id, bytes, _ in log.append("before receive \(id) \(bytes)") }
    proxy.hookInstead(\.transfer.didReceive) { original, id, bytes, handler in
      // The hook wraps the completion handler: the host still gets the delegate's answer.
      let relay: @Sendable (Bool) -> Void = { answer in
        log.append("answer \(answer)")
        handler(answer)
      }
      original(id, bytes, relay)
    }
    proxy.hookAfter(\.prepare) { value, id in log.append("prepared \(id) \(value)") }
    proxy.hookInstead(\.prepare) { original, id in await original(id + 1) }

    let received = RecordingLog()
    proxy.transfer(7, didReceive: 20) { received.append("\($0)") }
    #expect(await proxy.prepare(2) == 30)
    #expect(received.all == ["true"])
    #expect(log.all == ["before receive 7 20", "answer true", "prepared 2 30"])
    #expect(delegate.log.all == ["didReceive 7 20", "prepare 3"])
  }

  // MARK: Forwardee

  @Test func aSendableProxyChainsToAnotherProxyAndStopsALoop() throws {
    let delegate = RecordingTicker()
    let inner = TickerProbeProxy(forwardee: delegate)
    let outer = TickerProbeProxy(forwardee: inner)
    let seen = RecordingLog()
    outer.hookBefore(\.tick) { seen.append("outer \($0)") }
    outer.tick(1)
    #expect(delegate.log.all == ["tick 1"])
    #expect(outer.forwardee === inner)

    // A loop: the call is stopped and reported, the host gets the fallback.
    let reported = SanitizedBox<[DelegateProxyError]>([])
    outer.hooks.setErrorHandler { error in reported.withValue { $0.append(error) } }
    inner.hooks.setErrorHandler { error in reported.withValue { $0.append(error) } }
    inner.forwardee = outer
    #expect(outer.shouldContinue(after: 50))
    #expect(
      reported.withValue { $0 } == [.forwardingCycle(selector: "shouldContinue(after:)", proxyType: "TickerProbeProxy")]
    )
    #expect(delegate.log.all == ["tick 1"])
    // Reset the loop so both proxies can be freed.
    inner.forwardee = nil
  }

  @Test func aSendableProxyHoldsItsForwardeeWeaklyUnlessAskedToRetainIt() {
    weak var released: RecordingTicker?
    weak var retained: RecordingTicker?
    let weakProxy = TickerProbeProxy()
    let strongProxy = TickerProbeProxy(retainsForwardee: true)
    do {
      let first = RecordingTicker()
      let second = RecordingTicker()
      released = first
      retained = second
      weakProxy.forwardee = first
      strongProxy.forwardee = second
    }
    #expect(released == nil)
    #expect(weakProxy.forwardee == nil)
    #expect(retained != nil)
    #expect(strongProxy.forwardee === retained)
    strongProxy.forwardee = nil
    #expect(retained == nil)
  }

  @Test func proxiesOfEveryBaseAreFreed() throws {
    weak var archive: ArchiveProbeProxy?
    weak var ticker: TickerProbeProxy?
    weak var linked: TickerProbeProxy?
    weak var transfer: TransferTaskProbeProxy?
    let tickerDelegate = RecordingTicker()
    let transferDelegate = RecordingTransfer()
    do {
      let archiveProxy = ArchiveProbeProxy(forwardee: RecordingArchiveDelegate())
      let innerProxy = TickerProbeProxy(forwardee: tickerDelegate)
      let outerProxy = TickerProbeProxy(forwardee: innerProxy)
      let transferProxy = TransferTaskProbeProxy(forwardee: transferDelegate)
      innerProxy.hookAfter(\.tick) { [unowned innerProxy] _ in _ = innerProxy.hooks }
      transferProxy.hookInstead(\.prepare) { original, id in await original(id) }
      outerProxy.tick(1)
      archive = archiveProxy
      ticker = outerProxy
      linked = innerProxy
      transfer = transferProxy
    }
    #expect(archive == nil && ticker == nil && linked == nil && transfer == nil)
    #expect(tickerDelegate.ticks.value == 1)
  }
}

/// A value shared by test threads behind the package's lock.
final class SanitizedBox<Value: Sendable>: Sendable {
  private let storage: SanitizerVisibleMutex<Value>
  init(_ value: Value) { storage = SanitizerVisibleMutex(value) }
  func withValue<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { storage.withLock { body(&$0) } }
}
