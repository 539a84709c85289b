import AutoTrackTesting
import DelegateProxyKit
import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Foundation
import Testing

@testable import AutoTrack

/// Events flowing into delivery from several threads at once: nothing is lost without being
/// counted. Counts only; nothing is timed and the stage's clock is a manual one.
@Suite struct DeliveryStressTests {
  static let threads = 4
  static let eventsPerThread = 5_000
  static var total: Int { threads * eventsPerThread }
  static let stageCapacity = 8_000

  /// The events of sending thread `thread`, with ids unique across threads.
  static func events(of thread: Int) -> [TrackedEvent] {
    (0..<eventsPerThread).map { index in
      TrackedEvent(
        name: "element_click", id: "t\(thread)-\(index)", sequence: UInt64(index), timestampMs: Int64(index),
        properties: ["thread": .int(thread)])
    }
  }

  @Test(arguments: [InMemorySink.OverflowPolicy.dropOldest, .dropNewest])
  func inMemorySinkStoresWhatItReceivedMinusCountedDrops(_ policy: InMemorySink.OverflowPolicy) async {
    let dropped = SanitizerVisibleMutex<[String]>([])
    let sink = InMemorySink(capacity: 3_000, overflowPolicy: policy) { event in
      dropped.withLock { $0.append(event.id) }
    }
    await runOnThreads(
      (0..<Self.threads).map { thread in
        { for event in Self.events(of: thread) { sink.send(event) } }
      })
    let stored = sink.events.map(\.id)
    let droppedIDs = dropped.withLock { $0 }
    #expect(sink.receivedCount == Self.total)
    #expect(stored.count == Self.total - sink.droppedCount)
    #expect(stored.count == 3_000)
    #expect(droppedIDs.count == sink.droppedCount)
    // Every event is either stored or reported dropped, never both, never twice.
    #expect(Set(stored).count == stored.count)
    #expect(Set(stored).isDisjoint(with: droppedIDs))
    #expect(Set(stored).union(droppedIDs).count == Self.total)
  }

  /// With `holdDeliveries`, nothing is delivered until every event was sent, so the bounded queue
  /// must overflow by a known amount; without, batches go out while the threads send.
  @Test(arguments: [true, false])
  func batchingStageDeliversWhatWasSentMinusCountedDrops(holdDeliveries: Bool) async throws {
    // Every seventh batch is retried at once, every eleventh rejected; the rest accepted.
    let script: [ScriptedDestination.Answer] = (1...2_000).map { batch in
      if batch.isMultiple(of: 11) { return .outcome(.rejected(failure: .httpStatus(code: 400))) }
      if batch.isMultiple(of: 7) { return .outcome(.retry(failure: .httpStatus(code: 503), retryAfter: .zero)) }
      return .outcome(.accepted)
    }
    let destination = ScriptedDestination(script)
    let gate = DeliveryGate()
    if !holdDeliveries { gate.open() }
    let reports = ReportLog()
    let clock = ManualClock()
    let stage = try BatchingStage(
      destination: GatedDestination(gate: gate, inner: destination),
      configuration: .init(maximumBatchSize: 50, maximumBatchAge: .seconds(3600), queueCapacity: Self.stageCapacity),
      clock: clock, onReport: reports.handler)
    let driver = Task { await stage.run() }
    await runOnThreads(
      (0..<Self.threads).map { thread in
        { for event in Self.events(of: thread) { try! stage.send(event) } }
      })
    gate.open()
    // A flush stops at a batch that asks for a retry; a Retry-After of zero still waits the
    // policy's minimum (1 s), so move the clock past it and flush again.
    var flushes = 0
    while (try? await stage.flush()) == nil, flushes < 1_000 {
      flushes += 1
      clock.advance(by: .seconds(1))
    }
    #expect(flushes < 1_000)
    driver.cancel()
    await driver.value

    let statistics = stage.statistics
    var droppedIDs: [String] = []
    var rejectedIDs: [String] = []
    var deliveredCount = 0
    for report in reports.all {
      switch report {
      case .droppedOnOverflow(let ids): droppedIDs += ids
      case .rejected(let ids, _): rejectedIDs += ids
      case .delivered(let count): deliveredCount += count
      default: break
      }
    }
    #expect(statistics.sentCount == Self.total)
    #expect(statistics.pendingCount == 0)
    #expect(
      statistics.deliveredCount == statistics.sentCount - statistics.droppedOnOverflowCount
        - statistics.rejectedCount)
    #expect(statistics.droppedOnOverflowCount == droppedIDs.count)
    #expect(statistics.rejectedCount == rejectedIDs.count)
    #expect(statistics.deliveredCount == deliveredCount)
    #expect(statistics.retryCount > 0 && statistics.rejectedCount > 0)
    // At most one batch was in flight while the queue filled: everything beyond capacity was dropped.
    if holdDeliveries { #expect(statistics.droppedOnOverflowCount >= Self.total - Self.stageCapacity - 50) }
    print(
      "DeliveryStressTests (deliveries \(holdDeliveries ? "held" : "concurrent")): \(Self.threads) threads sent \(statistics.sentCount) events; delivered "
        + "\(statistics.deliveredCount), dropped on overflow \(statistics.droppedOnOverflowCount), rejected "
        + "\(statistics.rejectedCount), \(statistics.retryCount) retries")
    // Each event ends in exactly one place: accepted, rejected or dropped on overflow.
    let batches = destination.deliveredBatches
    let answers = script.prefix(batches.count)
    var acceptedIDs: [String] = []
    for (batch, answer) in zip(batches, answers) {
      if case .outcome(.accepted) = answer { acceptedIDs += batch.map(\.id) }
    }
    acceptedIDs += batches.dropFirst(script.count).flatMap { $0.map(\.id) }
    #expect(acceptedIDs.count == statistics.deliveredCount)
    let all = acceptedIDs + rejectedIDs + droppedIDs
    #expect(all.count == Self.total)
    #expect(Set(all).count == Self.total)
  }

  @Test func jsonLinesStoreWritesEveryEventSentFromSeveralThreads() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try JSONLinesStore(
      configuration: .init(directory: directory.url, flushEveryEvents: 64, syncOnFlush: false),
      clock: ManualClock())
    await runOnThreads(
      (0..<Self.threads).map { thread in
        { for event in Self.events(of: thread).prefix(1_000) { #expect(throws: Never.self) { try store.send(event) } } }
      })
    try store.flush()
    let stored = try store.readAll().map(\.id)
    #expect(stored.count == Self.threads * 1_000)
    #expect(Set(stored).count == stored.count)
    #expect(store.statistics.droppedUnencodableCount == 0 && store.statistics.writeFailureCount == 0)
    try store.close()
  }
}

/// Holds deliveries until opened.
final class DeliveryGate: Sendable {
  private let state = SanitizerVisibleMutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let proceed = state.withLock { state -> Bool in
        if state.isOpen { return true }
        state.waiters.append(continuation)
        return false
      }
      if proceed { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// Passes batches on to `inner` once the gate is open.
struct GatedDestination: BatchDestination {
  let gate: DeliveryGate
  let inner: ScriptedDestination

  func deliver(_ batch: [TrackedEvent]) async -> DeliveryResult {
    await gate.wait()
    return await inner.deliver(batch)
  }
}
