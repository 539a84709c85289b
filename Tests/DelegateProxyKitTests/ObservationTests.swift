import DelegateProxyKit
import DelegateProxyKitTestSupport
import Testing

@Suite struct ObservationTests {
  @Test func everySubscriberGetsEveryCall() async throws {
    let delegate = RecordingProbe()
    var proxy: ProbeDelegateProxy? = ProbeDelegateProxy(forwardee: delegate)
    let first = try proxy!.invocations(of: \.one)
    let second = try proxy!.hooks.invocations(of: "one(_:)")
    proxy!.one(1)
    proxy!.one(2)
    proxy!.ping()
    proxy = nil  // streams finish when the proxy goes away

    var firstSeen: [Int] = []
    for await invocation in first { firstSeen.append(try invocation.argument(0, as: Int.self)) }
    var secondSeen: [Int] = []
    for await invocation in second { secondSeen.append(try invocation.argument(0, as: Int.self)) }
    #expect(firstSeen == [1, 2])
    #expect(secondSeen == [1, 2])
    #expect(delegate.log == ["one 1", "one 2", "ping"])
  }

  @Test func streamsCarryReturnValues() async throws {
    let proxyForwardee = RecordingProbe()
    var proxy: ProbeDelegateProxy? = ProbeDelegateProxy(forwardee: proxyForwardee)
    let stream = try proxy!.invocations(of: \.height)
    _ = proxy!.height(forRow: 2)
    proxy = nil
    var values: [Double?] = []
    for await invocation in stream { values.append(try invocation.returnValue(as: Double?.self)) }
    #expect(values == [20])
  }

  @Test func streamsOfThrowingMethodsCarryTheError() async throws {
    let delegate = EffectsRecorder()
    var proxy: EffectsProxy? = EffectsProxy(forwardee: delegate)
    let stream = try proxy!.invocations(of: \.charge)
    #expect(try proxy!.charge(4) == 8)
    #expect(throws: ChargeFailure.self) { try proxy!.charge(-1) }
    proxy = nil
    var seen: [String] = []
    for await invocation in stream {
      if let error = invocation.error {
        seen.append("threw \(error as? ChargeFailure === delegate.chargeFailure)")
      } else {
        seen.append("returned \(try invocation.returnValue(as: Int.self))")
      }
    }
    #expect(seen == ["returned 8", "threw true"])
  }

  @Test func afterHooksObserveAndStop() throws {
    let proxyForwardee = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: proxyForwardee)
    var log: [String] = []
    let token = proxy.hookAfter(\.two) { answer, a, b in log.append("two(\(a), \(b)) -> \(answer)") }
    let named = RecordingLog()
    let namedToken = try proxy.hooks.addHook(for: "two(_:_:)", at: .after) { invocation in
      named.append("\(invocation) -> \(try invocation.returnValue(as: Bool.self)), \(invocation.hasReturned)")
    }
    _ = proxy.two(1, "a")
    #expect(try token.remove() && namedToken.remove())
    _ = proxy.two(1, "b")
    #expect(log == ["two(1, a) -> true"])
    #expect(named.all == ["two(_:_:)[1, a] -> true, true"])
  }

  @Test func cancellingAStreamRemovesItsObserver() async throws {
    let proxyForwardee = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: proxyForwardee)
    let stream = try proxy.invocations(of: \.ping)
    #expect(proxy.hooks.count == 1)
    let task = Task {
      var count = 0
      for await _ in stream { count += 1 }
      return count
    }
    task.cancel()
    _ = await task.value
    #expect(proxy.hooks.count == 0)
  }
}
