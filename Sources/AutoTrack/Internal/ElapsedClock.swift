/// Any `Clock<Duration>`, read as the time elapsed since the moment it was wrapped.
///
/// The tracker, the batching stage and the JSON Lines store take whatever clock they are given
/// (`ContinuousClock` in production, a manual clock in tests) without becoming generic over it:
/// they hold this wrapper, whose instants are plain `Duration`s on one time line that starts at
/// zero when it is created.
///
/// The tracker reads it on every capture, on the caller's thread. A clock known only as
/// `any Clock<Duration>` is read through two protocol witnesses (`now`, then `duration(to:)`), in
/// code that looks up the instant type at run time; the standard clocks, and any clock whose
/// instants are `ContinuousClock`'s, are read with the instant type known instead, so the elapsed
/// time is one concrete subtraction. Either way it is one closure call, made once when the wrapper
/// is created.
struct ElapsedClock: Sendable {
  /// The time elapsed on the clock since the wrapper was created.
  let now: @Sendable () -> Duration
  /// Sleeps on the clock until the given point of the time line.
  let sleepUntil: @Sendable (Duration) async throws -> Void

  init<C: Clock>(_ clock: C) where C.Duration == Duration {
    let origin = clock.now
    sleepUntil = { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
    now = Self.reading(clock, from: origin)
  }

  /// How to read `clock`: with its instant type known where it is a standard one.
  private static func reading<C: Clock>(_ clock: C, from origin: C.Instant) -> @Sendable () -> Duration
  where C.Duration == Duration {
    if C.self == ContinuousClock.self, let origin = origin as? ContinuousClock.Instant {
      return { origin.duration(to: ContinuousClock.now) }
    }
    if C.self == SuspendingClock.self, let origin = origin as? SuspendingClock.Instant {
      return { origin.duration(to: SuspendingClock.now) }
    }
    if let origin = origin as? ContinuousClock.Instant {
      // The cast succeeded, so `C.Instant` is `ContinuousClock.Instant` and the bit cast is the identity.
      return { origin.duration(to: unsafeBitCast(clock.now, to: ContinuousClock.Instant.self)) }
    }
    return { origin.duration(to: clock.now) }
  }
}

extension Duration {
  /// The duration in whole milliseconds, rounded towards zero: the unit of event JSON.
  var wholeMilliseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
  }
}
