/// Any `Clock<Duration>`, read as the time elapsed since the moment it was wrapped.
///
/// The tracker, the batching stage and the JSON Lines store take whatever clock they are given
/// (`ContinuousClock` in production, a manual clock in tests) without becoming generic over it:
/// they hold this wrapper, whose instants are plain `Duration`s on one time line that starts at
/// zero when it is created.
struct ElapsedClock: Sendable {
  /// The time elapsed on the clock since the wrapper was created.
  let now: @Sendable () -> Duration
  /// Sleeps on the clock until the given point of the time line.
  let sleepUntil: @Sendable (Duration) async throws -> Void

  init<C: Clock>(_ clock: C) where C.Duration == Duration {
    let origin = clock.now
    now = { origin.duration(to: clock.now) }
    sleepUntil = { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
  }
}

extension Duration {
  /// The duration in whole milliseconds, rounded towards zero: the unit of event JSON.
  var wholeMilliseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
  }
}
