import AutoTrackTesting
import DelegateProxyKit
import DelegateProxyKitSupport
import Foundation
import Testing

@testable import AutoTrack

/// The outbox while the collector is down: bounded by the queue, and exact after a restart.
@Suite struct BatchingStageOutboxTests {
  /// A collector that is down: every attempt fails with a transport error.
  struct DownDestination: BatchDestination {
    func deliver(_ batch: [TrackedEvent]) async -> DeliveryResult {
      .whole(batch, .retry(failure: .transport(reason: "connection refused"), retryAfter: nil))
    }
  }

  static let capacity = 64
  static let sendsPerTurn = 25

  func outbox(_ directory: TemporaryDirectory) throws -> JSONLinesStore {
    try JSONLinesStore(
      configuration: .init(directory: directory.url, flushEveryEvents: 1_000, flushInterval: .seconds(60)))
  }

  /// Every event the outbox's files hold, snapshot first, and the settled ids of its journal.
  func onDisk(_ directory: TemporaryDirectory, _ store: JSONLinesStore) throws -> (events: [String], settled: Int) {
    let snapshot = try BatchingStage.readEvents(at: directory.path + "/events.pending").events
    let settled = try BatchingStage.readJournal(at: directory.path + "/events.settled").ids
    return (try (snapshot + store.readAll()).map(\.id), settled.count)
  }

  /// With a retry delay of a second the stage keeps trying; with an hour it sits in its backoff
  /// and only compacts.
  @Test(arguments: [Duration.seconds(1), .seconds(3600)])
  func theOutboxHoldsWhatTheQueueHoldsWhileTheCollectorIsDown(retryDelay: Duration) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    let events = makeEvents(1_200)
    var waiting: [String] = []
    do {
      let store = try outbox(directory)
      let stage = try BatchingStage(
        destination: DownDestination(),
        configuration: .init(
          maximumBatchSize: 10, queueCapacity: Self.capacity,
          retry: RetryPolicy(initialDelay: retryDelay, maximumDelay: retryDelay, jitter: 0, seed: 1)),
        clock: clock, outbox: store)
      var largest = 0
      var largestJournal = 0
      for (index, event) in events.enumerated() {
        try stage.send(event)
        guard (index + 1).isMultiple(of: Self.sendsPerTurn) else { continue }
        clock.advance(by: .seconds(1))
        await stage.deliverDueBatches()
        let disk = try onDisk(directory, store)
        largest = max(largest, disk.events.count)
        largestJournal = max(largestJournal, disk.settled)
      }
      let statistics = stage.statistics
      #expect(statistics.pendingCount == Self.capacity)
      #expect(statistics.droppedOnOverflowCount == events.count - Self.capacity)
      #expect(statistics.outboxCompactionCount > 5)
      // The snapshot holds at most the queue; the log and the journal at most a threshold's worth
      // (the capacity) plus the events of one turn.
      let bound = 2 * Self.capacity + Self.sendsPerTurn
      #expect(largest <= bound, "the outbox held \(largest) events for a queue of \(Self.capacity)")
      #expect(largestJournal <= Self.capacity + 2 * Self.sendsPerTurn, "the journal held \(largestJournal) ids")
      print(
        "outbox with the collector down (retry delay \(retryDelay)): at most \(largest) events and \(largestJournal) settled ids on disk for a queue of \(Self.capacity); \(statistics.outboxCompactionCount) compactions over \(events.count) sends"
      )
      waiting = stage.state.withLock { $0.queue.elements.map(\.event.id) }
      try store.close()
    }
    #expect(waiting == events.suffix(Self.capacity).map(\.id), "the queue keeps the newest events")

    // After a restart exactly the waiting events come back: nothing settled or dropped.
    let store = try outbox(directory)
    let destination = ScriptedDestination()
    let second = try BatchingStage(destination: destination, clock: ManualClock(), outbox: store)
    #expect(second.statistics.recoveredCount == Self.capacity)
    try await second.flush()
    #expect(destination.deliveredIDs == waiting)
    let disk = try onDisk(directory, store)
    #expect(disk.events.isEmpty && disk.settled == 0, "an idle stage empties its outbox")
  }

  @Test func aDriverInItsBackoffStillCompactsTheOutbox() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try outbox(directory)
    let stage = try BatchingStage(
      destination: DownDestination(),
      configuration: .init(
        maximumBatchSize: 10, maximumBatchAge: .zero, queueCapacity: 64,
        retry: RetryPolicy(initialDelay: .seconds(3600), maximumDelay: .seconds(3600), jitter: 0, seed: 1)),
      clock: ManualClock(), outbox: store)
    let driver = Task { await stage.run() }
    defer { driver.cancel() }
    for event in makeEvents(1_000) { try stage.send(event) }
    try await waitUntil("a compaction") { stage.statistics.outboxCompactionCount > 0 }
    #expect(stage.statistics.retryCount == 1, "the collector was tried once; the rest is backoff")
    #expect(stage.statistics.outboxCompactionCount >= 1)
  }

  @Test func settledIDsAreJSONStrings() throws {
    var bytes: [UInt8] = []
    for id in ["plain", "quote\"back\\slash", "line\nbreak\u{1}", "é\u{2028}"] {
      OutboxState.appendJournalLine(id, to: &bytes)
    }
    let decoded = try bytes.split(separator: 0x0A).map { try JSONDecoder().decode(String.self, from: Data($0)) }
    #expect(decoded == ["plain", "quote\"back\\slash", "line\nbreak\u{1}", "é\u{2028}"])
  }

  @Test func aSnapshotKeepsEachPropertyValuesKind() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let event = TrackedEvent(
      name: "kinds", id: "kinds-1", sequence: 1, timestampMs: 1,
      properties: ["three": .double(3.0), "minusZero": .double(-0.0), "big": .double(1e16), "count": .int(3)])
    var bytes: [UInt8] = []
    BatchingStage.encode([event], to: &bytes)
    let path = directory.path + "/kinds.pending"
    try Data(bytes).write(to: URL(fileURLWithPath: path))

    let read = try #require(try BatchingStage.readEvents(at: path).events.first)
    #expect(read.properties["three"] == .double(3.0))
    #expect(read.properties["big"] == .double(1e16))
    #expect(read.properties["count"] == .int(3))
    guard case .double(let minusZero) = read.properties["minusZero"] else {
      Issue.record("-0.0 came back as \(String(describing: read.properties["minusZero"]))")
      return
    }
    #expect(minusZero.sign == .minus)
  }
}
