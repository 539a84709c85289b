import Foundation

/// A place that captured events go to: memory, a JSON Lines file, or a batching stage in front of a collector.
///
/// Capture runs on the main actor and must never wait for a disk or a
/// network, so the protocol is split in two:
/// - ``send(_:)`` is synchronous and cheap: it hands the event over (to a
///   buffer or a queue) and returns. It throws only to refuse an event it will
///   not take (a ``JSONLinesStore`` that is closed or whose buffer is full, a
///   property JSON cannot hold); an event it returns from normally is accepted,
///   and whatever a sink later has to drop is counted in its statistics and
///   reported, never dropped silently.
/// - ``flush()`` is asynchronous and does the slow part on demand: write and
///   sync the file, upload the queued batches. Its answer says how far the
///   sink got.
///
/// ```swift
/// let sink: any EventSink = try JSONLinesStore(configuration: .init(directory: url))
/// try sink.send(event)                  // buffered, returns at once
/// let ack = try await sink.flush()      // durable from here on
/// print(ack.acknowledgedCount)
/// ```
public protocol EventSink: AnyObject, Sendable {
  /// Hands one event to the sink without waiting for I/O.
  ///
  /// A sink that never refuses (``InMemorySink``, ``BatchingStage``) implements it without
  /// `throws`, so calls on those types need no `try`.
  ///
  /// - Parameter event: The event to keep or deliver.
  /// - Throws: ``AutoTrackError`` when the sink refuses the event; the sink counts the refusal
  ///   and keeps nothing of the event.
  func send(_ event: TrackedEvent) throws(AutoTrackError)

  /// Hands several events to the sink, in order, as one hand-off.
  ///
  /// AutoTrack's delivery stage sends each round of built events this way, so a sink can take its
  /// lock once per round instead of once per event. The default implementation calls ``send(_:)``
  /// for each event; ``InMemorySink`` takes one lock for the whole batch. Each event is accepted or
  /// refused as ``send(_:)`` would accept or refuse it alone.
  ///
  /// ```swift
  /// let refused = sink.send(contentsOf: events)
  /// for (index, error) in refused { print(events[index].id, error) }
  /// ```
  ///
  /// - Parameter events: The events, oldest first.
  /// - Returns: Each refused event's position in `events` with the reason, in order; empty when the
  ///   sink accepted them all.
  func send(contentsOf events: [TrackedEvent]) -> [(index: Int, error: AutoTrackError)]

  /// Finishes the work that ``send(_:)`` deferred, as far as this sink's guarantee goes.
  ///
  /// - Returns: Which events the sink now vouches for.
  /// - Throws: ``AutoTrackError`` when the work could not be finished; the
  ///   events stay with the sink.
  @discardableResult
  func flush() async throws(AutoTrackError) -> FlushAcknowledgement
}

extension EventSink {
  /// Sends each event with ``send(_:)``, collecting the refusals.
  ///
  /// - Parameter events: The events, oldest first.
  /// - Returns: Each refused event's position in `events` with the reason, in order.
  public func send(contentsOf events: [TrackedEvent]) -> [(index: Int, error: AutoTrackError)] {
    var refused: [(index: Int, error: AutoTrackError)] = []
    for (index, event) in events.enumerated() {
      do { try send(event) } catch { refused.append((index, error)) }
    }
    return refused
  }
}

/// What a sink vouches for after ``EventSink/flush()``.
///
/// Counts run from the moment the sink was created (or opened) and only grow.
/// For a ``JSONLinesStore`` the acknowledged events are written (and synced,
/// when configured) to the file; for a ``BatchingStage`` they are settled:
/// accepted by the destination, or dropped with a report; for an
/// ``InMemorySink`` they are held in memory.
public struct FlushAcknowledgement: Sendable, Hashable {
  /// The number of events sent to the sink that it has acknowledged, in send order.
  public var acknowledgedCount: Int
  /// The ``TrackedEvent/id`` of the last acknowledged event, or `nil` when none is.
  public var lastAcknowledgedID: String?

  /// Creates an acknowledgement.
  ///
  /// - Parameters:
  ///   - acknowledgedCount: The number of acknowledged events.
  ///   - lastAcknowledgedID: The id of the last of them.
  public init(acknowledgedCount: Int, lastAcknowledgedID: String?) {
    self.acknowledgedCount = acknowledgedCount
    self.lastAcknowledgedID = lastAcknowledgedID
  }
}
