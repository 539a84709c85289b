import Foundation

/// Where a ``BatchingStage`` sends its batches: an HTTP collector, a test double, another process.
///
/// A destination makes one attempt per call and reports what became of each
/// part of the batch; the stage decides about retries, delays and reports.
/// The parts (``DeliveryResult/segments``) cover the batch in order, so a
/// destination that splits a batch (as ``HTTPBatchUploader`` does on HTTP 413)
/// can say "the first 50 were accepted, the rest should be retried".
///
/// ```swift
/// struct PrintingDestination: BatchDestination {
///   func deliver(_ batch: [TrackedEvent]) async -> DeliveryResult {
///     for event in batch { print(event.name) }
///     return .whole(batch, .accepted)
///   }
/// }
/// ```
public protocol BatchDestination: Sendable {
  /// Makes one attempt to deliver `batch`.
  ///
  /// - Parameter batch: The events, oldest first; never empty.
  /// - Returns: The outcome of each consecutive part of the batch. Events that
  ///   no segment covers are retried.
  func deliver(_ batch: [TrackedEvent]) async -> DeliveryResult
}

/// Why an attempt to deliver events failed.
public enum DeliveryFailure: Sendable, Hashable {
  /// The collector answered with an HTTP status outside 200–299.
  ///
  /// - Parameter code: The status code.
  case httpStatus(code: Int)
  /// The collector answered the POST with a redirect (a 3xx status) instead of taking the events.
  ///
  /// A redirect is never a delivery: the batch counts as delivered only on a 2xx answer to the
  /// POST itself. ``HTTPBatchUploader`` does not follow redirects (following one as a GET, as
  /// `URLSession` does for 301, 302 and 303, drops the body; following one as a POST sends the
  /// events and their headers, an API key among them, wherever the answer points). It reports
  /// this failure as a retry, so the events stay queued while the configured endpoint is wrong.
  ///
  /// - Parameters:
  ///   - status: The status code, such as 301 or 307.
  ///   - location: The `Location` header of the answer, when it had one.
  case redirected(status: Int, location: String?)
  /// The request did not complete: connection refused or dropped, DNS, a malformed response.
  ///
  /// - Parameter reason: What the networking layer reported.
  case transport(reason: String)
  /// A single event is larger than the batch byte limit, so it can never be sent.
  ///
  /// - Parameters:
  ///   - bytes: The encoded size of the smallest request that carries the event.
  ///   - limit: The configured limit.
  case eventTooLarge(bytes: Int, limit: Int)
  /// The events could not be encoded as JSON.
  ///
  /// - Parameter reason: What the encoder reported.
  case encoding(reason: String)
  /// The request did not complete within its deadline (``HTTPBatchUploader/Configuration/timeout``):
  /// the server was too slow to answer, or answered a byte at a time, or never answered.
  ///
  /// - Parameter deadline: The deadline that passed.
  case deadlineExceeded(deadline: Duration)
  /// The task awaiting the delivery was cancelled, for example the driver task of a
  /// ``BatchingStage`` being stopped. Not a failure of the destination: the stage puts the
  /// events back without counting an attempt.
  case cancelled
  /// The stage gave up after its configured number of attempts.
  ///
  /// - Parameter attempts: How many attempts were made.
  case attemptsExhausted(attempts: Int)
}

/// What became of one part of a batch.
public enum DeliveryOutcome: Sendable, Hashable {
  /// The destination took the events; they are done.
  case accepted
  /// The attempt failed in a way that may pass later: try again.
  ///
  /// - Parameters:
  ///   - failure: Why it failed.
  ///   - retryAfter: How long the destination asked to wait (HTTP `Retry-After`),
  ///     or `nil` to use the stage's backoff.
  case retry(failure: DeliveryFailure, retryAfter: Duration?)
  /// The destination refused the events for good (a permanent 4xx): drop them and report it.
  ///
  /// - Parameter failure: Why they were refused.
  case rejected(failure: DeliveryFailure)
}

/// The outcome of one delivery attempt, part by part.
public struct DeliveryResult: Sendable, Hashable {
  /// One run of consecutive events that share an outcome.
  public struct Segment: Sendable, Hashable {
    /// How many events, counted from where the previous segment ended.
    public var count: Int
    /// What became of them.
    public var outcome: DeliveryOutcome

    /// Creates a segment.
    ///
    /// - Parameters:
    ///   - count: The number of consecutive events.
    ///   - outcome: Their outcome.
    public init(count: Int, outcome: DeliveryOutcome) {
      self.count = count
      self.outcome = outcome
    }
  }

  /// The segments, in batch order.
  public var segments: [Segment]

  /// Creates a result from segments.
  ///
  /// - Parameter segments: The segments, in batch order.
  public init(segments: [Segment]) {
    self.segments = segments
  }

  /// A result in which the whole batch shares one outcome.
  ///
  /// - Parameters:
  ///   - batch: The batch the result is for.
  ///   - outcome: The outcome of every event in it.
  /// - Returns: A one-segment result.
  public static func whole(_ batch: [TrackedEvent], _ outcome: DeliveryOutcome) -> DeliveryResult {
    DeliveryResult(segments: [Segment(count: batch.count, outcome: outcome)])
  }

  /// Appends `other`'s segments after this result's, merging neighbours with equal outcomes.
  ///
  /// - Parameter other: The result for the events that follow.
  public mutating func append(contentsOf other: DeliveryResult) {
    for segment in other.segments where segment.count > 0 {
      if let last = segments.last, last.outcome == segment.outcome {
        segments[segments.count - 1].count += segment.count
      } else {
        segments.append(segment)
      }
    }
  }
}
