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
}
