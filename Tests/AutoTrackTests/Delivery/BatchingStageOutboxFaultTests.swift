import AutoTrackTesting
import DelegateProxyKit
import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Foundation
import Synchronization
import Testing

@testable import AutoTrack

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The outbox under injected disk faults (``FileFaults``, given to the outbox store and used by the
/// stage for its own files too): a
/// failing disk that recovers, torn writes, a crash at every file operation of a compaction, a
/// hanging `fsync`, and ids that are equal strings but different bytes.
@Suite struct BatchingStageOutboxFaultTests {
  struct DownDestination: BatchDestination {
    func deliver(_ batch: [TrackedEvent]) async -> DeliveryResult {
      .whole(batch, .retry(failure: .transport(reason: "connection refused"), retryAfter: nil))
    }
  }

  func store(
    _ directory: TemporaryDirectory, clock: ManualClock = ManualClock(), bufferBytes: Int = 4 << 20,
    faults: FileFaults? = nil
  ) throws -> JSONLinesStore {
    var configuration = JSONLinesStore.Configuration(
      directory: directory.url, flushEveryEvents: 10, flushInterval: .seconds(3600), maximumBufferedBytes: bufferBytes)
    configuration.fileFaults = faults
    return try JSONLinesStore(configuration: configuration, clock: clock)
  }

  /// Ids as bytes: `String` equality would hide the difference these tests are about.
  func bytes(_ ids: [String]) -> [[UInt8]] { ids.map { Array($0.utf8) } }

  // MARK: A failing disk that recovers

  @Test func eventsTheOutboxRefusedAreWrittenOnceTheDiskIsBack() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    let events = makeEvents(2_200)
    let log = ReportLog()
    var waiting: [String] = []
    let faults = FileFaults()
    do {
      let store = try store(directory, clock: clock, bufferBytes: 16 << 10, faults: faults)
      let stage = try BatchingStage(
        destination: DownDestination(),
        configuration: .init(
          maximumBatchSize: 50, queueCapacity: 10_000,
          retry: RetryPolicy(initialDelay: .seconds(3600), maximumDelay: .seconds(3600), jitter: 0, seed: 1)),
        clock: clock, outbox: store, onReport: log.handler)
      for event in events.prefix(200) { try stage.send(event) }
      faults.failEveryCall(errno: ENOSPC)
      for event in events.dropFirst(200).prefix(1_800) { try stage.send(event) }
      await stage.deliverDueBatches()
      #expect(stage.statistics.outboxRefusedCount > 1_000, "the store's buffer filled and refused events")
      faults.stopFailing()
      for event in events.suffix(200) { try stage.send(event) }
      clock.advance(by: .seconds(60))
      await stage.deliverDueBatches()
      waiting = stage.state.withLock { $0.queue.elements.map(\.event.id) }
      faults.die(after: 0)  // killed: nothing more reaches the disk
    }
    #expect(waiting.count == events.count, "the collector is down: every event still waits")
    let store = try store(directory)
    let restarted = try BatchingStage(destination: ScriptedDestination(), clock: ManualClock(), outbox: store)
    #expect(
      restarted.statistics.recoveredCount == events.count, "every accepted event was written once the disk was back")
    let recovered = restarted.state.withLock { $0.queue.elements.map(\.event.id) }
    #expect(Set(recovered) == Set(waiting))
    let failures = log.all.filter { if case .outboxFailed = $0 { true } else { false } }
    #expect(failures.count == 1, "one report for the run of failures: \(failures.count)")
    #expect(log.all.contains { if case .outboxRecovered = $0 { true } else { false } }, "the recovery is reported")
  }

  // MARK: Ids compared by their bytes

  @Test func idsThatAreEqualStringsButDifferentBytesStayTwoEvents() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let precomposed = "id-\u{E9}"
    let decomposed = "id-e\u{301}"
    #expect(precomposed == decomposed, "Swift compares strings by canonical equivalence")
    let events = [precomposed, decomposed, "id-x"].enumerated().map { index, id in
      TrackedEvent(name: "tap", id: id, sequence: UInt64(index), timestampMs: 1)
    }
    let retry = DeliveryOutcome.retry(failure: .httpStatus(code: 503), retryAfter: nil)
    do {
      let store = try store(directory)
      let stage = try BatchingStage(
        destination: DownDestination(), configuration: .init(maximumBatchSize: 1), clock: ManualClock(),
        outbox: store)
      for event in events { try stage.send(event) }
      try store.flush()
      try store.close()
    }
    do {
      let store = try store(directory)
      // The first event is delivered; its twin must stay waiting.
      let destination = ScriptedDestination(outcomes: [.accepted, retry, retry])
      let stage = try BatchingStage(
        destination: destination, configuration: .init(maximumBatchSize: 1), clock: ManualClock(), outbox: store)
      let recovered = stage.state.withLock { $0.queue.elements.map(\.event.id) }
      #expect(bytes(recovered) == bytes(events.map(\.id)), "all three come back after a restart")
      await #expect(throws: AutoTrackError.self) { try await stage.flush() }
      #expect(bytes(destination.deliveredIDs.prefix(1).map(\.self)) == bytes([precomposed]))
      try store.close()
    }
    let store = try store(directory)
    let stage = try BatchingStage(destination: ScriptedDestination(), clock: ManualClock(), outbox: store)
    let recovered = stage.state.withLock { $0.queue.elements.map(\.event.id) }
    #expect(bytes(recovered) == bytes([decomposed, "id-x"]), "a delivered id does not settle its twin")
  }

  // MARK: A crash at any step

  /// Kills the stage (no file operation does anything any more) after `step` file operations of a
  /// delivery turn that settles batches and compacts the outbox, then restarts it.
  ///
  /// - Returns: Whether the kill came before the turn's file operations ran out.
  func crash(atStep step: Int) async throws -> Bool {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    let retry = DeliveryOutcome.retry(failure: .httpStatus(code: 503), retryAfter: nil)
    let destination = ScriptedDestination(
      outcomes: [.accepted, .rejected(failure: .httpStatus(code: 422))] + Array(repeating: retry, count: 10))
    // What the process reported before it died: a dead process reports nothing.
    let settledBeforeDeath = IDLog()
    let settledAfterDeath = IDLog()
    let faults = FileFaults()
    var waiting: [String] = []
    var died = false
    do {
      let store = try store(directory, clock: clock, faults: faults)
      let stage = try BatchingStage(
        destination: destination,
        configuration: .init(maximumBatchSize: 10, maximumBatchAge: .zero, queueCapacity: 64),
        clock: clock, outbox: store
      ) { report in
        let dead = faults.isDead
        let ids: [String]
        switch report {
        case .droppedOnOverflow(let eventIDs), .rejected(let eventIDs, _): ids = eventIDs
        case .delivered: ids = destination.deliveredIDs
        default: ids = []
        }
        (dead ? settledAfterDeath : settledBeforeDeath).add(ids)
      }
      for event in makeEvents(100) { try stage.send(event) }
      try store.flush()
      faults.die(after: step)
      await stage.deliverDueBatches()
      died = faults.isDead
      if !died { #expect(stage.statistics.outboxCompactionCount == 1, "the turn ends with a compaction") }
      faults.die(after: 0)
      waiting = stage.state.withLock { $0.queue.elements.map(\.event.id) }
    }
    let store = try store(directory)
    let restarted = try BatchingStage(destination: ScriptedDestination(), clock: ManualClock(), outbox: store)
    let recovered = Set(restarted.state.withLock { $0.queue.elements.map(\.event.id) })
    let before = settledBeforeDeath.ids
    let after = settledAfterDeath.ids
    let context = Comment(rawValue: "killed after \(step) file operations")
    #expect(before.count >= 36, "the 36 overflow drops were reported before the turn; \(context)")
    #expect(recovered.isDisjoint(with: before), "nothing reported settled comes back; \(context)")
    #expect(recovered.isSuperset(of: waiting), "every waiting event comes back; \(context)")
    #expect(recovered.isSubset(of: Set(waiting).union(after)), "only what waited, or settled unreported; \(context)")
    return died
  }

  @Test func aCrashAtAnyStepOfATurnBringsNothingSettledBackAndLosesNothingWaiting() async throws {
    var step = 0
    while try await crash(atStep: step) {
      step += 1
      try #require(step < 500, "the turn never ran out of file operations")
    }
    #expect(step > 5, "the turn did \(step) file operations, each one a crash point")
    print("crash sweep: a turn with settlements and a compaction killed at each of its \(step) file operations")
  }

  /// Four threads send while the driver delivers, retries and compacts (each compaction and flush
  /// pausing the store's log): after a kill, exactly the waiting events come back.
  @Test func sendsFromSeveralThreadsDuringCompactionsAllReachTheOutbox() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let retry = DeliveryOutcome.retry(failure: .httpStatus(code: 503), retryAfter: nil)
    let destination = ScriptedDestination(outcomes: (0..<400).map { $0.isMultiple(of: 3) ? retry : .accepted })
    let log = ReportLog()
    var waiting: [String] = []
    var statistics = BatchingStage.Statistics()
    let faults = FileFaults()
    do {
      let store = try store(directory, faults: faults)
      let stage = try BatchingStage(
        destination: destination,
        configuration: .init(
          maximumBatchSize: 25, maximumBatchAge: .seconds(3600), queueCapacity: 300,
          retry: RetryPolicy(initialDelay: .zero, maximumDelay: .zero, jitter: 0, seed: 1)),
        clock: ManualClock(), outbox: store, onReport: log.handler)
      let driver = Task { await stage.run() }
      await runOnThreads(
        (0..<4).map { thread in
          { for event in makeEvents(2_000, prefix: "t\(thread)") { try! stage.send(event) } }
        })
      driver.cancel()
      await driver.value
      try store.flush()
      waiting = stage.state.withLock { $0.queue.elements.map(\.event.id) }
      statistics = stage.statistics
      faults.die(after: 0)
    }
    #expect(statistics.outboxCompactionCount > 0, "compactions ran")
    var settled = Set<String>()
    for report in log.all {
      switch report {
      case .droppedOnOverflow(let ids), .rejected(let ids, _): settled.formUnion(ids)
      default: break
      }
    }
    settled.formUnion(destination.deliveredIDs)
    settled.subtract(waiting)  // a retried batch was handed over, then queued again

    let restarted = try BatchingStage(
      destination: ScriptedDestination(), clock: ManualClock(), outbox: try self.store(directory))
    let recovered = restarted.state.withLock { $0.queue.elements.map(\.event.id) }
    #expect(Set(recovered) == Set(waiting), "\(recovered.count) recovered for \(waiting.count) waiting")
    #expect(Set(recovered).isDisjoint(with: settled))
    print(
      "outbox under 4 sending threads: \(statistics.sentCount) sent, \(statistics.outboxCompactionCount) compactions, \(waiting.count) waiting, all recovered"
    )
  }

  // MARK: Damaged files

  /// With `cutFails`, cutting the torn tail off fails too (`ftruncate`), so the next write starts a new line.
  @Test(arguments: [false, true])
  func aTornJournalWriteNeitherGluesTheNextLineNorStopsARestart(cutFails: Bool) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let events = makeEvents(6)
    let retry = DeliveryOutcome.retry(failure: .httpStatus(code: 503), retryAfter: nil)
    let faults = FileFaults()
    do {
      let store = try store(directory, faults: faults)
      let destination = ScriptedDestination(outcomes: [.accepted, .accepted, retry])
      let stage = try BatchingStage(
        destination: destination, configuration: .init(maximumBatchSize: 2), clock: ManualClock(), outbox: store)
      for event in events { try stage.send(event) }
      // The first batch's journal line is torn after 4 bytes, mid-id; the second batch's write retries it.
      faults.failNextWrite(after: 4, errno: EIO, ofPathsEndingIn: ".settled")
      if cutFails { faults.failTruncates(1, errno: EIO) }
      await #expect(throws: AutoTrackError.self) { try await stage.flush() }
      #expect(destination.deliveredIDs == ["e-0", "e-1", "e-2", "e-3", "e-4", "e-5"])
      #expect(faults.calls[.truncate, default: 0] >= 1, "the torn tail was cut, or tried to be")
      try store.close()
    }
    let store = try store(directory)
    let log = ReportLog()
    let restarted = try BatchingStage(
      destination: ScriptedDestination(), clock: ManualClock(), outbox: store, onReport: log.handler)
    let recovered = restarted.state.withLock { $0.queue.elements.map(\.event.id) }
    #expect(recovered == ["e-4", "e-5"], "the stage starts, and exactly the undelivered events come back")
    // The torn tail was cut off, or followed by a new line and then dropped with the journal by the
    // compaction that flush() runs to make the outbox whole: nothing is left to skip.
    let skipped = log.all.filter { if case .outboxLinesSkipped = $0 { true } else { false } }
    #expect(skipped.isEmpty)
  }

  /// A journal append after a torn one whose tail cannot be cut (`ftruncate` fails) starts a new
  /// line, so only the torn bytes are lost, never the next id.
  @Test func anAppendAfterATornTailThatCannotBeCutStartsANewLine() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let faults = FileFaults()
    let stage = try BatchingStage(
      destination: ScriptedDestination(), clock: ManualClock(), outbox: try store(directory, faults: faults))
    faults.failNextWrite(after: 4, errno: EIO, ofPathsEndingIn: ".settled")
    faults.failTruncates(1, errno: EIO)
    let reports = stage.state.withLock { state -> [BatchingStage.Report?] in
      state.outboxState.noteSettled("first-id", sequence: 0)
      let torn = stage.writeJournal(&state, now: .zero, force: true)
      state.outboxState.noteSettled("second-id", sequence: 0)
      return [torn, stage.writeJournal(&state, now: .zero, force: true)]
    }
    #expect(reports.first! != nil, "the first write tore")
    #expect(reports.last! == .outboxRecovered(failedAttempts: 1), "the second went through")
    let journal = try BatchingStage.readJournal(at: directory.path + "/events.settled")
    #expect(journal.ids == ["first-id", "second-id"])
    #expect(journal.skipped.lineNumbers == [1] && journal.skipped.byteCount == 4)
  }

  @Test func damagedLinesAnywhereInTheOutboxFilesAreSkippedAndReported() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let events = makeEvents(5)
    let cutShort = #"{"name":"tap","id":"e-"#
    var snapshot: [UInt8] = []
    BatchingStage.encode([events[0]], to: &snapshot)
    snapshot += Array(cutShort.utf8) + [0x0A]  // a line cut short, then a new line
    BatchingStage.encode(Array(events[1...3]), to: &snapshot)
    // The store's log, damaged the same way; the store skips the line, the stage reports it.
    var log: [UInt8] = Array(cutShort.utf8) + [0x0A]
    BatchingStage.encode([events[4]], to: &log)
    let journal = Array("\"e-0\"\n\"e-\n\"e-2\"\n".utf8)
    try Data(snapshot).write(to: directory.url.appendingPathComponent("events.pending"))
    try Data(journal).write(to: directory.url.appendingPathComponent("events.settled"))
    try Data(log).write(to: directory.url.appendingPathComponent("events.jsonl"))

    let store = try store(directory)
    let reports = ReportLog()
    let stage = try BatchingStage(
      destination: ScriptedDestination(), clock: ManualClock(), outbox: store, onReport: reports.handler)
    let recovered = stage.state.withLock { $0.queue.elements.map(\.event.id) }
    #expect(recovered == ["e-1", "e-3", "e-4"])
    #expect(
      reports.all.contains(
        .outboxLinesSkipped(path: directory.path + "/events.settled", lineNumbers: [2], byteCount: 3)))
    for (file, line) in [("events.pending", 2), ("events.jsonl", 1)] {
      let report = BatchingStage.Report.outboxLinesSkipped(
        path: directory.path + "/" + file, lineNumbers: [line], byteCount: cutShort.utf8.count)
      #expect(reports.all.contains(report), "\(reports.all)")
    }
    #expect(stage.statistics.outboxSkippedLineCount == 3)
  }

  // MARK: Reports and latency

  @Test func aFailingOutboxIsReportedOnceAndTriedOnABackoffSchedule() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    let log = ReportLog()
    let faults = FileFaults()
    let store = try store(directory, clock: clock, bufferBytes: 4 << 10, faults: faults)
    let stage = try BatchingStage(
      destination: DownDestination(),
      configuration: .init(
        maximumBatchSize: 10, maximumBatchAge: .zero, queueCapacity: 100,
        retry: RetryPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(10), jitter: 0, seed: 1)),
      clock: clock, outbox: store, onReport: log.handler)
    let callsBefore = faults.calls.values.reduce(0, +)
    faults.failEveryCall(errno: EIO)
    // 10 seconds of driver wakes, 10 ms apart, with a send before each.
    for event in makeEvents(1_000) {
      try stage.send(event)
      clock.advance(by: .milliseconds(10))
      await stage.deliverDueBatches()
    }
    let operations = faults.calls.values.reduce(0, +) - callsBefore
    let failures = log.all.filter { if case .outboxFailed = $0 { true } else { false } }
    #expect(failures.count == 1, "\(failures.count) outboxFailed reports for one run of failures")
    #expect(stage.statistics.outboxFailureCount > 1, "every failure is counted")
    // 100 ms doubling up to 30 s: about 7 tries in 10 s, each a few file operations; not one per wake.
    #expect((1...100).contains(operations), "\(operations) file operations in 1,000 wakes")
    faults.stopFailing()
    clock.advance(by: .seconds(30))
    await stage.deliverDueBatches()
    let recoveries = log.all.filter { if case .outboxRecovered = $0 { true } else { false } }
    #expect(recoveries.count == 1, "the end of the failure is reported once")
    print(
      "failing outbox: \(failures.count) outboxFailed report(s), \(stage.statistics.outboxFailureCount) failures counted, \(operations) file operations tried in 1,000 wakes over 10 s"
    )
  }

  /// The stage's two calls that sync: a compaction (its snapshot) and the flush before a batch (the
  /// store's active file).
  enum SyncingWork: String, CaseIterable, Sendable {
    case compaction = "events.pending.tmp"
    case flushBeforeABatch = "events.jsonl"
  }

  @Test(arguments: SyncingWork.allCases)
  func aSendDoesNotWaitForTheOutboxsSync(during work: SyncingWork) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let faults = FileFaults()
    let store = try store(directory, faults: faults)
    let stage = try BatchingStage(
      destination: DownDestination(),
      configuration: .init(maximumBatchSize: 1_000, maximumBatchAge: .seconds(3600), queueCapacity: 120),
      clock: ManualClock(), outbox: store)
    // 120 events written reach the compaction threshold (the queue capacity).
    for event in makeEvents(120) { try stage.send(event) }
    let hold = SyncHold()
    faults.beforeSync { path in if path.hasSuffix("/" + work.rawValue) { hold.wait() } }
    let finished = DoneFlag()
    // The work runs on a thread of its own: its held fsync blocks no thread of the pool.
    let compactor = Thread {
      _ = work == .compaction ? stage.compactOutbox() : stage.flushOutbox()
      finished.done.store(true, ordering: .releasing)
    }
    compactor.start()
    // Bounds for a test task starved of pool threads (resumptions 160 s late were measured under
    // the thread sanitizer with both cores busy); the hold outlasts them.
    try await waitUntil("the \(work) reaches its fsync") { hold.wasHeld }
    for event in makeEvents(50, from: 120) { try stage.send(event) }
    #expect(hold.isHeld, "50 sends went on while the fsync was held")
    hold.release()
    try await waitUntil("the \(work) finishes") { finished.done.load(ordering: .acquiring) }
    #expect(stage.statistics.outboxCompactionCount == (work == .compaction ? 1 : 0))
    try store.flush()
    try store.close()
    let reopened = try self.store(directory)
    let restarted = try BatchingStage(destination: ScriptedDestination(), clock: ManualClock(), outbox: reopened)
    let recovered = restarted.state.withLock { $0.queue.elements.map(\.event.id) }
    #expect(recovered == makeEvents(120, from: 50).map(\.id), "the queue, with the events sent during the \(work)")
  }
}

/// Holds the `fsync` of the thread that calls ``wait()`` until ``release()``, or
/// ``stallProofDeadline`` at most: long enough for a test task starved of pool threads to see it
/// held, short enough that a send that waits for the sync fails the test instead of hanging it.
private final class SyncHold: Sendable {
  private let state = SanitizerVisibleMutex<(held: Bool, wasHeld: Bool, released: Bool)>((false, false, false))

  func wait() {
    state.withLock {
      $0.held = true
      $0.wasHeld = true
    }
    // On the syncing thread, never a pool thread: a slow disk, on demand.
    _ = blockUntil { state.withLock { $0.released } }
    state.withLock { $0.held = false }
  }

  func release() { state.withLock { $0.released = true } }
  var isHeld: Bool { state.withLock { $0.held } }
  var wasHeld: Bool { state.withLock { $0.wasHeld } }
}

/// Set once by a thread of its own, read by the test.
private final class DoneFlag: Sendable {
  let done = Atomic<Bool>(false)
}

/// Ids gathered from a report handler.
private final class IDLog: Sendable {
  private let storage = SanitizerVisibleMutex<Set<String>>([])

  func add(_ ids: [String]) { storage.withLock { $0.formUnion(ids) } }
  var ids: Set<String> { storage.withLock { $0 } }
}
