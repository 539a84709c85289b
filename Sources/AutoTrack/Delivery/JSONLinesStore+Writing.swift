import Foundation

// The store's file work, all of it done under the store's lock on its `State`.
extension JSONLinesStore.State {
  /// A buffer this large or larger grows straight to its configured capacity: growing by doubling
  /// would copy it several times and, at the last step, take half as much memory again as the cap.
  private static let directGrowthThreshold = 256 << 10

  var bufferedLineCount: Int { lineEnds.count - lineHead }
  var bufferedBytes: Int { buffer.count - bufferHead }

  /// Opens the directory, the lock and the active file; returns the bytes of a torn tail it cut off.
  ///
  /// - Parameter lockWait: How long to wait for a lock another holder has: the configured wait
  ///   when the store opens, none when it opens its files again under the store's lock.
  mutating func open(
    _ configuration: JSONLinesStore.Configuration, repairing: Bool, lockWait: Duration = .zero
  ) throws(AutoTrackError) -> Int {
    let directory = configuration.directory.path
    let baseName = configuration.baseName
    try PosixFile.makeDirectory(directory)
    try holdLock(configuration, waitingUpTo: lockWait)
    let file = try PosixFile(appendingTo: JSONLinesStore.activePath(directory, baseName), faults: faults)
    let torn = repairing ? try file.cutTornTail() : 0
    if torn > 0, configuration.syncOnFlush { try file.sync() }
    let archives = try JSONLinesStore.archiveNumbers(directory, baseName)
    let size = try file.size()
    let identity = try file.identity()
    self.file = file
    fileIdentity = identity
    fileSize = size
    tailNeedsRepair = false
    activeFileStart = writtenSerial
    nextArchiveNumber = max(nextArchiveNumber, (archives.last ?? 0) + 1)
    return torn
  }

  /// Takes the directory's lock, unless the lock file at its path is the one this store already holds.
  ///
  /// The lock lives on a descriptor of its own, opened once and closed only by ``shutDown(_:writingFirst:)``:
  /// no failure of the event files (a full inode table at a rotation, a vanished active file) lets
  /// it go. Only when the lock file itself is gone (the directory was removed and is being made
  /// again) does the store lock the new one, and it keeps the old one until it holds the new.
  ///
  /// While another holder has the lock it tries again after 1 ms, then after pauses that double up
  /// to 50 ms, until `maximumWait` has passed on `ContinuousClock`; the last try is at the deadline.
  ///
  /// - Throws: ``AutoTrackError/storeLocked(lockPath:waited:)`` when the lock is still held then.
  mutating func holdLock(
    _ configuration: JSONLinesStore.Configuration, waitingUpTo maximumWait: Duration
  ) throws(AutoTrackError) {
    let path = configuration.directory.path + "/" + configuration.baseName + ".lock"
    if let lock, let held = try? lock.identity(), (try? PosixFile.identity(at: path)) == held { return }
    let fresh = try PosixFile(appendingTo: path, faults: faults)
    let clock = ContinuousClock()
    let start = clock.now
    var pause = Duration.milliseconds(1)
    while try !fresh.tryLockExclusively() {
      let waited = clock.now - start
      guard waited < maximumWait else { throw .storeLocked(lockPath: path, waited: waited) }
      faults?.lockWasBusy()
      Thread.sleep(forTimeInterval: min(pause, maximumWait - waited).seconds)
      pause = min(pause * 2, .milliseconds(50))
    }
    lock?.close()
    lock = fresh
  }

  /// Opens the path again after the open file vanished from it, creating the directory when it is gone.
  mutating func reopen(_ configuration: JSONLinesStore.Configuration) throws(AutoTrackError) {
    file?.close()
    file = nil
    fileIdentity = nil
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
    if tailNeedsRepair { try repairTail() }
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
        // Never leave half a line behind: later lines would follow it on the same line. When the
        // cut fails too, the next write repairs the tail before it appends.
        do { try file.truncate(to: fileSize) } catch { tailNeedsRepair = true }
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
      markWritten(upTo: end)
      if let checkError { throw checkError }
      if fileSize >= limit { try rotate(configuration) }
    }
  }

  /// Counts buffered lines up to `end` as written to the active file and drops them from the buffer.
  private mutating func markWritten(upTo end: Int) {
    let count = end - lineHead
    fileSize += lineEnds[end - 1] - bufferHead
    statistics.writtenCount += count
    writtenSerial += count
    lastWrittenID = lineID(end - 1)
    bufferHead = lineEnds[end - 1]
    lineHead = end
    if lineHead == lineEnds.count { firstBufferedAt = nil }
  }

  /// Removes the part of a line that a failed write left at the end of the active file when its
  /// clean-up `ftruncate` failed too: cuts it off, or, when that fails again, keeps the whole lines
  /// the failed write put in the file (counted written, never written twice) and ends the rest
  /// with a newline. Either way the next line starts a line of its own; an ended fragment is one
  /// damaged line that readers skip and report (see ``JSONLinesStore/Contents``), and no event is
  /// lost with it.
  private mutating func repairTail() throws(AutoTrackError) {
    guard let file else { return }
    do {
      try file.truncate(to: fileSize)
    } catch {
      // The bytes past `fileSize` are the start of the buffer: the failed write appended them.
      let onDisk = try file.size()
      if onDisk - fileSize <= bufferedBytes {
        var end = lineHead
        while end < lineEnds.count, lineEnds[end] - bufferHead <= onDisk - fileSize { end += 1 }
        if end > lineHead { markWritten(upTo: end) }
      }
      if onDisk > fileSize {
        try file.writeAll([0x0A])
        fileSize = try file.size()
      }
    }
    tailNeedsRepair = false
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
    nextRotatedFileID += 1
    rotatedUnsynced.append(
      RotatedFile(
        id: nextRotatedFileID, path: archivePath, file: current, identity: fileIdentity, size: fileSize,
        lines: activeFileStart..<writtenSerial))
    activeFileStart = writtenSerial
    if rotatedUnsynced.count > RotatedFile.maximumHeldOpen {
      rotatedUnsynced[rotatedUnsynced.count - 1 - RotatedFile.maximumHeldOpen].file = nil
    }
    directoryNeedsSync = configuration.syncOnFlush
    file = nil
    fileIdentity = nil
    let fresh = try PosixFile(appendingTo: JSONLinesStore.activePath(directory, baseName), faults: faults)
    fileIdentity = try fresh.identity()
    file = fresh
    fileSize = 0
    statistics.rotationCount += 1
    try applyRetention(configuration)
  }

  /// Deletes the oldest archives beyond ``JSONLinesStore/Configuration/maximumArchivedFiles``,
  /// counting their lines in ``JSONLinesStore/Statistics/eventsRemovedByRetention``.
  ///
  /// Only archives whose lines a flush has acknowledged are candidates: an event is never deleted
  /// before it was acknowledged where it can be read. The archives rotated out since the last
  /// flush are kept, even past the limit, until a flush has acknowledged them and a later rotation
  /// deletes them.
  private mutating func applyRetention(_ configuration: JSONLinesStore.Configuration) throws(AutoTrackError) {
    guard let keep = configuration.maximumArchivedFiles else { return }
    let directory = configuration.directory.path
    let baseName = configuration.baseName
    let numbers = try JSONLinesStore.archiveNumbers(directory, baseName)
    let acknowledged = acknowledgedSerial
    let waiting = Set(rotatedUnsynced.lazy.filter { $0.lines.upperBound > acknowledged }.map(\.path))
    var excess = numbers.count - keep
    for number in numbers where excess > 0 {
      let path = JSONLinesStore.archivePath(directory, baseName, number)
      guard !waiting.contains(path) else { continue }
      let lines = (try PosixFile.contents(of: path))?.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } ?? 0
      try PosixFile.remove(path)
      rotatedUnsynced.removeAll { $0.path == path }
      statistics.eventsRemovedByRetention += lines
      excess -= 1
    }
  }

  /// Closes the files and marks the store closed; buffered events that were not written are counted.
  mutating func shutDown(_ configuration: JSONLinesStore.Configuration, writingFirst: Bool = false) {
    guard !isClosed else { return }
    // A write that finds the file replaced opens a new one and keeps the lines: give them a second try there.
    if writingFirst, bufferedLineCount > 0, (try? writeLines(configuration, byteLimit: nil)) == nil {
      try? writeLines(configuration, byteLimit: nil)
    }
    statistics.droppedUnwrittenAtCloseCount += bufferedLineCount
    clearBuffer()
    file?.close()
    file = nil
    rotatedUnsynced.removeAll()
    lock?.close()
    lock = nil
    isClosed = true
  }
}

/// A file the store rotated out since the last flush, which that flush checks and syncs.
///
/// Device and inode numbers alone do not tell a file from one created in its place after it was
/// deleted: a file system hands a freed inode number to the next file (ext4 and tmpfs do so at
/// once). So the store keeps the rotated file open until the flush: an open file's inode is never
/// freed, and no other file can have its number while the store holds it. The flush also checks
/// that the size at the path is the size the store wrote. Past ``maximumHeldOpen`` rotations
/// between two flushes, the oldest files are closed and checked by device, inode and size alone.
struct RotatedFile {
  /// The most rotated files the store keeps open until the next flush.
  static let maximumHeldOpen = 64

  /// Tells it from the other rotated files, for a flush that checks it after syncing outside the lock.
  var id: Int
  /// Its archive path.
  var path: String
  /// The file itself, open until the flush syncs it; `nil` past ``maximumHeldOpen``.
  var file: PosixFile?
  /// The identity it had as the active file, to tell it from a file put at its path since.
  var identity: FileIdentity?
  /// The bytes the store wrote to it.
  var size: Int
  /// The serials of the lines it holds (see ``JSONLinesStore/State/writtenSerial``).
  var lines: Range<Int>

  /// Whether the file at ``path`` is still this one, with the bytes the store wrote.
  func isStillAtPath() throws(AutoTrackError) -> Bool {
    guard let info = try PosixFile.status(at: path) else { return false }
    if let file, try file.identity() != FileIdentity(info) { return false }
    if let identity, identity != FileIdentity(info) { return false }
    return Int(info.st_size) == size
  }
}
