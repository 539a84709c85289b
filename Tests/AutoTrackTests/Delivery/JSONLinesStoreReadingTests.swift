import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Foundation
import Synchronization
import Testing

@testable import AutoTrack

/// How the store's readers treat its lock and its paths: they read outside the store's lock, and
/// never through a symbolic link.
@Suite struct JSONLinesStoreReadingTests {
  private func configuration(_ directory: TemporaryDirectory, faults: FileFaults? = nil) -> JSONLinesStore.Configuration
  {
    var configuration = JSONLinesStore.Configuration(
      directory: directory.url, flushEveryEvents: 1000, flushInterval: .seconds(3600), maximumFileBytes: 4_000,
      syncOnFlush: false)
    configuration.fileFaults = faults
    return configuration
  }

  /// A reader is held inside its read of the first file; a send and a flush on another thread
  /// finish meanwhile. Under the old code the reader held the store's lock, and the send waited
  /// for it: the test waited out its bound (``stallProofDeadline``) and failed.
  @Test func aSendGoesThroughWhileAReaderReads() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let faults = FileFaults()
    let store = try JSONLinesStore(configuration: configuration(directory, faults: faults))
    let events = makeEvents(60)
    for event in events { try store.send(event) }
    try store.flush()
    #expect(store.filePaths.count > 1, "the events span rotated files and the active file")
    let gate = ReadGate()
    faults.beforeRead { _ in gate.holdFirstReader() }

    let reading = Task {
      await onDedicatedThread {
        defer { gate.readerFinished.store(true, ordering: .releasing) }
        return Result { () throws(AutoTrackError) -> [TrackedEvent] in try store.readAll() }
      }
    }
    try await waitUntil("the reader reaches its read") {
      gate.readerHeld.load(ordering: .acquiring) || gate.readerFinished.load(ordering: .acquiring)
    }
    let late = makeEvents(1, prefix: "late")
    let sending = Task {
      await onDedicatedThread {
        defer { gate.sendFinished.store(true, ordering: .releasing) }
        return Result { () throws(AutoTrackError) -> FlushAcknowledgement in
          try store.send(late[0])
          return try store.flush()
        }
      }
    }
    // A bound for a loaded machine, not a measurement: the send takes microseconds when it can run,
    // and a send that waits for the held reader never finishes before the release below.
    let sentDuringTheRead = await eventually { gate.sendFinished.load(ordering: .acquiring) }
    gate.release.signal()
    let read = try await reading.value.get()
    let acknowledgement = try await sending.value.get()

    let readerWasHeld = gate.readerHeld.load(ordering: .acquiring)
    #expect(readerWasHeld, "the reader reached its read")
    #expect(sentDuringTheRead, "the send and its flush finished while the reader was reading")
    #expect(acknowledgement.acknowledgedCount == 61)
    #expect(read == events, "the read holds what the store held when it opened its files")
    #expect(try store.readAll() == events + late)
    try store.close()
  }

  /// A symbolic link at an archive path makes the readers refuse with the path; the file it points
  /// to is never read as the store's (the old readers followed it and returned its events).
  @Test func aSymbolicLinkAtAStorePathIsRefusedByTheReaders() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let elsewhere = try TemporaryDirectory()
    defer { elsewhere.remove() }
    let store = try JSONLinesStore(configuration: configuration(directory))
    try store.send(makeEvents(1)[0])
    try store.flush()
    let foreign = elsewhere.url.appendingPathComponent("foreign.jsonl")
    do {
      let other = try JSONLinesStore(configuration: configuration(elsewhere))
      for event in makeEvents(3, prefix: "foreign") { try other.send(event) }
      try other.close()
      try FileManager.default.moveItem(at: elsewhere.url.appendingPathComponent("events.jsonl"), to: foreign)
    }
    let linkPath = directory.path + "/events.000001.jsonl"
    try FileManager.default.createSymbolicLink(atPath: linkPath, withDestinationPath: foreign.path)
    let refusal = AutoTrackError.storeFileRefused(path: linkPath, reason: "it is a symbolic link")

    #expect(throws: refusal) { try store.readAll() }
    #expect(throws: refusal) { try JSONLinesStore.readEvents(configuration: configuration(directory)) }
    try FileManager.default.removeItem(atPath: linkPath)
    #expect(try store.readAll() == makeEvents(1), "the store reads normally once the link is gone")
    try store.close()
  }
}

/// Holds the first reader of a store file until released, and records what finished meanwhile.
private final class ReadGate: Sendable {
  let readerHeld = Atomic<Bool>(false)
  let readerFinished = Atomic<Bool>(false)
  let sendFinished = Atomic<Bool>(false)
  let release = DispatchSemaphore(value: 0)

  /// Blocks the first caller (a reader on a thread of its own) until ``release`` is signalled.
  func holdFirstReader() {
    guard !readerHeld.exchange(true, ordering: .acquiringAndReleasing) else { return }
    release.wait()
  }
}
