import DelegateProxyKit
import Testing

@Suite struct HookTests {
  @Test func positionsRunInOrderAroundTheCall() throws {
    let log = Log()
    let delegate = LoggingProbe(log: log)
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    try proxy.addHook(for: "one(_:)", at: .after) { _ in log.append("after 1") }
    try proxy.addHook(for: "one(_:)", at: .before) { _ in log.append("before 1") }
    try proxy.addHook(for: "one(_:)", at: .before) { _ in log.append("before 2") }
    try proxy.addHook(for: "one(_:)", at: .after) { _ in log.append("after 2") }
    proxy.one(9)
    #expect(log.all == ["before 1", "before 2", "delegate one 9", "after 1", "after 2"])
  }

  @Test func insteadHookReplacesTheReturnValue() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    try proxy.addInsteadHook(for: "three(_:_:_:)") { call in
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
    try proxy.addInsteadHook(for: "shouldSelect(_:)") { call in
      call.returnValue = false
    }
    try proxy.addHook(for: "one(_:)", at: .instead) { _ in }
    #expect(proxy.shouldSelect(1) == false)
    proxy.one(1)
    #expect(delegate.log.isEmpty)
  }

  @Test func insteadHookThatProducesNothingGivesTheHostDefault() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    try proxy.addInsteadHook(for: "shouldSelect(_:)") { _ in }
    try proxy.addHook(for: "height(forRow:)", at: .instead) { _ in }
    #expect(proxy.shouldSelect(3) == true)
    #expect(proxy.height(forRow: 5) == nil)
    #expect(delegate.log.isEmpty)
  }

  @Test func insteadHooksChainInInstallOrder() throws {
    let log = Log()
    let proxyForwardee = LoggingProbe(log: log)
    let proxy = ProbeDelegateProxy(forwardee: proxyForwardee)
    try proxy.addInsteadHook(for: "one(_:)") { call in
      log.append("outer in")
      call.proceed()
      log.append("outer out")
    }
    try proxy.addInsteadHook(for: "one(_:)") { call in
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
    let reported = Log()
    proxy.hooks.setErrorHandler { reported.append("\($0)") }
    try proxy.addInsteadHook(for: "shouldSelect(_:)") { call in call.returnValue = "yes" }
    #expect(proxy.shouldSelect(3) == false)
    #expect(delegate.log == ["shouldSelect 3"])
    #expect(reported.all == ["'shouldSelect(_:)' returns Bool, not String"])
  }

  @Test func insteadCanReturnNilForOptionalMethods() throws {
    let proxyForwardee = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: proxyForwardee)
    try proxy.addInsteadHook(for: "height(forRow:)") { call in call.returnValue = nil }
    try proxy.addInsteadHook(for: "height(forRow:)") { call in call.returnValue = 12.5 }
    #expect(proxy.height(forRow: 3) == nil)
  }

  @Test func skippingInsteadHookOnAValueMethodIsRefused() {
    let proxy = ProbeDelegateProxy()
    #expect(
      throws: DelegateProxyError.insteadHookCannotProduceValue(
        selector: "shouldSelect(_:)", proxyType: "ProbeDelegateProxy")
    ) {
      try proxy.addHook(for: "shouldSelect(_:)", at: .instead) { _ in }
    }
    #expect(proxy.hooks.count == 0)
  }

  @Test func unknownSelectorsAreRefused() {
    let proxy = ProbeDelegateProxy()
    #expect(throws: DelegateProxyError.unknownSelector(selector: "nope()", proxyType: "ProbeDelegateProxy")) {
      try proxy.addHook(for: "nope()", at: .before) { _ in }
    }
    #expect(throws: DelegateProxyError.unknownSelector(selector: "nope()", proxyType: "ProbeDelegateProxy")) {
      _ = try proxy.invocations(of: "nope()")
    }
    #expect(proxy.hooks.isEmpty)
  }

  @Test func removeIsIdempotentAndReportsWhetherItRemoved() throws {
    let proxyForwardee = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: proxyForwardee)
    let counter = Counter()
    let token = try proxy.addHook(for: "ping()", at: .before) { _ in counter.increment() }
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
    let token = try proxy!.addHook(for: "ping()", at: .before) { _ in }
    proxy = nil
    #expect(throws: DelegateProxyError.proxyDeallocated(proxyType: "ProbeDelegateProxy")) {
      try token.remove()
    }
  }

  @Test func runOnceHooksRunExactlyOnce() throws {
    let proxyForwardee = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: proxyForwardee)
    let counter = Counter()
    let token = try proxy.addHook(for: "ping()", at: .after, once: true) { _ in counter.increment() }
    proxy.ping()
    proxy.ping()
    #expect(counter.count == 1)
    #expect(try token.remove() == false)
    #expect(proxy.hooks.isEmpty)
  }

  @Test func aRunOnceInsteadHookTheChainNeverReachesStaysInstalled() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    let log = Log()
    let skipping = try proxy.addHook(for: "one(_:)", at: .instead) { _ in log.append("skip") }
    let once = try proxy.addInsteadHook(for: "one(_:)", once: true) { call in
      log.append("once")
      call.proceed()
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
    let reported = Log()
    proxy.hooks.setErrorHandler { reported.append("\($0)") }
    try proxy.addHook(for: "two(_:_:)", at: .before) { _ in throw Boom() }
    #expect(proxy.two(4, "z") == true)
    #expect(delegate.log == ["two 4 z"])
    #expect(reported.all == ["before hook on 'two(_:_:)' threw: Boom()"])
  }

  @Test func hooksMayReenterTheProxy() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    try proxy.addHook(for: "one(_:)", at: .before, once: true) { [unowned proxy] _ in proxy.ping() }
    proxy.one(1)
    #expect(delegate.log == ["ping", "one 1"])
  }
}

/// Writes its calls into a shared log, so hooks and delegate calls interleave in one list.
final class LoggingProbe: ProbeDelegate, Sendable {
  let log: Log
  init(log: Log) { self.log = log }
  func one(_ a: Int) { log.append("delegate one \(a)") }
  func shouldSelect(_ row: Int) -> Bool {
    log.append("delegate shouldSelect \(row)")
    return true
  }
}

/// A proxy type used only by the type-wide tests, so their hooks touch no other test.
final class TypeWideProbeProxy: DelegateProxy<any ProbeDelegate>, @unchecked Sendable {
  private weak var target: (any ProbeDelegate)?
  override var weakForwardee: (any ProbeDelegate)? {
    get { target }
    set { target = newValue }
  }
  override class var methods: [ProxyMethod] { [.void("one(_:)"), .value("shouldSelect(_:)")] }
}

extension TypeWideProbeProxy: ProbeDelegate {
  func one(_ a: Int) { forward(#function, a) { $0.one(a) } }
  func shouldSelect(_ row: Int) -> Bool { forward(#function, row, orElse: true) { $0.shouldSelect(row) } }
}

@Suite(.serialized) struct TypeWideHookTests {
  @Test func typeWideHooksRunOnEveryProxyBeforeInstanceHooks() throws {
    defer { TypeWideProbeProxy.typeHooks.removeAll() }
    let log = Log()
    let firstForwardee = LoggingProbe(log: log)
    let first = TypeWideProbeProxy(forwardee: firstForwardee)
    let second = TypeWideProbeProxy()
    try first.addHook(for: "one(_:)", at: .before) { _ in log.append("instance before") }
    try first.addHook(for: "one(_:)", at: .after) { _ in log.append("instance after") }
    try TypeWideProbeProxy.addTypeHook(for: "one(_:)", at: .before) { _ in log.append("type before") }
    try TypeWideProbeProxy.addTypeHook(for: "one(_:)", at: .after) { _ in log.append("type after") }
    first.one(1)
    #expect(log.all == ["type before", "instance before", "delegate one 1", "type after", "instance after"])
    second.one(2)
    #expect(log.all.suffix(2) == ["type before", "type after"])
    // Other proxy types are untouched.
    let otherForwardee = LoggingProbe(log: log)
    let other = ProbeDelegateProxy(forwardee: otherForwardee)
    other.one(3)
    #expect(log.all.last == "delegate one 3")
  }

  @Test func typeWideInsteadRunsOutsideInstanceInstead() throws {
    defer { TypeWideProbeProxy.typeHooks.removeAll() }
    let log = Log()
    let proxyForwardee = LoggingProbe(log: log)
    let proxy = TypeWideProbeProxy(forwardee: proxyForwardee)
    try proxy.addInsteadHook(for: "shouldSelect(_:)") { call in
      log.append("instance")
      call.proceed()
    }
    let token = try TypeWideProbeProxy.addTypeInsteadHook(for: "shouldSelect(_:)") { call in
      log.append("type")
      call.proceed()
      call.returnValue = false
    }
    #expect(proxy.shouldSelect(1) == false)
    #expect(log.all == ["type", "instance", "delegate shouldSelect 1"])
    #expect(try token.remove())
    #expect(proxy.shouldSelect(1) == true)
  }

  @Test func typeWideRunOnceFiresOnOneProxyOnly() throws {
    defer { TypeWideProbeProxy.typeHooks.removeAll() }
    let counter = Counter()
    try TypeWideProbeProxy.addTypeHook(for: "one(_:)", at: .after, once: true) { _ in counter.increment() }
    let proxies = (0..<3).map { _ in TypeWideProbeProxy() }
    for proxy in proxies { proxy.one(0) }
    #expect(counter.count == 1)
    #expect(TypeWideProbeProxy.typeHooks.isEmpty)
  }
}
