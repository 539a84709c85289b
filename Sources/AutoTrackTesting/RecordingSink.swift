import AutoTrack
import DelegateProxyKitSupport

/// An `EventSink` for tests: keeps every event it is sent, in order, and refuses on
/// demand.
///
/// Unlike `InMemorySink` it has no capacity and never drops: a test reads exactly what the tracker
/// sent. Set ``refusal`` to make ``send(_:)`` throw, to test how code under test reacts to a sink
/// that refuses (the tracker counts it in `refusedEventCount`).
///
/// ```swift
/// let sink = RecordingSink()
/// let tracker = AutoTracker(sink: sink, configuration: .init(clock: ManualClock()))
/// try tracker.start(app)
/// try list.tapRow(at: IndexPath(row: 0, section: 0))
/// try await tracker.flush()   // events are built off the caller's thread
/// #expect(sink.names == ["screen_view", "element_click"])
/// ```
///
/// It may be used from any thread.
public final class RecordingSink: EventSink {
  private struct State {
    var events: [TrackedEvent] = []
    var refusal: AutoTrackError?
    var refusedCount = 0
  }

  private let state = SanitizerVisibleMutex(State())

  /// Creates an empty sink that accepts every event.
  public init() {}

  /// The events accepted so far, in send order.
  public var events: [TrackedEvent] { state.withLock { $0.events } }

  /// The names of the accepted events, in send order.
  public var names: [String] { state.withLock { $0.events.map(\.name) } }

  /// The accepted events with a given name, in send order.
  ///
  /// - Parameter name: The event name, such as `"element_click"`.
  /// - Returns: The events.
  public func events(named name: String) -> [TrackedEvent] {
    state.withLock { $0.events.filter { $0.name == name } }
  }

  /// The error ``send(_:)`` throws instead of keeping the event, or `nil` to accept every event.
  public var refusal: AutoTrackError? {
    get { state.withLock { $0.refusal } }
    set { state.withLock { $0.refusal = newValue } }
  }

  /// The number of events refused because ``refusal`` was set.
  public var refusedCount: Int { state.withLock { $0.refusedCount } }

  /// Forgets the accepted events and the refusal count.
  public func removeAll() {
    state.withLock {
      $0.events.removeAll()
      $0.refusedCount = 0
    }
  }

  /// Keeps `event`, or throws ``refusal`` when it is set.
  ///
  /// - Parameter event: The event.
  /// - Throws: ``refusal``, when set; nothing is kept then.
  public func send(_ event: TrackedEvent) throws(AutoTrackError) {
    let refusal: AutoTrackError? = state.withLock { state in
      if let refusal = state.refusal {
        state.refusedCount += 1
        return refusal
      }
      state.events.append(event)
      return nil
    }
    if let refusal { throw refusal }
  }

  /// Acknowledges every accepted event: they are in memory already.
  ///
  /// - Returns: The number of accepted events and the last one's id.
  @discardableResult
  public func flush() async throws(AutoTrackError) -> FlushAcknowledgement {
    state.withLock { FlushAcknowledgement(acknowledgedCount: $0.events.count, lastAcknowledgedID: $0.events.last?.id) }
  }
}
