import Foundation

extension HTTPBatchUploader {
  /// Maps an HTTP status and its `Retry-After` and `Location` headers to an outcome.
  static func outcome(status: Int, retryAfter: String?, location: String?, now: Date) -> DeliveryOutcome {
    switch status {
    case 200..<300:
      return .accepted
    case 300..<400:
      return .retry(failure: .redirected(status: status, location: location), retryAfter: nil)
    case 429, 503:
      return .retry(
        failure: .httpStatus(code: status), retryAfter: retryAfter.flatMap { parseRetryAfter($0, now: now) })
    case 408, 500..<600:
      return .retry(failure: .httpStatus(code: status), retryAfter: nil)
    case 400..<500:
      return .rejected(failure: .httpStatus(code: status))
    default:
      return .retry(failure: .httpStatus(code: status), retryAfter: nil)
    }
  }

  /// Reads a `Retry-After` value: a number of seconds, or an HTTP date in any of the three forms
  /// RFC 9110 (section 5.6.7) requires a recipient to read.
  ///
  /// The date forms are IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form
  /// (`Sunday, 06-Nov-94 08:49:37 GMT`, whose two-digit year is read as at most 50 years ahead of
  /// `now`) and the obsolete `asctime()` form (`Sun Nov  6 08:49:37 1994`). A number of seconds too
  /// large for 64 bits saturates; the stage clamps every delay to
  /// ``RetryPolicy/maximumRetryAfter`` and raises it to ``RetryPolicy/minimumRetryAfter`` anyway.
  ///
  /// ```swift
  /// HTTPBatchUploader.parseRetryAfter("120", now: now)                             // 120 seconds
  /// HTTPBatchUploader.parseRetryAfter("Sun Nov  6 08:49:37 1994", now: now)         // zero: in the past
  /// ```
  ///
  /// - Parameters:
  ///   - value: The header value; surrounding spaces and tabs are ignored.
  ///   - now: The current wall-clock time, for dates.
  /// - Returns: The delay (zero for `0` and for dates in the past), or `nil` when the value is in
  ///   none of the forms.
  public static func parseRetryAfter(_ value: String, now: Date) -> Duration? {
    let trimmed = value.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
    if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
      return .seconds(Int64(trimmed) ?? .max)
    }
    guard let date = HTTPDate.parse(trimmed, now: now) else { return nil }
    let seconds = max(0, date.timeIntervalSince(now))
    return .milliseconds(Int64((seconds * 1000).rounded(.up)))
  }
}
