import Foundation

/// The errors that AutoTrack throws.
///
/// Every case names what went wrong and where, with labelled associated
/// values, so a caller can react to one case and a log line can say exactly
/// which file, line or setting was at fault. Its description is one line
/// saying what, where and why (also as `localizedDescription`). Errors compare
/// by value; never compare them by their description.
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
  /// ``JSONLinesStore`` never throws it: its readers skip such lines and list them in
  /// ``JSONLinesStore/Contents/damagedLines``, and a torn last line is cut off when the store
  /// opens and counted in ``JSONLinesStore/recovery``. A delivery stage's own outbox files use it.
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
  /// The events stay queued and are retried on the stage's schedule. With an outbox they
  /// are also in its files, unless the outbox is failing (the stage then reported
  /// ``BatchingStage/Report/outboxFailed(error:)`` and not yet
  /// ``BatchingStage/Report/outboxRecovered(failedAttempts:)``): events accepted since are
  /// written by the outbox's next successful write, and a crash before it loses them.
  ///
  /// - Parameters:
  ///   - pendingCount: How many events are still waiting for delivery.
  ///   - lastFailure: Why the last attempt failed, or `nil` when the stage was
  ///     still waiting out a retry delay and did not try.
  case flushIncomplete(pendingCount: Int, lastFailure: DeliveryFailure?)

  /// A ``JSONLinesStore`` refused an event because its write buffer is full.
  ///
  /// The buffer fills only while writes fail (a full disk, a file-size limit): on a healthy disk the
  /// store writes on until there is room, so an event larger than the buffer is written, not
  /// refused. The refused event
  /// is counted in ``JSONLinesStore/Statistics/droppedOverCapacityCount``; the buffered ones are kept.
  ///
  /// - Parameters:
  ///   - path: The store's directory.
  ///   - limit: The buffer's capacity in bytes, ``JSONLinesStore/Configuration/maximumBufferedBytes``.
  case storeBufferFull(path: String, limit: Int)

  /// The file a ``JSONLinesStore`` writes to is no longer the file at its path: it was unlinked, its
  /// directory removed, or another file put in its place.
  ///
  /// The store did not acknowledge what went into the lost file. It opens a new file at the path
  /// (creating the directory again) and writes the events it still buffers there.
  ///
  /// - Parameters:
  ///   - path: The active file's path.
  ///   - lostEventCount: Events written to the lost file since the last acknowledged flush; they
  ///     are counted in ``JSONLinesStore/Statistics/lostWithReplacedFileCount``.
  case storeFileReplaced(path: String, lostEventCount: Int)

  /// A ``JSONLinesStore`` refused to open a file at one of its paths because it is not a file the
  /// store may write: a symbolic link (never followed), something other than a regular file, or a
  /// file owned by another user.
  ///
  /// Nothing was written to it, cut off it or synced.
  ///
  /// - Parameters:
  ///   - path: The path the store wanted to open.
  ///   - reason: What is wrong with the file there.
  case storeFileRefused(path: String, reason: String)

  /// A ``JSONLinesStore`` could not be opened because another holder kept the directory's lock
  /// for all of ``JSONLinesStore/Configuration/maximumLockWait``.
  ///
  /// The holder is another store open on the same directory, in another process or in this one,
  /// or a child process that got a copy of a store's descriptor when it was started. Nothing was
  /// opened for writing and no file was changed; opening again once the holder closes works.
  ///
  /// - Parameters:
  ///   - lockPath: The lock file, `<directory>/<baseName>.lock`.
  ///   - waited: How long the store waited, measured on `ContinuousClock`.
  case storeLocked(lockPath: String, waited: Duration)

  // MARK: Capture, rules and validation

  /// A rules file could not be read from disk.
  ///
  /// - Parameters:
  ///   - file: The file's path.
  ///   - reason: What the file system reported.
  case rulesFileUnreadable(file: String, reason: String)

  /// A rules document is larger than the loader accepts; nothing was decoded.
  ///
  /// - Parameters:
  ///   - file: The file (or the name given to the data).
  ///   - byteCount: The document's size.
  ///   - limit: The largest size accepted, ``TrackingRules/maximumByteCount``.
  case rulesTooLarge(file: String, byteCount: Int, limit: Int)

  /// A rules document is not valid UTF-8.
  ///
  /// - Parameters:
  ///   - file: The file (or the name given to the data).
  ///   - byteOffset: The offset of the first byte that is not part of a valid UTF-8 sequence.
  case rulesInvalidUTF8(file: String, byteOffset: Int)

  /// A rules document nests objects or arrays deeper than the loader accepts; nothing was decoded.
  ///
  /// - Parameters:
  ///   - file: The file (or the name given to the data).
  ///   - depth: The depth at which the loader stopped reading.
  ///   - limit: The deepest nesting accepted, ``TrackingRules/maximumNestingDepth``.
  case rulesNestingTooDeep(file: String, depth: Int, limit: Int)

  /// A rules document is not in a format the loader reads (for example a binary property list).
  ///
  /// - Parameters:
  ///   - file: The file (or the name given to the data).
  ///   - reason: What the loader found.
  case rulesFormatUnsupported(file: String, reason: String)

  /// A rules document has defects: bad syntax, values of the wrong type, unknown keys, values out of
  /// range. All of them are listed, in document order, each with its key path, line and column; a
  /// syntax error is the last one, since nothing after it can be read.
  ///
  /// - Parameters:
  ///   - file: The file (or the name given to the data).
  ///   - defects: What is wrong, and where; never empty.
  case rulesInvalid(file: String, defects: [RulesDefect])

  /// ``AutoTracker/start(_:)`` was asked to track an application that another tracker already tracks,
  /// or this tracker already tracks a different application.
  ///
  /// - Parameter reason: Which of the two happened.
  case trackingAlreadyStarted(reason: String)
}
