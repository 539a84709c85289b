import Synchronization

/// A `Clock` that moves a fixed step forward on every reading: the tracker reads it once per capture,
/// so time passes between taps at no cost to the untracked baseline, which reads no clock.
final class SteppingClock: Clock {
  private let origin = ContinuousClock.now
  private let elapsedNanoseconds = Atomic<Int64>(0)
  private let stepNanoseconds: Int64

  /// Creates a clock that moves `step` (at least a nanosecond) on every reading.
  init(step: Duration) {
    let (seconds, attoseconds) = step.components
    stepNanoseconds = max(1, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }

  var now: ContinuousClock.Instant {
    origin.advanced(by: .nanoseconds(elapsedNanoseconds.add(stepNanoseconds, ordering: .relaxed).newValue))
  }

  var minimumResolution: Duration { .nanoseconds(1) }

  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    preconditionFailure("the benchmark's stepping clock never sleeps")
  }
}
