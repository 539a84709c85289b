import Foundation

/// How a ``BatchingStage`` spaces out retries: exponential backoff with jitter, capped.
///
/// The delay before retry number `n` (1 for the first retry) is
///
///     base = min(maximumDelay, initialDelay × multiplier^(n − 1))
///     delay = base × (1 − jitter × u),  u uniform in [0, 1)
///
/// so delays grow geometrically, never exceed ``maximumDelay``, and retries
/// of many clients spread out instead of arriving together. The random
/// numbers come from a seedable generator, so tests can predict every delay.
///
/// A `Retry-After` from the server replaces the computed delay, kept between
/// ``minimumRetryAfter`` and ``maximumRetryAfter``: a server that answers `Retry-After: 0`, or a
/// date in the past, is called again no sooner than ``minimumRetryAfter``, never in a busy loop.
///
/// ```swift
/// let policy = RetryPolicy(initialDelay: .seconds(1), multiplier: 2, maximumDelay: .seconds(60), jitter: 0.2)
/// policy.delay(forRetry: 3, unitRandom: 0)   // 4 seconds
/// ```
public struct RetryPolicy: Sendable, Hashable {
  /// The delay before the first retry, before jitter.
  public var initialDelay: Duration
  /// The factor by which each further delay grows; at least 1.
  public var multiplier: Double
  /// The largest delay, before jitter.
  public var maximumDelay: Duration
  /// The fraction of a delay that jitter may take off, from 0 (none) to 1.
  public var jitter: Double
  /// The shortest wait after a `Retry-After`; shorter ones (`0`, a date in the past) are raised to this.
  public var minimumRetryAfter: Duration
  /// The longest `Retry-After` the stage honours; longer requests are shortened to this.
  public var maximumRetryAfter: Duration
  /// The number of attempts after which a batch is dropped with a report, or `nil` to retry forever.
  public var maximumAttempts: Int?
  /// The seed of the jitter's random numbers, or `nil` for a seed from the system.
  public var seed: UInt64?

  /// Creates a policy.
  ///
  /// - Parameters:
  ///   - initialDelay: The first delay; 1 second by default.
  ///   - multiplier: The growth factor; 2 by default.
  ///   - maximumDelay: The cap; 5 minutes by default.
  ///   - jitter: The fraction jitter may take off; 0.2 by default.
  ///   - minimumRetryAfter: The shortest wait after a `Retry-After`; 1 second by default, must be
  ///     greater than zero.
  ///   - maximumRetryAfter: The longest honoured `Retry-After`; 1 hour by default.
  ///   - maximumAttempts: Attempts before giving up; `nil` (never) by default.
  ///   - seed: The jitter seed; `nil` for a system seed.
  public init(
    initialDelay: Duration = .seconds(1),
    multiplier: Double = 2,
    maximumDelay: Duration = .seconds(300),
    jitter: Double = 0.2,
    minimumRetryAfter: Duration = .seconds(1),
    maximumRetryAfter: Duration = .seconds(3600),
    maximumAttempts: Int? = nil,
    seed: UInt64? = nil
  ) {
    self.initialDelay = initialDelay
    self.multiplier = multiplier
    self.maximumDelay = maximumDelay
    self.jitter = jitter
    self.minimumRetryAfter = minimumRetryAfter
    self.maximumRetryAfter = maximumRetryAfter
    self.maximumAttempts = maximumAttempts
    self.seed = seed
  }

  /// The wait the stage keeps for a server's `Retry-After`: raised to ``minimumRetryAfter``,
  /// shortened to ``maximumRetryAfter``.
  ///
  /// - Parameter retryAfter: What the server asked for; zero for `0` or a date in the past.
  /// - Returns: The delay the stage waits.
  public func delay(forRetryAfter retryAfter: Duration) -> Duration {
    min(max(retryAfter, minimumRetryAfter), maximumRetryAfter)
  }

  /// The delay before retry number `retry`, for a given random number.
  ///
  /// - Parameters:
  ///   - retry: 1 for the first retry, 2 for the second, and so on.
  ///   - unitRandom: A number in [0, 1); 0 gives the full, unjittered delay.
  /// - Returns: The delay, between `base × (1 − jitter)` and `base`.
  public func delay(forRetry retry: Int, unitRandom: Double) -> Duration {
    let exponent = Double(max(0, retry - 1))
    let initialSeconds = initialDelay.seconds
    let capSeconds = maximumDelay.seconds
    // pow can overflow to infinity for large attempt numbers; min() then picks the cap.
    let base = min(capSeconds, initialSeconds * pow(max(1, multiplier), exponent))
    let clampedJitter = min(1, max(0, jitter))
    let factor = 1 - clampedJitter * min(max(unitRandom, 0), 1)
    return .nanoseconds(Int64((base * factor * 1e9).rounded()))
  }

  func validate() throws(AutoTrackError) {
    guard initialDelay >= .zero else {
      throw .invalidConfiguration(parameter: "retry.initialDelay", reason: "must not be negative")
    }
    guard multiplier.isFinite, multiplier >= 1 else {
      throw .invalidConfiguration(parameter: "retry.multiplier", reason: "must be a finite number >= 1")
    }
    guard maximumDelay >= initialDelay else {
      throw .invalidConfiguration(parameter: "retry.maximumDelay", reason: "must be >= initialDelay")
    }
    guard jitter.isFinite, (0...1).contains(jitter) else {
      throw .invalidConfiguration(parameter: "retry.jitter", reason: "must be between 0 and 1")
    }
    guard minimumRetryAfter > .zero else {
      throw .invalidConfiguration(parameter: "retry.minimumRetryAfter", reason: "must be greater than zero")
    }
    guard maximumRetryAfter >= minimumRetryAfter else {
      throw .invalidConfiguration(parameter: "retry.maximumRetryAfter", reason: "must be >= minimumRetryAfter")
    }
    if let maximumAttempts, maximumAttempts < 1 {
      throw .invalidConfiguration(parameter: "retry.maximumAttempts", reason: "must be at least 1")
    }
  }
}

extension Duration {
  /// The duration in seconds, as a `Double`.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
