import DelegateProxyKit
import DelegateProxyKitSupport
import Foundation

/// The stage's bookkeeping for its outbox: which files it keeps, and what they hold.
///
/// On disk, next to the outbox store's own files:
/// - `<baseName>.pending`, the *snapshot*: the waiting events at the last compaction, written to
///   `<baseName>.pending.tmp` and renamed into place, so it is always whole;
/// - the store's files, the *log*: every event sent since the last compaction;
/// - `<baseName>.settled`, the *journal*: the ids of events settled (delivered, rejected or
///   dropped) since the last compaction, appended batch by batch, each id encoded once.
///
/// After a restart the waiting events are (snapshot, then log) less the journal's ids. A
/// compaction writes the queue as the new snapshot and empties the log and the journal, so the
/// files never hold much more than the queue: it runs when the log and the journal together
/// reach ``BatchingStage/compactionThreshold`` entries, which keeps its cost (one encoding of
/// the queue) to a constant per event sent.
struct OutboxState {
  var journal: PosixFile?
  var journalPath = ""
  var snapshotPath = ""
  /// Events sent to the outbox store since the last compaction.
  var loggedEventCount = 0
  /// Settled ids written to the journal since the last compaction.
  var journaledCount = 0
  /// Settled ids encoded, one JSON string a line, and not yet written to the journal.
  var journalBacklog: [UInt8] = []
  var journalBacklogCount = 0
  /// Whether settled ids were given up after the journal could not be written; a restart may then
  /// send some settled events again, until the next compaction.
  var journalIncomplete = false
  /// Entries (log events and settled ids) since the last compaction attempt, successful or not.
  var entriesSinceAttempt = 0
  /// Whether the files may hold anything; an idle stage clears them.
  var hasFiles = false
  /// While a compaction writes its snapshot outside the lock: queue entries with a lower sequence are in it.
  var snapshotUpTo: UInt64?
  /// Ids of snapshot entries settled while the snapshot was being written: the new journal's first lines.
  var settledDuringSnapshot: [String] = []
  var compactionCount = 0

  /// Records a settled event for the journal.
  mutating func noteSettled(_ id: String, sequence: UInt64) {
    guard journal != nil else { return }
    OutboxState.appendJournalLine(id, to: &journalBacklog)
    journalBacklogCount += 1
    entriesSinceAttempt += 1
    if let upTo = snapshotUpTo, sequence < upTo { settledDuringSnapshot.append(id) }
  }

  /// Appends one journal line: the settled id as a JSON string literal, then a newline.
  static func appendJournalLine(_ id: String, to bytes: inout [UInt8]) {
    EventLineEncoder.appendString(id, to: &bytes)
    bytes.append(0x0A)
  }
}

extension BatchingStage {
  /// Log and journal entries after which the outbox is compacted: the queue capacity, at least 64.
  var compactionThreshold: Int { max(configuration.queueCapacity, 64) }

  /// Opens the outbox's files and works out which events still wait.
  static func openOutbox(_ outbox: JSONLinesStore) throws(AutoTrackError) -> (
    state: OutboxState, unsettled: [TrackedEvent]
  ) {
    let base = outbox.configuration.directory.path + "/" + outbox.configuration.baseName
    var state = OutboxState()
    state.journalPath = base + ".settled"
    state.snapshotPath = base + ".pending"
    let journal = try PosixFile(appendingTo: state.journalPath)
    _ = try journal.cutTornTail()
    let settled = try readJournal(at: state.journalPath)
    // A compaction that died before its rename left a partial snapshot: the old files still hold everything.
    try PosixFile.remove(state.snapshotPath + ".tmp")
    let snapshot = try readEvents(at: state.snapshotPath)
    let logged = try outbox.readAll()
    var seen = Set<String>()
    var unsettled: [TrackedEvent] = []
    for event in snapshot + logged where !settled.contains(event.id) && seen.insert(event.id).inserted {
      unsettled.append(event)
    }
    state.journal = journal
    state.loggedEventCount = logged.count
    state.journaledCount = settled.count
    state.entriesSinceAttempt = logged.count + settled.count
    state.hasFiles = !snapshot.isEmpty || !logged.isEmpty || !settled.isEmpty
    return (state, unsettled)
  }

  /// Appends the settled ids of the backlog to the journal; on failure keeps them for the next
  /// turn, up to ``compactionThreshold`` of them (then gives them up and counts on a compaction).
  func writeJournal(_ state: inout State) -> Report? {
    guard let journal = state.outboxState.journal, state.outboxState.journalBacklogCount > 0 else { return nil }
    do {
      try journal.writeAll(state.outboxState.journalBacklog[...])
      state.outboxState.journaledCount += state.outboxState.journalBacklogCount
      state.outboxState.hasFiles = true
      state.outboxState.journalBacklog.removeAll(keepingCapacity: true)
      state.outboxState.journalBacklogCount = 0
      return nil
    } catch {
      if state.outboxState.journalBacklogCount > compactionThreshold {
        state.outboxState.journalBacklog = []
        state.outboxState.journalBacklogCount = 0
        state.outboxState.journalIncomplete = true
      }
      return .outboxFailed(error: error)
    }
  }

  private enum CompactionPlan {
    case nothing
    case snapshot([TrackedEvent], upTo: UInt64)
  }

  /// Compacts the outbox when it is due: clears it when nothing waits, otherwise rewrites it to hold
  /// the queue. Called only between batches (nothing in flight), by the holder of the delivery turn.
  ///
  /// - Returns: A failure report when a file operation failed; the files then stay consistent.
  func compactOutbox() -> [Report] {
    guard let outbox else { return [] }
    let threshold = compactionThreshold
    var reports: [Report] = []
    let plan = state.withLock { state -> CompactionPlan in
      guard state.inFlightCount == 0, state.outboxState.journal != nil else { return .nothing }
      if state.queue.isEmpty {
        if let failure = clearOutbox(&state, outbox) { reports.append(failure) }
        return .nothing
      }
      guard state.outboxState.entriesSinceAttempt >= threshold || state.outboxState.journalIncomplete else {
        return .nothing
      }
      state.outboxState.entriesSinceAttempt = 0
      state.outboxState.snapshotUpTo = state.nextSequence
      state.outboxState.settledDuringSnapshot = []
      return .snapshot(state.queue.elements.map(\.event), upTo: state.nextSequence)
    }
    guard case .snapshot(let events, let upTo) = plan else { return reports }
    // The bulk of the work, outside the lock: senders go on meanwhile.
    let temporaryPath = state.withLock { $0.outboxState.snapshotPath } + ".tmp"
    var bytes: [UInt8] = []
    BatchingStage.encode(events, to: &bytes)
    do {
      let temporary = try PosixFile(appendingTo: temporaryPath)
      defer { temporary.close() }
      try temporary.truncate(to: 0)
      try temporary.writeAll(bytes[...])
    } catch {
      state.withLock { $0.outboxState.snapshotUpTo = nil }
      return reports + [.outboxFailed(error: error)]
    }
    let failure = state.withLock { state -> Report? in
      defer {
        state.outboxState.snapshotUpTo = nil
        state.outboxState.settledDuringSnapshot = []
      }
      return commitSnapshot(&state, outbox, temporaryPath: temporaryPath, upTo: upTo)
    }
    if let failure { reports.append(failure) }
    return reports
  }

  /// Finishes a compaction under the lock: adds the events queued meanwhile, renames the snapshot
  /// into place, then empties the log and the journal. A crash between any two steps leaves files
  /// from which a restart loses nothing (it may send a few settled events again).
  private func commitSnapshot(_ state: inout State, _ outbox: JSONLinesStore, temporaryPath: String, upTo: UInt64)
    -> Report?
  {
    var late: [UInt8] = []
    BatchingStage.encode(state.queue.elements.filter { $0.sequence >= upTo }.map(\.event), to: &late)
    do {
      let temporary = try PosixFile(appendingTo: temporaryPath)
      defer { temporary.close() }
      try temporary.writeAll(late[...])
      if outbox.configuration.syncOnFlush { try temporary.sync() }
      try PosixFile.rename(temporary.path, to: state.outboxState.snapshotPath)
      if outbox.configuration.syncOnFlush { try PosixFile.syncDirectory(outbox.configuration.directory.path) }
      // From here the snapshot holds every waiting event; the log and the journal are redundant.
      try outbox.removeAll()
      state.outboxState.loggedEventCount = 0
      guard let journal = state.outboxState.journal else { return nil }
      try journal.truncate(to: 0)
      var lines: [UInt8] = []
      for id in state.outboxState.settledDuringSnapshot { OutboxState.appendJournalLine(id, to: &lines) }
      state.outboxState.journalBacklog = lines
      state.outboxState.journalBacklogCount = state.outboxState.settledDuringSnapshot.count
      state.outboxState.journaledCount = 0
      state.outboxState.journalIncomplete = false
      state.outboxState.hasFiles = true
      state.outboxState.compactionCount += 1
      return writeJournal(&state)
    } catch {
      return .outboxFailed(error: error)
    }
  }

  /// Empties the snapshot, the log and the journal once nothing waits.
  private func clearOutbox(_ state: inout State, _ outbox: JSONLinesStore) -> Report? {
    guard let journal = state.outboxState.journal,
      state.outboxState.hasFiles || state.outboxState.loggedEventCount > 0 || state.outboxState.journalBacklogCount > 0
    else { return nil }
    do {
      try PosixFile.remove(state.outboxState.snapshotPath)
      try outbox.removeAll()
      try journal.truncate(to: 0)
      state.outboxState.journalBacklog = []
      state.outboxState.journalBacklogCount = 0
      state.outboxState.journaledCount = 0
      state.outboxState.loggedEventCount = 0
      state.outboxState.entriesSinceAttempt = 0
      state.outboxState.journalIncomplete = false
      state.outboxState.hasFiles = false
      return nil
    } catch {
      // The files stay consistent: a restart only re-reads what they hold.
      return .outboxFailed(error: error)
    }
  }

  /// JSON Lines of `events`; an event that JSON cannot hold is left out, as the store leaves it out.
  static func encode(_ events: [TrackedEvent], to bytes: inout [UInt8]) {
    let encoder = EventLineEncoder()
    for event in events {
      let mark = bytes.count
      do {
        try encoder.append(event, to: &bytes)
        bytes.append(0x0A)
      } catch {
        bytes.removeSubrange(mark...)
      }
    }
  }

  static func readJournal(at path: String) throws(AutoTrackError) -> Set<String> {
    let decoder = JSONDecoder()
    return Set(try readLines(at: path) { line in try decoder.decode(String.self, from: line) })
  }

  /// The events of a snapshot file; none when it does not exist. Read with the store's own line
  /// reader, so a `Double` property comes back a `Double` (`JSONDecoder` would make `3.0` an `Int`).
  static func readEvents(at path: String) throws(AutoTrackError) -> [TrackedEvent] {
    let decoder = EventLineDecoder()
    return try readLines(at: path) { line in try decoder.decode(line) }
  }

  /// Decodes each non-empty line of a file; none when the file does not exist. A line that does
  /// not decode is a ``AutoTrackError/malformedLine(path:line:reason:)`` with its 1-based number.
  private static func readLines<Value>(
    at path: String,
    _ decode: (Data) throws -> Value
  ) throws(AutoTrackError) -> [Value] {
    guard let data = try PosixFile.contents(of: path) else { return [] }
    var values: [Value] = []
    var lineNumber = 0
    for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
      lineNumber += 1
      if line.isEmpty { continue }
      do {
        values.append(try decode(line))
      } catch let failure as EventLineDecoder.Failure {
        throw .malformedLine(path: path, line: lineNumber, reason: failure.reason)
      } catch {
        throw .malformedLine(path: path, line: lineNumber, reason: String(describing: error))
      }
    }
    return values
  }
}
