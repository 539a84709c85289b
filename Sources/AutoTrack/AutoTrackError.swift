import Foundation

/// The errors that AutoTrack throws.
///
/// Every case names what went wrong and where, with labelled associated
/// values, so a caller can react to one case and a log line can say exactly
/// which file, line or setting was at fault. Errors compare by value; never
/// compare them by their description.
///
/// ```swift
/// do {
///   let store = try JSONLinesStore(configuration: .init(directory: url))
///   try store.flush()
/// } catch .fileOperationFailed(let operation, let path, let code) {
///   print("\(operation) failed on \(path): errno \(code)")
/// } catch {
///   print(error)
/// }
/// ```
public enum AutoTrackError: Error, Equatable, Sendable {
  /// A file system call failed.
  ///
  /// - Parameters:
  ///   - operation: The call that failed, such as `"open"`, `"write"`, `"fsync"` or `"rename"`.
  ///   - path: The file or directory it was called on.
  ///   - errno: The `errno` value the call reported.
  case fileOperationFailed(operation: String, path: String, errno: Int32)

  /// A complete line in a JSON Lines file is not a valid event.
  ///
  /// A torn *last* line is not an error: it is cut off when the store opens
  /// and counted in ``JSONLinesStore/recovery``. This case is for damage in
  /// the middle of a file, which the store never writes itself.
  ///
  /// - Parameters:
  ///   - path: The file that holds the line.
  ///   - line: The 1-based line number.
  ///   - reason: What the decoder reported.
  case malformedLine(path: String, line: Int, reason: String)

  /// An event could not be encoded as JSON (for example a property holding `Double.nan`).
  ///
  /// - Parameters:
  ///   - eventID: The event's ``TrackedEvent/id``.
  ///   - reason: What the encoder reported.
  case eventEncodingFailed(eventID: String, reason: String)

  /// A configuration value is out of range.
  ///
  /// - Parameters:
  ///   - parameter: The name of the setting, such as `"maximumBatchSize"`.
  ///   - reason: Why the value is not accepted.
  case invalidConfiguration(parameter: String, reason: String)

  /// The sink was closed; it accepts no more work.
  ///
  /// - Parameter path: The store's directory or the sink's description.
  case sinkClosed(path: String)

  /// A flush of a delivery stage ended with events still waiting.
  ///
  /// The events are not lost: they stay queued (and in the outbox store, when
  /// there is one) and are retried on the stage's schedule.
  ///
  /// - Parameters:
  ///   - pendingCount: How many events are still waiting for delivery.
  ///   - lastFailure: Why the last attempt failed, or `nil` when the stage was
  ///     still waiting out a retry delay and did not try.
  case flushIncomplete(pendingCount: Int, lastFailure: DeliveryFailure?)
}
