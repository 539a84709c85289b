import DelegateProxyKit
import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Testing

/// Proxies chained to proxies on the `async` path: the task-local loop guard, which a hooked call
/// reads only when some proxy has forwarded to the proxy it enters.
@MainActor @Suite struct AsyncChainTests {
  @Test func aProxyOfATypeAlreadyInTheChainForwardsWithoutItsHooks() async throws {
    let delegate = EffectsRecorder()
    let inner = EffectsProxy(forwardee: delegate)
    let outer = EffectsProxy(forwardee: inner)
    let log = RecordingLog()
    outer.hookAfter(\.fetch) { _, id in log.append("outer \(id)") }
    inner.hookAfter(\.fetch) { _, id in log.append("inner \(id)") }
    #expect(try await outer.fetch(4) == Receipt(id: 4, total: 400))
    // The call already ran this type's hooks at `outer`: `inner` forwards without its own.
    #expect(log.all == ["outer 4"])
    // Called directly, `inner` runs them.
    #expect(try await inner.fetch(5) == Receipt(id: 5, total: 500))
    #expect(log.all == ["outer 4", "inner 5"])
  }

  @Test func aLoopOfAsyncProxiesIsStoppedAndReported() async throws {
    let delegate = EffectsRecorder()
    let inner = EffectsProxy(forwardee: delegate)
    let outer = EffectsProxy(forwardee: inner)
    outer.hookBefore(\.fetch) { _ in }
    inner.hookBefore(\.fetch) { _ in }
    let reported = SanitizerVisibleMutex<[DelegateProxyError]>([])
    outer.hooks.setErrorHandler { error in reported.withLock { $0.append(error) } }
    inner.hooks.setErrorHandler { error in reported.withLock { $0.append(error) } }
    inner.forwardee = outer
    // The host gets the fallback, the delegate is never reached, and the loop is reported once.
    #expect(try await outer.fetch(6) == .none)
    #expect(reported.withLock { $0 } == [.forwardingCycle(selector: "fetch(_:)", proxyType: "EffectsProxy")])
    #expect(delegate.log.all.isEmpty)
    // Break the loop so both proxies can be freed.
    inner.forwardee = nil
  }
}
