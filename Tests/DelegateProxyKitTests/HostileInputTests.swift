import DelegateProxyKit
import DelegateProxyKitTestSupport
import Testing

/// A proxy type used only by the hostile-input tests (serialized), so their type-wide hooks
/// reach no other test. It declares fewer methods than `ProbeDelegate` has, so a selector the
/// protocol has but the proxy does not declare is refused like a made-up one.
final class HostileProbeProxy: DelegateProxy<any ProbeDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let one = DelegateMethod<Int, Void>("one(_:)")
    let two = DelegateMethod<Int, String, Bool>("two(_:_:)")
    let height = DelegateMethod<Int, Double?>("height(forRow:)")
    let shouldSelect = DelegateMethod<Int, Bool>("shouldSelect(_:)")
  }
  static let methods = Methods()
}

extension HostileProbeProxy: ProbeDelegate {
  func one(_ a: Int) { forward(Self.methods.one, a) { $0.one($1) } }
  func two(_ a: Int, _ b: String) -> Bool { forward(Self.methods.two, a, b, orElse: false) { $0.two($1, $2) } }
  func height(forRow row: Int) -> Double? {
    forward(Self.methods.height, row, orElse: nil) { $0.height(forRow: $1) }
  }
  func shouldSelect(_ row: Int) -> Bool {
    forward(Self.methods.shouldSelect, row, orElse: true) { $0.shouldSelect($1) }
  }
}

/// A proxy with a known set of hooks, and a fingerprint of its state: what is installed and
/// what a probe call runs. A hostile request must leave the fingerprint as it was.
final class HostileFixture {
  let delegate = RecordingProbe()
  let proxy: HostileProbeProxy
  let fired = RecordingLog()
  let errors = RecordingLog()
  private var baseline: [HookToken] = []

  init() throws {
    proxy = HostileProbeProxy(forwardee: delegate)
    let fired = fired
    let errors = errors
    proxy.hooks.setErrorHandler { errors.append("\($0)") }
    HostileProbeProxy.typeHooks.setErrorHandler { errors.append("\($0)") }
    baseline = [
      try HostileProbeProxy.typeHooks.addHook(for: "two(_:_:)", at: .before) { _ in fired.append("type before") },
      proxy.hookBefore(\.two) { _, _ in fired.append("instance before") },
      try proxy.hooks.addInsteadHook(for: "two(_:_:)") { call in
        fired.append("instance instead")
        call.proceed()
      },
      try proxy.hooks.addHook(for: "two(_:_:)", at: .after) { invocation in
        fired.append("after \((try? invocation.returnValue(as: Bool.self)).map(String.init) ?? "?")")
      },
    ]
  }

  /// Removes the fixture's hooks, type-wide ones included.
  func tearDown() {
    HostileProbeProxy.typeHooks.removeAll()
    HostileProbeProxy.typeHooks.setErrorHandler(nil)
  }

  struct Fingerprint: Equatable, CustomStringConvertible {
    var instanceCount: Int
    var typeCount: Int
    var installed: [Bool]
    var fired: [String]
    var delegateCalls: [String]
    var result: Bool

    var description: String {
      "instance \(instanceCount), type \(typeCount), installed \(installed), fired \(fired), "
        + "delegate \(delegateCalls), result \(result)"
    }
  }

  /// Makes one probe call and reports what ran; the call's own traces are then cleared.
  func fingerprint() -> Fingerprint {
    let before = (fired.all.count, delegate.log.count)
    let result = proxy.two(5, "probe")
    return Fingerprint(
      instanceCount: proxy.hooks.count, typeCount: HostileProbeProxy.typeHooks.count,
      installed: baseline.map(\.isInstalled), fired: Array(fired.all.dropFirst(before.0)),
      delegateCalls: Array(delegate.log.dropFirst(before.1)), result: result)
  }
}

/// Selectors that no `HostileProbeProxy` method has: empty, near misses, a method of the
/// protocol the proxy does not list, other scripts, control characters, a very long one.
let hostileSelectors: [String] = [
  "", " ", "two", "two(_:)", "two(_:_:) ", " two(_:_:)", "TWO(_:_:)", "two(_:_:_:)", "ping()", "two(_:_:)\0",
  "tw\u{00F6}(_:_:)", "two(_:_:)\u{200B}", "\u{1F600}", "two(\n)", String(repeating: "x", count: 100_000),
]

@Suite(.serialized) struct HostileInputTests {
  @Test func theFixtureFingerprintIsStable() throws {
    let fixture = try HostileFixture()
    defer { fixture.tearDown() }
    let first = fixture.fingerprint()
    #expect(first.fired == ["type before", "instance before", "instance instead", "after true"])
    #expect(first.delegateCalls == ["two 5 probe"])
    #expect(first.instanceCount == 3 && first.typeCount == 1)
    #expect(fixture.fingerprint() == first)
  }

  @Test(arguments: hostileSelectors)
  func unknownSelectorsAreRefusedEverywhereAndChangeNothing(_ selector: String) throws {
    let fixture = try HostileFixture()
    defer { fixture.tearDown() }
    let before = fixture.fingerprint()
    let expected = DelegateProxyError.unknownSelector(selector: selector, proxyType: "HostileProbeProxy")
    let proxy = fixture.proxy
    #expect(throws: expected) { try proxy.hooks.addHook(for: selector, at: .before) { _ in } }
    #expect(throws: expected) { try proxy.hooks.addHook(for: selector, at: .instead, once: true) { _ in } }
    #expect(throws: expected) { try proxy.hooks.addInsteadHook(for: selector) { _ in } }
    #expect(throws: expected) { _ = try proxy.hooks.invocations(of: selector) }
    #expect(throws: expected) { _ = try proxy.hooks.method(named: selector) }
    #expect(throws: expected) { try HostileProbeProxy.typeHooks.addHook(for: selector, at: .after) { _ in } }
    #expect(throws: expected) { try HostileProbeProxy.typeHooks.addInsteadHook(for: selector) { _ in } }
    #expect(fixture.fingerprint() == before)
    #expect(fixture.errors.all.isEmpty)
  }

  @Test(arguments: ["one(_:)", "two(_:_:)", "height(forRow:)"])
  func anInsteadHookByAddHookIsRefusedAndChangesNothing(_ selector: String) throws {
    let fixture = try HostileFixture()
    defer { fixture.tearDown() }
    let before = fixture.fingerprint()
    let expected = DelegateProxyError.insteadHookNeedsCall(selector: selector, proxyType: "HostileProbeProxy")
    #expect(throws: expected) { try fixture.proxy.hooks.addHook(for: selector, at: .instead) { _ in } }
    #expect(throws: expected) { try fixture.proxy.hooks.addHook(for: selector, at: .instead, once: true) { _ in } }
    #expect(throws: expected) { try HostileProbeProxy.typeHooks.addHook(for: selector, at: .instead) { _ in } }
    #expect(fixture.fingerprint() == before)
  }

  @Test func tokensRemovedTwiceAnswerFalseAndChangeNothing() throws {
    let fixture = try HostileFixture()
    defer { fixture.tearDown() }
    let extra = fixture.proxy.hookAfter(\.two) { _, _, _ in }
    let typeExtra = HostileProbeProxy.hookBefore(\.one) { _ in }
    #expect(try extra.remove() == true)
    #expect(try typeExtra.remove() == true)
    let before = fixture.fingerprint()
    for _ in 0..<3 {
      #expect(try extra.remove() == false)
      #expect(try typeExtra.remove() == false)
    }
    #expect(!extra.isInstalled && !typeExtra.isInstalled)
    #expect(fixture.fingerprint() == before)
  }

  @Test func tokensOfADeadProxyThrowAndLeaveTheTypeAsItWas() throws {
    let fixture = try HostileFixture()
    defer { fixture.tearDown() }
    let before = fixture.fingerprint()
    var doomed: HostileProbeProxy? = HostileProbeProxy(forwardee: fixture.delegate)
    weak let weakDoomed = doomed
    let tokens = [
      doomed!.hookBefore(\.one) { _ in },
      doomed!.hookInstead(\.two) { original, a, b in original(a, b) },
      doomed!.hookAfter(\.height, once: true) { _, _ in },
      try doomed!.hooks.addInsteadHook(for: "two(_:_:)") { $0.proceed() },
      try doomed!.hooks.addHook(for: "height(forRow:)", at: .after) { _ in },
    ]
    doomed = nil
    #expect(weakDoomed == nil)
    for token in tokens {
      #expect(throws: DelegateProxyError.proxyDeallocated(proxyType: "HostileProbeProxy")) { try token.remove() }
      #expect(throws: DelegateProxyError.proxyDeallocated(proxyType: "HostileProbeProxy")) { try token.remove() }
      #expect(!token.isInstalled)
    }
    #expect(fixture.fingerprint() == before)
  }

  @Test func installsOnADeadProxyAreRefused() async throws {
    let fixture = try HostileFixture()
    defer { fixture.tearDown() }
    let before = fixture.fingerprint()
    var doomed: HostileProbeProxy? = HostileProbeProxy()
    let registry = doomed!.hooks
    let stream = try registry.invocations(of: "one(_:)")
    doomed = nil
    let expected = DelegateProxyError.proxyDeallocated(proxyType: "HostileProbeProxy")
    #expect(throws: expected) { try registry.addHook(for: "one(_:)", at: .before) { _ in } }
    #expect(throws: expected) { try registry.addHook(for: "one(_:)", at: .after, once: true) { _ in } }
    #expect(throws: expected) { try registry.addInsteadHook(for: "two(_:_:)") { _ in } }
    #expect(throws: expected) { _ = try registry.invocations(of: "one(_:)") }
    // Looking a method up needs no live proxy.
    #expect(try registry.method(named: "one(_:)") === HostileProbeProxy.methods.one)
    // A selector that does not exist is still named as such.
    #expect(throws: DelegateProxyError.unknownSelector(selector: "nope", proxyType: "HostileProbeProxy")) {
      try registry.addHook(for: "nope", at: .before) { _ in }
    }
    #expect(registry.isEmpty && registry.removeAll() == 0)
    // The stream of the dead proxy finished.
    var received = 0
    for await _ in stream { received += 1 }
    #expect(received == 0)
    #expect(fixture.fingerprint() == before)
  }

  /// The argument requests a hook may make, good and bad, and what each must give.
  static let argumentRequests: [(index: Int, type: String, expected: String)] = [
    (0, "Int", "5"),
    (1, "String", "probe"),
    (-1, "Int", "'two(_:_:)' has 2 argument(s); index -1 is out of range"),
    (2, "Int", "'two(_:_:)' has 2 argument(s); index 2 is out of range"),
    (Int.max, "Int", "'two(_:_:)' has 2 argument(s); index \(Int.max) is out of range"),
    (Int.min, "String", "'two(_:_:)' has 2 argument(s); index \(Int.min) is out of range"),
    (0, "String", "argument 0 of 'two(_:_:)' is Int, not String"),
    (1, "Int", "argument 1 of 'two(_:_:)' is String, not Int"),
    (0, "Int?", "5"),
    (0, "Double", "argument 0 of 'two(_:_:)' is Int, not Double"),
  ]

  @Test(arguments: 0..<argumentRequests.count)
  func argumentRequestsGiveTheValueOrATypedError(_ request: Int) throws {
    let (index, type, expected) = Self.argumentRequests[request]
    let fixture = try HostileFixture()
    defer { fixture.tearDown() }
    let answers = RecordingLog()
    let token = try fixture.proxy.hooks.addHook(for: "two(_:_:)", at: .after) { invocation in
      do {
        switch type {
        case "Int": answers.append(String(try invocation.argument(index, as: Int.self)))
        case "Int?": answers.append(String(try invocation.argument(index, as: Int?.self) ?? -1))
        case "Double": answers.append(String(try invocation.argument(index, as: Double.self)))
        default: answers.append(try invocation.argument(index, as: String.self))
        }
      } catch {
        answers.append("\(error)")
      }
    }
    let before = fixture.fingerprint()
    #expect(answers.all == [expected])
    #expect(try token.remove())
    // The hook's failed request did not disturb the call: the fixture's hooks ran as always.
    #expect(before.fired == ["type before", "instance before", "instance instead", "after true"])
    #expect(before.delegateCalls == ["two 5 probe"] && before.result)
  }

  @Test func returnValueRequestsBeforeTheCallOrOfTheWrongTypeGiveTypedErrors() throws {
    let fixture = try HostileFixture()
    defer { fixture.tearDown() }
    let errors = RecordingLog()
    let before = try fixture.proxy.hooks.addHook(for: "two(_:_:)", at: .before) { invocation in
      do { _ = try invocation.returnValue(as: Bool.self) } catch { errors.append("\(error)") }
    }
    let after = try fixture.proxy.hooks.addHook(for: "two(_:_:)", at: .after) { invocation in
      do { _ = try invocation.returnValue(as: String.self) } catch { errors.append("\(error)") }
    }
    #expect(fixture.proxy.two(1, "a") == true)
    #expect(
      errors.all == [
        "'two(_:_:)' has no return value here: it is read in after hooks of calls that returned",
        "'two(_:_:)' returns Bool, not String",
      ])
    #expect(try before.remove() && after.remove())
  }

  @Test(arguments: [HookPosition.before, .instead, .after])
  func throwingHooksAreReportedAndChangeNothing(_ position: HookPosition) throws {
    struct Refusal: Error, CustomStringConvertible {
      var description: String { "refused" }
    }
    let fixture = try HostileFixture()
    defer { fixture.tearDown() }
    let before = fixture.fingerprint()
    // By name, an instead hook is an `InsteadCall` hook; one that throws before proceeding has
    // produced nothing, so the host gets its default and the chain ends there.
    func install(on registry: HookRegistry) throws -> HookToken {
      position == .instead
        ? try registry.addInsteadHook(for: "one(_:)") { _ in throw Refusal() }
        : try registry.addHook(for: "one(_:)", at: position) { _ in throw Refusal() }
    }
    let instance = try install(on: fixture.proxy.hooks)
    let typeWide = try install(on: HostileProbeProxy.typeHooks)
    let full = try fixture.proxy.hooks.addInsteadHook(for: "shouldSelect(_:)") { call in
      call.proceed()
      throw Refusal()
    }
    fixture.proxy.one(9)
    #expect(fixture.proxy.shouldSelect(3) == false)  // the delegate's answer, kept despite the throw
    let delegateCalls = fixture.delegate.log.suffix(2)
    // A throwing instead hook that did not proceed stands in for the call; the others let it through.
    #expect(
      Array(delegateCalls) == (position == .instead ? ["two 5 probe", "shouldSelect 3"] : ["one 9", "shouldSelect 3"]))
    // The type-wide instead hook ends the instead chain, so the instance one behind it does not
    // run; hooks at the other positions all run.
    let oneErrors = Array(
      repeating: "\(position) hook on 'one(_:)' threw: refused", count: position == .instead ? 1 : 2)
    #expect(fixture.errors.all == oneErrors + ["instead hook on 'shouldSelect(_:)' threw: refused"])
    #expect(try instance.remove() && typeWide.remove() && full.remove())
    let after = fixture.fingerprint()
    #expect(after == before)
  }

  @Test func aHookThatReentersTheProxyRunsTheNestedCallNormally() throws {
    let fixture = try HostileFixture()
    defer { fixture.tearDown() }
    let proxy = fixture.proxy
    let depth = AtomicCounter()
    let token = proxy.hookBefore(\.one) { [unowned proxy] a in
      // Re-enter twice: the same method, then another method with hooks of its own.
      guard depth.value < 2 else { return }
      depth.increment()
      proxy.one(a + 100)
      _ = proxy.two(7, "nested")
    }
    proxy.one(1)
    #expect(
      fixture.delegate.log == [
        "one 201", "two 7 nested", "one 101", "two 7 nested", "one 1",
      ])
    #expect(fixture.fired.all.filter { $0 == "instance instead" }.count == 2)
    #expect(fixture.errors.all.isEmpty)  // no loop reported
    #expect(try token.remove())
    #expect(proxy.hooks.count == 3)
  }

  @Test func hooksThatChangeTheTableMidCallAffectOnlyLaterCalls() throws {
    let fixture = try HostileFixture()
    defer { fixture.tearDown() }
    let proxy = fixture.proxy
    let hooks = proxy.hooks
    let late = AtomicCounter()
    let added = RecordingLog()
    // During the call: remove itself, add a hook, and remove every hook of the registry.
    let selfRemoving = SelfReference<HookToken>()
    selfRemoving.value = try proxy.hooks.addHook(for: "one(_:)", at: .before) { _ in
      _ = try selfRemoving.value?.remove()
      if added.all.isEmpty, (try? hooks.addHook(for: "one(_:)", at: .after, { _ in late.increment() })) != nil {
        added.append("added")
      }
    }
    let sibling = AtomicCounter()
    proxy.hookAfter(\.one) { _ in sibling.increment() }
    proxy.one(1)
    #expect(sibling.value == 1)  // the call ran its snapshot: the sibling ran
    #expect(late.value == 0)  // the hook added mid-call waits for the next call
    proxy.one(2)
    #expect(late.value == 1 && sibling.value == 2)
    let clearing = proxy.hookBefore(\.one) { _ in hooks.removeAll() }
    proxy.one(3)
    #expect(late.value == 2 && sibling.value == 3)  // still the snapshot taken when the call began
    #expect(hooks.isEmpty && !clearing.isInstalled)
    proxy.one(4)
    #expect(late.value == 2 && sibling.value == 3)
    #expect(fixture.delegate.log.suffix(4) == ["one 1", "one 2", "one 3", "one 4"])
  }

  @Test func anInsteadHookThatProceedsTwiceOrReturnsTheWrongTypeDoesNotDisturbTheCall() throws {
    let fixture = try HostileFixture()
    defer { fixture.tearDown() }
    let twice = try fixture.proxy.hooks.addInsteadHook(for: "shouldSelect(_:)") { call in
      call.proceed()
      call.proceed()
    }
    #expect(fixture.proxy.shouldSelect(3) == false)
    #expect(fixture.delegate.log.filter { $0.hasPrefix("shouldSelect") } == ["shouldSelect 3"])
    #expect(try twice.remove())
    let wrong = try fixture.proxy.hooks.addInsteadHook(for: "height(forRow:)") { call in call.returnValue = "tall" }
    #expect(fixture.proxy.height(forRow: 2) == 20)
    #expect(fixture.errors.all == ["'height(forRow:)' returns Optional<Double>, not String"])
    #expect(try wrong.remove())
  }
}

/// Lets a hook refer to its own token.
final class SelfReference<Value: Sendable>: @unchecked Sendable {
  // Written once before any call, read only by the hook on the proxy's thread.
  var value: Value?
}
