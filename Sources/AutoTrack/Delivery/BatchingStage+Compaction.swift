import DelegateProxyKit
import DelegateProxyKitSupport
import Foundation

extension BatchingStage {
  /// Compacts the outbox when it is due: rewrites it to hold just the queue (nothing, when nothing
  /// waits). Called only between batches (nothing in flight), by the holder of the delivery turn.
  ///
  /// The steps, each safe to die after: (1) under the lock, write the journal's backlog, so the
  /// journal lists every settled id, and pause sending to the store; (2) outside the lock, write
  /// the snapshot to a temporary file, sync it, rename it into place and sync the directory: the
  /// snapshot now holds every event that waited at step 1, and the journal still covers everything
  /// settled in the log; (3) empty the log; (4) under the lock, replace the journal with the ids
  /// settled since step 1 (written to a temporary file and renamed), then send the events queued
  /// meanwhile to the store. No `fsync` runs under the stage's lock, and no send waits for one.
  ///
  /// - Parameter ignoringBackoff: Whether to try at once even while a failure's backoff runs
  ///   (``flush()`` does).
  /// - Returns: A failure report when a file operation failed (only the first of a run of
  ///   failures); the files then stay consistent.
  func compactOutbox(ignoringBackoff: Bool = false) -> [Report] {
    guard let outbox else { return [] }
    let threshold = compactionThreshold
    let now = clock.now()
    var reports: [Report] = []
    let plan = state.withLock { state -> (events: [TrackedEvent], snapshotPath: String, rebuild: Bool)? in
      let outboxState = state.outboxState
      guard state.inFlightCount == 0, outboxState.journal != nil, outboxState.logPausedFrom == nil else { return nil }
      if !ignoringBackoff, outboxState.failure != nil, let next = outboxState.nextAttemptAt, now < next { return nil }
      let due =
        state.queue.isEmpty
        ? outboxState.hasFiles || outboxState.loggedEventCount > 0 || outboxState.needsRepair
        : outboxState.entriesSinceAttempt >= threshold || outboxState.needsRepair
      guard due else { return nil }
      state.outboxState.entriesSinceAttempt = 0
      if let failure = writeJournal(&state, now: now, force: true) { reports.append(failure) }
      guard state.outboxState.journalBacklogCount == 0 else { return nil }
      state.outboxState.logPausedFrom = state.nextSequence
      state.outboxState.snapshotUpTo = state.nextSequence
      state.outboxState.settledDuringSnapshot = []
      return (state.queue.elements.map(\.event), state.outboxState.snapshotPath, state.outboxState.journalIncomplete)
    }
    guard let plan else { return reports }
    let snapshotPath = plan.snapshotPath
    let syncing = outbox.configuration.syncOnFlush
    let faults = outbox.configuration.fileFaults
    var failure: AutoTrackError?
    var snapshotInPlace = false
    var logEmptied = false
    do throws(AutoTrackError) {
      if plan.rebuild { try rebuildJournal(outbox, snapshotPath: snapshotPath, now: now) }
      if plan.events.isEmpty {
        try PosixFile.remove(snapshotPath, faults: faults)
      } else {
        var bytes: [UInt8] = []
        BatchingStage.encode(plan.events, to: &bytes)
        let temporary = try PosixFile(appendingTo: snapshotPath + ".tmp", faults: faults)
        defer { temporary.close() }
        try temporary.truncate(to: 0)
        try temporary.writeAll(bytes[...])
        if syncing { try temporary.sync() }
        try PosixFile.rename(temporary.path, to: snapshotPath, faults: faults)
      }
      if syncing { try PosixFile.syncDirectory(outbox.configuration.directory.path, faults: faults) }
      snapshotInPlace = true
      try outbox.removeAll()
      logEmptied = true
    } catch {
      failure = error
      if !snapshotInPlace { try? PosixFile.remove(snapshotPath + ".tmp", faults: faults) }
    }
    reports += state.withLock { state -> [Report] in
      finishCompaction(
        &state, snapshotInPlace: snapshotInPlace, logEmptied: logEmptied, holdsEvents: !plan.events.isEmpty,
        failure: failure, now: now)
    }
    return reports
  }

  /// Step 4 of ``compactOutbox(ignoringBackoff:)``, under the lock.
  private func finishCompaction(
    _ state: inout State, snapshotInPlace: Bool, logEmptied: Bool, holdsEvents: Bool, failure: AutoTrackError?,
    now: Duration
  ) -> [Report] {
    var reports: [Report] = []
    var failure = failure
    if snapshotInPlace { state.outboxState.needsSnapshot = false }
    if logEmptied {
      state.outboxState.loggedEventCount = 0
      do {
        try replaceJournal(&state, with: state.outboxState.settledDuringSnapshot)
        state.outboxState.hasFiles = holdsEvents || !state.outboxState.settledDuringSnapshot.isEmpty
        state.outboxState.compactionCount += 1
      } catch {
        failure = failure ?? error
      }
    }
    state.outboxState.snapshotUpTo = nil
    state.outboxState.settledDuringSnapshot = []
    reports += resumeLogging(&state, now: now)
    if let failure {
      if let report = noteOutboxFailure(&state, failure, now: now) { reports.append(report) }
    } else if let report = noteOutboxSuccess(&state) {
      reports.append(report)
    }
    return reports
  }

  /// Ends a pause of the store: sends it the events queued during the pause, oldest first.
  func resumeLogging(_ state: inout State, now: Duration) -> [Report] {
    guard let from = state.outboxState.logPausedFrom else { return [] }
    state.outboxState.logPausedFrom = nil
    var reports: [Report] = []
    for queued in state.queue.suffix(while: { $0.sequence >= from }) {
      if let report = logToOutbox(&state, queued.event, now: now) { reports.append(report) }
    }
    return reports
  }

  /// Replaces the journal with `ids`, by a temporary file renamed into place, so a crash leaves
  /// either the old journal or the new one. Under the lock: it writes a few lines and syncs nothing.
  private func replaceJournal(_ state: inout State, with ids: [String]) throws(AutoTrackError) {
    var lines: [UInt8] = []
    for id in ids { OutboxState.appendJournalLine(id, to: &lines) }
    let path = state.outboxState.journalPath
    let faults = outbox?.configuration.fileFaults
    let temporary = try PosixFile(appendingTo: path + ".tmp", faults: faults)
    do {
      try temporary.truncate(to: 0)
      try temporary.writeAll(lines[...])
      try PosixFile.rename(temporary.path, to: path, faults: faults)
    } catch {
      temporary.close()
      try? PosixFile.remove(path + ".tmp", faults: faults)
      throw error
    }
    temporary.close()
    state.outboxState.journal?.close()
    state.outboxState.journal = try PosixFile(appendingTo: path, faults: faults)
    state.outboxState.journalTornTail = false
    state.outboxState.journalBacklog = []
    state.outboxState.journalBacklogCount = 0
    state.outboxState.journaledCount = ids.count
    state.outboxState.journalIncomplete = false
  }

  /// Writes a journal that lists every event the files hold that is not waiting, after settled
  /// ids were given up: the snapshot that follows may then replace the old one safely.
  private func rebuildJournal(_ outbox: JSONLinesStore, snapshotPath: String, now: Duration) throws(AutoTrackError) {
    let onDisk = try BatchingStage.readEvents(at: snapshotPath).events + outbox.readAll()
    try state.withLock { (state: inout State) throws(AutoTrackError) in
      let waiting = Set(state.queue.elements.map { EventIDKey($0.event.id) })
      var settled: [String] = []
      var listed = Set<EventIDKey>()
      for event in onDisk {
        let key = EventIDKey(event.id)
        if !waiting.contains(key), listed.insert(key).inserted { settled.append(event.id) }
      }
      try replaceJournal(&state, with: settled)
    }
  }
}
