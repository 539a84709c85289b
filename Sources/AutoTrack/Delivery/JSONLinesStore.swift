import DelegateProxyKit
import DelegateProxyKitSupport
import Foundation
import Synchronization

/// An append-only, crash-tolerant ``EventSink`` that writes one JSON event per line.
///
/// ## Files
/// The store owns a directory. Events go to the active file `<baseName>.jsonl`;
/// when it reaches ``Configuration/maximumFileBytes`` it is renamed to
/// `<baseName>.000001.jsonl` (then `…000002…`, and so on) and a new active file
/// starts. Reading returns the archives in order, then the active file, so
/// reading back yields exactly the events written, in send order. A file
/// exceeds the size limit only when a single event's line is larger than it.
///
/// ## Writes and flushes
/// ``send(_:)`` encodes the event into an in-memory buffer. The buffer goes to
/// the file when it holds ``Configuration/flushEveryEvents`` events, or when its
/// oldest event is ``Configuration/flushInterval`` old (checked on every send, by
/// ``flushIfDue()`` and by ``runAutomaticFlushing()``); such an automatic write
/// carries at most ``Configuration/maximumBytesPerAutomaticWrite`` bytes, so no
/// send pays for a large backlog. ``flush()`` writes the whole buffer and, with
/// ``Configuration/syncOnFlush``, calls `fsync(2)`; its ``FlushAcknowledgement``
/// says how many events are now durable. The sync runs outside the store's lock: sends on
/// other threads go on while it runs.
///
/// ## When the disk fails
/// A failed automatic write keeps the events buffered and is retried on a backoff
/// schedule (``Configuration/writeRetryDelay``, doubling up to
/// ``Configuration/maximumWriteRetryDelay``, on the store's clock), not on every send.
/// The buffer holds at most ``Configuration/maximumBufferedBytes``; past that,
/// ``send(_:)`` refuses the newest event with ``AutoTrackError/storeBufferFull(path:limit:)``
/// and counts it; on a healthy disk a send never gets that error (an event larger than the
/// buffer is written through). Before a flush acknowledges anything, the store checks that its
/// files are still the files at their paths: the same device and inode, held open by the store
/// until then so that no new file can get the inode number, and for a rotated file the size the
/// store wrote. A file unlinked, replaced or whose directory was removed fails the flush with
/// ``AutoTrackError/storeFileReplaced(path:lostEventCount:)``. The store opens no path through a
/// symbolic link, for writing or for reading, only writes regular files of its own user and
/// only reads regular files (``AutoTrackError/storeFileRefused(path:reason:)``).
///
/// Nothing is lost silently: see ``Statistics`` for where every accepted event ends up.
///
/// ## Crashes
/// A process killed in the middle of a write leaves at most one torn line at the
/// end of the active file. Opening the store cuts it off (`ftruncate(2)`), keeps
/// every complete line, and reports the cut in ``recovery``. Every event that a
/// flush acknowledged before the crash is still there. A line that is not an event
/// anywhere else (part of a line from a failed write that could not be cut off, or damage
/// from outside) is skipped by the readers and listed by ``readContents()``.
///
/// One store per directory at a time: opening takes an exclusive lock on
/// `<baseName>.lock`, held on a descriptor of its own until the store closes or its process
/// dies, whatever fails in between. While another holder has it, opening waits up to
/// ``Configuration/maximumLockWait`` (2 s) for it, then throws
/// ``AutoTrackError/storeLocked(lockPath:waited:)``. Every descriptor the store opens is
/// close-on-exec, so a program the process starts never keeps the lock once it runs. A store
/// on a read-only volume cannot be opened (the error carries `EROFS`); read it with
/// ``readEvents(configuration:)``, which needs no write access and takes no lock.
///
/// ```swift
/// let store = try JSONLinesStore(configuration: .init(directory: url))
/// try store.send(event)
/// let ack = try store.flush()          // ack.acknowledgedCount == 1
/// let events = try store.readAll()     // [event]
/// ```
public final class JSONLinesStore: EventSink {
  struct State {
    var isClosed = false
    /// The active file; `nil` while the store is closed or after its file vanished and could not be opened again.
    var file: PosixFile?
    var fileIdentity: FileIdentity?
    var lock: PosixFile?
    var fileSize = 0
    /// A failed write left part of a line after `fileSize`, and cutting it off failed too.
    var tailNeedsRepair = false
    var nextArchiveNumber = 1
    /// Encoded lines; the first `bufferHead` bytes are already written.
    var buffer: [UInt8] = []
    var bufferHead = 0
    /// The end offset in `buffer` of each line; the first `lineHead` lines are already written.
    var lineEnds: [Int] = []
    var lineHead = 0
    var firstBufferedAt: Duration?
    var lastWrittenID: String?
    var lastAcknowledgedID: String?
    /// The lines written since the store opened, lost ones included: the n-th line written has
    /// serial n - 1. Flushes acknowledge by serial, so that two of them, or a flush and the
    /// sends that write while it syncs outside the lock, never count a line twice.
    var writtenSerial = 0
    /// Every line with a smaller serial is acknowledged or counted lost.
    var acknowledgedSerial = 0
    /// The serial of the active file's first line written by this store.
    var activeFileStart = 0
    /// Lines counted lost that no flush has passed yet; a flush does not acknowledge them.
    var lostLines: [Range<Int>] = []
    var nextRotatedFileID = 0
    /// Files rotated out since the last flush, oldest first. That flush checks that each is still
    /// at its archive path and syncs it (with the directory) before it acknowledges their lines,
    /// so a rotation on the send path renames and does not wait for the disk.
    var rotatedUnsynced: [RotatedFile] = []
    var directoryNeedsSync = false
    /// `fsync` calls on event files and the directory, for tests of which path pays for them.
    var syncCallCount = 0
    var lastWriteError: AutoTrackError?
    var consecutiveWriteFailures = 0
    var nextWriteAttemptAt: Duration?
    /// A replaced file found by an automatic write: the next ``flush()`` throws it.
    var unreportedReplacement: AutoTrackError?
    /// Calls of ``JSONLinesStore/removeAll()``: a read outside the lock starts again when it changed.
    var removeAllCount = 0
    var statistics = Statistics()
    let encoder = EventLineEncoder()
    let faults: FileFaults?
  }

  /// The store's configuration.
  public let configuration: Configuration
  /// What opening the store found: the torn line it cut off, if any.
  public let recovery: Recovery
  let clock: ElapsedClock
  let state: SanitizerVisibleMutex<State>
  let directoryPath: String

  /// Opens the store in `configuration.directory`, repairing a torn last line.
  ///
  /// - Parameters:
  ///   - configuration: Where and how to write.
  ///   - clock: The clock for the time-based flush and the write retry delays; `ContinuousClock` by default.
  /// - Throws: ``AutoTrackError/invalidConfiguration(parameter:reason:)`` for bad
  ///   settings, ``AutoTrackError/fileOperationFailed(operation:path:errno:)`` when the
  ///   directory or files cannot be opened (`EROFS` on a read-only volume: use
  ///   ``readEvents(configuration:)`` there), ``AutoTrackError/storeLocked(lockPath:waited:)`` when
  ///   another store kept the directory's lock for all of ``Configuration/maximumLockWait``, or
  ///   ``AutoTrackError/storeFileRefused(path:reason:)`` for a file the store may not write.
  public init(
    configuration: Configuration, clock: some Clock<Duration> = ContinuousClock()
  ) throws(AutoTrackError) {
    try configuration.validate()
    self.configuration = configuration
    self.clock = ElapsedClock(clock)
    let directoryPath = configuration.directory.path
    self.directoryPath = directoryPath
    var initial = State(faults: configuration.fileFaults)
    let torn = try initial.open(configuration, repairing: true, lockWait: configuration.maximumLockWait)
    recovery = Recovery(tornLinesDropped: torn > 0 ? 1 : 0, tornBytesDropped: torn)
    state = SanitizerVisibleMutex(initial)
  }

  deinit {
    state.withLock { state in state.shutDown(configuration, writingFirst: true) }
  }

  // MARK: Sending and flushing

  /// Encodes `event` into the write buffer, writing the buffer when the flush policy says so.
  ///
  /// Returns without waiting for more than one bounded write: at most
  /// ``Configuration/maximumBytesPerAutomaticWrite`` bytes, and none while a failed write's retry
  /// delay runs. A failed automatic write keeps the events buffered, counts
  /// ``Statistics/writeFailureCount`` and is retried later (and thrown by the next ``flush()``).
  ///
  /// An event that returns normally is accepted: it ends up written, or counted (see ``Statistics``).
  ///
  /// - Parameter event: The event to store.
  /// - Throws: ``AutoTrackError/eventEncodingFailed(eventID:reason:)`` for a NaN or infinite
  ///   property, ``AutoTrackError/storeBufferFull(path:limit:)`` while the buffer is full, or
  ///   ``AutoTrackError/sinkClosed(path:)`` after ``close()``. A refused event is counted in the
  ///   matching `dropped…` statistic and nothing of it is kept.
  public func send(_ event: TrackedEvent) throws(AutoTrackError) {
    let refusal = EventLineEncoder.refusal(of: event)
    let now = clock.now()
    try state.withLock { (state: inout State) throws(AutoTrackError) in
      guard !state.isClosed else {
        state.statistics.droppedAfterCloseCount += 1
        throw .sinkClosed(path: directoryPath)
      }
      if let refusal {
        state.statistics.droppedUnencodableCount += 1
        throw refusal
      }
      if state.bufferedBytes >= configuration.maximumBufferedBytes {
        // A full buffer still retries on schedule, so sends alone bring the store back once the disk recovers.
        state.writeAutomatically(configuration, now: now)
        // On a healthy disk only an event larger than a write slice fills it: go on writing until
        // there is room, so that a full buffer means a failing disk and nothing else.
        while state.bufferedBytes >= configuration.maximumBufferedBytes, state.lastWriteError == nil {
          let before = state.bufferedBytes
          state.writeAutomatically(configuration, now: now)
          if state.bufferedBytes == before { break }
        }
      }
      guard state.bufferedBytes < configuration.maximumBufferedBytes else {
        state.statistics.droppedOverCapacityCount += 1
        throw .storeBufferFull(path: directoryPath, limit: configuration.maximumBufferedBytes)
      }
      state.append(event, configuration)
      let firstBufferedAt = state.firstBufferedAt ?? now
      state.firstBufferedAt = firstBufferedAt
      if state.bufferedLineCount >= configuration.flushEveryEvents
        || now - firstBufferedAt >= configuration.flushInterval
      {
        state.writeAutomatically(configuration, now: now)
      }
    }
  }

  /// Writes part of the buffer when its oldest event has waited ``Configuration/flushInterval``.
  ///
  /// Call it from a timer, or let ``runAutomaticFlushing()`` do so. Does not sync, writes at most
  /// ``Configuration/maximumBytesPerAutomaticWrite`` bytes, and does nothing while a failed write's
  /// retry delay runs.
  public func flushIfDue() {
    let now = clock.now()
    state.withLock { state in
      guard !state.isClosed, let first = state.firstBufferedAt, now - first >= configuration.flushInterval else {
        return
      }
      state.writeAutomatically(configuration, now: now)
    }
  }

  /// Writes the buffer and, with ``Configuration/syncOnFlush``, syncs the file.
  ///
  /// When it returns, every event sent before the call is in the file and survives
  /// the process being killed (and, when synced, the machine losing power). It tries at once,
  /// whatever the retry delay of failed automatic writes.
  ///
  /// - Returns: How many events are acknowledged in total, and the id of the last.
  /// - Throws: ``AutoTrackError/fileOperationFailed(operation:path:errno:)`` when writing
  ///   or syncing fails (the unwritten events stay buffered),
  ///   ``AutoTrackError/storeFileReplaced(path:lostEventCount:)`` when the file is no longer
  ///   the one at its path (nothing more is acknowledged), or
  ///   ``AutoTrackError/sinkClosed(path:)`` after ``close()``.
  @discardableResult
  public func flush() throws(AutoTrackError) -> FlushAcknowledgement {
    // The syncs run outside the lock, so that sends (and their automatic writes) go on meanwhile.
    let plan = try state.withLock { (state: inout State) throws(AutoTrackError) -> SyncPlan in
      guard !state.isClosed else { throw .sinkClosed(path: directoryPath) }
      return try state.planFlush(configuration, now: clock.now())
    }
    let failure = plan.perform()
    return try state.withLock { (state: inout State) throws(AutoTrackError) -> FlushAcknowledgement in
      guard !state.isClosed else { throw .sinkClosed(path: directoryPath) }
      return try state.finishFlush(plan, failure: failure, configuration, now: clock.now())
    }
  }

  /// Writes due buffers on the store's clock until the calling task is cancelled.
  ///
  /// Waits for the oldest buffered event to be ``Configuration/flushInterval`` old, or for the
  /// retry delay of a failed write to end, whichever is later.
  ///
  /// ```swift
  /// let flusher = Task { await store.runAutomaticFlushing() }
  /// // …
  /// flusher.cancel()
  /// ```
  public func runAutomaticFlushing() async {
    while !Task.isCancelled {
      let (first, retryAt) = state.withLock { ($0.firstBufferedAt, $0.nextWriteAttemptAt) }
      var deadline = (first ?? clock.now()) + configuration.flushInterval
      if let retryAt, retryAt > deadline { deadline = retryAt }
      do { try await clock.sleepUntil(deadline) } catch { return }
      flushIfDue()
      await Task.yield()
    }
  }

  /// Flushes, then closes the files, in one step: no ``send(_:)`` can slip in between.
  ///
  /// A send that comes before the close is written by its final flush (or, when that flush fails,
  /// counted in ``Statistics/droppedUnwrittenAtCloseCount``); a send that comes after throws
  /// ``AutoTrackError/sinkClosed(path:)`` and is counted in ``Statistics/droppedAfterCloseCount``.
  /// Closing a closed store does nothing.
  ///
  /// - Throws: The error of the final flush; the files are closed either way.
  public func close() throws(AutoTrackError) {
    let now = clock.now()
    try state.withLock { (state: inout State) throws(AutoTrackError) in
      guard !state.isClosed else { return }
      defer { state.shutDown(configuration) }
      do throws(AutoTrackError) {
        _ = try state.flush(configuration, now: now)
      } catch {
        // A replacement found now leaves a new file open at the path: the events still buffered get
        // their write there. Whatever that cannot write is counted by the shutdown.
        if case .storeFileReplaced = error { _ = try? state.flush(configuration, now: now) }
        throw error
      }
    }
  }

  /// The store's counters.
  public var statistics: Statistics {
    state.withLock { state in
      var statistics = state.statistics
      statistics.bufferedCount = state.bufferedLineCount
      statistics.bufferedBytes = state.bufferedBytes
      return statistics
    }
  }

  /// The error of the most recent failed automatic write, or `nil` when the last write succeeded.
  public var lastWriteError: AutoTrackError? {
    state.withLock { $0.lastWriteError }
  }

  // MARK: Files and clearing

  /// The paths of the store's files, rotated ones first, then the active file.
  public var filePaths: [String] {
    let numbers = (try? JSONLinesStore.archiveNumbers(directoryPath, configuration.baseName)) ?? []
    return numbers.map { JSONLinesStore.archivePath(directoryPath, configuration.baseName, $0) }
      + [JSONLinesStore.activePath(directoryPath, configuration.baseName)]
  }

  /// Deletes every stored and buffered event: rotated files are removed and the active file emptied.
  ///
  /// Buffered events deleted before they were written are counted in ``Statistics/removedUnwrittenCount``.
  ///
  /// - Throws: A file error; what was removed before it stays removed.
  public func removeAll() throws(AutoTrackError) {
    try state.withLock { (state: inout State) throws(AutoTrackError) in
      guard !state.isClosed else { throw .sinkClosed(path: directoryPath) }
      state.removeAllCount += 1
      state.statistics.removedUnwrittenCount += state.bufferedLineCount
      state.clearBuffer()
      if state.file == nil { try state.reopen(configuration) }
      guard let file = state.file else { throw .sinkClosed(path: directoryPath) }
      for number in try JSONLinesStore.archiveNumbers(directoryPath, configuration.baseName) {
        try PosixFile.remove(JSONLinesStore.archivePath(directoryPath, configuration.baseName, number))
      }
      // Removed on purpose: nothing of them is left to check or sync.
      state.rotatedUnsynced.removeAll()
      try file.truncate(to: 0)
      state.fileSize = 0
      state.activeFileStart = state.writtenSerial
      if configuration.syncOnFlush { try file.sync() }
    }
  }
}
