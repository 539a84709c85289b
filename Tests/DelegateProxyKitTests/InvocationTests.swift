import DelegateProxyKit
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
    let errors = Log()
    try proxy.addHook(for: "two(_:_:)", at: .before) { invocation in
      do {
        _ = try invocation.returnValue(as: Bool.self)
      } catch {
        errors.append("\(error)")
      }
    }
    try proxy.addHook(for: "two(_:_:)", at: .after) { invocation in
      errors.append("after \(try invocation.returnValue(as: Bool.self))")
      _ = try invocation.returnValue(as: String.self)
    }
    let reported = Log()
    proxy.hooks.setErrorHandler { reported.append("\($0)") }
    #expect(proxy.two(1, "a") == true)
    #expect(errors.all == ["'two(_:_:)' has not returned yet; its return value is read in after hooks", "after true"])
    #expect(reported.all == ["after hook on 'two(_:_:)' threw: 'two(_:_:)' returns String, not Bool"])
  }
}
