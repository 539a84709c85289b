import DelegateProxyKit
import DelegateProxyKitTestSupport
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
    _ = host.install(ProbeDelegateProxy.self) { proxy }
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
    let seen = RecordingLog()
    proxy.hookAfter(\.one) { a in seen.append("one \(a)") }
    proxy.hookAfter(\.height) { height, row in seen.append("height \(row) -> \(String(describing: height))") }
    proxy.one(5)
    #expect(proxy.height(forRow: 2) == nil)
    #expect(seen.all == ["one 5", "height 2 -> nil"])
  }

  @Test func hooksFireWithNoForwardeeAtAll() throws {
    let proxy = ProbeDelegateProxy()
    let counter = Counter()
    proxy.hookBefore(\.shouldSelect) { _ in counter.increment() }
    var answers: [Bool] = []
    proxy.hookAfter(\.shouldSelect) { answer, _ in answers.append(answer) }
    #expect(proxy.shouldSelect(1) == true)
    #expect(counter.count == 1)
    #expect(answers == [true])  // the after hook sees the host's default
  }

  /// Every declared method, hooked by name through the dynamic layer.
  @Test func stringHookedCallsStillReturnEveryTypeUnchanged() throws {
    let direct = RecordingProbe()
    let expected = exercise(direct)
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    let counter = Counter()
    #expect(proxy.hooks.methods.count == 9)
    for method in proxy.hooks.methods {
      try proxy.hooks.addHook(for: method.selector, at: .before) { _ in counter.increment() }
      try proxy.hooks.addHook(for: method.selector, at: .after) { _ in counter.increment() }
    }
    #expect(exercise(proxy) == expected)
    #expect(delegate.log == direct.log)
    #expect(counter.count == 24)
  }

  /// Every declared method, hooked with typed hooks that check the values they receive.
  @Test func typedHookedCallsStillReturnEveryTypeUnchanged() throws {
    let direct = RecordingProbe()
    let expected = exercise(direct)
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    var seen: [String] = []
    proxy.hookBefore(\.ping) { seen.append("before ping") }
    proxy.hookAfter(\.ping) { seen.append("after ping") }
    proxy.hookBefore(\.one) { seen.append("before one \($0)") }
    proxy.hookAfter(\.one) { seen.append("after one \($0)") }
    proxy.hookBefore(\.two) { seen.append("before two \($0) \($1)") }
    proxy.hookAfter(\.two) { seen.append("after two \($1) \($2) -> \($0)") }
    proxy.hookBefore(\.three) { seen.append("before three \($0) \($1) \($2)") }
    proxy.hookAfter(\.three) { seen.append("after three \($1) \($2) \($3) -> \($0)") }
    proxy.hookBefore(\.four) { seen.append("before four \($0 + $1 + $2 + $3)") }
    proxy.hookAfter(\.four) { seen.append("after four \($1 + $2 + $3 + $4) -> \($0)") }
    proxy.hookBefore(\.five) { seen.append("before five \([$0, $1, $2, $3, $4].joined())") }
    proxy.hookAfter(\.five) { seen.append("after five \([$1, $2, $3, $4, $5].joined()) -> \($0)") }
    proxy.hookBefore(\.six) { seen.append("before six \($0 + $1 + $2 + $3 + $4 + $5)") }
    proxy.hookAfter(\.six) { token, a, b, c, d, e, f in
      seen.append("after six \(a + b + c + d + e + f) -> \(token === delegate.token)")
    }
    proxy.hookBefore(\.height) { seen.append("before height \($0)") }
    proxy.hookAfter(\.height) { seen.append("after height \($1) -> \(String(describing: $0))") }
    proxy.hookBefore(\.shouldSelect) { seen.append("before shouldSelect \($0)") }
    proxy.hookAfter(\.shouldSelect) { seen.append("after shouldSelect \($1) -> \($0)") }
    #expect(proxy.hooks.count == 18)

    #expect(exercise(proxy) == expected)
    #expect(delegate.log == direct.log)
    #expect(
      seen == [
        "before ping", "after ping", "before one 7", "after one 7",
        "before two 1 x", "after two 1 x -> true", "before two -1 y", "after two -1 y -> false",
        "before three 2 1.5 z", "after three 2 1.5 z -> 3.0", "before four 10",
        "after four 10 -> Size(width: 3.0, height: 7.0)", "before five abcde", "after five abcde -> a|b|c|d|e",
        "before six 21", "after six 21 -> true", "before height 0", "after height 0 -> nil",
        "before height 2", "after height 2 -> Optional(20.0)", "before shouldSelect 3",
        "after shouldSelect 3 -> false", "before shouldSelect 4", "after shouldSelect 4 -> true",
      ])
  }
}
