import Foundation

// A flush in three steps: plan under the store's lock, sync outside it, check and acknowledge under
// it again. Nothing on the send path ever waits for an `fsync`.
extension JSONLinesStore.State {
  /// Writes the whole buffer, syncs, checks that the files are still at their paths, and
  /// acknowledges, all under the lock: for ``JSONLinesStore/close()``, which lets no send in.
  mutating func flush(_ configuration: JSONLinesStore.Configuration, now: Duration) throws(AutoTrackError)
    -> FlushAcknowledgement
  {
    let plan = try planFlush(configuration, now: now)
    return try finishFlush(plan, failure: plan.perform(), configuration, now: now)
  }

  /// Writes the whole buffer and lists what must be synced before its lines can be acknowledged.
  ///
  /// The plan holds descriptors of its own (`dup(2)`) for the files to sync, so a rotation or a
  /// close while it syncs cannot pull a descriptor from under it.
  mutating func planFlush(_ configuration: JSONLinesStore.Configuration, now: Duration) throws(AutoTrackError)
    -> SyncPlan
  {
    if let unreportedReplacement {
      self.unreportedReplacement = nil
      throw unreportedReplacement
    }
    try writeBuffer(configuration, now: now, byteLimit: nil)
    var plan = SyncPlan(
      writtenThrough: writtenSerial, lastWrittenID: lastWrittenID, rotationCount: statistics.rotationCount)
    do throws(AutoTrackError) {
      for rotated in rotatedUnsynced {
        plan.rotatedFileIDs.append(rotated.id)
        guard configuration.syncOnFlush else { continue }
        syncCallCount += 1
        if let file = rotated.file { plan.files.append(try file.duplicate()) } else { plan.paths.append(rotated.path) }
      }
      if directoryNeedsSync {
        syncCallCount += 1
        plan.directory = configuration.directory.path
      }
      if writtenSerial > acknowledgedSerial, configuration.syncOnFlush, let file {
        syncCallCount += 1
        plan.files.append(try file.duplicate())
      }
    } catch {
      recordWriteFailure(error, configuration, now: now)
      throw error
    }
    return plan
  }

  /// Checks that the synced files are still at their paths, then acknowledges the lines the plan
  /// covered (never those written since, nor those counted lost meanwhile).
  mutating func finishFlush(
    _ plan: SyncPlan, failure: AutoTrackError?, _ configuration: JSONLinesStore.Configuration, now: Duration
  ) throws(AutoTrackError) -> FlushAcknowledgement {
    do throws(AutoTrackError) {
      if let failure { throw failure }
      // A send that wrote while this flush synced found the active file replaced: report it first.
      if let unreportedReplacement {
        self.unreportedReplacement = nil
        throw unreportedReplacement
      }
      try checkRotatedFiles(plan.rotatedFileIDs)
      if plan.directory != nil, statistics.rotationCount == plan.rotationCount { directoryNeedsSync = false }
      try verifyFileIsAtPath(configuration)
    } catch {
      recordWriteFailure(error, configuration, now: now)
      throw error
    }
    acknowledge(through: plan.writtenThrough, lastID: plan.lastWrittenID)
    return FlushAcknowledgement(acknowledgedCount: statistics.acknowledgedCount, lastAcknowledgedID: lastAcknowledgedID)
  }

  /// Counts the lines below `serial` that are neither acknowledged nor lost as acknowledged.
  private mutating func acknowledge(through serial: Int, lastID: String?) {
    guard serial > acknowledgedSerial else { return }
    let newly = acknowledgedSerial..<serial
    var lost = 0
    var lastLineLost = false
    for range in lostLines where range.overlaps(newly) {
      lost += range.clamped(to: newly).count
      lastLineLost = lastLineLost || range.contains(serial - 1)
    }
    statistics.acknowledgedCount += newly.count - lost
    acknowledgedSerial = serial
    lostLines = lostLines.compactMap { $0.upperBound > serial ? max($0.lowerBound, serial)..<$0.upperBound : nil }
    // The id names the last line acknowledged; when that line was lost, the previous id stays.
    if !lastLineLost { lastAcknowledgedID = lastID }
  }

  /// Counts the unacknowledged lines among `lines` as lost; returns how many they were.
  mutating func markLost(_ lines: Range<Int>) -> Int {
    let lost = lines.clamped(to: acknowledgedSerial..<max(acknowledgedSerial, lines.upperBound))
    guard !lost.isEmpty else { return 0 }
    lostLines.append(lost)
    statistics.lostWithReplacedFileCount += lost.count
    return lost.count
  }

  /// Checks the rotated files a flush synced: each still at its archive path with the bytes the
  /// store wrote is done with; one that is not (removed or replaced from outside) takes its
  /// unacknowledged lines with it: they are counted as lost and the flush throws, as for the active file.
  private mutating func checkRotatedFiles(_ ids: [Int]) throws(AutoTrackError) {
    for id in ids {
      guard let index = rotatedUnsynced.firstIndex(where: { $0.id == id }) else { continue }
      let rotated = rotatedUnsynced[index]
      // A check that fails leaves the file for the next flush to check again.
      let isStillAtPath = try rotated.isStillAtPath()
      rotatedUnsynced.remove(at: index)
      if !isStillAtPath {
        throw .storeFileReplaced(path: rotated.path, lostEventCount: markLost(rotated.lines))
      }
    }
  }

  /// Throws when the open file is no longer the one at its path: what was written to it since the
  /// last acknowledgement is counted as lost, and a new file is opened at the path.
  mutating func verifyFileIsAtPath(_ configuration: JSONLinesStore.Configuration) throws(AutoTrackError) {
    guard try !fileIsGone() else { throw replaceVanishedFile(configuration) }
  }

  /// Whether the open file is no longer the one at its path (unlinked, replaced, directory removed).
  func fileIsGone() throws(AutoTrackError) -> Bool {
    guard let file, let fileIdentity else { return false }
    return try PosixFile.identity(at: file.path) != fileIdentity
  }

  /// Counts what went with the vanished file and opens a new one at the path; returns the error to throw.
  mutating func replaceVanishedFile(_ configuration: JSONLinesStore.Configuration) -> AutoTrackError {
    let path = JSONLinesStore.activePath(configuration.directory.path, configuration.baseName)
    let lost = markLost(activeFileStart..<writtenSerial)
    activeFileStart = writtenSerial
    // Best effort: when the path cannot be opened now, the next write tries again.
    try? reopen(configuration)
    return .storeFileReplaced(path: path, lostEventCount: lost)
  }
}
