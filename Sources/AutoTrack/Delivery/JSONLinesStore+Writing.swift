import Foundation

// The store's file work, all of it done under the store's lock on its `State`.
extension JSONLinesStore.State {
  /// A buffer this large or larger grows straight to its configured capacity: growing by doubling
  /// would copy it several times and, at the last step, take half as much memory again as the cap.
  private static let directGrowthThreshold = 256 << 10

  var bufferedLineCount: Int { lineEnds.count - lineHead }
  var bufferedBytes: Int { buffer.count - bufferHead }

  /// Opens the directory, the lock and the active file; returns the bytes of a torn tail it cut off.
  mutating func open(_ configuration: JSONLinesStore.Configuration, repairing: Bool) throws(AutoTrackError) -> Int {
    let directory = configuration.directory.path
    let baseName = configuration.baseName
    try PosixFile.makeDirectory(directory)
    let lock = try PosixFile(appendingTo: directory + "/" + baseName + ".lock")
    try lock.lockExclusively()
    let file = try PosixFile(appendingTo: JSONLinesStore.activePath(directory, baseName))
    let torn = repairing ? try file.cutTornTail() : 0
    if torn > 0, configuration.syncOnFlush { try file.sync() }
    let archives = try JSONLinesStore.archiveNumbers(directory, baseName)
    let size = try file.size()
    let identity = try file.identity()
    self.lock = lock
    self.file = file
    fileIdentity = identity
    fileSize = size
    nextArchiveNumber = max(nextArchiveNumber, (archives.last ?? 0) + 1)
    return torn
  }

  /// Opens the path again after the open file vanished from it, creating the directory when it is gone.
  mutating func reopen(_ configuration: JSONLinesStore.Configuration) throws(AutoTrackError) {
    file?.close()
    file = nil
    fileIdentity = nil
    lock?.close()
    lock = nil
    _ = try open(configuration, repairing: true)
  }

  /// Encodes `event` as one line at the end of the buffer; the caller has checked that it is finite.
  mutating func append(_ event: TrackedEvent, _ configuration: JSONLinesStore.Configuration) {
    let spare = buffer.capacity - buffer.count
    if buffer.count >= Self.directGrowthThreshold, spare < Self.directGrowthThreshold / 4 {
      buffer.reserveCapacity(max(configuration.maximumBufferedBytes, buffer.count) + Self.directGrowthThreshold)
    }
    // Finite values always encode; the guard in `send` has checked them.
    try? encoder.append(event, to: &buffer)
    buffer.append(0x0A)
    lineEnds.append(buffer.count)
    statistics.sentCount += 1
  }

  mutating func clearBuffer() {
    // Keep a normal-sized buffer's storage for the next events; give back what a disk outage grew.
    let keep = buffer.capacity <= Self.directGrowthThreshold * 4
    buffer.removeAll(keepingCapacity: keep)
    lineEnds.removeAll(keepingCapacity: keep)
    bufferHead = 0
    lineHead = 0
    firstBufferedAt = nil
  }

  /// Drops the written prefix of the buffer once it is at least half of it, so each byte moves at most once on average.
  mutating func compactBuffer() {
    if bufferHead == buffer.count {
      clearBuffer()
      return
    }
    guard bufferHead > 0, bufferHead * 2 >= buffer.count else { return }
    buffer.removeSubrange(0..<bufferHead)
    lineEnds.removeSubrange(0..<lineHead)
    for index in lineEnds.indices { lineEnds[index] -= bufferHead }
    bufferHead = 0
    lineHead = 0
  }

  /// A write from `send` or `flushIfDue`: bounded in size, skipped while a retry delay runs, never thrown.
  mutating func writeAutomatically(_ configuration: JSONLinesStore.Configuration, now: Duration) {
    if let next = nextWriteAttemptAt, now < next { return }
    do {
      try writeBuffer(configuration, now: now, byteLimit: configuration.maximumBytesPerAutomaticWrite)
    } catch {
      statistics.writeFailureCount += 1
      if case .storeFileReplaced(let path, let lost) = error {
        var earlier = 0
        if case .storeFileReplaced(_, let count)? = unreportedReplacement { earlier = count }
        unreportedReplacement = .storeFileReplaced(path: path, lostEventCount: earlier + lost)
      }
    }
  }

  /// Remembers a failed write and when to try again: the delay doubles with each failure in a row.
  mutating func recordWriteFailure(
    _ error: AutoTrackError, _ configuration: JSONLinesStore.Configuration, now: Duration
  ) {
    lastWriteError = error
    consecutiveWriteFailures += 1
    var delay = configuration.writeRetryDelay
    for _ in 1..<min(consecutiveWriteFailures, 40) where delay < configuration.maximumWriteRetryDelay {
      delay *= 2
    }
    nextWriteAttemptAt = now + min(delay, configuration.maximumWriteRetryDelay)
  }

  mutating func recordWriteSuccess() {
    lastWriteError = nil
    consecutiveWriteFailures = 0
    nextWriteAttemptAt = nil
  }

  /// Writes the whole buffer, syncs, checks that the file is still at its path, and acknowledges.
  mutating func flush(_ configuration: JSONLinesStore.Configuration, now: Duration) throws(AutoTrackError)
    -> FlushAcknowledgement
  {
    if let unreportedReplacement {
      self.unreportedReplacement = nil
      throw unreportedReplacement
    }
    try writeBuffer(configuration, now: now, byteLimit: nil)
    do {
      try syncRotatedFiles(configuration)
      if unacknowledgedCount > 0, configuration.syncOnFlush, let file {
        syncCallCount += 1
        try file.sync()
      }
      try verifyFileIsAtPath(configuration)
    } catch {
      recordWriteFailure(error, configuration, now: now)
      throw error
    }
    statistics.acknowledgedCount += unacknowledgedCount
    unacknowledgedCount = 0
    lastAcknowledgedID = lastWrittenID
    return FlushAcknowledgement(acknowledgedCount: statistics.acknowledgedCount, lastAcknowledgedID: lastAcknowledgedID)
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
    let lost = activeFileUnacknowledgedCount
    statistics.lostWithReplacedFileCount += lost
    unacknowledgedCount -= lost
    // Best effort: when the path cannot be opened now, the next write tries again.
    try? reopen(configuration)
    return .storeFileReplaced(path: path, lostEventCount: lost)
  }

  /// Writes buffered lines, rotating at line boundaries; on failure the unwritten lines stay buffered.
  ///
  /// - Parameter byteLimit: Stop once this many bytes are written (at least one line); `nil` writes everything.
  mutating func writeBuffer(_ configuration: JSONLinesStore.Configuration, now: Duration, byteLimit: Int?)
    throws(AutoTrackError)
  {
    guard bufferedLineCount > 0 else { return }
    do {
      try writeLines(configuration, byteLimit: byteLimit)
      recordWriteSuccess()
    } catch {
      recordWriteFailure(error, configuration, now: now)
      throw error
    }
  }

  private mutating func writeLines(_ configuration: JSONLinesStore.Configuration, byteLimit: Int?)
    throws(AutoTrackError)
  {
    defer { compactBuffer() }
    if file == nil { try reopen(configuration) }
    let limit = configuration.maximumFileBytes
    let start = bufferHead
    while lineHead < lineEnds.count {
      if let byteLimit, bufferHead - start >= byteLimit { break }
      // Take as many whole lines as fit the file (an empty file takes at least one) and the byte limit.
      var end = lineHead
      var reachedByteLimit = false
      while end < lineEnds.count {
        let bytes = lineEnds[end] - bufferHead
        if fileSize + bytes > limit && (fileSize > 0 || end > lineHead) { break }
        if let byteLimit, bytes > byteLimit - (bufferHead - start), end > lineHead || bufferHead > start {
          reachedByteLimit = true
          break
        }
        end += 1
      }
      if end == lineHead {
        if reachedByteLimit { break }
        try rotate(configuration)
        continue
      }
      let chunkEnd = lineEnds[end - 1]
      guard let file else { throw .sinkClosed(path: configuration.directory.path) }
      do {
        try file.writeAll(buffer[bufferHead..<chunkEnd], chunkLimit: configuration.writeChunkLimit)
      } catch {
        // Never leave half a line behind: later lines would follow it on the same line.
        try? file.truncate(to: fileSize)
        throw error
      }
      // Lines written to a file that is no longer at the path stay buffered for the new file. When
      // the check itself fails, the lines count as written (they are in the open file) and the
      // error goes up: nothing is acknowledged until a check succeeds.
      let gone: Bool
      var checkError: AutoTrackError?
      do { gone = try fileIsGone() } catch {
        gone = false
        checkError = error
      }
      if gone { throw replaceVanishedFile(configuration) }
      let count = end - lineHead
      fileSize += chunkEnd - bufferHead
      statistics.writtenCount += count
      unacknowledgedCount += count
      lastWrittenID = lineID(end - 1)
      bufferHead = chunkEnd
      lineHead = end
      if lineHead == lineEnds.count { firstBufferedAt = nil }
      if let checkError { throw checkError }
      if fileSize >= limit { try rotate(configuration) }
    }
  }

  /// The id of buffered line `index`, read back from its JSON (always the first key).
  private func lineID(_ index: Int) -> String? {
    let start = index == 0 ? 0 : lineEnds[index - 1]
    return try? EventLineDecoder().decode(buffer[start..<lineEnds[index] - 1]).id
  }

  /// Renames the active file to the next archive number and starts a new one.
  mutating func rotate(_ configuration: JSONLinesStore.Configuration) throws(AutoTrackError) {
    guard let current = file, fileSize > 0 else { return }
    let directory = configuration.directory.path
    let baseName = configuration.baseName
    try verifyFileIsAtPath(configuration)
    let archivePath = JSONLinesStore.archivePath(directory, baseName, nextArchiveNumber)
    try PosixFile.rename(current.path, to: archivePath)
    nextArchiveNumber += 1
    rotatedUnsynced.append(
      RotatedFile(path: archivePath, identity: fileIdentity, unacknowledgedCount: activeFileUnacknowledgedCount))
    directoryNeedsSync = configuration.syncOnFlush
    current.close()
    file = nil
    fileIdentity = nil
    let fresh = try PosixFile(appendingTo: JSONLinesStore.activePath(directory, baseName))
    fileIdentity = try fresh.identity()
    file = fresh
    fileSize = 0
    statistics.rotationCount += 1
    // Everything written so far sits in synced (or at least written) files now.
    if let keep = configuration.maximumArchivedFiles {
      var numbers = try JSONLinesStore.archiveNumbers(directory, baseName)
      while numbers.count > keep {
        let path = JSONLinesStore.archivePath(directory, baseName, numbers.removeFirst())
        let lines = (try PosixFile.contents(of: path))?.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } ?? 0
        try PosixFile.remove(path)
        rotatedUnsynced.removeAll { $0.path == path }
        statistics.eventsRemovedByRetention += lines
      }
    }
  }

  /// The unacknowledged lines in the active file: those written since the last flush, less those
  /// in files rotated out since.
  var activeFileUnacknowledgedCount: Int {
    unacknowledgedCount - rotatedUnsynced.reduce(0) { $0 + $1.unacknowledgedCount }
  }

  /// Checks and syncs the files rotated out since the last flush, then the directory that holds
  /// their new names. A rotated file that is no longer at its archive path (removed or replaced from outside)
  /// takes its unacknowledged lines with it: they are counted as lost and the flush throws, as for
  /// the active file.
  mutating func syncRotatedFiles(_ configuration: JSONLinesStore.Configuration) throws(AutoTrackError) {
    while let rotated = rotatedUnsynced.first {
      if let expected = rotated.identity, try PosixFile.identity(at: rotated.path) != expected {
        rotatedUnsynced.removeFirst()
        statistics.lostWithReplacedFileCount += rotated.unacknowledgedCount
        unacknowledgedCount -= rotated.unacknowledgedCount
        throw .storeFileReplaced(path: rotated.path, lostEventCount: rotated.unacknowledgedCount)
      }
      if configuration.syncOnFlush {
        syncCallCount += 1
        try PosixFile.syncFile(at: rotated.path)
      }
      rotatedUnsynced.removeFirst()
    }
    if directoryNeedsSync {
      syncCallCount += 1
      try PosixFile.syncDirectory(configuration.directory.path)
      directoryNeedsSync = false
    }
  }

  /// Closes the files and marks the store closed; buffered events that were not written are counted.
  mutating func shutDown(_ configuration: JSONLinesStore.Configuration, writingFirst: Bool = false) {
    guard !isClosed else { return }
    if writingFirst, file != nil { try? writeLines(configuration, byteLimit: nil) }
    statistics.droppedUnwrittenAtCloseCount += bufferedLineCount
    clearBuffer()
    file?.close()
    file = nil
    lock?.close()
    lock = nil
    isClosed = true
  }
}

/// A file the store rotated out since the last flush, which that flush checks and syncs.
struct RotatedFile {
  /// Its archive path.
  var path: String
  /// The identity it had as the active file, to tell it from a file put at its path since.
  var identity: FileIdentity?
  /// The unacknowledged lines it holds.
  var unacknowledgedCount: Int
}
