import Foundation

extension AutoTrackError: CustomStringConvertible {
  /// One line saying what went wrong, where, and why; rules defects as `file:line:column: key path: why`.
  public var description: String {
    switch self {
    case .fileOperationFailed(let operation, let path, let code):
      "\(operation) failed on \(path): \(String(cString: strerror(code))) (errno \(code))"
    case .malformedLine(let path, let line, let reason):
      "\(path):\(line): the line is not a valid event: \(reason)"
    case .eventEncodingFailed(let eventID, let reason):
      "event \(eventID) cannot be encoded as JSON: \(reason)"
    case .invalidConfiguration(let parameter, let reason):
      "the setting \(parameter) \(reason)"
    case .sinkClosed(let path):
      "the sink at \(path) is closed and accepts no more events"
    case .flushIncomplete(let pendingCount, let lastFailure):
      "the flush ended with \(pendingCount) event(s) still waiting; they stay queued and are retried"
        + (lastFailure.map { " (last attempt: \($0))" } ?? " (a retry delay was still running)")
    case .storeBufferFull(let path, let limit):
      "the store at \(path) refused an event: its write buffer holds \(limit) bytes waiting for a failing disk"
    case .storeFileReplaced(let path, let lost):
      "\(path) was removed or replaced while the store had it open; \(lost) unacknowledged event(s) went with it"
    case .storeFileRefused(let path, let reason):
      "the store refused to open \(path): \(reason)"
    case .storeLocked(let lockPath, let waited):
      "another process or store holds the lock \(lockPath); gave up after waiting \(waited)"
    case .rulesFileUnreadable(let file, let reason):
      "\(file): the rules file cannot be read: \(reason)"
    case .rulesTooLarge(let file, let byteCount, let limit):
      "\(file): the rules document has \(byteCount) bytes; at most \(limit) are read"
    case .rulesInvalidUTF8(let file, let byteOffset):
      "\(file): the rules document is not valid UTF-8 at byte \(byteOffset)"
    case .rulesNestingTooDeep(let file, let depth, let limit):
      "\(file): the rules document nests objects or arrays \(depth) deep; at most \(limit) levels are read"
    case .rulesFormatUnsupported(let file, let reason):
      "\(file): \(reason)"
    case .rulesInvalid(let file, let defects):
      defects.count == 1
        ? "\(file):\(defects[0])"
        : "\(file): \(defects.count) defects: " + defects.map { "\(file):\($0)" }.joined(separator: "; ")
    case .trackingAlreadyStarted(let reason):
      "tracking cannot start: \(reason)"
    }
  }
}

extension AutoTrackError: LocalizedError {
  /// The same line as ``description``, so `localizedDescription` reads it too.
  public var errorDescription: String? { description }
}

extension DeliveryFailure: CustomStringConvertible {
  /// The failure in words, e.g. `HTTP status 503`.
  public var description: String {
    switch self {
    case .httpStatus(let code): "HTTP status \(code)"
    case .redirected(let status, let location):
      "redirected with HTTP status \(status) to \(location ?? "no Location"), not followed"
    case .transport(let reason): "the request did not complete: \(reason)"
    case .eventTooLarge(let bytes, let limit): "an event needs \(bytes) bytes, over the batch limit of \(limit)"
    case .encoding(let reason): "the events cannot be encoded: \(reason)"
    case .deadlineExceeded(let deadline): "the request did not complete within its deadline of \(deadline)"
    case .cancelled: "the delivery was cancelled"
    case .attemptsExhausted(let attempts): "gave up after \(attempts) attempt(s)"
    }
  }
}
