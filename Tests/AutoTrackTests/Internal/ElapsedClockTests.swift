import AutoTrackTesting
import Synchronization
import Testing

@testable import AutoTrack

/// The elapsed-time wrapper reads the standard clocks, and clocks whose instants are
/// `ContinuousClock`'s, with their instant type known; any other clock generically. Every way gives
/// the time since the wrapper was made on the clock's own time line.
@Suite struct ElapsedClockTests {
  /// A clock on `ContinuousClock`'s instants that moves a fixed step on every reading, so each
  /// elapsed time is known exactly.
  @Test func aClockOnContinuousInstantsReadsItsOwnSteps() {
    let clock = SteppedContinuousClock(step: .milliseconds(7))
    let elapsed = ElapsedClock(clock)
    #expect((1...5).map { _ in elapsed.now() } == (1...5).map { .milliseconds(7 * $0) })
  }

  /// The same readings through the generic path: a clock with instants of its own.
  @Test func anyOtherClockReadsTheSameWay() {
    let clock = ManualClock()
    clock.advance(by: .seconds(3))
    let elapsed = ElapsedClock(clock)
    #expect(elapsed.now() == .zero)
    clock.advance(by: .milliseconds(250))
    #expect(elapsed.now() == .milliseconds(250))
    clock.advance(by: .seconds(2))
    #expect(elapsed.now() == .milliseconds(2_250))
  }

  /// `ContinuousClock` and `SuspendingClock`: the elapsed time never goes back and never exceeds the
  /// time measured around it on the same clock.
  @Test func theStandardClocksReadTheirOwnTimeLine() {
    let continuousBefore = ContinuousClock.now
    let continuous = ElapsedClock(ContinuousClock())
    let suspendingBefore = SuspendingClock.now
    let suspending = ElapsedClock(SuspendingClock())
    let continuousReadings = (0..<100).map { _ in continuous.now() }
    let suspendingReadings = (0..<100).map { _ in suspending.now() }
    let continuousBound = continuousBefore.duration(to: .now)
    let suspendingBound = suspendingBefore.duration(to: .now)
    #expect(continuousReadings.allSatisfy { $0 >= .zero && $0 <= continuousBound })
    #expect(suspendingReadings.allSatisfy { $0 >= .zero && $0 <= suspendingBound })
    #expect(zip(continuousReadings, continuousReadings.dropFirst()).allSatisfy { $0 <= $1 })
    #expect(zip(suspendingReadings, suspendingReadings.dropFirst()).allSatisfy { $0 <= $1 })
  }
}

/// A clock whose instants are `ContinuousClock.Instant`s, moving `step` on every reading.
private final class SteppedContinuousClock: Clock, Sendable {
  private let origin = ContinuousClock.now
  private let readings = Atomic<Int64>(0)
  private let step: Duration

  init(step: Duration) { self.step = step }

  var now: ContinuousClock.Instant {
    origin.advanced(by: step * Int(readings.add(1, ordering: .relaxed).oldValue))
  }

  var minimumResolution: Duration { .nanoseconds(1) }

  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
  }
}
