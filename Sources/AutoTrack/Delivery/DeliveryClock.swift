import DelegateProxyKit
import Foundation
import Synchronization

/// The time source of the delivery types: a monotonic "now" and a way to wait for a later instant.
///
/// Delivery decides when to flush, when to retry and how long to back off by
/// reading this clock, never the system clock directly. Production code uses
/// ``SystemDeliveryClock``; tests use ``ManualDeliveryClock`` and move time
/// forward themselves, so no test sleeps.
///
/// Instants are `Duration`s measured from the clock's own origin; only
/// differences between them mean anything.
public protocol DeliveryClock: Sendable {
  /// The current instant, as the time elapsed since the clock's origin.
  ///
  /// - Returns: A value that never decreases between calls.
  func now() -> Duration

  /// Suspends until the clock reaches `deadline`.
  ///
  /// Returns at once when `deadline` has already passed.
  ///
  /// - Parameter deadline: The instant to wait for, on this clock's scale.
  /// - Throws: `CancellationError` when the calling task is cancelled first.
  func sleep(until deadline: Duration) async throws
}

/// A ``DeliveryClock`` backed by the system's `ContinuousClock`.
///
/// The origin is the moment the clock value was created.
public struct SystemDeliveryClock: DeliveryClock {
  private let origin: ContinuousClock.Instant

  /// Creates a clock whose origin is now.
  public init() {
    origin = ContinuousClock.now
  }

  /// The time elapsed since this clock was created.
  ///
  /// - Returns: The elapsed time.
  public func now() -> Duration {
    ContinuousClock.now - origin
  }

  /// Sleeps on `ContinuousClock` until `deadline`.
  ///
  /// - Parameter deadline: The instant to wait for.
  /// - Throws: `CancellationError` when the task is cancelled.
  public func sleep(until deadline: Duration) async throws {
    try await ContinuousClock().sleep(until: origin + deadline)
  }
}

/// A ``DeliveryClock`` that moves only when told to: for tests and examples.
///
/// ```swift
/// let clock = ManualDeliveryClock()
/// let stage = try BatchingStage(destination: uploader, clock: clock)
/// clock.advance(by: .seconds(5))        // the batch is now old enough to send
/// await stage.deliverDueBatches()
/// ```
///
/// Tasks sleeping on the clock resume when ``advance(by:)`` reaches their deadline.
public final class ManualDeliveryClock: DeliveryClock {
  private struct Sleeper {
    var id: UInt64
    var deadline: Duration
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now: Duration
    var nextSleeperID: UInt64 = 0
    var sleepers: [Sleeper] = []
  }

  private let state: SanitizerVisibleMutex<State>

  /// Creates a clock standing at `start`.
  ///
  /// - Parameter start: The initial instant; zero by default.
  public init(start: Duration = .zero) {
    state = SanitizerVisibleMutex(State(now: start))
  }

  /// The clock's current instant.
  ///
  /// - Returns: The instant most recently set by ``advance(by:)``.
  public func now() -> Duration {
    state.withLock { $0.now }
  }

  /// Moves the clock forward and wakes every sleeper whose deadline is reached.
  ///
  /// - Parameter duration: How far to move; must not be negative.
  public func advance(by duration: Duration) {
    precondition(duration >= .zero, "ManualDeliveryClock cannot move backwards")
    let due = state.withLock { state -> [Sleeper] in
      state.now += duration
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }
      state.sleepers.removeAll { $0.deadline <= now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// The number of tasks currently sleeping on this clock.
  public var sleeperCount: Int {
    state.withLock { $0.sleepers.count }
  }

  /// Suspends until ``advance(by:)`` moves the clock to `deadline` or beyond.
  ///
  /// - Parameter deadline: The instant to wait for.
  /// - Throws: `CancellationError` when the task is cancelled first.
  public func sleep(until deadline: Duration) async throws {
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
