import DelegateProxyKit
import Testing

@Suite struct ForwardingTests {
  /// Calls every method once and returns the results as text, so two runs compare equal.
  private func exercise(_ target: any ProbeDelegate) -> [String] {
    target.ping()
    target.one(7)
    return [
      "\(target.two(1, "x"))", "\(target.two(-1, "y"))", "\(target.three(2, 1.5, "z"))",
      "\(target.four(1, 2, 3, 4))", target.five("a", "b", "c", "d", "e"), target.six(1, 2, 3, 4, 5, 6).name,
      "\(String(describing: target.height(forRow: 0)))", "\(String(describing: target.height(forRow: 2)))",
      "\(target.shouldSelect(3))", "\(target.shouldSelect(4))",
    ]
  }

  @Test func everyCallIsForwardedOnceWithItsArgumentsAndResult() {
    let direct = RecordingProbe()
    let expectedResults = exercise(direct)

    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    let results = exercise(proxy)

    #expect(results == expectedResults)
    #expect(delegate.log == direct.log)
    #expect(delegate.log.count == 12)
  }

  @Test func objectResultsKeepTheirIdentity() {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    #expect(proxy.six(1, 1, 1, 1, 1, 1) === delegate.token)
  }

  @Test func withoutForwardeeTheHostSeesItsDefaults() {
    let proxy = ProbeDelegateProxy()
    let host = ProbeHost()
    #expect(host.select(3) == true)
    _ = try? host.install(ProbeDelegateProxy.self) { proxy }
    #expect(host.select(3) == true)
    #expect(proxy.height(forRow: 4) == nil)
    #expect(proxy.two(5, "q") == false)
    #expect(proxy.six(0, 0, 0, 0, 0, 0).name == "default")
  }

  @Test func aForwardeeThatImplementsNothingGivesTheProtocolDefaults() {
    let empty = EmptyProbe()
    let proxy = ProbeDelegateProxy(forwardee: empty)
    #expect(exercise(proxy) == exercise(empty))
  }

  @Test func theForwardeeIsWeakByDefault() {
    let proxy = ProbeDelegateProxy()
    weak var weakDelegate: RecordingProbe?
    do {
      let delegate = RecordingProbe()
      weakDelegate = delegate
      proxy.forwardee = delegate
      #expect(proxy.forwardee != nil)
    }
    #expect(weakDelegate == nil)
    #expect(proxy.forwardee == nil)
  }

  @Test func retainingProxiesKeepTheForwardeeAlive() {
    weak var weakDelegate: RecordingProbe?
    let proxy: ProbeDelegateProxy
    do {
      let delegate = RecordingProbe()
      weakDelegate = delegate
      proxy = ProbeDelegateProxy(forwardee: delegate, retainsForwardee: true)
    }
    #expect(weakDelegate != nil)
    proxy.one(1)
    #expect(weakDelegate?.log == ["one 1"])
    proxy.forwardee = nil
    #expect(weakDelegate == nil)
  }

  @Test func hooksFireForMethodsTheDelegateDoesNotImplement() throws {
    let empty = EmptyProbe()
    let proxy = ProbeDelegateProxy(forwardee: empty)
    let seen = Log()
    try proxy.addHook(for: "one(_:)", at: .after) { invocation in
      seen.append("one \(try invocation.argument(0, as: Int.self))")
    }
    try proxy.addHook(for: "height(forRow:)", at: .after) { invocation in
      seen.append("height -> \(try invocation.returnValue(as: Double?.self) as Any)")
    }
    proxy.one(5)
    #expect(proxy.height(forRow: 2) == nil)
    #expect(seen.all == ["one 5", "height -> nil"])
  }

  @Test func hooksFireWithNoForwardeeAtAll() throws {
    let proxy = ProbeDelegateProxy()
    let counter = Counter()
    try proxy.addHook(for: "shouldSelect(_:)", at: .before) { _ in counter.increment() }
    #expect(proxy.shouldSelect(1) == true)
    #expect(counter.count == 1)
  }

  @Test func hookedCallsStillReturnEveryTypeUnchanged() throws {
    let direct = RecordingProbe()
    let expected = exercise(direct)
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    let counter = Counter()
    for method in ProbeDelegateProxy.methods {
      try proxy.addHook(for: method.selector, at: .before) { _ in counter.increment() }
      try proxy.addHook(for: method.selector, at: .after) { _ in counter.increment() }
    }
    #expect(exercise(proxy) == expected)
    #expect(delegate.log == direct.log)
    #expect(counter.count == 24)
  }
}
