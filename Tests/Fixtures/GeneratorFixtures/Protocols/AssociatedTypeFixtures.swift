// Fixtures for protocols with associated types: the proxy is generic over the concrete type of its
// forwardee and states each method's types through it (`Forwardee.Item`).

/// A feed of pages, loaded for its delegate.
public final class Feed: Sendable {
  /// The feed's name.
  public let name: String

  /// Creates a feed called `name`.
  public init(name: String) { self.name = name }
}

/// A feed's delegate, generic over what the feed shows.
///
/// - ProxyGenerator: generate
public protocol FeedDelegate: AnyObject {
  /// What the feed shows.
  associatedtype Item
  /// Some items arrived.
  func feed(_ feed: Feed, didLoad items: [Item])
  /// Whether to show an item.
  func feed(_ feed: Feed, shouldShow item: Item) -> Bool
  /// How high to rank an item, with a default implementation.
  func feed(_ feed: Feed, rank item: Item) -> Int
  /// The item to show first, if any: `nil` without a forwardee.
  func featuredItem(in feed: Feed) -> Item?
}

extension FeedDelegate {
  /// Every item ranks 0.
  public func feed(_ feed: Feed, rank item: Item) -> Int { 0 }
}

/// A feed delegate that also pages: refines a protocol with an associated type and adds its own.
///
/// - ProxyGenerator: generate
public protocol PagedFeedDelegate: FeedDelegate {
  /// What identifies a page.
  associatedtype Cursor: Hashable
  /// A page arrived, with the cursor of the next one.
  func feed(_ feed: Feed, didLoadPage items: [Item], next cursor: Cursor?)
}
