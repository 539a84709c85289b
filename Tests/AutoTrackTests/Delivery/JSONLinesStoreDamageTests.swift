import AutoTrackTesting
import Foundation
import Testing

@testable import AutoTrack

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Damage the store's own failed writes can leave is skipped and reported by readers; a single
/// large event is written through, not refused as a full buffer.
@Suite struct JSONLinesStoreDamageTests {
  private func configuration(
    _ directory: URL, flushEvery: Int = 10_000, bufferCap: Int = 4 << 20, slice: Int = 512 << 10,
    faults: FileFaults? = nil
  ) -> JSONLinesStore.Configuration {
    var configuration = JSONLinesStore.Configuration(
      directory: directory, flushEveryEvents: flushEvery, flushInterval: .seconds(3600), syncOnFlush: false,
      maximumBufferedBytes: bufferCap, maximumBytesPerAutomaticWrite: slice)
    configuration.fileFaults = faults
    return configuration
  }

  /// A write that fails half-way, whose clean-up `ftruncate` fails too, leaves part of a line in
  /// the middle of the file. The next write ends it with a newline first, so every event written
  /// after it stays readable, and readers skip the fragment and report it. Whole lines the failed
  /// write did put in the file count as written and are not written again.
  @Test(arguments: [50, 600])
  func aFailedCleanUpLeavesOneSkippedFragmentAndEveryEventReadable(writtenBeforeFailure: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let faults = FileFaults()
    let events = makeEvents(300)
    do {
      let store = try JSONLinesStore(
        configuration: configuration(directory.url, flushEvery: 100, faults: faults), clock: ManualClock())
      for event in events.prefix(100) { try store.send(event) }
      faults.failNextWrite(after: writtenBeforeFailure, errno: EIO)
      faults.failTruncates(2, errno: EIO)
      for event in events[100..<200] { try store.send(event) }
      #expect(store.statistics.writeFailureCount == 1)
      for event in events.suffix(100) { try store.send(event) }
      #expect(try store.flush().acknowledgedCount == 300)
      #expect(try store.readAll() == events)
      let contents = try store.readContents()
      let active = directory.url.appendingPathComponent("events.jsonl").path
      #expect(contents.damagedLines.map(\.path) == [active])
      var (wholeLines, fragment) = (0, writtenBeforeFailure)
      for length in lineLengths(events[100..<200]) where length <= fragment {
        wholeLines += 1
        fragment -= length
      }
      #expect(contents.damagedLines.map(\.line) == [101 + wholeLines])
      #expect(contents.damagedLines.map(\.byteCount) == [fragment])
      try store.close()
    }
    let reopened = try JSONLinesStore(configuration: configuration(directory.url))
    #expect(reopened.recovery.tornLinesDropped == 0)
    #expect(try reopened.readAll() == events)
    #expect(try JSONLinesStore.readEvents(configuration: configuration(directory.url)) == events)
  }

  /// The length of each event's line, newline included, as the store writes it.
  private func lineLengths(_ events: ArraySlice<TrackedEvent>) -> [Int] {
    let encoder = EventLineEncoder()
    return events.map { event in
      var line: [UInt8] = []
      try? encoder.append(event, to: &line)
      return line.count + 1
    }
  }

  /// Damage anywhere in any file (a bad line in an archive, garbage in the middle, a torn line) is
  /// skipped and listed with file, line and byte offset; every event around it reads back.
  @Test func damageAnywhereIsSkippedAndListedWithItsPlace() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let events = makeEvents(4)
    let lines = try events.map { String(decoding: try TrackedEvent.jsonEncoder().encode($0), as: UTF8.self) }
    let archive = directory.url.appendingPathComponent("events.000001.jsonl")
    let active = directory.url.appendingPathComponent("events.jsonl")
    try Data("\(lines[0])\n{\"id\":\"e-\n\(lines[1])\n".utf8).write(to: archive)
    try Data("\(lines[2])\n\u{1}garbage\n\n\(lines[3])\n".utf8).write(to: active)
    let contents = try JSONLinesStore.readContents(configuration: configuration(directory.url))
    #expect(contents.events == events)
    #expect(contents.damagedLines.map(\.path) == [archive.path, active.path])
    #expect(contents.damagedLines.map(\.line) == [2, 2])
    #expect(contents.damagedLines.map(\.byteOffset) == [lines[0].utf8.count + 1, lines[2].utf8.count + 1])
    let store = try JSONLinesStore(configuration: configuration(directory.url))
    #expect(try store.readAll() == events)
  }

  /// An event larger than a write slice does not make the next send look like a failing disk:
  /// the store writes it through, accepts the next event, and counts no failure or drop.
  @Test func aLargeEventIsWrittenThroughNotRefusedAsAFullBuffer() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try JSONLinesStore(
      configuration: configuration(directory.url, bufferCap: 64 << 10, slice: 16 << 10), clock: ManualClock())
    defer { try? store.close() }
    var events = makeEvents(10)
    events.append(
      TrackedEvent(
        name: "big", id: "big", sequence: 10, timestampMs: 0,
        properties: ["blob": .string(String(repeating: "b", count: 100 << 10))]))
    events += makeEvents(3, from: 11)
    for event in events { try store.send(event) }
    let statistics = store.statistics
    #expect(statistics.droppedOverCapacityCount == 0 && statistics.writeFailureCount == 0)
    #expect(statistics.sentCount == events.count)
    try store.flush()
    #expect(try store.readAll() == events)
  }
}
