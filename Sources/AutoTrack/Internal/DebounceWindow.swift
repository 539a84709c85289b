/// The debounce bookkeeping: when each element last produced a kept click, for as long as that can
/// still matter.
///
/// A click on an element is debounced when the element's last kept click is less than the window
/// ago. Kept clicks are remembered in a dictionary (element → time) and in a first-in first-out
/// queue in the order they were kept. Each admission first retires, from the front of the queue,
/// every click the window has passed: those can never debounce anything again on a clock that does
/// not go back, so retiring them changes no decision. Each click enters and leaves the queue once,
/// so an admission costs O(1) amortized, however many elements are in the window.
///
/// Memory holds the clicks kept within the last window, and never more than ``capacity`` of them:
/// past that, the oldest is forgotten early (the one case in which a click could be kept that a
/// table without a limit would have debounced; it needs thousands of distinct elements clicked
/// within one window).
struct DebounceWindow<Key: Hashable> {
  private struct Kept {
    var key: Key
    var at: Duration
  }

  /// The most clicks remembered at once.
  let capacity: Int
  private var lastKept: [Key: Duration] = [:]
  private var order = RingBuffer<Kept>()

  /// Creates an empty window.
  ///
  /// - Parameter capacity: The most clicks remembered at once; at least 1.
  init(capacity: Int) {
    precondition(capacity >= 1, "a debounce window remembers at least one click")
    self.capacity = capacity
  }

  /// The number of elements whose last kept click is remembered.
  var count: Int { lastKept.count }

  /// Decides one click: `false` when the element's last kept click is less than `window` before
  /// `now` (the click is debounced), else `true`, and the click is remembered as kept.
  ///
  /// - Parameters:
  ///   - key: The element clicked.
  ///   - now: The time of the click.
  ///   - window: The debounce window; must be positive.
  /// - Returns: Whether the click is kept.
  /// - Complexity: O(1) amortized.
  mutating func admit(_ key: Key, at now: Duration, window: Duration) -> Bool {
    while let oldest = order.first, now - oldest.at >= window { retireOldest() }
    // One hash on the common path: write first, put the old time back when the click is debounced.
    if let last = lastKept.updateValue(now, forKey: key), now - last >= .zero, now - last < window {
      lastKept[key] = last
      return false
    }
    order.append(Kept(key: key, at: now))
    if order.count > capacity { retireOldest() }
    return true
  }

  /// Forgets every click.
  mutating func removeAll() {
    lastKept.removeAll()
    order.removeAll()
  }

  private mutating func retireOldest() {
    guard let oldest = order.removeFirst(), let index = lastKept.index(forKey: oldest.key) else { return }
    // A later click of the same element (kept after this one expired) owns the entry now.
    if lastKept.values[index] == oldest.at { lastKept.remove(at: index) }
  }
}
