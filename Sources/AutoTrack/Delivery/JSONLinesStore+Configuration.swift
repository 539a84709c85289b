import Foundation

extension JSONLinesStore {
  /// Where and how the store writes.
  public struct Configuration: Sendable {
    /// The directory that holds the store's files; created when missing.
    public var directory: URL
    /// The file name stem: the active file is `<baseName>.jsonl`.
    public var baseName: String
    /// Write the buffer once it holds this many events.
    public var flushEveryEvents: Int
    /// Write the buffer once its oldest event is this old.
    public var flushInterval: Duration
    /// Rotate the active file when it would grow past this many bytes.
    public var maximumFileBytes: Int
    /// Keep at most this many rotated files, deleting the oldest (their events are
    /// counted in ``Statistics/eventsRemovedByRetention``); `nil` keeps them all.
    ///
    /// Only files whose events a flush acknowledged are deleted, at a rotation: the files rotated
    /// out since the last flush are kept, even past this limit, so that no event is deleted
    /// before it was acknowledged where it can be read.
    public var maximumArchivedFiles: Int?
    /// Whether ``flush()`` and rotation call `fsync(2)` after writing.
    public var syncOnFlush: Bool
    /// The most bytes of encoded events the write buffer holds while writes fail; 4 MiB by default.
    ///
    /// Once the buffer holds this many bytes while writes fail, ``send(_:)`` refuses new events with
    /// ``AutoTrackError/storeBufferFull(path:limit:)`` and counts them in
    /// ``Statistics/droppedOverCapacityCount``: the newest event is the one dropped, so what is
    /// buffered stays a gap-free continuation of the file and refusing costs no copying. The
    /// event that crosses the limit is still taken, so the buffer exceeds it by at most one line
    /// (plus 8 bytes of bookkeeping per buffered event).
    public var maximumBufferedBytes: Int
    /// The wait before the first retry of a failed automatic write; doubled after each further
    /// failure up to ``maximumWriteRetryDelay``. 100 ms by default.
    public var writeRetryDelay: Duration
    /// The longest wait between two automatic write attempts while writes keep failing; 30 s by default.
    public var maximumWriteRetryDelay: Duration
    /// The most bytes one ``send(_:)`` or ``flushIfDue()`` writes; the rest of a backlog waits for
    /// the next one. 512 KiB by default; ``flush()`` and ``close()`` write everything.
    public var maximumBytesPerAutomaticWrite: Int
    /// How long opening the store waits for the directory's lock while another holder has it; 2 s by default.
    ///
    /// The lock is held by another store on the same directory, in this process or another, and
    /// for a moment after such a store closes by any child process started while it was open: a
    /// child gets a copy of every descriptor, and holds the lock until it closes its copy, which
    /// for the store's close-on-exec descriptors is when it executes its program. The wait covers
    /// that moment; a store that stays open past it is reported with
    /// ``AutoTrackError/storeLocked(lockPath:waited:)``. The store measures the wait itself on
    /// `ContinuousClock` (not on the clock given to the store), trying again after 1 ms, then
    /// after pauses that double up to 50 ms. The wait blocks the opening thread: from an `async`
    /// context on the shared pool, keep it short or open the store on a thread of its own.
    /// `.zero` tries once.
    public var maximumLockWait: Duration
    /// The most bytes one `write(2)` carries; `nil` for no limit. The kill test sets it
    /// to make torn lines likely.
    package var writeChunkLimit: Int?
    /// Faults the tests inject into the store's file calls; `nil` outside tests.
    package var fileFaults: FileFaults?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - directory: The store's directory.
    ///   - baseName: The file name stem; `"events"` by default.
    ///   - flushEveryEvents: The event count that triggers a write; 512 by default.
    ///   - flushInterval: The buffer age that triggers a write; 250 ms by default.
    ///   - maximumFileBytes: The rotation size; 8 MiB by default.
    ///   - maximumArchivedFiles: How many rotated files to keep; all by default.
    ///   - syncOnFlush: Whether flushes call `fsync(2)`; `true` by default.
    ///   - maximumBufferedBytes: The write buffer's capacity; 4 MiB by default.
    ///   - writeRetryDelay: The first retry delay after a failed automatic write; 100 ms by default.
    ///   - maximumWriteRetryDelay: The longest retry delay; 30 s by default.
    ///   - maximumBytesPerAutomaticWrite: The most bytes an automatic write carries; 512 KiB by default.
    ///   - maximumLockWait: How long opening waits for a lock another holder has; 2 s by default.
    public init(
      directory: URL,
      baseName: String = "events",
      flushEveryEvents: Int = 512,
      flushInterval: Duration = .milliseconds(250),
      maximumFileBytes: Int = 8 << 20,
      maximumArchivedFiles: Int? = nil,
      syncOnFlush: Bool = true,
      maximumBufferedBytes: Int = 4 << 20,
      writeRetryDelay: Duration = .milliseconds(100),
      maximumWriteRetryDelay: Duration = .seconds(30),
      maximumBytesPerAutomaticWrite: Int = 512 << 10,
      maximumLockWait: Duration = .seconds(2)
    ) {
      self.directory = directory
      self.baseName = baseName
      self.flushEveryEvents = flushEveryEvents
      self.flushInterval = flushInterval
      self.maximumFileBytes = maximumFileBytes
      self.maximumArchivedFiles = maximumArchivedFiles
      self.syncOnFlush = syncOnFlush
      self.maximumBufferedBytes = maximumBufferedBytes
      self.writeRetryDelay = writeRetryDelay
      self.maximumWriteRetryDelay = maximumWriteRetryDelay
      self.maximumBytesPerAutomaticWrite = maximumBytesPerAutomaticWrite
      self.maximumLockWait = maximumLockWait
    }

    func validate() throws(AutoTrackError) {
      guard !baseName.isEmpty, !baseName.contains("/") else {
        throw .invalidConfiguration(parameter: "baseName", reason: "must be a non-empty file name without '/'")
      }
      guard flushEveryEvents >= 1 else {
        throw .invalidConfiguration(parameter: "flushEveryEvents", reason: "must be at least 1")
      }
      guard flushInterval >= .zero else {
        throw .invalidConfiguration(parameter: "flushInterval", reason: "must not be negative")
      }
      guard maximumFileBytes >= 1 else {
        throw .invalidConfiguration(parameter: "maximumFileBytes", reason: "must be at least 1")
      }
      if let maximumArchivedFiles, maximumArchivedFiles < 0 {
        throw .invalidConfiguration(parameter: "maximumArchivedFiles", reason: "must not be negative")
      }
      guard maximumBufferedBytes >= 1 else {
        throw .invalidConfiguration(parameter: "maximumBufferedBytes", reason: "must be at least 1")
      }
      guard writeRetryDelay > .zero, maximumWriteRetryDelay >= writeRetryDelay else {
        throw .invalidConfiguration(
          parameter: "writeRetryDelay", reason: "must be positive and at most maximumWriteRetryDelay")
      }
      guard maximumBytesPerAutomaticWrite >= 1 else {
        throw .invalidConfiguration(parameter: "maximumBytesPerAutomaticWrite", reason: "must be at least 1")
      }
      guard maximumLockWait >= .zero else {
        throw .invalidConfiguration(parameter: "maximumLockWait", reason: "must not be negative")
      }
      if let writeChunkLimit, writeChunkLimit < 1 {
        throw .invalidConfiguration(parameter: "writeChunkLimit", reason: "must be at least 1")
      }
    }
  }

  /// What opening the store found and repaired.
  public struct Recovery: Sendable, Hashable {
    /// 1 when the active file ended in a torn line that was cut off, else 0.
    public var tornLinesDropped: Int
    /// The number of bytes cut off with the torn line.
    public var tornBytesDropped: Int
  }

  /// Counters since the store was opened.
  ///
  /// Every event ``send(_:)`` accepted is in exactly one place:
  /// `sentCount == writtenCount + bufferedCount + droppedUnwrittenAtCloseCount + removedUnwrittenCount`.
  /// Of the written ones, `lostWithReplacedFileCount` went into a file that was removed or
  /// replaced before a flush acknowledged them. Refused sends (they threw) are counted in the
  /// `dropped…` counters named for their reason and are not part of `sentCount`.
  public struct Statistics: Sendable, Hashable {
    /// Events accepted by ``send(_:)`` (it returned without throwing).
    public var sentCount = 0
    /// Events written to a file with `write(2)`.
    public var writtenCount = 0
    /// Events acknowledged by a flush: written, and synced when ``Configuration/syncOnFlush`` is on.
    public var acknowledgedCount = 0
    /// Events waiting in the in-memory buffer.
    public var bufferedCount = 0
    /// Bytes of encoded events waiting in the in-memory buffer.
    public var bufferedBytes = 0
    /// Events refused because a property holds a NaN or infinite `Double`, which JSON cannot hold.
    public var droppedUnencodableCount = 0
    /// Events refused because they were sent after ``close()``.
    public var droppedAfterCloseCount = 0
    /// Events refused because the buffer held ``Configuration/maximumBufferedBytes``.
    public var droppedOverCapacityCount = 0
    /// Accepted events still buffered when ``close()`` (or `deinit`) could not write them, even to a
    /// new file after finding the active one replaced.
    public var droppedUnwrittenAtCloseCount = 0
    /// Accepted events deleted from the buffer by ``removeAll()`` before they were written.
    public var removedUnwrittenCount = 0
    /// Written events whose file was removed or replaced before a flush acknowledged them.
    public var lostWithReplacedFileCount = 0
    /// Automatic writes that failed; the events stay buffered and are retried after a delay.
    public var writeFailureCount = 0
    /// Rotations of the active file.
    public var rotationCount = 0
    /// Lines deleted with rotated files beyond ``Configuration/maximumArchivedFiles``; all were
    /// acknowledged first.
    public var eventsRemovedByRetention = 0
  }
}
