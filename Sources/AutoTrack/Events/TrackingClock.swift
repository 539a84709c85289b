import Foundation
import Synchronization

/// The wall clock AutoTrack stamps events with and measures screen durations by.
///
/// Production code uses ``SystemTrackingClock``; tests inject a ``ManualTrackingClock`` and move it
/// themselves, so debounce windows and screen durations are tested without sleeping.
///
/// ```swift
/// let clock = ManualTrackingClock(nowMs: 1_700_000_000_000)
/// let tracker = AutoTracker(sink: sink, configuration: .init(clock: clock))
/// clock.advance(byMs: 250)
/// ```
public protocol TrackingClock: Sendable {
  /// Milliseconds since 1970-01-01 00:00 UTC.
  ///
  /// - Returns: The current time. A wall clock may jump; AutoTrack flags durations it cannot trust.
  func currentTimeMs() -> Int64
}

/// A ``TrackingClock`` that reads the system's real-time clock.
public struct SystemTrackingClock: TrackingClock {
  /// Creates the clock.
  public init() {}

  /// The system time in milliseconds since the Unix epoch.
  ///
  /// - Returns: The current time.
  public func currentTimeMs() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
  }
}

/// A ``TrackingClock`` that moves only when told to: for tests, examples and benchmarks.
///
/// ```swift
/// let clock = ManualTrackingClock(nowMs: 0)
/// clock.advance(byMs: 99)   // still inside a 100 ms debounce window
/// clock.set(nowMs: 5_000)
/// ```
public final class ManualTrackingClock: TrackingClock {
  private let now: Atomic<Int64>

  /// Creates a clock standing at `nowMs`.
  ///
  /// - Parameter nowMs: The initial time in milliseconds since the Unix epoch.
  public init(nowMs: Int64 = 1_700_000_000_000) {
    now = Atomic(nowMs)
  }

  /// The time the clock stands at.
  ///
  /// - Returns: The time most recently set.
  public func currentTimeMs() -> Int64 { now.load(ordering: .relaxed) }

  /// Moves the clock by `milliseconds` (negative values move it back, as a wall clock may).
  ///
  /// - Parameter milliseconds: How far to move.
  public func advance(byMs milliseconds: Int64) {
    now.add(milliseconds, ordering: .relaxed)
  }

  /// Sets the clock.
  ///
  /// - Parameter nowMs: The new time in milliseconds since the Unix epoch.
  public func set(nowMs: Int64) {
    now.store(nowMs, ordering: .relaxed)
  }
}
