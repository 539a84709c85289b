import DelegateProxyKit
import DelegateProxyKitTestSupport
import GeneratorFixtures
import Testing

/// A proxy for `FeedDelegate`, written by hand in the shape the generator emits for a protocol with
/// associated types: generic over the concrete forwardee type, its table shared per specialisation.
final class HandFeedDelegateProxy<Forwardee: FeedDelegate>: DelegateProxy<Forwardee>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let feedDidLoad = DelegateMethod<Feed, [Forwardee.Item], Void>("feed(_:didLoad:)")
    let feedShouldShow = DelegateMethod<Feed, Forwardee.Item, Bool>("feed(_:shouldShow:)")
    let feedRank = DelegateMethod<Feed, Forwardee.Item, Int>("feed(_:rank:)")
    let featuredItem = DelegateMethod<Feed, Forwardee.Item?>("featuredItem(in:)")
    init() {}
  }

  static var methods: Methods { sharedMethods { Methods() } }

  /// This proxy's copy of the shared table: the forwarding path reads it without a lock.
  private let table = HandFeedDelegateProxy<Forwardee>.methods
}

extension HandFeedDelegateProxy: FeedDelegate {
  typealias Item = Forwardee.Item

  func feed(_ feed: Feed, didLoad items: [Forwardee.Item]) {
    forward(table.feedDidLoad, feed, items) { (forwardee, feed, items) in
      forwardee.feed(feed, didLoad: items)
    }
  }
  func feed(_ feed: Feed, shouldShow item: Forwardee.Item) -> Bool {
    forward(table.feedShouldShow, feed, item, orElse: false) { (forwardee, feed, item) in
      forwardee.feed(feed, shouldShow: item)
    }
  }
  func feed(_ feed: Feed, rank item: Forwardee.Item) -> Int {
    forward(table.feedRank, feed, item, orElse: 0) { (forwardee, feed, item) in
      forwardee.feed(feed, rank: item)
    }
  }
  func featuredItem(in feed: Feed) -> Forwardee.Item? {
    forward(table.featuredItem, feed, orElse: nil) { (forwardee, feed) in
      forwardee.featuredItem(in: feed)
    }
  }
}

/// A feed delegate of strings that records each call.
final class StringFeedRecorder: FeedDelegate {
  var calls: [String] = []
  func feed(_ feed: Feed, didLoad items: [String]) { calls.append("load \(feed.name) \(items)") }
  func feed(_ feed: Feed, shouldShow item: String) -> Bool {
    calls.append("show \(feed.name) \(item)")
    return !item.isEmpty
  }
  func featuredItem(in feed: Feed) -> String? {
    calls.append("featured \(feed.name)")
    return "top"
  }
}

/// A feed delegate of numbers that records each call.
final class IntFeedRecorder: FeedDelegate {
  var calls: [String] = []
  func feed(_ feed: Feed, didLoad items: [Int]) { calls.append("load \(feed.name) \(items)") }
  func feed(_ feed: Feed, shouldShow item: Int) -> Bool {
    calls.append("show \(feed.name) \(item)")
    return item > 0
  }
  func feed(_ feed: Feed, rank item: Int) -> Int { item * 10 }
  func featuredItem(in feed: Feed) -> Int? { nil }
}

// Serialized: a test installs a type-wide hook on one specialisation, which the suite's other
// tests would trigger if they ran beside it.
@Suite(.serialized) struct AssociatedTypeProxyTests {
  func script<Delegate: FeedDelegate>(_ delegate: Delegate, _ items: [Delegate.Item]) -> [Bool] {
    let feed = Feed(name: "news")
    delegate.feed(feed, didLoad: items)
    return items.map { delegate.feed(feed, shouldShow: $0) }
  }

  @Test("the hand-written generic proxy forwards as the direct call does")
  func handForwarding() {
    let direct = StringFeedRecorder()
    let forwardee = StringFeedRecorder()
    let proxy = HandFeedDelegateProxy(forwardee: forwardee)
    #expect(script(proxy, ["a", "", "c"]) == script(direct, ["a", "", "c"]))
    #expect(forwardee.calls == direct.calls)
    #expect(!forwardee.calls.isEmpty)
  }

  @Test("typed hooks on the hand-written proxy fire once, in order, per specialisation")
  func handHooks() throws {
    let strings = StringFeedRecorder()
    let proxy = HandFeedDelegateProxy(forwardee: strings)
    var seen: [String] = []
    proxy.hookBefore(\.feedDidLoad) { feed, items in seen.append("before \(feed.name) \(items)") }
    proxy.hookAfter(\.feedDidLoad) { feed, items in seen.append("after \(feed.name) \(items)") }
    proxy.hookInstead(\.feedShouldShow) { original, feed, item in
      seen.append("instead \(item)")
      return !original(feed, item)
    }
    proxy.hookAfter(\.feedShouldShow) { shown, _, item in seen.append("shown \(item) \(shown)") }
    #expect(script(proxy, ["x", ""]) == [false, true])
    #expect(
      seen == [
        "before news [\"x\", \"\"]", "after news [\"x\", \"\"]", "instead x", "shown x false", "instead ",
        "shown  true",
      ])
    #expect(strings.calls == ["load news [\"x\", \"\"]", "show news x", "show news "])

    // Another specialisation has its own table and type-wide registry: a type-wide hook on the
    // `Int` proxies fires for them only.
    let counted = RecordingLog()
    let token = HandFeedDelegateProxy<IntFeedRecorder>.hookBefore(\.feedShouldShow) { _, item in
      counted.append("\(item)")
    }
    defer { _ = try? token.remove() }
    let numbers = IntFeedRecorder()
    let intProxy = HandFeedDelegateProxy(forwardee: numbers)
    #expect(script(intProxy, [3, -1]) == [true, false])
    #expect(script(proxy, ["y"]) == [false])
    #expect(counted.all == ["3", "-1"])
    #expect(
      HandFeedDelegateProxy<IntFeedRecorder>.methods.feedShouldShow
        === HandFeedDelegateProxy<IntFeedRecorder>.methods.feedShouldShow)
    #expect(
      HandFeedDelegateProxy<IntFeedRecorder>.methods.feedShouldShow as ProxyMethod
        !== HandFeedDelegateProxy<StringFeedRecorder>.methods.feedShouldShow)
  }
}

/// A paged feed delegate of strings keyed by page numbers, recording each call.
final class PagedFeedRecorder: PagedFeedDelegate {
  var calls: [String] = []
  func feed(_ feed: Feed, didLoad items: [String]) { calls.append("load \(items)") }
  func feed(_ feed: Feed, shouldShow item: String) -> Bool { item.count > 1 }
  func feed(_ feed: Feed, rank item: String) -> Int { item.count }
  func featuredItem(in feed: Feed) -> String? { "first" }
  func feed(_ feed: Feed, didLoadPage items: [String], next cursor: Int?) {
    calls.append("page \(items) \(cursor.map(String.init) ?? "end")")
  }
}

/// The generated proxies for protocols with associated types: generic over the forwardee, with the
/// forwardee's own types in their tables and hooks.
// Serialized: a test installs a type-wide hook on one specialisation, which the suite's other
// tests would trigger if they ran beside it.
@Suite(.serialized) struct GeneratedAssociatedTypeProxyTests {
  func script<Delegate: FeedDelegate>(_ delegate: Delegate, _ items: [Delegate.Item]) -> [String] {
    let feed = Feed(name: "news")
    delegate.feed(feed, didLoad: items)
    return items.map { "\(delegate.feed(feed, shouldShow: $0)) \(delegate.feed(feed, rank: $0))" }
      + ["\(String(describing: delegate.featuredItem(in: feed)))"]
  }

  @Test("the generated proxy forwards every requirement as the direct call does")
  func forwarding() {
    let direct = StringFeedRecorder()
    let forwardee = StringFeedRecorder()
    let proxy = FeedDelegateProxy(forwardee: forwardee)
    let proxied = script(proxy, ["a", "", "c"])
    #expect(proxied == script(direct, ["a", "", "c"]))
    #expect(proxied.last == "Optional(\"top\")")
    #expect(forwardee.calls == direct.calls)
    let numbersForwardee = IntFeedRecorder()  // held here: the proxy holds it weakly
    let numbers = FeedDelegateProxy(forwardee: numbersForwardee)
    #expect(script(numbers, [2, -3]) == script(IntFeedRecorder(), [2, -3]))
  }

  @Test("without a forwardee: the fallbacks file, the protocol's default and nil answer")
  func withoutForwardee() {
    let proxy = FeedDelegateProxy<StringFeedRecorder>(forwardee: nil)
    #expect(script(proxy, ["a"]) == ["false 0", "nil"])
  }

  @Test("typed hooks name the forwardee's types and fire once, in order, per specialisation")
  func hooks() throws {
    let forwardee = StringFeedRecorder()
    let proxy = FeedDelegateProxy(forwardee: forwardee)
    var seen: [String] = []
    proxy.hookBefore(\.didLoad) { _, items in seen.append("before \(items.joined())") }
    proxy.hookInstead(\.rank) { original, feed, item in original(feed, item) + 100 }
    proxy.hookAfter(\.rank) { rank, _, item in seen.append("rank \(item) \(rank)") }
    #expect(script(proxy, ["ab"]) == ["true 100", "Optional(\"top\")"])
    #expect(seen == ["before ab", "rank ab 100"])

    let log = RecordingLog()
    let token = FeedDelegateProxy<IntFeedRecorder>.hookAfter(\.shouldShow) { shown, _, item in
      log.append("\(item) \(shown)")
    }
    defer { _ = try? token.remove() }
    let numbers = IntFeedRecorder()
    _ = script(FeedDelegateProxy(forwardee: numbers), [1, 0])
    _ = script(proxy, ["z"])
    #expect(log.all == ["1 true", "0 false"], "the String specialisation has its own type-wide hooks")
  }

  @Test("a protocol refining one with associated types flattens the inherited requirements")
  func refined() throws {
    let forwardee = PagedFeedRecorder()
    let proxy = PagedFeedDelegateProxy(forwardee: forwardee)
    var cursors: [Int?] = []
    proxy.hookBefore(\.didLoadPage) { _, _, cursor in cursors.append(cursor) }
    let feed = Feed(name: "paged")
    proxy.feed(feed, didLoadPage: ["a"], next: 2)
    proxy.feed(feed, didLoadPage: ["b"], next: nil)
    proxy.feed(feed, didLoad: ["c"])
    #expect(cursors == [2, nil])
    #expect(forwardee.calls == ["page [\"a\"] 2", "page [\"b\"] end", "load [\"c\"]"])
    #expect(proxy.feed(feed, rank: "abc") == 3)
    #expect(proxy.featuredItem(in: feed) == "first")
  }
}
