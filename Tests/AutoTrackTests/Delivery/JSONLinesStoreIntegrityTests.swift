import AutoTrackTesting
import Foundation
import Testing

@testable import AutoTrack

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file outside the store, ending in a line without a newline that a tail repair would cut.
private struct OutsideFile {
  let directory: TemporaryDirectory
  let url: URL
  let contents = Data("first line\nlast line without newline".utf8)

  init() throws {
    directory = try TemporaryDirectory()
    url = directory.url.appendingPathComponent("precious.txt")
    try contents.write(to: url)
  }
}

/// What the store acknowledges is where it can be read: files replaced behind its back, retention,
/// `close()` after a replacement, symbolic links at its paths, and its lock through failures.
@Suite struct JSONLinesStoreIntegrityTests {
  private func configuration(
    _ directory: URL, flushEvery: Int = 10_000, maximumFileBytes: Int = 1 << 20, archives: Int? = nil,
    faults: FileFaults? = nil
  ) -> JSONLinesStore.Configuration {
    var configuration = JSONLinesStore.Configuration(
      directory: directory, flushEveryEvents: flushEvery, flushInterval: .seconds(3600),
      maximumFileBytes: maximumFileBytes, maximumArchivedFiles: archives)
    configuration.fileFaults = faults
    return configuration
  }

  /// An archive deleted and made again before the flush, with as many bytes as the store wrote,
  /// is not the store's file: its lines are counted lost, not acknowledged. The new file gets a
  /// fresh inode because the store holds the rotated file open until the flush; a store that
  /// closed it at the rotation saw the freed inode number handed to the new file.
  @Test func anArchiveDeletedAndMadeAgainIsNotTakenForTheStoresFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try JSONLinesStore(
      configuration: configuration(directory.url, flushEvery: 10, maximumFileBytes: 4_096), clock: ManualClock())
    defer { try? store.close() }
    for event in makeEvents(100) { try store.send(event) }
    let archive = try #require(store.filePaths.first)
    let original = try Data(contentsOf: URL(fileURLWithPath: archive))
    let lines = original.filter { $0 == 0x0A }.count
    let inodeBefore = try #require(try PosixFile.identity(at: archive)).inode
    try FileManager.default.removeItem(atPath: archive)
    // Same size, other content: nothing of the store's events is in it.
    try Data(repeating: UInt8(ascii: "x"), count: original.count).write(to: URL(fileURLWithPath: archive))
    let inodeAfter = try #require(try PosixFile.identity(at: archive)).inode
    #expect(inodeAfter != inodeBefore, "the held file keeps its inode number from being reused")

    #expect(throws: AutoTrackError.storeFileReplaced(path: archive, lostEventCount: lines)) { try store.flush() }
    let acknowledged = try store.flush().acknowledgedCount
    #expect(acknowledged == 100 - lines)
    #expect(store.statistics.lostWithReplacedFileCount == lines)
    #expect(try store.readAll().count == acknowledged, "every acknowledged event reads back")
  }

  /// Retention never deletes what no flush acknowledged: the archives rotated out since the last
  /// flush stay, past the limit, and the flush acknowledges exactly what can be read. Archives a
  /// flush acknowledged are deleted by the next rotation, and counted.
  @Test func retentionKeepsArchivesUntilAFlushAcknowledgedThem() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try JSONLinesStore(
      configuration: configuration(directory.url, flushEvery: 1, maximumFileBytes: 2_000, archives: 1),
      clock: ManualClock())
    defer { try? store.close() }
    let events = makeEvents(120)
    for event in events.prefix(60) { try store.send(event) }
    #expect(store.statistics.rotationCount > 2)
    #expect(store.statistics.eventsRemovedByRetention == 0, "nothing was acknowledged yet")
    let acknowledgement = try store.flush()
    #expect(acknowledgement.acknowledgedCount == 60)
    #expect(try store.readAll() == Array(events.prefix(60)), "every acknowledged event reads back")

    for event in events.suffix(60) { try store.send(event) }
    let total = try store.flush().acknowledgedCount
    let kept = try store.readAll()
    let removed = store.statistics.eventsRemovedByRetention
    #expect(removed > 0, "acknowledged archives past the limit went at the next rotation")
    #expect(total == 120 && kept.count + removed == 120)
    #expect(kept == Array(events.suffix(kept.count)), "the oldest went first")
  }

  /// `close()` after the store found its file replaced writes the events it still buffers to the
  /// new file before it closes, and reports the replacement.
  @Test func closeAfterAReplacementStillWritesTheBufferedEvents() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let events = makeEvents(25)
    do {
      let store = try JSONLinesStore(configuration: configuration(directory.url, flushEvery: 5), clock: ManualClock())
      for event in events.prefix(10) { try store.send(event) }
      try store.flush()
      let foreign = directory.url.appendingPathComponent("other")
      try Data().write(to: foreign)
      #expect(rename(foreign.path, directory.url.appendingPathComponent("events.jsonl").path) == 0)
      for event in events.suffix(15) { try store.send(event) }
      #expect(store.statistics.bufferedCount == 15, "the automatic write found the file replaced")
      #expect {
        try store.close()
      } throws: { error in
        guard case .storeFileReplaced = error as? AutoTrackError else { return false }
        return true
      }
      #expect(store.statistics.droppedUnwrittenAtCloseCount == 0)
      #expect(store.statistics.writtenCount == 25)
    }
    #expect(try JSONLinesStore.readEvents(configuration: configuration(directory.url)) == Array(events.suffix(15)))
  }

  /// A symbolic link at the active file's or the lock file's path is refused by name, and the
  /// file it points to is neither cut nor written to; a directory there is refused too.
  @Test(arguments: ["events.jsonl", "events.lock"])
  func aSymbolicLinkAtAStorePathIsRefusedAndLeftAlone(name: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let outside = try OutsideFile()
    defer { outside.directory.remove() }
    let (target, precious) = (outside.url, outside.contents)
    let path = directory.url.appendingPathComponent(name).path
    #expect(symlink(target.path, path) == 0)
    #expect(throws: AutoTrackError.storeFileRefused(path: path, reason: "it is a symbolic link")) {
      _ = try JSONLinesStore(configuration: configuration(directory.url))
    }
    #expect(try Data(contentsOf: target) == precious)
    try FileManager.default.removeItem(atPath: path)
    #expect(mkfifo(path, 0o600) == 0)
    #expect(throws: AutoTrackError.storeFileRefused(path: path, reason: "it is not a regular file")) {
      _ = try JSONLinesStore(configuration: configuration(directory.url))
    }
  }

  /// A symbolic link put at the active path while the store is open is never followed: the flush
  /// reports the file replaced, the events stay buffered, and the linked file is untouched.
  @Test func aSymbolicLinkPutAtTheActivePathLaterIsNeverFollowed() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let outside = try OutsideFile()
    defer { outside.directory.remove() }
    let (target, precious) = (outside.url, outside.contents)
    let store = try JSONLinesStore(configuration: configuration(directory.url, flushEvery: 5), clock: ManualClock())
    defer { try? store.close() }
    let active = directory.url.appendingPathComponent("events.jsonl").path
    try FileManager.default.removeItem(atPath: active)
    #expect(symlink(target.path, active) == 0)
    for event in makeEvents(35) { try store.send(event) }
    #expect(throws: (any Error).self) { try store.flush() }
    #expect(throws: AutoTrackError.storeFileRefused(path: active, reason: "it is a symbolic link")) {
      try store.flush()
    }
    #expect(try Data(contentsOf: target) == precious, "nothing cut, nothing appended")
    #expect(store.statistics.bufferedCount == 35, "the events wait for a file the store may write")
  }

  /// The lock is held for the store's whole life: a rotation that cannot create the new active
  /// file (no inodes left) and the retries after it do not let a second store open the directory.
  @Test func aFailedRotationKeepsTheDirectoryLocked() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let faults = FileFaults()
    let store = try JSONLinesStore(
      configuration: configuration(directory.url, flushEvery: 5, maximumFileBytes: 2_000, faults: faults),
      clock: ManualClock())
    defer { try? store.close() }
    faults.failOpens(ofPathsEndingIn: "/events.jsonl", 2, errno: ENOSPC)
    let events = makeEvents(40)
    for event in events { try store.send(event) }
    #expect(store.statistics.writeFailureCount >= 1, "the rotation could not open a new active file")
    #expect(throws: (any Error).self) { try store.flush() }
    var second = configuration(directory.url)
    second.maximumLockWait = .zero
    #expect {
      _ = try JSONLinesStore(configuration: second)
    } throws: { error in
      guard case .storeLocked(let lockPath, _) = error as? AutoTrackError else { return false }
      return lockPath == directory.url.path + "/events.lock"
    }
    #expect(try store.flush().acknowledgedCount == 40, "once files open again, everything is written")
    #expect(try store.readAll() == events)
  }
}
