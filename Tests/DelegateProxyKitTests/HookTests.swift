import DelegateProxyKit
import DelegateProxyKitTestSupport
import Testing

@Suite struct HookTests {
  @Test func positionsRunInOrderAroundTheCall() throws {
    let log = RecordingLog()
    let delegate = LoggingProbe(log: log)
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    proxy.hookAfter(\.one) { _ in log.append("after 1") }
    proxy.hookBefore(\.one) { a in log.append("before 1 (\(a))") }
    proxy.hookBefore(\.one) { _ in log.append("before 2") }
    proxy.hookAfter(\.one) { a in log.append("after 2 (\(a))") }
    proxy.one(9)
    #expect(log.all == ["before 1 (9)", "before 2", "delegate one 9", "after 1", "after 2 (9)"])
  }

  @Test func typedAndStringKeyedHooksShareOneOrderPerPosition() throws {
    let log = RecordingLog()
    let delegate = LoggingProbe(log: log)
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    try proxy.hooks.addHook(for: "one(_:)", at: .before) { _ in log.append("string before") }
    proxy.hookBefore(\.one) { _ in log.append("typed before") }
    proxy.hookAfter(\.one) { _ in log.append("typed after") }
    try proxy.hooks.addHook(for: "one(_:)", at: .after) { invocation in
      log.append("string after \(try invocation.argument(0, as: Int.self))")
    }
    proxy.one(4)
    #expect(log.all == ["string before", "typed before", "delegate one 4", "typed after", "string after 4"])
  }

  @Test func insteadHookReplacesTheReturnValue() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    proxy.hookInstead(\.three) { original, a, b, c in original(a, b, c) + 100 }
    #expect(proxy.three(2, 2, "x") == 104)
    #expect(delegate.log == ["three 2 2.0 x"])
  }

  @Test func insteadHookMayChangeTheArguments() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    proxy.hookInstead(\.two) { original, a, b in original(a * 10, b.uppercased()) }
    #expect(proxy.two(-1, "q") == false)
    #expect(delegate.log == ["two -10 Q"])
  }

  @Test func stringKeyedInsteadHookReplacesTheReturnValue() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    try proxy.hooks.addInsteadHook(for: "three(_:_:_:)") { call in
      call.proceed()
      let original = try call.invocation.returnValue(as: Double.self)
      call.returnValue = original + 100
    }
    #expect(proxy.three(2, 2, "x") == 104)
    #expect(delegate.log == ["three 2 2.0 x"])
  }

  @Test func insteadHookMaySkipTheForwardee() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    proxy.hookInstead(\.shouldSelect) { _, _ in false }
    proxy.hookInstead(\.one) { _, _ in }
    try proxy.hooks.addInsteadHook(for: "height(forRow:)") { call in call.returnValue = 7.5 }
    #expect(proxy.shouldSelect(1) == false)
    proxy.one(1)
    #expect(proxy.height(forRow: 1) == 7.5)
    #expect(delegate.log.isEmpty)
  }

  @Test func aStringKeyedInsteadHookThatProducesNothingGivesTheHostDefault() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    try proxy.hooks.addInsteadHook(for: "shouldSelect(_:)") { _ in }
    try proxy.hooks.addInsteadHook(for: "height(forRow:)") { _ in }
    try proxy.hooks.addInsteadHook(for: "one(_:)") { _ in }
    try proxy.hooks.addInsteadHook(for: "six(_:_:_:_:_:_:)") { _ in }
    #expect(proxy.shouldSelect(3) == true)
    #expect(proxy.height(forRow: 5) == nil)
    proxy.one(2)
    #expect(proxy.six(1, 1, 1, 1, 1, 1).name == "default")
    #expect(delegate.log.isEmpty)
  }

  @Test func insteadHooksChainInInstallOrder() throws {
    let log = RecordingLog()
    let delegate = LoggingProbe(log: log)
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    proxy.hookInstead(\.shouldSelect) { original, row in
      log.append("outer in")
      defer { log.append("outer out") }
      return original(row)
    }
    proxy.hookInstead(\.shouldSelect) { original, row in
      log.append("inner in")
      defer { log.append("inner out") }
      return !original(row + 1)
    }
    #expect(proxy.shouldSelect(2) == false)
    #expect(log.all == ["outer in", "inner in", "delegate shouldSelect 3", "inner out", "outer out"])
  }

  @Test func aTypedInsteadHookMayCallTheRestOfTheChainTwice() throws {
    let log = RecordingLog()
    let delegate = LoggingProbe(log: log)
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    proxy.hookInstead(\.one) { original, a in
      original(a)
      original(a + 1)
    }
    proxy.one(1)
    #expect(log.all == ["delegate one 1", "delegate one 2"])
  }

  @Test func stringKeyedInsteadHooksChainAndProceedAtMostOnce() throws {
    let log = RecordingLog()
    let delegate = LoggingProbe(log: log)
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    try proxy.hooks.addInsteadHook(for: "one(_:)") { call in
      log.append("outer in")
      call.proceed()
      log.append("outer out")
    }
    try proxy.hooks.addInsteadHook(for: "one(_:)") { call in
      log.append("inner in")
      call.proceed()
      call.proceed()  // a second proceed does not call again
      log.append("inner out")
    }
    proxy.one(2)
    #expect(log.all == ["outer in", "inner in", "delegate one 2", "inner out", "outer out"])
  }

  @Test func aWrongReturnTypeFromAnInsteadHookIsReportedAndTheOriginalIsUsed() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    let reported = RecordingLog()
    proxy.hooks.setErrorHandler { reported.append("\($0)") }
    try proxy.hooks.addInsteadHook(for: "shouldSelect(_:)") { call in call.returnValue = "yes" }
    #expect(proxy.shouldSelect(3) == false)
    #expect(delegate.log == ["shouldSelect 3"])
    #expect(reported.all == ["'shouldSelect(_:)' returns Bool, not String"])
  }

  @Test func insteadCanReturnNilForOptionalMethods() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    try proxy.hooks.addInsteadHook(for: "height(forRow:)") { call in call.returnValue = nil }
    try proxy.hooks.addInsteadHook(for: "height(forRow:)") { call in call.returnValue = 12.5 }
    #expect(proxy.height(forRow: 3) == nil)
    proxy.hookInstead(\.height) { _, _ in nil }
    #expect(proxy.height(forRow: 3) == nil)
    #expect(delegate.log.isEmpty)
  }

  @Test func anInsteadHookByAddHookIsRefused() {
    let proxy = ProbeDelegateProxy()
    for selector in ["shouldSelect(_:)", "one(_:)", "height(forRow:)"] {
      #expect(throws: DelegateProxyError.insteadHookNeedsCall(selector: selector, proxyType: "ProbeDelegateProxy")) {
        try proxy.hooks.addHook(for: selector, at: .instead) { _ in }
      }
    }
    #expect(proxy.hooks.count == 0)
  }

  @Test func unknownSelectorsAreRefused() {
    let proxy = ProbeDelegateProxy()
    let expected = DelegateProxyError.unknownSelector(selector: "nope()", proxyType: "ProbeDelegateProxy")
    #expect(throws: expected) { try proxy.hooks.addHook(for: "nope()", at: .before) { _ in } }
    #expect(throws: expected) { try proxy.hooks.addInsteadHook(for: "nope()") { _ in } }
    #expect(throws: expected) { _ = try proxy.hooks.invocations(of: "nope()") }
    #expect(throws: expected) { _ = try proxy.hooks.method(named: "nope()") }
    #expect(proxy.hooks.isEmpty)
  }

  @Test func removeIsIdempotentAndReportsWhetherItRemoved() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    let counter = Counter()
    let token = proxy.hookBefore(\.ping) { counter.increment() }
    #expect(token.selector == "ping()" && token.position == .before)
    #expect(token.method === ProbeDelegateProxy.methods.ping)
    proxy.ping()
    #expect(token.isInstalled)
    #expect(try token.remove() == true)
    #expect(try token.remove() == false)
    #expect(!token.isInstalled)
    proxy.ping()
    #expect(counter.count == 1)
    #expect(proxy.hooks.isEmpty)
  }

  @Test func removingAfterTheProxyDiedThrows() throws {
    var proxy: ProbeDelegateProxy? = ProbeDelegateProxy()
    let token = proxy!.hookBefore(\.ping) {}
    proxy = nil
    #expect(throws: DelegateProxyError.proxyDeallocated(proxyType: "ProbeDelegateProxy")) {
      try token.remove()
    }
    #expect(!token.isInstalled)
  }

  @Test func runOnceHooksRunExactlyOnce() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    var runs = 0
    let token = proxy.hookAfter(\.ping, once: true) { runs += 1 }
    let stringToken = try proxy.hooks.addHook(for: "ping()", at: .before, once: true) { _ in }
    proxy.ping()
    proxy.ping()
    #expect(runs == 1)
    #expect(try token.remove() == false)
    #expect(try stringToken.remove() == false)
    #expect(proxy.hooks.isEmpty)
  }

  @Test func aRunOnceInsteadHookTheChainNeverReachesStaysInstalled() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    let log = RecordingLog()
    let skipping = proxy.hookInstead(\.one) { _, _ in log.append("skip") }
    let once = proxy.hookInstead(\.one, once: true) { original, a in
      log.append("once")
      original(a)
    }
    proxy.one(1)
    #expect(log.all == ["skip"])
    #expect(once.isInstalled)
    #expect(try skipping.remove())
    proxy.one(2)
    proxy.one(3)
    #expect(log.all == ["skip", "once"])
    #expect(!once.isInstalled)
    #expect(delegate.log == ["one 2", "one 3"])
  }

  @Test func aThrowingHookIsReportedAndTheCallGoesOn() throws {
    struct Boom: Error {}
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    let reported = RecordingLog()
    proxy.hooks.setErrorHandler { reported.append("\($0)") }
    try proxy.hooks.addHook(for: "two(_:_:)", at: .before) { _ in throw Boom() }
    #expect(proxy.two(4, "z") == true)
    #expect(delegate.log == ["two 4 z"])
    #expect(reported.all == ["before hook on 'two(_:_:)' threw: Boom()"])
  }

  @Test func hooksMayReenterTheProxy() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    proxy.hookBefore(\.one, once: true) { [unowned proxy] _ in proxy.ping() }
    proxy.one(1)
    proxy.one(2)
    #expect(delegate.log == ["ping", "one 1", "one 2"])
  }

  @Test func typedHooksNeedNotBeSendable() throws {
    // A typed hook may capture and change plain local state: it runs in the proxy's isolation.
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    var selected: [Int] = []
    var answers: [Bool] = []
    proxy.hookBefore(\.shouldSelect) { selected.append($0) }
    proxy.hookAfter(\.shouldSelect) { answer, _ in answers.append(answer) }
    _ = proxy.shouldSelect(3)
    _ = proxy.shouldSelect(4)
    #expect(selected == [3, 4])
    #expect(answers == [false, true])
  }
}

/// Writes its calls into a shared log, so hooks and delegate calls interleave in one list.
final class LoggingProbe: ProbeDelegate, Sendable {
  let log: RecordingLog
  init(log: RecordingLog) { self.log = log }
  func one(_ a: Int) { log.append("delegate one \(a)") }
  func shouldSelect(_ row: Int) -> Bool {
    log.append("delegate shouldSelect \(row)")
    return true
  }
}

/// A proxy type used only by the type-wide tests, so their hooks touch no other test.
final class TypeWideProbeProxy: DelegateProxy<any ProbeDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let one = DelegateMethod<Int, Void>("one(_:)")
    let shouldSelect = DelegateMethod<Int, Bool>("shouldSelect(_:)")
  }
  static let methods = Methods()
}

extension TypeWideProbeProxy: ProbeDelegate {
  func one(_ a: Int) { forward(Self.methods.one, a) { $0.one($1) } }
  func shouldSelect(_ row: Int) -> Bool {
    forward(Self.methods.shouldSelect, row, orElse: true) { $0.shouldSelect($1) }
  }
}

/// Type-wide hooks are process-wide: these tests run one at a time, on a proxy type of their
/// own, and remove every type-wide hook they installed.
@Suite(.serialized) struct TypeWideHookTests {
  @Test func typeWideHooksRunOnEveryProxyBeforeInstanceHooks() throws {
    defer { TypeWideProbeProxy.typeHooks.removeAll() }
    let log = RecordingLog()
    let firstForwardee = LoggingProbe(log: log)
    let first = TypeWideProbeProxy(forwardee: firstForwardee)
    let second = TypeWideProbeProxy()
    first.hookBefore(\.one) { _ in log.append("instance before") }
    first.hookAfter(\.one) { _ in log.append("instance after") }
    TypeWideProbeProxy.hookBefore(\.one) { a in log.append("type before \(a)") }
    TypeWideProbeProxy.hookAfter(\.one) { a in log.append("type after \(a)") }
    first.one(1)
    #expect(log.all == ["type before 1", "instance before", "delegate one 1", "type after 1", "instance after"])
    second.one(2)
    #expect(log.all.suffix(2) == ["type before 2", "type after 2"])
    // A proxy made after the hooks were installed gets them too.
    let third = TypeWideProbeProxy()
    third.one(3)
    #expect(log.all.suffix(2) == ["type before 3", "type after 3"])
    // Other proxy types are untouched.
    let otherForwardee = LoggingProbe(log: log)
    let other = ProbeDelegateProxy(forwardee: otherForwardee)
    other.one(4)
    #expect(log.all.last == "delegate one 4")
    #expect(TypeWideProbeProxy.typeHooks.count == 2)
  }

  @Test func typeWideInsteadRunsOutsideInstanceInstead() throws {
    defer { TypeWideProbeProxy.typeHooks.removeAll() }
    let log = RecordingLog()
    let delegate = LoggingProbe(log: log)
    let proxy = TypeWideProbeProxy(forwardee: delegate)
    proxy.hookInstead(\.shouldSelect) { original, row in
      log.append("instance")
      return original(row)
    }
    let token = TypeWideProbeProxy.hookInstead(\.shouldSelect) { original, row in
      log.append("type")
      _ = original(row)
      return false
    }
    #expect(proxy.shouldSelect(1) == false)
    #expect(log.all == ["type", "instance", "delegate shouldSelect 1"])
    #expect(try token.remove())
    #expect(proxy.shouldSelect(1) == true)
  }

  @Test func stringKeyedTypeWideHooksRunToo() throws {
    defer { TypeWideProbeProxy.typeHooks.removeAll() }
    let log = RecordingLog()
    let delegate = LoggingProbe(log: log)
    let proxy = TypeWideProbeProxy(forwardee: delegate)
    proxy.hookBefore(\.shouldSelect) { _ in log.append("instance typed") }
    try TypeWideProbeProxy.typeHooks.addInsteadHook(for: "shouldSelect(_:)") { call in
      log.append("type string")
      call.proceed()
      call.returnValue = false
    }
    TypeWideProbeProxy.hookBefore(\.shouldSelect) { _ in log.append("type typed") }
    #expect(proxy.shouldSelect(1) == false)
    #expect(log.all == ["type typed", "instance typed", "type string", "delegate shouldSelect 1"])
  }

  @Test func typeWideRunOnceFiresOnOneProxyOnly() throws {
    defer { TypeWideProbeProxy.typeHooks.removeAll() }
    let counter = Counter()
    TypeWideProbeProxy.hookAfter(\.one, once: true) { _ in counter.increment() }
    let proxies = (0..<3).map { _ in TypeWideProbeProxy() }
    for proxy in proxies { proxy.one(0) }
    #expect(counter.count == 1)
    #expect(TypeWideProbeProxy.typeHooks.isEmpty)
  }
}
