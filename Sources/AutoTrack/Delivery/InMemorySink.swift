import DelegateProxyKit
import DelegateProxyKitSupport
import Foundation
import Synchronization

/// An ``EventSink`` that keeps events in memory, up to a fixed number: for tests, examples and debugging.
///
/// The sink holds at most ``capacity`` events. What happens to one more is
/// its ``OverflowPolicy``: drop the oldest held event (the default, so the
/// sink always shows the most recent activity) or refuse the newest. Either
/// way the drop is counted in ``droppedCount`` and passed to the `onDrop`
/// callback, never silent.
///
/// ```swift
/// let sink = InMemorySink(capacity: 2)
/// sink.send(a); sink.send(b); sink.send(c)
/// sink.events.map(\.id)   // [b.id, c.id]
/// sink.droppedCount       // 1
/// ```
public final class InMemorySink: EventSink {
  /// What the sink does with an event that arrives when it is full.
  public enum OverflowPolicy: Sendable, Hashable {
    /// Remove the oldest held event to make room for the new one.
    case dropOldest
    /// Keep the held events and discard the new one.
    case dropNewest
  }

  private struct State {
    var events = RingBuffer<TrackedEvent>()
    var received = 0
    var dropped = 0
    var lastID: String?
  }

  /// The most events the sink holds at once.
  public let capacity: Int
  /// What happens to an event that arrives when the sink is full.
  public let overflowPolicy: OverflowPolicy
  private let onDrop: (@Sendable (TrackedEvent) -> Void)?
  private let state = SanitizerVisibleMutex(State())

  /// Creates an empty sink.
  ///
  /// - Parameters:
  ///   - capacity: The most events to hold; at least 1.
  ///   - overflowPolicy: What to drop when full; ``OverflowPolicy/dropOldest`` by default.
  ///   - onDrop: Called with each dropped event, outside the sink's lock.
  public init(
    capacity: Int = 10_000,
    overflowPolicy: OverflowPolicy = .dropOldest,
    onDrop: (@Sendable (TrackedEvent) -> Void)? = nil
  ) {
    precondition(capacity >= 1, "InMemorySink capacity must be at least 1")
    self.capacity = capacity
    self.overflowPolicy = overflowPolicy
    self.onDrop = onDrop
  }

  /// Keeps `event`, dropping one event first when the sink is full.
  ///
  /// - Parameter event: The event to keep.
  /// - Complexity: O(1) amortized.
  public func send(_ event: TrackedEvent) {
    let dropped = state.withLock { state in Self.keep(event, in: &state, capacity, overflowPolicy) }
    if let dropped, let onDrop { onDrop(dropped) }
  }

  /// Keeps `events` in order under one lock, dropping as ``send(_:)`` would for each.
  ///
  /// - Parameter events: The events, oldest first.
  /// - Returns: Always empty: the sink refuses nothing (what it drops is counted in ``droppedCount``).
  /// - Complexity: O(*n*) amortized for *n* events.
  public func send(contentsOf events: [TrackedEvent]) -> [(index: Int, error: AutoTrackError)] {
    let dropped = state.withLock { state in
      var dropped: [TrackedEvent] = []
      for event in events {
        if let event = Self.keep(event, in: &state, capacity, overflowPolicy) { dropped.append(event) }
      }
      return dropped
    }
    if let onDrop { for event in dropped { onDrop(event) } }
    return []
  }

  /// Keeps one event; returns the event dropped to make room, or the event itself when refused.
  private static func keep(
    _ event: TrackedEvent, in state: inout State, _ capacity: Int, _ overflowPolicy: OverflowPolicy
  ) -> TrackedEvent? {
    state.received += 1
    state.lastID = event.id
    guard state.events.count >= capacity else {
      state.events.append(event)
      return nil
    }
    state.dropped += 1
    switch overflowPolicy {
    case .dropOldest:
      let oldest = state.events.removeFirst()
      state.events.append(event)
      return oldest
    case .dropNewest:
      return event
    }
  }

  /// Acknowledges every event received so far; nothing is pending in memory.
  ///
  /// - Returns: The number of events received (held or dropped) and the last one's id.
  @discardableResult
  public func flush() -> FlushAcknowledgement {
    state.withLock { FlushAcknowledgement(acknowledgedCount: $0.received, lastAcknowledgedID: $0.lastID) }
  }

  /// The held events, oldest first.
  public var events: [TrackedEvent] {
    state.withLock { $0.events.elements }
  }

  /// The number of events dropped because the sink was full.
  public var droppedCount: Int {
    state.withLock { $0.dropped }
  }

  /// The number of events sent to the sink, held or dropped.
  public var receivedCount: Int {
    state.withLock { $0.received }
  }

  /// Removes and returns the held events, oldest first.
  ///
  /// - Returns: The events that were held.
  @discardableResult
  public func removeAll() -> [TrackedEvent] {
    state.withLock { state in
      let events = state.events.elements
      state.events.removeAll()
      return events
    }
  }
}
