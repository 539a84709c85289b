import AutoTrackTesting
import Foundation
import Testing

@testable import AutoTrack

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Breaks a store's directory for good: removed, and a plain file put at its path, so every
/// write fails (the store cannot open a file there) until `repair` removes the blocker.
struct BrokenDirectory {
  let url: URL

  func breakIt() throws {
    try FileManager.default.removeItem(at: url)
    try Data("not a directory".utf8).write(to: url)
  }

  func repair() throws {
    try FileManager.default.removeItem(at: url)
  }
}

/// Failing writes are retried on a backoff schedule read from the injected clock, and a backlog
/// goes out in bounded slices.
@Suite struct JSONLinesStoreRetryTests {
  @Test func failedWritesAreRetriedOnABackoffScheduleNotOnEverySend() throws {
    let parent = try TemporaryDirectory()
    defer { parent.remove() }
    let broken = BrokenDirectory(url: parent.url.appendingPathComponent("store"))
    let clock = ManualClock()
    let store = try JSONLinesStore(
      configuration: .init(
        directory: broken.url, flushEveryEvents: 1, syncOnFlush: false, writeRetryDelay: .milliseconds(100),
        maximumWriteRetryDelay: .milliseconds(400)),
      clock: clock)
    defer { try? store.close() }
    try broken.breakIt()
    var events = makeEvents(1_000).makeIterator()
    func send(_ count: Int) throws {
      for _ in 0..<count { try store.send(events.next()!) }
    }
    try send(100)  // every send is due (flushEveryEvents 1), but only the first one tries
    #expect(store.statistics.writeFailureCount == 1)
    #expect(store.lastWriteError != nil)
    // Each retry waits twice as long as the one before, up to the maximum: 100, 200, 400, 400 ms.
    var expectedFailures = 1
    for delay in [100, 200, 400, 400] {
      clock.advance(by: .milliseconds(delay - 1))
      try send(50)
      #expect(store.statistics.writeFailureCount == expectedFailures, "no attempt before \(delay) ms")
      clock.advance(by: .milliseconds(1))
      try send(50)
      expectedFailures += 1
      #expect(store.statistics.writeFailureCount == expectedFailures, "one attempt at \(delay) ms")
    }
    #expect(store.statistics.bufferedCount == 500 && store.statistics.writtenCount == 0)

    // Space comes back: the next due attempt writes, and the flush reports what went with the old file.
    try broken.repair()
    clock.advance(by: .milliseconds(400))
    try send(1)
    #expect(store.lastWriteError == nil)
    #expect(store.statistics.writeFailureCount == expectedFailures)
    #expect(throws: AutoTrackError.storeFileReplaced(path: broken.url.path + "/events.jsonl", lostEventCount: 0)) {
      try store.flush()
    }
    #expect(try store.flush().acknowledgedCount == 501)
    #expect(try store.readAll().map(\.id) == makeEvents(501).map(\.id))
  }

  @Test func aBacklogIsWrittenInBoundedSlices() throws {
    let parent = try TemporaryDirectory()
    defer { parent.remove() }
    let broken = BrokenDirectory(url: parent.url.appendingPathComponent("store"))
    let clock = ManualClock()
    let slice = 2_000
    let store = try JSONLinesStore(
      configuration: .init(
        directory: broken.url, flushEveryEvents: 10, syncOnFlush: false, maximumBytesPerAutomaticWrite: slice),
      clock: clock)
    defer { try? store.close() }
    try broken.breakIt()
    let events = makeEvents(300)
    for event in events.prefix(200) { try store.send(event) }
    #expect(store.statistics.writtenCount == 0)
    let backlog = store.statistics.bufferedBytes
    try broken.repair()
    clock.advance(by: .seconds(60))
    var sends = 0
    for event in events.suffix(100) {
      var line: [UInt8] = []
      try EventLineEncoder().append(event, to: &line)
      let before = store.statistics
      try store.send(event)
      let after = store.statistics
      sends += 1
      let written = before.bufferedBytes + line.count + 1 - after.bufferedBytes
      #expect(written > 0, "the send wrote part of the backlog")
      #expect(written <= slice, "one send wrote \(written) bytes")
      if after.bufferedCount == 0 { break }
    }
    #expect(sends >= backlog / slice, "the backlog of \(backlog) bytes took several sends")
    _ = try? store.flush()  // reports the replaced file
    try store.flush()
    #expect(store.statistics.bufferedCount == 0)
  }

  /// The errno of the failing call reaches the error: ENOTDIR, not a generic EIO.
  @Test func theErrnoOfTheFailingCallIsReported() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let blocker = directory.url.appendingPathComponent("file")
    try Data("x".utf8).write(to: blocker)
    #expect(throws: AutoTrackError.fileOperationFailed(operation: "mkdir", path: blocker.path + "/a/b", errno: ENOTDIR))
    {
      try PosixFile.makeDirectory(blocker.path + "/a/b")
    }
    #expect(throws: AutoTrackError.fileOperationFailed(operation: "open", path: blocker.path + "/x", errno: ENOTDIR)) {
      _ = try PosixFile(appendingTo: blocker.path + "/x")
    }
    #expect(throws: AutoTrackError.fileOperationFailed(operation: "opendir", path: blocker.path, errno: ENOTDIR)) {
      _ = try PosixFile.directoryEntries(blocker.path)
    }
  }
}
