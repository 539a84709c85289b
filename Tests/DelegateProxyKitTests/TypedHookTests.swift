import DelegateProxyKit
import DelegateProxyKitTestSupport
import Testing

// MARK: Type-wide typed hooks

/// A delegate protocol with a throwing and an `async` method, for type-wide hooks.
protocol LedgerDelegate: AnyObject {
  func post(_ amount: Int) throws -> Int
  @MainActor func settle(_ id: Int) async -> Bool
}

/// Thrown by the ledger for a negative amount; a class, for identity checks.
final class LedgerRefusal: Error {}

/// A proxy type used only by `TypeWideTypedHookTests`: type-wide hooks are process-wide.
final class TypeWideLedgerProxy: DelegateProxy<any LedgerDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let post = ThrowingDelegateMethod<Int, Int, any Error>("post(_:)")
    let settle = AsyncDelegateMethod<Int, Bool>("settle(_:)")
  }
  static let methods = Methods()
}

extension TypeWideLedgerProxy: LedgerDelegate {
  func post(_ amount: Int) throws -> Int {
    try forward(Self.methods.post, amount, orElse: 0) { try $0.post($1) }
  }
  @MainActor func settle(_ id: Int) async -> Bool {
    await forward(Self.methods.settle, id, orElse: false) { await $0.settle($1) }
  }
}

final class LedgerRecorder: LedgerDelegate {
  let log: RecordingLog
  let refusal = LedgerRefusal()
  init(log: RecordingLog) { self.log = log }

  func post(_ amount: Int) throws -> Int {
    log.append("delegate post \(amount)")
    if amount < 0 { throw refusal }
    return amount + 1
  }

  @MainActor func settle(_ id: Int) async -> Bool {
    log.append("delegate settle \(id)")
    await Task.yield()
    return id.isMultiple(of: 2)
  }
}

/// Type-wide typed hooks (the static `hookBefore` family) run on every proxy of the type, before
/// the proxy's own hooks. Each test removes what it installed on the type.
@Suite(.serialized) struct TypeWideTypedHookTests {
  @Test func typeWideHooksRunBeforeInstanceHooksOnEveryProxy() throws {
    defer { TypeWideLedgerProxy.typeHooks.removeAll() }
    let log = RecordingLog()
    let delegate = LedgerRecorder(log: log)
    let first = TypeWideLedgerProxy(forwardee: delegate)
    first.hookBefore(\.post) { amount in log.append("instance before \(amount)") }
    first.hookAfter(\.post) { result, _ in log.append("instance after \((try? result.get()) ?? -1)") }
    let typeBefore = TypeWideLedgerProxy.hookBefore(\.post) { amount in log.append("type before \(amount)") }
    let typeAfter = TypeWideLedgerProxy.hookAfter(\.post) { result, _ in
      log.append("type after \((try? result.get()) ?? -1)")
    }
    #expect(TypeWideLedgerProxy.typeHooks.count == 2)
    #expect(try first.post(1) == 2)
    #expect(
      log.all == [
        "type before 1", "instance before 1", "delegate post 1", "type after 2", "instance after 2",
      ])
    // Another proxy, made after the hooks were installed, runs the type-wide hooks only.
    let second = TypeWideLedgerProxy(forwardee: delegate)
    #expect(throws: LedgerRefusal.self) { try second.post(-1) }
    #expect(log.all.suffix(3) == ["type before -1", "delegate post -1", "type after -1"])
    // Removed, they run nowhere.
    #expect(try typeBefore.remove() && typeAfter.remove())
    #expect(try second.post(5) == 6)
    #expect(log.all.last == "delegate post 5")
    #expect(TypeWideLedgerProxy.typeHooks.isEmpty)
  }

  @Test func typeWideHooksSeeTheSameErrorInstance() throws {
    defer { TypeWideLedgerProxy.typeHooks.removeAll() }
    let log = RecordingLog()
    let delegate = LedgerRecorder(log: log)
    let proxy = TypeWideLedgerProxy(forwardee: delegate)
    let sameInstance = Counter()
    let refusal = delegate.refusal
    TypeWideLedgerProxy.hookAfter(\.post) { result, _ in
      if case .failure(let error) = result, error as? LedgerRefusal === refusal { sameInstance.increment() }
    }
    do {
      _ = try proxy.post(-3)
    } catch {
      #expect(error as? LedgerRefusal === refusal)
    }
    #expect(sameInstance.count == 1)
  }

  @Test func typeWideInsteadHooksRunOutsideInstanceOnes() throws {
    defer { TypeWideLedgerProxy.typeHooks.removeAll() }
    let log = RecordingLog()
    let delegate = LedgerRecorder(log: log)
    let proxy = TypeWideLedgerProxy(forwardee: delegate)
    proxy.hookInstead(\.post) { original, amount in
      log.append("instance instead \(amount)")
      return try original(amount) * 10
    }
    TypeWideLedgerProxy.hookInstead(\.post) { original, amount in
      log.append("type instead \(amount)")
      return try original(amount + 1)
    }
    #expect(try proxy.post(1) == 30)
    #expect(log.all == ["type instead 1", "instance instead 2", "delegate post 2"])
  }

  @MainActor @Test func typeWideHooksOnAsyncMethods() async throws {
    defer { TypeWideLedgerProxy.typeHooks.removeAll() }
    let log = RecordingLog()
    let delegate = LedgerRecorder(log: log)
    let proxies = [TypeWideLedgerProxy(forwardee: delegate), TypeWideLedgerProxy(forwardee: delegate)]
    TypeWideLedgerProxy.hookBefore(\.settle) { id in log.append("type before \(id)") }
    TypeWideLedgerProxy.hookInstead(\.settle) { original, id in
      log.append("type instead \(id)")
      return await original(id)
    }
    TypeWideLedgerProxy.hookAfter(\.settle) { settled, id in log.append("type after \(id) \(settled)") }
    proxies[0].hookBefore(\.settle) { id in log.append("instance before \(id)") }
    #expect(await proxies[0].settle(2) == true)
    #expect(await proxies[1].settle(3) == false)
    #expect(
      log.all == [
        "type before 2", "instance before 2", "type instead 2", "delegate settle 2", "type after 2 true",
        "type before 3", "type instead 3", "delegate settle 3", "type after 3 false",
      ])
  }
}

// MARK: Run-once typed hooks

/// A proxy type used only by the type-wide run-once test.
final class OnceProbeProxy: DelegateProxy<any ProbeDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let one = DelegateMethod<Int, Void>("one(_:)")
  }
  static let methods = Methods()
}

extension OnceProbeProxy: ProbeDelegate {
  func one(_ a: Int) { forward(Self.methods.one, a) { $0.one($1) } }
}

@Suite struct RunOnceTypedHookTests {
  static let threads = 4
  static let callsPerThread = 500
  static let rounds = 20

  @Test func runOnceHooksRunExactlyOnceUnderConcurrentCallsOnOneProxy() async throws {
    for round in 0..<Self.rounds {
      let delegate = CountingProbe()
      let proxy = ProbeDelegateProxy(forwardee: delegate)
      let before = AtomicCounter()
      let instead = AtomicCounter()
      let after = AtomicCounter()
      let tokens = [
        proxy.hookBefore(\.one, once: true) { _ in before.increment() },
        proxy.hookInstead(\.one, once: true) { original, a in
          instead.increment()
          original(a)
        },
        proxy.hookAfter(\.one, once: true) { _ in after.increment() },
      ]
      // Several threads call into one proxy at once: the test shares it on purpose.
      let shared = SharedProxy(proxy)
      await runOnThreads(
        (0..<Self.threads).map { _ in
          { for call in 0..<Self.callsPerThread { shared.proxy.one(call) } }
        })
      #expect(before.value == 1, "round \(round)")
      #expect(instead.value == 1, "round \(round)")
      #expect(after.value == 1, "round \(round)")
      #expect(delegate.count == Self.threads * Self.callsPerThread, "round \(round)")
      #expect(proxy.hooks.isEmpty, "round \(round)")
      for token in tokens { #expect(try token.remove() == false) }
    }
  }

  @Test func aTypeWideRunOnceHookRunsOnceAcrossProxiesOnSeveralThreads() async throws {
    for round in 0..<Self.rounds {
      let runs = AtomicCounter()
      let token = OnceProbeProxy.hookAfter(\.one, once: true) { _ in runs.increment() }
      let delegate = CountingProbe()
      await runOnThreads(
        (0..<Self.threads).map { _ in
          {
            let proxy = OnceProbeProxy(forwardee: delegate)
            for call in 0..<Self.callsPerThread { proxy.one(call) }
          }
        })
      #expect(runs.value == 1, "round \(round)")
      #expect(delegate.count == Self.threads * Self.callsPerThread)
      #expect(OnceProbeProxy.typeHooks.isEmpty)
      #expect(try token.remove() == false)
    }
  }

  @Test func aRunOnceHookRemovedBeforeItRanNeverRuns() throws {
    let delegate = CountingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    var runs = 0
    let token = proxy.hookAfter(\.one, once: true) { _ in runs += 1 }
    #expect(token.isInstalled)
    #expect(try token.remove() == true)
    #expect(try token.remove() == false)
    proxy.one(1)
    #expect(runs == 0)
    #expect(delegate.count == 1)
  }

  @Test func removeIsIdempotentAndThrowsOnceTheProxyIsGone() throws {
    var proxy: ProbeDelegateProxy? = ProbeDelegateProxy(forwardee: RecordingProbe())
    weak let weakProxy = proxy
    var runs = 0
    let ran = proxy!.hookBefore(\.ping, once: true) { runs += 1 }
    let pending = proxy!.hookInstead(\.shouldSelect, once: true) { original, row in original(row) }
    let plain = proxy!.hookAfter(\.two) { _, _, _ in }
    proxy!.ping()
    proxy!.ping()
    #expect(runs == 1)
    #expect(!ran.isInstalled && pending.isInstalled && plain.isInstalled)
    // Idempotent while the proxy lives: the first removal answers true, later ones false.
    #expect(try plain.remove() == true)
    #expect(try plain.remove() == false)
    #expect(try ran.remove() == false)
    proxy = nil
    #expect(weakProxy == nil)
    for token in [ran, pending, plain] {
      #expect(throws: DelegateProxyError.proxyDeallocated(proxyType: "ProbeDelegateProxy")) { try token.remove() }
      #expect(!token.isInstalled)
    }
  }
}
