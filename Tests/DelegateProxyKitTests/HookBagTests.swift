import DelegateProxyKit
import Testing

/// A bag owns hooks: they are removed, and what they captured released, when it goes away.
@Suite struct HookBagTests {
  @Test func hooksGoAwayWithTheirBag() throws {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    let counter = Counter()
    var payload: LeakPayload? = LeakPayload()
    weak let captured = payload
    var bag: HookBag? = HookBag()
    let token = proxy.hookBefore(\.one) { [payload] _ in
      withExtendedLifetime(payload) {}
      counter.increment()
    }
    token.store(in: try #require(bag))
    payload = nil
    proxy.one(1)
    #expect(counter.count == 1)
    #expect(captured != nil)

    bag = nil
    #expect(!token.isInstalled)
    #expect(captured == nil)
    proxy.one(2)
    #expect(counter.count == 1)
    #expect(delegate.log == ["one 1", "one 2"])
  }

  @Test func aBagRemovesEveryKindOfHookItHolds() throws {
    let proxy = ProbeDelegateProxy(forwardee: RecordingProbe())
    let bag = HookBag()
    let tokens = [
      proxy.hookBefore(\.one) { _ in },
      proxy.hookInstead(\.shouldSelect) { _, _ in false },
      proxy.hookAfter(\.ping) {},
      try proxy.hooks.addHook(for: "one(_:)", at: .before) { _ in },
    ]
    for token in tokens { bag.insert(token) }
    #expect(bag.count == 4)
    #expect(!proxy.shouldSelect(1))
    bag.removeAll()
    #expect(bag.isEmpty)
    #expect(tokens.allSatisfy { !$0.isInstalled })
    #expect(proxy.hooks.isEmpty)
    #expect(proxy.shouldSelect(1))
  }

  @Test func removalIsIdempotent() throws {
    let proxy = ProbeDelegateProxy(forwardee: RecordingProbe())
    let bag = HookBag()
    let token = proxy.hookBefore(\.ping) {}
    token.store(in: bag)
    token.store(in: bag)
    #expect(bag.count == 1)
    #expect(try token.remove())
    // The hook is already gone: emptying the bag skips it, twice over.
    bag.removeAll()
    bag.removeAll()
    #expect(try !token.remove())
    #expect(bag.isEmpty)
  }

  @Test func aTokenRemovedByItsBagAnswersAsAnyRemovedToken() throws {
    var proxy: ProbeDelegateProxy? = ProbeDelegateProxy()
    var bag: HookBag? = HookBag()
    let token = try #require(proxy).hookBefore(\.ping) {}
    token.store(in: try #require(bag))
    bag = nil
    #expect(try !token.remove())
    proxy = nil
    #expect(throws: DelegateProxyError.proxyDeallocated(proxyType: "ProbeDelegateProxy")) {
      try token.remove()
    }
  }

  @Test func aBagOutlivingItsProxyLetsGoQuietly() throws {
    var proxy: ProbeDelegateProxy? = ProbeDelegateProxy()
    weak let released = proxy
    let bag = HookBag()
    try #require(proxy).hookBefore(\.ping) {}.store(in: bag)
    proxy = nil
    #expect(released == nil)
    bag.removeAll()
    #expect(bag.isEmpty)
  }
}
