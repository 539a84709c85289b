import AutoTrackTesting
import DelegateProxyKitSupport
import Foundation
import Testing

@testable import AutoTrack

@Suite struct JSONLinesStoreTests {
  private func configuration(
    _ directory: TemporaryDirectory, flushEvery: Int = 1000, interval: Duration = .seconds(60),
    maximumFileBytes: Int = 1 << 20, archives: Int? = nil
  ) -> JSONLinesStore.Configuration {
    JSONLinesStore.Configuration(
      directory: directory.url, flushEveryEvents: flushEvery, flushInterval: interval,
      maximumFileBytes: maximumFileBytes, maximumArchivedFiles: archives)
  }

  private func activeFile(_ directory: TemporaryDirectory) -> URL {
    directory.url.appendingPathComponent("events.jsonl")
  }

  @Test func readingBackYieldsExactlyTheEventsWritten() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let events = makeEvents(500)
    do {
      let store = try JSONLinesStore(configuration: configuration(directory, flushEvery: 64))
      for event in events { try store.send(event) }
      let acknowledgement = try store.flush()
      #expect(acknowledgement == FlushAcknowledgement(acknowledgedCount: 500, lastAcknowledgedID: "e-499"))
      #expect(try store.readAll() == events)
      try store.close()
    }
    let reopened = try JSONLinesStore(configuration: configuration(directory))
    #expect(reopened.recovery == JSONLinesStore.Recovery(tornLinesDropped: 0, tornBytesDropped: 0))
    #expect(try reopened.readAll() == events)
    let text = try String(contentsOf: activeFile(directory), encoding: .utf8)
    #expect(text.split(separator: "\n").count == 500)
    #expect(text.hasSuffix("}\n"))
  }

  @Test func writesWhenTheBufferHoldsFlushEveryEvents() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try JSONLinesStore(configuration: configuration(directory, flushEvery: 3), clock: ManualClock())
    let events = makeEvents(7)
    for event in events.prefix(2) { try store.send(event) }
    #expect(store.statistics.writtenCount == 0)
    #expect(store.statistics.bufferedCount == 2)
    try store.send(events[2])
    #expect(store.statistics.writtenCount == 3)
    for event in events.dropFirst(3) { try store.send(event) }
    #expect(store.statistics.writtenCount == 6)
    #expect(store.statistics.bufferedCount == 1)
    #expect(store.statistics.acknowledgedCount == 0, "automatic writes are not acknowledged flushes")
  }

  @Test func writesWhenTheOldestBufferedEventIsOldEnough() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    let store = try JSONLinesStore(
      configuration: configuration(directory, interval: .milliseconds(100)), clock: clock)
    let events = makeEvents(3)
    try store.send(events[0])
    clock.advance(by: .milliseconds(99))
    store.flushIfDue()
    #expect(store.statistics.writtenCount == 0)
    clock.advance(by: .milliseconds(1))
    store.flushIfDue()
    #expect(store.statistics.writtenCount == 1)
    try store.send(events[1])
    clock.advance(by: .milliseconds(150))
    try store.send(events[2])  // the send itself notices that the buffer is due
    #expect(store.statistics.writtenCount == 3)
  }

  @Test func automaticFlushingRunsOnTheInjectedClock() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    let store = try JSONLinesStore(
      configuration: configuration(directory, interval: .milliseconds(100)), clock: clock)
    let flusher = Task { await store.runAutomaticFlushing() }
    defer { flusher.cancel() }
    try store.send(makeEvents(1)[0])
    // The flusher may not be asleep on the clock yet: move the clock on until it has written.
    try await waitUntil("the automatic flush writes the event") {
      if store.statistics.writtenCount > 0 { return true }
      clock.advance(by: .milliseconds(100))
      return false
    }
    #expect(store.statistics.writtenCount == 1)
  }

  @Test func tornLastLineIsCutOffAndCounted() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let events = makeEvents(10)
    do {
      let store = try JSONLinesStore(configuration: configuration(directory))
      for event in events { try store.send(event) }
      try store.close()
    }
    let torn = Data(#"{"id":"e-10","name":"element_cl"#.utf8)
    let handle = try FileHandle(forWritingTo: activeFile(directory))
    try handle.seekToEnd()
    try handle.write(contentsOf: torn)
    try handle.close()

    let store = try JSONLinesStore(configuration: configuration(directory))
    #expect(store.recovery == JSONLinesStore.Recovery(tornLinesDropped: 1, tornBytesDropped: torn.count))
    #expect(try store.readAll() == events)
    let more = makeEvents(2, from: 10)
    for event in more { try store.send(event) }
    try store.flush()
    #expect(try store.readAll() == events + more)
  }

  @Test func aFileWithOnlyATornLineBecomesEmpty() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try Data(#"{"id":"#.utf8).write(to: activeFile(directory))
    let store = try JSONLinesStore(configuration: configuration(directory))
    #expect(store.recovery.tornLinesDropped == 1)
    #expect(store.recovery.tornBytesDropped == 6)
    #expect(try store.readAll().isEmpty)
  }

  @Test func damageInTheMiddleIsSkippedAndReportedWithFileAndLine() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let good = String(decoding: try TrackedEvent.jsonEncoder().encode(makeEvents(1)[0]), as: UTF8.self)
    try Data("\(good)\nnot json\n\(good)\n".utf8).write(to: activeFile(directory))
    let store = try JSONLinesStore(configuration: configuration(directory))
    #expect(store.recovery.tornLinesDropped == 0)
    let contents = try store.readContents()
    #expect(contents.events == [makeEvents(1)[0], makeEvents(1)[0]])
    #expect(contents.damagedLines.map(\.path) == [activeFile(directory).path])
    #expect(contents.damagedLines.map(\.line) == [2])
  }

  @Test func aRotationOnTheSendPathLeavesSyncingToTheNextFlush() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try JSONLinesStore(configuration: configuration(directory, flushEvery: 10, maximumFileBytes: 4_096))
    let events = makeEvents(200)
    for event in events { try store.send(event) }
    let rotations = store.statistics.rotationCount
    #expect(rotations >= 3)
    #expect(store.state.withLock { $0.syncCallCount } == 0, "sends rotate without waiting for the disk")

    let acknowledgement = try store.flush()
    #expect(acknowledgement.acknowledgedCount == 200)
    // Every rotated file, the directory, and the active file.
    #expect(store.state.withLock { $0.syncCallCount } == rotations + 2)
    #expect(try store.readAll() == events)
  }

  @Test func aRotatedFileRemovedBeforeTheFlushIsCountedLostNotAcknowledged() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try JSONLinesStore(configuration: configuration(directory, flushEvery: 10, maximumFileBytes: 4_096))
    for event in makeEvents(200) { try store.send(event) }
    let firstArchive = try #require(store.filePaths.first)
    let lines = try String(contentsOfFile: firstArchive, encoding: .utf8).split(separator: "\n").count
    #expect(lines > 0)
    try FileManager.default.removeItem(atPath: firstArchive)

    #expect(throws: AutoTrackError.storeFileReplaced(path: firstArchive, lostEventCount: lines)) {
      try store.flush()
    }
    let acknowledgement = try store.flush()
    #expect(acknowledgement.acknowledgedCount == 200 - lines)
    #expect(store.statistics.lostWithReplacedFileCount == lines)
    #expect(try store.readAll().count == 200 - lines, "what was acknowledged is what can be read")
  }

  @Test func rotatesAtTheSizeLimitAndReadsBackInOrder() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let events = makeEvents(60)
    let limit = 2_000
    let store = try JSONLinesStore(configuration: configuration(directory, flushEvery: 7, maximumFileBytes: limit))
    for event in events { try store.send(event) }
    try store.flush()
    let paths = store.filePaths
    #expect(paths.count > 3)
    #expect(store.statistics.rotationCount == paths.count - 1)
    for path in paths {
      let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
      #expect(size <= limit, "\(path) has \(size) bytes")
    }
    #expect(paths.first?.hasSuffix("events.000001.jsonl") == true)
    #expect(try store.readAll() == events)
  }

  @Test func retentionDeletesTheOldestAcknowledgedArchivesAndCountsTheirEvents() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let events = makeEvents(60)
    let store = try JSONLinesStore(
      configuration: configuration(directory, flushEvery: 1, maximumFileBytes: 2_000, archives: 1))
    for event in events {
      try store.send(event)
      try store.flush()
    }
    let kept = try store.readAll()
    #expect(store.filePaths.count <= 3, "one archive kept, plus at most the one rotated since the last flush")
    #expect(store.statistics.eventsRemovedByRetention > 0)
    #expect(kept.count + store.statistics.eventsRemovedByRetention == events.count)
    #expect(kept == Array(events.suffix(kept.count)))
  }

  @Test func aSecondStoreOnTheSameDirectoryIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let first = try JSONLinesStore(configuration: configuration(directory))
    var second = configuration(directory)
    second.maximumLockWait = .zero
    #expect {
      _ = try JSONLinesStore(configuration: second)
    } throws: { error in
      guard case .storeLocked(let lockPath, _) = error as? AutoTrackError else { return false }
      return lockPath == directory.url.path + "/events.lock"
    }
    try first.close()
    _ = try JSONLinesStore(configuration: second)
  }

  @Test(arguments: ["flushEveryEvents", "maximumFileBytes", "baseName", "flushInterval", "maximumArchivedFiles"])
  func badConfigurationIsATypedError(parameter: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var bad = configuration(directory)
    switch parameter {
    case "flushEveryEvents": bad.flushEveryEvents = 0
    case "maximumFileBytes": bad.maximumFileBytes = 0
    case "baseName": bad.baseName = "a/b"
    case "flushInterval": bad.flushInterval = .seconds(-1)
    default: bad.maximumArchivedFiles = -1
    }
    #expect {
      _ = try JSONLinesStore(configuration: bad)
    } throws: { error in
      guard case .invalidConfiguration(let name, _) = error as? AutoTrackError else { return false }
      return name == parameter
    }
  }

  @Test func unencodableEventsAreRefusedAtSendAndCounted() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try JSONLinesStore(configuration: configuration(directory))
    var events = makeEvents(3)
    events[1].properties["bad"] = .double(.nan)
    try store.send(events[0])
    #expect {
      try store.send(events[1])
    } throws: { error in
      guard case .eventEncodingFailed(let id, let reason) = error as? AutoTrackError else { return false }
      return id == "e-1" && reason.contains("bad")
    }
    try store.send(events[2])
    try store.flush()
    #expect(store.statistics.droppedUnencodableCount == 1)
    #expect(store.statistics.sentCount == 2)
    #expect(try store.readAll().map(\.id) == ["e-0", "e-2"])
  }

  @Test func aClosedStoreRefusesLateSendsAndFlush() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try JSONLinesStore(configuration: configuration(directory))
    try store.close()
    #expect(throws: AutoTrackError.sinkClosed(path: directory.url.path)) { try store.send(makeEvents(1)[0]) }
    #expect(store.statistics.droppedAfterCloseCount == 1)
    #expect(store.statistics.sentCount == 0)
    #expect(throws: AutoTrackError.sinkClosed(path: directory.url.path)) { try store.flush() }
    try store.close()  // a second close does nothing
  }

  @Test func removeAllEmptiesEveryFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try JSONLinesStore(configuration: configuration(directory, flushEvery: 1, maximumFileBytes: 1_000))
    for event in makeEvents(20) { try store.send(event) }
    try store.removeAll()
    #expect(try store.readAll().isEmpty)
    #expect(store.filePaths.count == 1)
  }
}

extension JSONLinesStoreTests {
  @Test func aDirectoryThatCannotBeCreatedIsATypedError() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let blocker = directory.url.appendingPathComponent("file")
    try Data("x".utf8).write(to: blocker)
    #expect {
      _ = try JSONLinesStore(configuration: .init(directory: blocker.appendingPathComponent("store")))
    } throws: { error in
      guard case .fileOperationFailed(let operation, let path, _) = error as? AutoTrackError else { return false }
      return operation == "mkdir" && path.hasSuffix("file/store")
    }
  }
}
