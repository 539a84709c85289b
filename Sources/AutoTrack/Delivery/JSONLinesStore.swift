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
/// the file with one `write(2)` when it holds ``Configuration/flushEveryEvents``
/// events, or when its oldest event is ``Configuration/flushInterval`` old (checked
/// on every send, by ``flushIfDue()`` and by ``runAutomaticFlushing()``).
/// ``flush()`` writes the buffer at once and, with ``Configuration/syncOnFlush``,
/// calls `fsync(2)`; its ``FlushAcknowledgement`` says how many events are now
/// durable.
///
/// ## Crashes
/// A process killed in the middle of a write leaves at most one torn line at the
/// end of the active file. Opening the store cuts it off (`ftruncate(2)`), keeps
/// every complete line, and reports the cut in ``recovery``. Every event that a
/// flush acknowledged before the crash is still there.
///
/// One store per directory at a time: opening takes an exclusive lock on
/// `<baseName>.lock`, released when the store closes or its process dies.
///
/// ```swift
/// let store = try JSONLinesStore(configuration: .init(directory: url))
/// store.send(event)
/// let ack = try store.flush()          // ack.acknowledgedCount == 1
/// let events = try store.readAll()     // [event]
/// ```
public final class JSONLinesStore: EventSink {
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
    public var maximumArchivedFiles: Int?
    /// Whether ``flush()`` and rotation call `fsync(2)` after writing.
    public var syncOnFlush: Bool
    /// The most bytes one `write(2)` carries; `nil` for no limit. The kill test sets it
    /// to make torn lines likely.
    package var writeChunkLimit: Int?

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
    public init(
      directory: URL,
      baseName: String = "events",
      flushEveryEvents: Int = 512,
      flushInterval: Duration = .milliseconds(250),
      maximumFileBytes: Int = 8 << 20,
      maximumArchivedFiles: Int? = nil,
      syncOnFlush: Bool = true
    ) {
      self.directory = directory
      self.baseName = baseName
      self.flushEveryEvents = flushEveryEvents
      self.flushInterval = flushInterval
      self.maximumFileBytes = maximumFileBytes
      self.maximumArchivedFiles = maximumArchivedFiles
      self.syncOnFlush = syncOnFlush
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
  public struct Statistics: Sendable, Hashable {
    /// Events passed to ``send(_:)``.
    public var sentCount = 0
    /// Events written to a file with `write(2)`.
    public var writtenCount = 0
    /// Events acknowledged by a flush: written, and synced when ``Configuration/syncOnFlush`` is on.
    public var acknowledgedCount = 0
    /// Events waiting in the in-memory buffer.
    public var bufferedCount = 0
    /// Events dropped because they could not be encoded as JSON.
    public var droppedUnencodableCount = 0
    /// Events dropped because they were sent after ``close()``.
    public var droppedAfterCloseCount = 0
    /// Automatic writes that failed; the events stay buffered and the next flush retries.
    public var writeFailureCount = 0
    /// Rotations of the active file.
    public var rotationCount = 0
    /// Events deleted with rotated files beyond ``Configuration/maximumArchivedFiles``.
    public var eventsRemovedByRetention = 0
  }

  fileprivate struct State {
    var file: PosixFile?
    var lock: PosixFile?
    var fileSize: Int
    var nextArchiveNumber: Int
    var buffer: [UInt8] = []
    var lineEnds: [Int] = []
    var bufferedIDs: [String] = []
    var firstBufferedAt: Duration?
    var lastWrittenID: String?
    var lastAcknowledgedID: String?
    var lastWriteError: AutoTrackError?
    var statistics = Statistics()
    let encoder = EventLineEncoder()
  }

  /// The store's configuration.
  public let configuration: Configuration
  /// What opening the store found: the torn line it cut off, if any.
  public let recovery: Recovery
  private let clock: ElapsedClock
  private let state: SanitizerVisibleMutex<State>
  private let directoryPath: String

  /// Opens the store in `configuration.directory`, repairing a torn last line.
  ///
  /// - Parameters:
  ///   - configuration: Where and how to write.
  ///   - clock: The clock for the time-based flush; `ContinuousClock` by default.
  /// - Throws: ``AutoTrackError/invalidConfiguration(parameter:reason:)`` for bad
  ///   settings, ``AutoTrackError/fileOperationFailed(operation:path:errno:)`` when the
  ///   directory or files cannot be opened, or the directory is in use by another store.
  public init(
    configuration: Configuration, clock: some Clock<Duration> = ContinuousClock()
  ) throws(AutoTrackError) {
    try configuration.validate()
    self.configuration = configuration
    self.clock = ElapsedClock(clock)
    let directoryPath = configuration.directory.path
    self.directoryPath = directoryPath
    try PosixFile.makeDirectory(directoryPath)
    let lock = try PosixFile(appendingTo: directoryPath + "/" + configuration.baseName + ".lock")
    try lock.lockExclusively()
    let file = try PosixFile(appendingTo: JSONLinesStore.activePath(directoryPath, configuration.baseName))
    let torn = try file.cutTornTail()
    if torn > 0, configuration.syncOnFlush { try file.sync() }
    recovery = Recovery(tornLinesDropped: torn > 0 ? 1 : 0, tornBytesDropped: torn)
    let archives = try JSONLinesStore.archiveNumbers(directoryPath, configuration.baseName)
    state = SanitizerVisibleMutex(
      State(file: file, lock: lock, fileSize: try file.size(), nextArchiveNumber: (archives.last ?? 0) + 1))
  }

  deinit {
    state.withLock { state in
      try? state.writeBuffer(configuration)
      state.file?.close()
      state.lock?.close()
    }
  }

  // MARK: Sending and flushing

  /// Encodes `event` into the write buffer, writing the buffer when the flush policy says so.
  ///
  /// Never throws: an event that cannot be encoded is counted in
  /// ``Statistics/droppedUnencodableCount``; a failed automatic write keeps the events
  /// buffered, counts ``Statistics/writeFailureCount`` and is retried (and thrown) by the
  /// next ``flush()``.
  ///
  /// - Parameter event: The event to store.
  public func send(_ event: TrackedEvent) {
    let now = clock.now()
    state.withLock { state in
      guard state.file != nil else {
        state.statistics.droppedAfterCloseCount += 1
        return
      }
      state.statistics.sentCount += 1
      do {
        try state.encoder.append(event, to: &state.buffer)
      } catch {
        state.statistics.droppedUnencodableCount += 1
        return
      }
      state.buffer.append(0x0A)
      state.lineEnds.append(state.buffer.count)
      state.bufferedIDs.append(event.id)
      let firstBufferedAt = state.firstBufferedAt ?? now
      state.firstBufferedAt = firstBufferedAt
      if state.lineEnds.count >= configuration.flushEveryEvents
        || now - firstBufferedAt >= configuration.flushInterval
      {
        state.writeBufferRecordingFailure(configuration)
      }
    }
  }

  /// Writes the buffer when its oldest event has waited ``Configuration/flushInterval``.
  ///
  /// Call it from a timer, or let ``runAutomaticFlushing()`` do so. Does not sync.
  public func flushIfDue() {
    let now = clock.now()
    state.withLock { state in
      guard state.file != nil, let first = state.firstBufferedAt, now - first >= configuration.flushInterval else {
        return
      }
      state.writeBufferRecordingFailure(configuration)
    }
  }

  /// Writes the buffer and, with ``Configuration/syncOnFlush``, syncs the file.
  ///
  /// When it returns, every event sent before the call is in the file and survives
  /// the process being killed (and, when synced, the machine losing power).
  ///
  /// - Returns: How many events are acknowledged in total, and the id of the last.
  /// - Throws: ``AutoTrackError/fileOperationFailed(operation:path:errno:)`` when writing
  ///   or syncing fails (the unwritten events stay buffered), or
  ///   ``AutoTrackError/sinkClosed(path:)`` after ``close()``.
  @discardableResult
  public func flush() throws(AutoTrackError) -> FlushAcknowledgement {
    try state.withLock { (state: inout State) throws(AutoTrackError) -> FlushAcknowledgement in
      guard state.file != nil else { throw .sinkClosed(path: directoryPath) }
      try state.writeBuffer(configuration)
      if state.statistics.acknowledgedCount < state.statistics.writtenCount {
        // Rotation may have replaced the file; rotated files were synced when they were closed.
        if configuration.syncOnFlush { try state.file?.sync() }
        state.statistics.acknowledgedCount = state.statistics.writtenCount
        state.lastAcknowledgedID = state.lastWrittenID
      }
      return FlushAcknowledgement(
        acknowledgedCount: state.statistics.acknowledgedCount, lastAcknowledgedID: state.lastAcknowledgedID)
    }
  }

  /// Writes due buffers on the store's clock until the calling task is cancelled.
  ///
  /// ```swift
  /// let flusher = Task { await store.runAutomaticFlushing() }
  /// // …
  /// flusher.cancel()
  /// ```
  public func runAutomaticFlushing() async {
    while !Task.isCancelled {
      let first = state.withLock { $0.firstBufferedAt }
      let deadline = (first ?? clock.now()) + configuration.flushInterval
      do { try await clock.sleepUntil(deadline) } catch { return }
      flushIfDue()
    }
  }

  /// Flushes, then closes the files; later sends are counted as dropped.
  ///
  /// - Throws: The error of the final flush; the files are closed either way.
  public func close() throws(AutoTrackError) {
    defer {
      state.withLock { state in
        state.file?.close()
        state.file = nil
        state.lock?.close()
        state.lock = nil
      }
    }
    if state.withLock({ $0.file == nil }) { return }
    try flush()
  }

  /// The store's counters.
  public var statistics: Statistics {
    state.withLock { state in
      var statistics = state.statistics
      statistics.bufferedCount = state.lineEnds.count
      return statistics
    }
  }

  /// The error of the most recent failed automatic write, or `nil` when the last write succeeded.
  public var lastWriteError: AutoTrackError? {
    state.withLock { $0.lastWriteError }
  }

  // MARK: Reading and clearing

  /// Writes the buffer, then reads every event in the store, oldest first.
  ///
  /// - Returns: The events of the rotated files in order, then of the active file.
  /// - Throws: ``AutoTrackError/malformedLine(path:line:reason:)`` for a damaged line,
  ///   or a file error.
  public func readAll() throws(AutoTrackError) -> [TrackedEvent] {
    try state.withLock { (state: inout State) throws(AutoTrackError) -> [TrackedEvent] in
      if state.file != nil { try state.writeBuffer(configuration) }
      return try JSONLinesStore.readFiles(in: directoryPath, baseName: configuration.baseName)
    }
  }

  /// The paths of the store's files, rotated ones first, then the active file.
  public var filePaths: [String] {
    let numbers = (try? JSONLinesStore.archiveNumbers(directoryPath, configuration.baseName)) ?? []
    return numbers.map { JSONLinesStore.archivePath(directoryPath, configuration.baseName, $0) }
      + [JSONLinesStore.activePath(directoryPath, configuration.baseName)]
  }

  /// Deletes every stored and buffered event: rotated files are removed and the active file emptied.
  ///
  /// - Throws: A file error; what was removed before it stays removed.
  public func removeAll() throws(AutoTrackError) {
    try state.withLock { (state: inout State) throws(AutoTrackError) in
      guard let file = state.file else { throw .sinkClosed(path: directoryPath) }
      state.clearBuffer()
      for number in try JSONLinesStore.archiveNumbers(directoryPath, configuration.baseName) {
        try PosixFile.remove(JSONLinesStore.archivePath(directoryPath, configuration.baseName, number))
      }
      try file.truncate(to: 0)
      state.fileSize = 0
      if configuration.syncOnFlush { try file.sync() }
    }
  }

  // MARK: Files

  static func activePath(_ directory: String, _ baseName: String) -> String {
    directory + "/" + baseName + ".jsonl"
  }

  static func archivePath(_ directory: String, _ baseName: String, _ number: Int) -> String {
    let digits = String(number)
    return directory + "/" + baseName + "." + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
      + ".jsonl"
  }

  static func archiveNumbers(_ directory: String, _ baseName: String) throws(AutoTrackError) -> [Int] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory)
    } catch {
      throw .fileOperationFailed(operation: "readdir", path: directory, errno: ENOENT)
    }
    let prefix = baseName + "."
    return names.compactMap { name -> Int? in
      guard name.hasPrefix(prefix), name.hasSuffix(".jsonl") else { return nil }
      let middle = name.dropFirst(prefix.count).dropLast(".jsonl".count)
      guard !middle.isEmpty, middle.allSatisfy(\.isASCII), middle.allSatisfy(\.isNumber) else { return nil }
      return Int(middle)
    }.sorted()
  }

  static func readFiles(in directory: String, baseName: String) throws(AutoTrackError) -> [TrackedEvent] {
    let paths =
      try archiveNumbers(directory, baseName).map { archivePath(directory, baseName, $0) }
      + [activePath(directory, baseName)]
    let decoder = JSONDecoder()
    var events: [TrackedEvent] = []
    for path in paths {
      guard let data = try PosixFile.contents(of: path) else { continue }
      var lineNumber = 0
      for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
        lineNumber += 1
        if line.isEmpty { continue }
        do {
          events.append(try decoder.decode(TrackedEvent.self, from: line))
        } catch {
          throw .malformedLine(path: path, line: lineNumber, reason: String(describing: error))
        }
      }
    }
    return events
  }
}

extension JSONLinesStore.State {
  mutating func clearBuffer() {
    buffer.removeAll(keepingCapacity: true)
    lineEnds.removeAll(keepingCapacity: true)
    bufferedIDs.removeAll(keepingCapacity: true)
    firstBufferedAt = nil
  }

  mutating func writeBufferRecordingFailure(_ configuration: JSONLinesStore.Configuration) {
    do {
      try writeBuffer(configuration)
      lastWriteError = nil
    } catch {
      statistics.writeFailureCount += 1
      lastWriteError = error
    }
  }

  /// Writes the buffered lines, rotating at line boundaries; on failure the unwritten lines stay buffered.
  mutating func writeBuffer(_ configuration: JSONLinesStore.Configuration) throws(AutoTrackError) {
    guard !lineEnds.isEmpty, file != nil else { return }
    var writtenLines = 0
    var writtenBytes = 0
    defer {
      if writtenLines == lineEnds.count {
        clearBuffer()
      } else if writtenLines > 0 {
        buffer.removeFirst(writtenBytes)
        lineEnds.removeFirst(writtenLines)
        for index in lineEnds.indices { lineEnds[index] -= writtenBytes }
        bufferedIDs.removeFirst(writtenLines)
      }
    }
    let limit = configuration.maximumFileBytes
    while writtenLines < lineEnds.count {
      // Take as many whole lines as fit; an empty file takes at least one.
      var end = writtenLines
      while end < lineEnds.count {
        let bytes = lineEnds[end] - writtenBytes
        if fileSize + bytes > limit && (fileSize > 0 || end > writtenLines) { break }
        end += 1
      }
      if end == writtenLines {
        try rotate(configuration)
        continue
      }
      let chunkEnd = lineEnds[end - 1]
      guard let file else { throw .sinkClosed(path: configuration.directory.path) }
      do {
        try file.writeAll(buffer[writtenBytes..<chunkEnd], chunkLimit: configuration.writeChunkLimit)
      } catch {
        // Never leave half a line behind: later lines would follow it on the same line.
        try? file.truncate(to: fileSize)
        throw error
      }
      fileSize += chunkEnd - writtenBytes
      statistics.writtenCount += end - writtenLines
      lastWrittenID = bufferedIDs[end - 1]
      writtenBytes = chunkEnd
      writtenLines = end
      if fileSize >= limit { try rotate(configuration) }
    }
  }

  /// Renames the active file to the next archive number and starts a new one.
  mutating func rotate(_ configuration: JSONLinesStore.Configuration) throws(AutoTrackError) {
    guard let current = file, fileSize > 0 else { return }
    let directory = configuration.directory.path
    let baseName = configuration.baseName
    if configuration.syncOnFlush { try current.sync() }
    try PosixFile.rename(
      current.path, to: JSONLinesStore.archivePath(directory, baseName, nextArchiveNumber))
    nextArchiveNumber += 1
    current.close()
    file = nil
    let fresh = try PosixFile(appendingTo: JSONLinesStore.activePath(directory, baseName))
    file = fresh
    fileSize = 0
    if configuration.syncOnFlush { try PosixFile.syncDirectory(directory) }
    statistics.rotationCount += 1
    // Everything written so far sits in synced (or at least written) files now.
    if let keep = configuration.maximumArchivedFiles {
      var numbers = try JSONLinesStore.archiveNumbers(directory, baseName)
      while numbers.count > keep {
        let path = JSONLinesStore.archivePath(directory, baseName, numbers.removeFirst())
        let lines = (try PosixFile.contents(of: path))?.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } ?? 0
        try PosixFile.remove(path)
        statistics.eventsRemovedByRetention += lines
      }
    }
  }
}
