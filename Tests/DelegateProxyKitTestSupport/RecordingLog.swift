import DelegateProxyKitSupport

/// A thread-safe list of strings that hooks, capture handlers and delegates record into, in
/// the order the records arrive.
///
/// ```swift
/// let log = RecordingLog()
/// proxy.hookAfter(ListViewDelegateProxy.methods.didSelectRow) { _, _, _ in log.append("after") }
/// #expect(log.all == ["after"])
/// ```
package final class RecordingLog: Sendable {
  private let entries = SanitizerVisibleMutex<[String]>([])

  /// Creates an empty log.
  package init() {}

  /// Records `entry` after every entry recorded so far.
  ///
  /// - Parameter entry: What happened.
  package func append(_ entry: String) {
    entries.withLock { $0.append(entry) }
  }

  /// Every entry, in order.
  package var all: [String] { entries.withLock { $0 } }

  /// How many entries equal `entry`.
  ///
  /// - Parameter entry: The entry to count.
  /// - Returns: The count.
  package func count(_ entry: String) -> Int {
    entries.withLock { $0.filter { $0 == entry }.count }
  }

  /// How many entries start with `prefix`.
  ///
  /// - Parameter prefix: The start to look for.
  /// - Returns: The count.
  package func count(prefix: String) -> Int {
    entries.withLock { $0.filter { $0.hasPrefix(prefix) }.count }
  }

  /// Forgets every entry.
  package func reset() {
    entries.withLock { $0.removeAll() }
  }
}
