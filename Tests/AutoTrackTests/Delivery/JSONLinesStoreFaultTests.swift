import AutoTrackTesting
import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Foundation
import HeadlessUI
import Synchronization
import Testing

@testable import AutoTrack

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the store does when it is closed under its writers, loses its directory, or cannot write.
@Suite struct JSONLinesStoreFaultTests {
  private func configuration(
    _ directory: URL, flushEvery: Int = 10_000, bufferCap: Int = 4 << 20, slice: Int = 512 << 10
  ) -> JSONLinesStore.Configuration {
    JSONLinesStore.Configuration(
      directory: directory, flushEveryEvents: flushEvery, flushInterval: .seconds(3600), syncOnFlush: false,
      maximumBufferedBytes: bufferCap, maximumBytesPerAutomaticWrite: slice)
  }

  /// Per race: which sends each writer had accepted and how many were refused as closed. The
  /// lock is one the thread sanitizer sees (`Mutex` waits in the kernel, out of its sight).
  private final class RaceLog: Sendable {
    let accepted = SanitizerVisibleMutex<[String]>([])
    let refusedAsClosed = Atomic<Int>(0)
    let otherErrors = SanitizerVisibleMutex<[AutoTrackError]>([])
  }

  /// 8 writers send while a ninth thread closes the store, 1,000 times over (each race reopens the
  /// store on the same directory). Every send either returned (accepted) or threw `sinkClosed`; the
  /// accepted ones are all in the files at the end, and the store's counters add up in each race.
  @Test func closeRacedByEightWritersLosesNothing() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let races = StressSize.scaled(1_000)
    let writers = 8
    let sendsPerWriter = 6
    var allAccepted: [String] = []
    var refusedTotal = 0
    for race in 0..<races {
      // The store's own lock wait (2 s by default) covers a child process that another test
      // started while the previous race's store was open, and that holds a copy of its lock until
      // it executes its program. That wait blocks, so the store opens on a thread of its own.
      let storeConfiguration = configuration(directory.url, flushEvery: 4)
      let store = try await onDedicatedThread { try JSONLinesStore(configuration: storeConfiguration) }
      let log = RaceLog()
      let closeAfterYields = Int.random(in: 0...40)
      var bodies: [@Sendable () -> Void] = (0..<writers).map { writer in
        {
          for index in 0..<sendsPerWriter {
            let event = TrackedEvent(
              name: "race", id: "r\(race)-w\(writer)-\(index)", sequence: UInt64(index), timestampMs: 0)
            do throws(AutoTrackError) {
              try store.send(event)
              log.accepted.withLock { $0.append(event.id) }
            } catch .sinkClosed {
              log.refusedAsClosed.add(1, ordering: .relaxed)
            } catch {
              log.otherErrors.withLock { $0.append(error) }
            }
          }
        }
      }
      bodies.append {
        for _ in 0..<closeAfterYields { sched_yield() }
        do throws(AutoTrackError) { try store.close() } catch { log.otherErrors.withLock { $0.append(error) } }
      }
      await runOnThreads(bodies)
      let accepted = log.accepted.withLock { $0 }
      let refused = log.refusedAsClosed.load(ordering: .relaxed)
      let statistics = store.statistics
      #expect(log.otherErrors.withLock { $0 }.isEmpty, "race \(race)")
      #expect(accepted.count + refused == writers * sendsPerWriter, "race \(race)")
      #expect(statistics.sentCount == accepted.count, "race \(race)")
      #expect(statistics.droppedAfterCloseCount == refused, "race \(race)")
      #expect(statistics.writtenCount == accepted.count, "race \(race): the final flush wrote every accepted event")
      #expect(statistics.droppedUnwrittenAtCloseCount == 0 && statistics.bufferedCount == 0, "race \(race)")
      allAccepted += accepted
      refusedTotal += refused
    }
    let stored = try JSONLinesStore.readEvents(configuration: configuration(directory.url)).map(\.id)
    #expect(stored.count == allAccepted.count, "no accepted event vanished and none was written twice")
    #expect(Set(stored) == Set(allAccepted))
    print(
      "JSONLinesStoreFaultTests: \(races) close races, \(allAccepted.count) sends accepted and stored, "
        + "\(refusedTotal) refused as closed (counted)")
  }

  /// A flush syncs outside the store's lock: while one thread's `fsync` is held up, another
  /// thread's sends (automatic writes included) go through. The held sync waits up to ``stallProofDeadline`` for the
  /// sends, so a store that syncs under its lock fails the test instead of hanging it; the
  /// flush acknowledges what was written before it synced, the next one the rest.
  @Test func sendsDoNotWaitForAnotherThreadsSync() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let faults = FileFaults()
    var configuration = JSONLinesStore.Configuration(
      directory: directory.url, flushEveryEvents: 5, flushInterval: .seconds(3600), syncOnFlush: true)
    configuration.fileFaults = faults
    let store = try JSONLinesStore(configuration: configuration, clock: ManualClock())
    defer { try? store.close() }
    let events = makeEvents(60)
    for event in events.prefix(10) { try store.send(event) }
    let race = SyncRace()
    faults.beforeSync { _ in
      guard !race.syncing.exchange(true, ordering: .acquiringAndReleasing) else { return }
      let sendsDone = blockUntil { race.sendsDone.load(ordering: .acquiring) }
      race.sendsDoneDuringSync.store(sendsDone, ordering: .releasing)
    }
    let firstFlush = SanitizerVisibleMutex<Result<FlushAcknowledgement, AutoTrackError>?>(nil)
    let sendFailures = SanitizerVisibleMutex<[AutoTrackError]>([])
    await runOnThreads([
      {
        do throws(AutoTrackError) {
          let acknowledgement = try store.flush()
          firstFlush.withLock { $0 = .success(acknowledgement) }
        } catch { firstFlush.withLock { $0 = .failure(error) } }
      },
      {
        while !race.syncing.load(ordering: .acquiring) { sched_yield() }
        for event in events.suffix(50) {
          do throws(AutoTrackError) { try store.send(event) } catch { sendFailures.withLock { $0.append(error) } }
        }
        race.sendsDone.store(true, ordering: .releasing)
      },
    ])
    let sendsFinishedDuringSync = race.sendsDoneDuringSync.load(ordering: .acquiring)
    #expect(sendsFinishedDuringSync, "50 sends finished while the flush's fsync was held")
    #expect(sendFailures.withLock { $0 }.isEmpty)
    let first = try #require(firstFlush.withLock { $0 }).get()
    #expect(first == FlushAcknowledgement(acknowledgedCount: 10, lastAcknowledgedID: "e-9"))
    #expect(store.statistics.writtenCount == 60, "the sends wrote while the sync ran")
    #expect(try store.flush().acknowledgedCount == 60)
    #expect(try store.readAll() == events)
  }

  /// What the threads of ``sendsDoNotWaitForAnotherThreadsSync()`` tell each other.
  private final class SyncRace: Sendable {
    let syncing = Atomic<Bool>(false)
    let sendsDone = Atomic<Bool>(false)
    let sendsDoneDuringSync = Atomic<Bool>(false)
  }

  /// Nothing was written when the directory went: the flush throws; the events stay buffered and
  /// the next flush writes them into a new directory, where a reopened store finds them.
  @Test func aRemovedDirectoryFailsTheNextFlushBeforeAnythingIsWritten() throws {
    let parent = try TemporaryDirectory()
    defer { parent.remove() }
    let url = parent.url.appendingPathComponent("store")
    let events = makeEvents(1_000)
    do {
      let store = try JSONLinesStore(configuration: configuration(url), clock: ManualClock())
      for event in events { try store.send(event) }
      try FileManager.default.removeItem(at: url)
      #expect(throws: AutoTrackError.storeFileReplaced(path: url.path + "/events.jsonl", lostEventCount: 0)) {
        try store.flush()
      }
      #expect(store.statistics.acknowledgedCount == 0, "nothing acknowledged into the unlinked file")
      let acknowledgement = try store.flush()
      #expect(acknowledgement.acknowledgedCount == 1_000)
      try store.close()
    }
    #expect(try JSONLinesStore(configuration: configuration(url)).readAll() == events)
  }

  /// Events already written to the removed file are counted as lost, never acknowledged; the flush
  /// after the removal throws, and every event acknowledged later reads back after reopening.
  @Test func aRemovedDirectoryCountsWhatWentWithItAndAcknowledgesOnlyWhatIsReadable() throws {
    let parent = try TemporaryDirectory()
    defer { parent.remove() }
    let url = parent.url.appendingPathComponent("store")
    let events = makeEvents(1_000)
    let clock = ManualClock()
    var acknowledged = 0
    do {
      let store = try JSONLinesStore(configuration: configuration(url, flushEvery: 100), clock: clock)
      for event in events.prefix(500) { try store.send(event) }
      #expect(store.statistics.writtenCount == 500)
      try FileManager.default.removeItem(at: url)
      // The next automatic write notices; the flush after it reports the loss.
      for event in events.suffix(500) { try store.send(event) }
      #expect(throws: AutoTrackError.storeFileReplaced(path: url.path + "/events.jsonl", lostEventCount: 500)) {
        try store.flush()
      }
      #expect(store.statistics.lostWithReplacedFileCount == 500)
      #expect(store.statistics.acknowledgedCount == 0)
      acknowledged = try store.flush().acknowledgedCount
      try store.close()
    }
    let readable = try JSONLinesStore(configuration: configuration(url)).readAll()
    #expect(acknowledged == 500)
    #expect(readable == Array(events.suffix(500)), "every acknowledged event reads back")
  }

  /// Another file renamed over the active one is noticed the same way as a removal.
  @Test func aReplacedFileFailsTheNextFlush() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try JSONLinesStore(configuration: configuration(directory.url), clock: ManualClock())
    defer { try? store.close() }
    let events = makeEvents(15)
    for event in events.prefix(10) { try store.send(event) }
    try store.flush()
    let foreign = directory.url.appendingPathComponent("other")
    try Data().write(to: foreign)
    #expect(rename(foreign.path, directory.url.appendingPathComponent("events.jsonl").path) == 0)
    for event in events.suffix(5) { try store.send(event) }
    #expect {
      try store.flush()
    } throws: { error in
      guard case .storeFileReplaced(_, let lost) = error as? AutoTrackError else { return false }
      return lost == 0
    }
    #expect(try store.flush().acknowledgedCount == 15)
    #expect(try store.readAll() == Array(events.suffix(5)))
  }

  /// While writes fail, the buffer stops at its cap: the newest event is refused with a typed
  /// error and counted, the buffered ones are kept and written once the disk is back.
  @Test func aFullBufferRefusesTheNewestEventAndCountsIt() throws {
    let parent = try TemporaryDirectory()
    defer { parent.remove() }
    let broken = BrokenDirectory(url: parent.url.appendingPathComponent("store"))
    let cap = 10_000
    let store = try JSONLinesStore(configuration: configuration(broken.url, bufferCap: cap), clock: ManualClock())
    defer { try? store.close() }
    try broken.breakIt()
    let events = makeEvents(200)
    var accepted: [TrackedEvent] = []
    var refused = 0
    for event in events {
      do {
        try store.send(event)
        accepted.append(event)
      } catch {
        #expect(error == .storeBufferFull(path: broken.url.path, limit: cap))
        refused += 1
      }
    }
    let statistics = store.statistics
    #expect(statistics.writeFailureCount == 1, "the clock stood still: one attempt, then the retry delay")
    #expect(refused > 0 && refused == statistics.droppedOverCapacityCount)
    #expect(statistics.bufferedBytes >= cap && statistics.bufferedBytes < cap + 400, "at most one line over the cap")
    #expect(accepted == Array(events.prefix(accepted.count)), "the newest are the ones refused")
    try broken.repair()
    _ = try? store.flush()  // reports the vanished file
    try store.flush()
    #expect(try store.readAll() == accepted)
    try store.send(makeEvents(1, prefix: "late")[0])  // room again
  }

  /// A tracker whose sink refuses events counts the refusals; nothing is dropped without a trace.
  @Test @MainActor func aTrackerCountsWhatItsSinkRefuses() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try JSONLinesStore(configuration: configuration(directory.url))
    try store.close()
    let app = Application()
    let shop = ShopScreen(title: "Shop")
    app.show(NavigationStack(root: shop))
    let tracker = AutoTracker(sink: store, configuration: .init(clock: ManualClock()))
    try tracker.start(app)
    defer { tracker.stop() }
    try shop.list.tapRow(at: IndexPath(row: 0, section: 0))
    // The events are built and refused by the closed store; then its own flush reports it closed.
    await #expect(throws: AutoTrackError.sinkClosed(path: directory.path)) { try await tracker.flush() }
    #expect(tracker.refusedEventCount >= 1)
    #expect(tracker.refusedEventCount == store.statistics.droppedAfterCloseCount)
    #expect(tracker.lastRefusal == .sinkClosed(path: directory.path))
  }
}
