import DelegateProxyKit
import Testing

@Suite struct ObservationTests {
  @Test func everySubscriberGetsEveryCall() async throws {
    let delegate = RecordingProbe()
    var proxy: ProbeDelegateProxy? = ProbeDelegateProxy(forwardee: delegate)
    let first = try proxy!.invocations(of: "one(_:)")
    let second = try proxy!.invocations(of: "one(_:)")
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
    let stream = try proxy!.invocations(of: "height(forRow:)")
    _ = proxy!.height(forRow: 2)
    proxy = nil
    var values: [Double?] = []
    for await invocation in stream { values.append(try invocation.returnValue(as: Double?.self)) }
    #expect(values == [20])
  }

  @Test func callbacksObserveAndStop() throws {
    let proxyForwardee = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: proxyForwardee)
    let log = Log()
    let token = try proxy.observe("two(_:_:)") { invocation in
      log.append("\(invocation.selector) -> \((try? invocation.returnValue(as: Bool.self)) ?? false)")
    }
    _ = proxy.two(1, "a")
    try token.remove()
    _ = proxy.two(1, "b")
    #expect(log.all == ["two(_:_:) -> true"])
  }

  @Test func cancellingAStreamRemovesItsObserver() async throws {
    let proxyForwardee = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: proxyForwardee)
    let stream = try proxy.invocations(of: "ping()")
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
