import DelegateProxyKit
import DelegateProxyKitSupport
import Foundation

/// The stage's bookkeeping for its outbox: which files it keeps, and what they hold.
///
/// On disk, next to the outbox store's own files:
/// - `<baseName>.pending`, the *snapshot*: the waiting events at the last compaction, written to
///   `<baseName>.pending.tmp`, synced and renamed into place, so it is always whole;
/// - the store's files, the *log*: events sent since the last compaction;
/// - `<baseName>.settled`, the *journal*: the ids of events settled (delivered, rejected or
///   dropped), one JSON string a line, written before the settlement is reported.
///
/// After a restart the waiting events are (snapshot, then log) less the journal's ids, ids
/// compared by their bytes. A compaction writes the queue as the new snapshot, empties the log, then
/// replaces the journal with the few ids settled meanwhile: at every step the files say the same
/// thing, so a crash anywhere in it neither loses a waiting event nor brings a settled one back.
struct OutboxState {
  var journal: PosixFile?
  var journalPath = ""
  var snapshotPath = ""
  /// Whether a failed journal write may have left part of a line at the journal's end.
  var journalTornTail = false
  /// Events sent to the outbox store since the last compaction.
  var loggedEventCount = 0
  /// Settled ids written to the journal since the last compaction.
  var journaledCount = 0
  /// Settled ids encoded, one JSON string a line, and not yet written to the journal.
  var journalBacklog: [UInt8] = []
  var journalBacklogCount = 0
  /// Whether settled ids were given up after the journal could not be written; the next
  /// compaction then rebuilds the journal from the files before it replaces anything.
  var journalIncomplete = false
  /// Whether the files may lack a waiting event (the store refused one): until a snapshot holds
  /// the whole queue, events are not sent to the store, so no write can make a later event durable
  /// before an earlier one.
  var needsSnapshot = false
  /// While the stage works on the store outside its lock (a flush, a compaction): events from this
  /// sequence on are not sent to the store until the work is done, so no send waits for its I/O.
  var logPausedFrom: UInt64?
  /// Entries (log events and settled ids) since the last compaction attempt, successful or not.
  var entriesSinceAttempt = 0
  /// Whether the files may hold anything; an idle stage clears them.
  var hasFiles = false
  /// While a compaction writes its snapshot outside the lock: queue entries with a lower sequence are in it.
  var snapshotUpTo: UInt64?
  /// Ids of snapshot entries settled while the snapshot was being written: the new journal's lines.
  var settledDuringSnapshot: [String] = []
  var compactionCount = 0
  /// The failure reported with ``BatchingStage/Report/outboxFailed(error:)``, until the outbox works again.
  var failure: AutoTrackError?
  /// Failed outbox operations since ``failure`` was reported.
  var failedAttempts = 0
  /// While failing: when the next compaction may be tried, on the stage's time line.
  var nextAttemptAt: Duration?

  /// Whether the files need work that only a compaction or a journal write does.
  var needsRepair: Bool { needsSnapshot || journalIncomplete || journalBacklogCount > 0 }

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

/// The lines a read of an outbox file skipped because they were damaged.
struct SkippedLines {
  var path: String
  var lineNumbers: [Int] = []
  var byteCount = 0

  var report: BatchingStage.Report? {
    lineNumbers.isEmpty ? nil : .outboxLinesSkipped(path: path, lineNumbers: lineNumbers, byteCount: byteCount)
  }
}

extension BatchingStage {
  /// Log and journal entries after which the outbox is compacted: the queue capacity, at least 64.
  var compactionThreshold: Int { max(configuration.queueCapacity, 64) }

  /// Opens the outbox's files and works out which events still wait.
  ///
  /// Damaged lines (a torn write, a line glued to a torn one) of the snapshot, the journal and the
  /// store's files are skipped and returned as reports.
  static func openOutbox(_ outbox: JSONLinesStore) throws(AutoTrackError) -> (
    state: OutboxState, unsettled: [TrackedEvent], skipped: [Report]
  ) {
    let base = outbox.configuration.directory.path + "/" + outbox.configuration.baseName
    var state = OutboxState()
    state.journalPath = base + ".settled"
    state.snapshotPath = base + ".pending"
    // A compaction that died before its renames left partial files: the others still hold everything.
    let faults = outbox.configuration.fileFaults
    try PosixFile.remove(state.snapshotPath + ".tmp", faults: faults)
    try PosixFile.remove(state.journalPath + ".tmp", faults: faults)
    let journal = try PosixFile(appendingTo: state.journalPath, faults: faults)
    let tornBytes = try journal.cutTornTail()
    var (settledIDs, journalSkips) = try readJournal(at: state.journalPath)
    if tornBytes > 0 {
      journalSkips.lineNumbers.append(settledIDs.count + journalSkips.lineNumbers.count + 1)
      journalSkips.byteCount += tornBytes
    }
    let (snapshot, snapshotSkips) = try readEvents(at: state.snapshotPath)
    let contents = try outbox.readContents()
    let logged = contents.events
    // The store skips damaged lines of its own files; the stage reports them with its own.
    var logSkips: [SkippedLines] = []
    for damaged in contents.damagedLines {
      if logSkips.last?.path != damaged.path { logSkips.append(SkippedLines(path: damaged.path)) }
      logSkips[logSkips.count - 1].lineNumbers.append(damaged.line)
      logSkips[logSkips.count - 1].byteCount += damaged.byteCount
    }
    let settled = Set(settledIDs.map(EventIDKey.init))
    var seen = Set<EventIDKey>()
    var unsettled: [TrackedEvent] = []
    for event in snapshot + logged {
      let key = EventIDKey(event.id)
      if !settled.contains(key), seen.insert(key).inserted { unsettled.append(event) }
    }
    state.journal = journal
    state.loggedEventCount = logged.count
    state.journaledCount = settledIDs.count
    state.entriesSinceAttempt = logged.count + settledIDs.count
    state.hasFiles = !snapshot.isEmpty || !logged.isEmpty || !settledIDs.isEmpty || tornBytes > 0
    return (state, unsettled, ([journalSkips, snapshotSkips] + logSkips).compactMap(\.report))
  }

  /// Sends `event` to the outbox store, or holds it back while the store's log cannot be trusted to
  /// hold the queue (see ``OutboxState/needsSnapshot``) or is paused. Called under the lock.
  func logToOutbox(_ state: inout State, _ event: TrackedEvent, now: Duration) -> Report? {
    guard let outbox, state.outboxState.logPausedFrom == nil else { return nil }
    guard !state.outboxState.needsSnapshot else {
      state.statistics.outboxRefusedCount += 1
      return nil
    }
    do {
      try outbox.send(event)
      state.outboxState.loggedEventCount += 1
      state.outboxState.entriesSinceAttempt += 1
      state.outboxState.hasFiles = true
      return nil
    } catch {
      state.statistics.outboxRefusedCount += 1
      state.outboxState.needsSnapshot = true
      return noteOutboxFailure(&state, error, now: now)
    }
  }

  /// Counts a failed outbox operation and backs off the next compaction; returns a report only for
  /// the first failure of a run of them.
  func noteOutboxFailure(_ state: inout State, _ error: AutoTrackError, now: Duration) -> Report? {
    state.statistics.outboxFailureCount += 1
    state.outboxState.failedAttempts += 1
    if let outbox {
      var delay = outbox.configuration.writeRetryDelay
      let ceiling = outbox.configuration.maximumWriteRetryDelay
      for _ in 1..<min(state.outboxState.failedAttempts, 40) where delay < ceiling { delay *= 2 }
      state.outboxState.nextAttemptAt = now + min(delay, ceiling)
    }
    guard state.outboxState.failure == nil else { return nil }
    state.outboxState.failure = error
    return .outboxFailed(error: error)
  }

  /// Ends a run of failures once the files hold every waiting event and every settled id again.
  func noteOutboxSuccess(_ state: inout State) -> Report? {
    guard state.outboxState.failure != nil, !state.outboxState.needsRepair, !state.outboxState.journalTornTail else {
      return nil
    }
    let attempts = state.outboxState.failedAttempts
    state.outboxState.failure = nil
    state.outboxState.failedAttempts = 0
    state.outboxState.nextAttemptAt = nil
    return .outboxRecovered(failedAttempts: attempts)
  }

  /// Appends the settled ids of the backlog to the journal; on failure keeps them for the next
  /// try, up to ``compactionThreshold`` of them (then gives them up and counts on a compaction to
  /// rebuild the journal). A write that failed part-way never has the next one glued to it: the
  /// torn tail is cut off first, or, when that fails too, the next write starts a new line.
  ///
  /// - Parameter force: Whether to write even while a failure's backoff runs.
  func writeJournal(_ state: inout State, now: Duration, force: Bool = false) -> Report? {
    guard let journal = state.outboxState.journal, state.outboxState.journalBacklogCount > 0 else { return nil }
    if !force, state.outboxState.failure != nil, let next = state.outboxState.nextAttemptAt, now < next { return nil }
    do {
      var newLineFirst = false
      if state.outboxState.journalTornTail {
        do { _ = try journal.cutTornTail() } catch { newLineFirst = true }
      }
      if newLineFirst {
        try journal.writeAll([0x0A] + state.outboxState.journalBacklog)
      } else {
        try journal.writeAll(state.outboxState.journalBacklog[...])
      }
      state.outboxState.journalTornTail = false
      state.outboxState.journaledCount += state.outboxState.journalBacklogCount
      state.outboxState.hasFiles = true
      state.outboxState.journalBacklog.removeAll(keepingCapacity: true)
      state.outboxState.journalBacklogCount = 0
      return noteOutboxSuccess(&state)
    } catch {
      state.outboxState.journalTornTail = true
      if state.outboxState.journalBacklogCount > compactionThreshold {
        state.outboxState.journalBacklog = []
        state.outboxState.journalBacklogCount = 0
        state.outboxState.journalIncomplete = true
      }
      return noteOutboxFailure(&state, error, now: now)
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

  /// The settled ids of a journal file, and the damaged lines skipped; none when it does not exist.
  static func readJournal(at path: String) throws(AutoTrackError) -> (ids: [String], skipped: SkippedLines) {
    let decoder = JSONDecoder()
    return try readLines(at: path) { line in try decoder.decode(String.self, from: line) }
  }

  /// The events of a snapshot file, and the damaged lines skipped; none when it does not exist. Read
  /// with the store's own line reader, so a `Double` property comes back a `Double` (`JSONDecoder`
  /// would make `3.0` an `Int`).
  static func readEvents(at path: String) throws(AutoTrackError) -> (events: [TrackedEvent], skipped: SkippedLines) {
    let decoder = EventLineDecoder()
    return try readLines(at: path) { line in try decoder.decode(line) }
  }

  /// Decodes each non-empty line of a file, skipping (and listing, 1-based) the lines that do not
  /// decode, a torn last line included; nothing when the file does not exist.
  private static func readLines<Value>(
    at path: String,
    _ decode: (Data) throws -> Value
  ) throws(AutoTrackError) -> ([Value], SkippedLines) {
    var skipped = SkippedLines(path: path)
    guard let data = try PosixFile.contents(of: path) else { return ([], skipped) }
    var values: [Value] = []
    var lineNumber = 0
    for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
      lineNumber += 1
      if line.isEmpty { continue }
      do {
        values.append(try decode(line))
      } catch {
        skipped.lineNumbers.append(lineNumber)
        skipped.byteCount += line.count
      }
    }
    return (values, skipped)
  }
}
