import DelegateProxyKitSupport

/// A `Clock` that stands still until it is told to move: for tests, examples and benchmarks that
/// need time without waiting for it.
///
/// Its instants are durations from the clock's zero. Code under test takes any
/// `Clock<Duration>` (AutoTrack's tracker, batching stage and JSON Lines store all do); a test
/// passes a manual clock and moves it with ``advance(by:)``, which also wakes every task sleeping
/// until a deadline it reached.
///
/// ```swift
/// let clock = ManualClock()
/// let stage = try BatchingStage(destination: destination, clock: clock)
/// clock.advance(by: .seconds(5))     // the oldest batch is now due
/// await stage.deliverDueBatches()
/// ```
///
/// It never moves backwards, as the clocks it stands in for (`ContinuousClock`,
/// `SuspendingClock`) never do.
public final class ManualClock: Clock, Sendable {
  /// A point in time on a ``ManualClock``: the time elapsed since the clock's zero.
  public struct Instant: InstantProtocol, CustomStringConvertible {
    /// The time since the clock's zero.
    public var offset: Duration

    /// Creates an instant.
    ///
    /// - Parameter offset: The time since the clock's zero.
    public init(offset: Duration) {
      self.offset = offset
    }

    /// The instant `duration` later (earlier, when negative).
    ///
    /// - Parameter duration: How far to move.
    /// - Returns: The new instant.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The time from this instant to `other`, negative when `other` is earlier.
    ///
    /// - Parameter other: The other instant.
    /// - Returns: The duration.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }

    /// The offset, e.g. `+1.5 seconds`.
    public var description: String { "+\(offset)" }
  }

  private struct Sleeper {
    var id: UInt64
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now: Instant
    var nextSleeperID: UInt64 = 0
    var sleepers: [Sleeper] = []
  }

  private let state: SanitizerVisibleMutex<State>

  /// Creates a clock standing at `start` from its zero.
  ///
  /// - Parameter start: Where the clock starts; zero by default.
  public init(start: Duration = .zero) {
    state = SanitizerVisibleMutex(State(now: Instant(offset: start)))
  }

  /// The instant the clock stands at.
  public var now: Instant {
    state.withLock { $0.now }
  }

  /// Zero: the clock has no resolution of its own.
  public var minimumResolution: Duration { .zero }

  /// The number of tasks sleeping on this clock.
  public var sleeperCount: Int {
    state.withLock { $0.sleepers.count }
  }

  /// Moves the clock forward and wakes every sleeper whose deadline it reached.
  ///
  /// - Parameter duration: How far to move; must not be negative.
  public func advance(by duration: Duration) {
    precondition(duration >= .zero, "a ManualClock does not move backwards")
    let due = state.withLock { state -> [Sleeper] in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }
      state.sleepers.removeAll { $0.deadline <= now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Suspends until ``advance(by:)`` moves the clock to `deadline` or past it.
  ///
  /// Returns at once when the clock is already there.
  ///
  /// - Parameters:
  ///   - deadline: The instant to wait for.
  ///   - tolerance: Ignored: the clock moves only when told to.
  /// - Throws: `CancellationError` when the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withLock { state -> UInt64 in
      state.nextSleeperID += 1
      return state.nextSleeperID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let resumeNow = state.withLock { state -> (any Error)?? in
          if Task.isCancelled { return .some(CancellationError()) }
          if deadline <= state.now { return .some(nil) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return .none
        }
        switch resumeNow {
        case .none: break
        case .some(.none): continuation.resume()
        case .some(.some(let error)): continuation.resume(throwing: error)
        }
      }
    } onCancel: {
      let cancelled = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      cancelled?.continuation.resume(throwing: CancellationError())
    }
  }
}
