import DelegateProxyKit
import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Testing

@Suite struct InvocationTests {
  @Test func typedArgumentAccess() throws {
    let invocation = Invocation(selector: "three(_:_:_:)", arguments: [1, 2.5, "x"])
    #expect(invocation.argumentCount == 3)
    #expect(try invocation.argument(0, as: Int.self) == 1)
    #expect(try invocation.argument(1, as: Double.self) == 2.5)
    #expect(try invocation.argument(2, as: String.self) == "x")
  }

  @Test func wrongIndexThrowsATypedError() {
    let invocation = Invocation(selector: "one(_:)", arguments: [1])
    #expect(throws: DelegateProxyError.argumentIndexOutOfRange(selector: "one(_:)", index: 1, count: 1)) {
      try invocation.argument(1, as: Int.self)
    }
    #expect(throws: DelegateProxyError.argumentIndexOutOfRange(selector: "one(_:)", index: -1, count: 1)) {
      try invocation.argument(-1, as: Int.self)
    }
  }

  @Test func wrongTypeThrowsATypedError() {
    let invocation = Invocation(selector: "one(_:)", arguments: [1])
    #expect(
      throws: DelegateProxyError.argumentTypeMismatch(selector: "one(_:)", index: 0, expected: "String", actual: "Int")
    ) {
      try invocation.argument(0, as: String.self)
    }
  }

  @Test(arguments: 0...7) func argumentsOfEveryKindRoundTripThroughAProxy(arity: Int) throws {
    let proxy = MixedArgumentsProxy()
    let values = MixedArguments()
    let seen = SanitizerVisibleMutex<[Invocation]>([])
    try proxy.hooks.addHook(for: MixedArguments.selector(arity), at: .before) { invocation in
      seen.withLock { $0.append(invocation) }
    }
    try proxy.hooks.addHook(for: MixedArguments.selector(arity), at: .after) { invocation in
      seen.withLock { $0.append(invocation) }
    }
    values.call(arity, on: proxy)
    let invocations = seen.withLock { $0 }
    #expect(invocations.count == 2)
    for invocation in invocations {
      #expect(try values.roundTrips(invocation, arity: arity))
      #expect(invocation.arguments.count == arity)
      #expect(
        throws: DelegateProxyError.argumentIndexOutOfRange(selector: invocation.selector, index: arity, count: arity)
      ) {
        try invocation.argument(arity, as: Int.self)
      }
    }
  }

  @Test(arguments: 0...7) func argumentsOfEveryKindRoundTripThroughTheInitializer(arity: Int) throws {
    let values = MixedArguments()
    let invocation = Invocation(selector: MixedArguments.selector(arity), arguments: values.values(arity))
    #expect(try values.roundTrips(invocation, arity: arity))
    let array = invocation.arguments
    #expect(array.count == arity)
    if arity > 0 { #expect(array[0] as? Token === values.token) }
    if arity > 3 { #expect(array[3] as? Large == values.large) }
    if arity > 6 { #expect(array[6] as? Double == values.double) }
  }

  @Test func anArgumentReadsAsATypeItCastsTo() throws {
    let values = MixedArguments()
    let invocation = Invocation(selector: MixedArguments.selector(7), arguments: values.values(7))
    // Not the argument's own type, but one `as?` reaches: a protocol, `Any`, an `Optional`.
    #expect(try invocation.argument(0, as: AnyObject.self) === values.token)
    #expect(try invocation.argument(1, as: Any.self) as? Size == values.size)
    #expect(try invocation.argument(2, as: Triangle.self) == Triangle(label: "tri"))
    #expect(try invocation.argument(3, as: Large?.self) == values.large)
    #expect(try invocation.argument(5, as: Int.self) == 7)
  }

  @Test func aWrongTypeOrIndexOfEveryKindThrowsATypedError() {
    let values = MixedArguments()
    let selector = MixedArguments.selector(7)
    let invocation = Invocation(selector: selector, arguments: values.values(7))
    // Each kind of argument read as another kind: (index, type asked for, type held, the read).
    let wrongTypes: [(Int, String, String, (Invocation) throws -> Any)] = [
      (0, "Size", "Token", { try $0.argument(0, as: Size.self) }),
      (1, "Token", "Size", { try $0.argument(1, as: Token.self) }),
      (2, "Large", "Triangle", { try $0.argument(2, as: Large.self) }),
      (3, "String", "Large", { try $0.argument(3, as: String.self) }),
      (6, "Int", "Double", { try $0.argument(6, as: Int.self) }),
    ]
    for (index, expected, actual, read) in wrongTypes {
      let mismatch = DelegateProxyError.argumentTypeMismatch(
        selector: selector, index: index, expected: expected, actual: actual)
      #expect(throws: mismatch) { try read(invocation) }
    }
    #expect(throws: DelegateProxyError.argumentIndexOutOfRange(selector: selector, index: 7, count: 7)) {
      try invocation.argument(7, as: Double.self)
    }
    #expect(throws: DelegateProxyError.argumentIndexOutOfRange(selector: selector, index: -1, count: 7)) {
      try invocation.argument(-1, as: Token.self)
    }
  }

  @Test func moreThanSixArgumentsAreKept() throws {
    let invocation = Invocation(selector: "many", arguments: Array(0..<9))
    #expect(try (0..<9).map { try invocation.argument($0, as: Int.self) } == Array(0..<9))
  }

  @Test func returnValueIsUnavailableBeforeTheCall() throws {
    let proxyForwardee = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: proxyForwardee)
    let errors = RecordingLog()
    try proxy.hooks.addHook(for: "two(_:_:)", at: .before) { invocation in
      do {
        _ = try invocation.returnValue(as: Bool.self)
      } catch {
        errors.append("\(error)")
      }
    }
    try proxy.hooks.addHook(for: "two(_:_:)", at: .after) { invocation in
      errors.append("after \(try invocation.returnValue(as: Bool.self))")
      _ = try invocation.returnValue(as: String.self)
    }
    let reported = RecordingLog()
    proxy.hooks.setErrorHandler { reported.append("\($0)") }
    #expect(proxy.two(1, "a") == true)
    #expect(
      errors.all == [
        "'two(_:_:)' has no return value here: it is read in after hooks of calls that returned", "after true",
      ])
    #expect(reported.all == ["after hook on 'two(_:_:)' threw: 'two(_:_:)' returns Bool, not String"])
  }

  @Test func aReturnValueOfTheWrongTypeNamesTheDeclaredTypeFirst() throws {
    let delegate = EffectsRecorder()
    let proxy = EffectsProxy(forwardee: delegate)
    let finished = RecordingLog()
    let caught = SanitizerVisibleMutex<DelegateProxyError?>(nil)
    try proxy.hooks.addHook(for: "discount(for:)", at: .after) { call in
      finished.append("\(String(describing: try call.returnValue(as: Int?.self)))")
      do throws(DelegateProxyError) {
        _ = try call.returnValue(as: String.self)
      } catch {
        finished.append("\(error)")
        caught.withLock { $0 = error }
      }
    }
    #expect(proxy.discount(for: "SPRING") == 6)
    #expect(finished.all == ["Optional(6)", "'discount(for:)' returns Optional<Int>, not String"])
    #expect(
      caught.withLock { $0 }
        == .returnTypeMismatch(selector: "discount(for:)", returns: "Optional<Int>", requested: "String"))
    // An invocation no call finished has no value yet.
    let invocation = Invocation(selector: "discount(for:)", arguments: ["SPRING"])
    #expect(!invocation.hasReturned)
    #expect(throws: DelegateProxyError.returnValueUnavailable(selector: "discount(for:)")) {
      try invocation.returnValue(as: Int?.self)
    }
  }

  @Test func afterHooksOfThrowingMethodsSeeTheErrorAndNoValue() throws {
    let delegate = EffectsRecorder()
    let proxy = EffectsProxy(forwardee: delegate)
    let seen = RecordingLog()
    let failure = delegate.chargeFailure
    try proxy.hooks.addHook(for: "charge(_:)", at: .after) { invocation in
      let amount = try invocation.argument(0, as: Int.self)
      if let error = invocation.error {
        seen.append("\(amount) threw \(error as? ChargeFailure === failure)")
        #expect(throws: DelegateProxyError.returnValueUnavailable(selector: "charge(_:)")) {
          try invocation.returnValue(as: Int.self)
        }
      } else {
        seen.append("\(amount) returned \(try invocation.returnValue(as: Int.self))")
      }
    }
    #expect(try proxy.charge(3) == 6)
    #expect(throws: ChargeFailure.self) { try proxy.charge(-3) }
    #expect(seen.all == ["3 returned 6", "-3 threw true"])
  }

  @Test(arguments: 1...7) func aReifiedCallReleasesEachArgumentOnce(arity: Int) throws {
    let proxy = MixedArgumentsProxy()
    var values = MixedArguments()
    let kept = SanitizerVisibleMutex<[Invocation]>([])
    try proxy.hooks.addHook(for: MixedArguments.selector(arity), at: .before) { _ in }
    try proxy.hooks.addHook(for: MixedArguments.selector(arity), at: .after) { invocation in
      kept.withLock { $0.append(invocation) }
    }
    for _ in 0..<3 { values.call(arity, on: proxy) }
    // Each kept invocation holds the class argument once more; dropping them gives it back.
    #expect(kept.withLock { $0.count } == 3)
    #expect(!isKnownUniquelyReferenced(&values.token))
    #expect(try kept.withLock { try $0.allSatisfy { try values.roundTrips($0, arity: arity) } })
    kept.withLock { $0.removeAll() }
    #expect(isKnownUniquelyReferenced(&values.token))
    // Calls whose invocations are not kept leave no reference behind either.
    for _ in 0..<3 { values.call(arity, on: proxy) }
    kept.withLock { $0.removeAll() }
    #expect(isKnownUniquelyReferenced(&values.token))
  }

  @Test(arguments: 0...9) func anInvocationMadeFromAnArrayReleasesEachArgumentOnce(count: Int) throws {
    weak var released: Token?
    do {
      let tokens = (0..<count).map { Token(name: "\($0)") }
      released = tokens.last
      var invocation = Invocation(selector: "many", arguments: tokens)
      let copy = invocation
      invocation = Invocation(selector: "none", arguments: [])
      #expect(invocation.argumentCount == 0)
      #expect(copy.argumentCount == count)
      for (index, token) in tokens.enumerated() { #expect(try copy.argument(index, as: Token.self) === token) }
    }
    #expect(released == nil)
  }
}
