// What FeedDelegateProxy answers when it has no forwardee, for the requirements of FeedDelegate that return a
// value and have no default implementation. `generate-delegate-proxies` wrote this file once and never
// overwrites it: replace each placeholder with what the host does when it has no delegate. When the protocol
// gains such a requirement, the proxy calls a method this type does not have yet, and the command prints the
// declaration to add.

/// The answers of `FeedDelegateProxy` without a forwardee, one per requirement it cannot answer otherwise.
enum FeedDelegateProxyFallbacks<Forwardee: FeedDelegate> {
  typealias Item = Forwardee.Item
  /// What `feed(_:shouldShow:)` answers without a forwardee: nothing is shown.
  static func shouldShow(_ feed: Feed, shouldShow item: Forwardee.Item) -> Bool {
    false
  }
}
