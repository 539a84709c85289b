import DelegateProxyKit
import DelegateProxyKitTestSupport
import Testing

/// What the dynamic layer (`proxy.hooks`) reports about, and allows on, each kind of method.
@Suite struct DynamicLayerTests {
  struct Expectation: Sendable, CustomTestStringConvertible {
    let selector: String
    let effects: DelegateMethodEffects
    let argumentCount: Int
    let returnKind: DelegateMethodReturnKind
    let isReifiable: Bool
    let description: String

    var testDescription: String { selector }
  }

  static let effectsMethods: [Expectation] = [
    Expectation(
      selector: "charge(_:)", effects: .throwing, argumentCount: 1, returnKind: .value, isReifiable: true,
      description: "charge(_:) (Int) throws -> Int"),
    Expectation(
      selector: "validate(_:)", effects: .throwing, argumentCount: 1, returnKind: .void, isReifiable: true,
      description: "validate(_:) (String) throws(ValidationError) -> ()"),
    Expectation(
      selector: "prepare(_:)", effects: .async, argumentCount: 1, returnKind: .void, isReifiable: true,
      description: "prepare(_:) (String) async -> ()"),
    Expectation(
      selector: "fetch(_:)", effects: .asyncThrowing, argumentCount: 1, returnKind: .value, isReifiable: true,
      description: "fetch(_:) (Int) async throws -> Receipt"),
    Expectation(
      selector: "total(of:)", effects: .plain, argumentCount: 1, returnKind: .value, isReifiable: true,
      description: "total(of:) (Box<Int>) -> Int"),
    Expectation(
      selector: "frame(_:_:_:_:_:_:)", effects: .plain, argumentCount: 6, returnKind: .value, isReifiable: true,
      description: "frame(_:_:_:_:_:_:) (Int, Int, Int, Int, Int, Int) -> Frame"),
    Expectation(
      selector: "discount(for:)", effects: .plain, argumentCount: 1, returnKind: .optional, isReifiable: true,
      description: "discount(for:) (String) -> Optional<Int>"),
    Expectation(
      selector: "visit(_:)", effects: .plain, argumentCount: 1, returnKind: .value, isReifiable: false,
      description: "visit(_:) (Node) -> String"),
    Expectation(
      selector: "refresh(_:)", effects: .plain, argumentCount: 1, returnKind: .value, isReifiable: true,
      description: "refresh(_:) (String) -> Bool"),
  ]

  @Test(arguments: effectsMethods)
  func methodNamedDescribesTheDeclaration(_ expected: Expectation) throws {
    let proxy = EffectsProxy()
    let method = try proxy.hooks.method(named: expected.selector)
    #expect(method.selector == expected.selector)
    #expect(method.effects == expected.effects)
    #expect(method.argumentCount == expected.argumentCount)
    #expect(method.argumentTypes.count == expected.argumentCount)
    #expect(method.returnKind == expected.returnKind)
    #expect(method.isReifiable == expected.isReifiable)
    #expect(method.description == expected.description)
    // It is the very reference the proxy's table declares.
    #expect(proxy.hooks.methods.contains { $0 === method })
  }

  @Test func methodNamedGivesTheTableEntryAndItsTypes() throws {
    let hooks = EffectsProxy().hooks
    let charge = try hooks.method(named: "charge(_:)")
    #expect(charge === EffectsProxy.methods.charge)
    let visit = try hooks.method(named: "visit(_:)")
    let discount = try hooks.method(named: "discount(for:)")
    let types: [(any Any.Type)?] = [
      charge.argumentTypes.first, charge.resultType, discount.resultType, visit.argumentTypes.first,
    ]
    // Compared outside `#expect`, which would take the metatypes apart.
    let matches = zip(types, [Int.self, Int.self, Int?.self, Node.self] as [any Any.Type]).map { $0 == $1 }
    #expect(matches == [true, true, true, true])
    #expect(hooks.methods.map(\.selector) == Self.effectsMethods.map(\.selector))
  }

  @Test func theMethodsOfANestedTableAreListedOnce() throws {
    let delegate = RecordingProbe()
    let proxy = NestedProbeProxy(forwardee: delegate)
    let selectors = proxy.hooks.methods.map(\.selector)
    #expect(selectors == ["ping()", "one(_:)", "height(forRow:)", "shouldSelect(_:)", "two(_:_:)"])
    #expect(Set(selectors).count == selectors.count)
    // By name and by key path, a nested method is the same declaration.
    let height = try proxy.hooks.method(named: "height(forRow:)")
    #expect(height === NestedProbeProxy.methods.rows.height)
    #expect(try proxy.hooks.method(named: "two(_:_:)") === NestedProbeProxy.methods.rows.deeper.two)
    var seen: [String] = []
    proxy.hookAfter(\.rows.height) { height, row in seen.append("typed \(row) -> \(String(describing: height))") }
    proxy.hookBefore(\.rows.deeper.two) { a, b in seen.append("typed two \(a) \(b)") }
    let named = RecordingLog()
    try proxy.hooks.addHook(for: "height(forRow:)", at: .after) { invocation in
      named.append("named \(try invocation.argument(0, as: Int.self))")
    }
    #expect(proxy.height(forRow: 2) == 20)
    #expect(proxy.two(1, "x"))
    #expect(seen == ["typed 2 -> Optional(20.0)", "typed two 1 x"])
    #expect(named.all == ["named 2"])
    #expect(delegate.log == ["height 2", "two 1 x"])
  }

  // MARK: Arguments that are not Sendable

  @Test func nonSendableArgumentsReachTypedHooks() throws {
    let delegate = EffectsRecorder()
    let proxy = EffectsProxy(forwardee: delegate)
    let node = Node(name: "leaf")
    var before: Node?
    var after: (result: String, node: Node)?
    proxy.hookBefore(\.visit) { node in
      before = node
      node.visits += 10  // the hook may change the caller's object
    }
    proxy.hookAfter(\.visit) { result, node in after = (result, node) }
    #expect(proxy.visit(node) == "visited leaf 11")
    #expect(before === node)
    #expect(after?.node === node && after?.result == "visited leaf 11")
    #expect(node.visits == 11)
  }

  @Test func theDynamicLayerRefusesMethodsWithNonSendableArguments() throws {
    let proxy = EffectsProxy(forwardee: EffectsRecorder())
    let expected = DelegateProxyError.argumentsNotSendable(selector: "visit(_:)", proxyType: "EffectsProxy")
    #expect(throws: expected) { try proxy.hooks.addHook(for: "visit(_:)", at: .before) { _ in } }
    #expect(throws: expected) { try proxy.hooks.addHook(for: "visit(_:)", at: .after, once: true) { _ in } }
    #expect(throws: expected) { try proxy.hooks.addInsteadHook(for: "visit(_:)") { $0.proceed() } }
    #expect(throws: expected) { _ = try proxy.hooks.invocations(of: "visit(_:)") }
    #expect(throws: expected) { _ = try proxy.invocations(of: \.visit) }
    #expect(throws: expected) { try EffectsProxy.typeHooks.addHook(for: "visit(_:)", at: .after) { _ in } }
    #expect(
      "\(expected)" == "EffectsProxy.visit(_:) has arguments or a result that are not Sendable; use a typed hook")
    // Looking it up is fine, and says why.
    #expect(try proxy.hooks.method(named: "visit(_:)").isReifiable == false)
    #expect(proxy.hooks.isEmpty)
  }

  // MARK: Effects

  static let effectful: [(selector: String, effects: DelegateMethodEffects)] = [
    ("charge(_:)", .throwing), ("validate(_:)", .throwing), ("prepare(_:)", .async), ("fetch(_:)", .asyncThrowing),
  ]

  @Test(arguments: effectful)
  func aStringKeyedInsteadHookOnAThrowingOrAsyncMethodIsRefused(
    _ selector: String, _ effects: DelegateMethodEffects
  ) throws {
    let proxy = EffectsProxy()
    let expected = DelegateProxyError.unsupportedEffects(
      selector: selector, proxyType: "EffectsProxy", effects: effects)
    #expect(throws: expected) { try proxy.hooks.addInsteadHook(for: selector) { $0.proceed() } }
    #expect(throws: expected) { try proxy.hooks.addInsteadHook(for: selector, once: true) { _ in } }
    #expect(throws: expected) { try EffectsProxy.typeHooks.addInsteadHook(for: selector) { _ in } }
    #expect(proxy.hooks.isEmpty)
    // Before and after hooks by name are fine on such methods.
    let token = try proxy.hooks.addHook(for: selector, at: .after) { _ in }
    #expect(try token.remove())
  }

  @Test func aStringKeyedInsteadHookOnAPlainMethodIsAccepted() throws {
    let delegate = EffectsRecorder()
    let proxy = EffectsProxy(forwardee: delegate)
    try proxy.hooks.addInsteadHook(for: "discount(for:)") { call in
      call.proceed()
      if try call.invocation.returnValue(as: Int?.self) == nil { call.returnValue = 5 }
    }
    #expect(proxy.discount(for: "NONE") == 5)
    #expect(proxy.discount(for: "AB") == 2)
  }

  @MainActor @Test func stringKeyedHooksSeeAsyncCallsAfterTheyFinished() async throws {
    let log = RecordingLog()
    let delegate = EffectsRecorder(log: log)
    let proxy = EffectsProxy(forwardee: delegate)
    try proxy.hooks.addHook(for: "prepare(_:)", at: .before) { invocation in
      log.append("before \(try invocation.argument(0, as: String.self))")
    }
    try proxy.hooks.addHook(for: "fetch(_:)", at: .after) { invocation in
      log.append("after \(try invocation.returnValue(as: Receipt.self).total)")
    }
    let stream = try proxy.hooks.invocations(of: "prepare(_:)")
    await proxy.prepare("s")
    #expect(try await proxy.fetch(2) == Receipt(id: 2, total: 200))
    #expect(log.all == ["before s", "begin prepare s", "end prepare s", "begin fetch 2", "end fetch 2", "after 200"])
    var iterator = stream.makeAsyncIterator()
    let streamed = await iterator.next()
    #expect(streamed?.selector == "prepare(_:)" && streamed?.hasReturned == true)
  }
}

/// A table that nests another, which nests a third: the layout of a protocol that refines others.
final class NestedProbeProxy: DelegateProxy<any ProbeDelegate>, TypedDelegateProxy {
  struct Deeper: DelegateMethodTable {
    let two = DelegateMethod<Int, String, Bool>("two(_:_:)")
  }
  struct Rows: DelegateMethodTable {
    let height = DelegateMethod<Int, Double?>("height(forRow:)")
    let shouldSelect = DelegateMethod<Int, Bool>("shouldSelect(_:)")
    let deeper = Deeper()
  }
  struct Methods: DelegateMethodTable {
    let ping = DelegateMethod<Void>("ping()")
    let one = DelegateMethod<Int, Void>("one(_:)")
    let rows = Rows()
  }
  static let methods = Methods()
}

extension NestedProbeProxy: ProbeDelegate {
  func ping() { forward(Self.methods.ping) { $0.ping() } }
  func one(_ a: Int) { forward(Self.methods.one, a) { $0.one($1) } }
  func height(forRow row: Int) -> Double? {
    forward(Self.methods.rows.height, row, orElse: nil) { $0.height(forRow: $1) }
  }
  func shouldSelect(_ row: Int) -> Bool {
    forward(Self.methods.rows.shouldSelect, row, orElse: true) { $0.shouldSelect($1) }
  }
  func two(_ a: Int, _ b: String) -> Bool {
    forward(Self.methods.rows.deeper.two, a, b, orElse: false) { $0.two($1, $2) }
  }
}
