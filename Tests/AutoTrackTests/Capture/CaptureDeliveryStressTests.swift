import AutoTrack
import AutoTrackTesting
import DelegateProxyKit
import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Foundation
import HeadlessUI
import Testing

/// Counts what the tracker captured on its way into the stage.
final class CountingSink: EventSink {
  let next: any EventSink
  private let count = SanitizerVisibleMutex(0)
  init(next: any EventSink) { self.next = next }

  func send(_ event: TrackedEvent) throws(AutoTrackError) {
    count.withLock { $0 += 1 }
    try next.send(event)
  }

  func flush() async throws(AutoTrackError) -> FlushAcknowledgement { try await next.flush() }

  var captured: Int { count.withLock { $0 } }
}

/// Captured events (list taps on the main actor) and events sent from three other threads share
/// one batching stage with a bounded queue: what is delivered is what was sent minus the drops
/// the stage counted, and every event ends in exactly one place.
@Suite @MainActor struct CaptureDeliveryStressTests {
  nonisolated static let taps = 2_000
  nonisolated static let backgroundThreads = 3
  nonisolated static let backgroundEventsPerThread = 2_000

  @Test func capturedAndBackgroundEventsAreDeliveredOrCountedAsDropped() async throws {
    let destination = ScriptedDestination()
    let reports = ReportLog()
    let stage = try BatchingStage(
      destination: destination,
      configuration: .init(maximumBatchSize: 50, maximumBatchAge: .seconds(3600), queueCapacity: 1_000),
      clock: ManualClock(), onReport: reports.handler)
    let counting = CountingSink(next: stage)
    let app = Application()
    let shop = ShopScreen(title: "Shop")
    app.show(NavigationStack(root: shop))
    let clock = ManualClock()
    let tracker = AutoTracker(sink: counting, configuration: .init(clock: clock))
    try tracker.start(app)
    let driver = Task.detached { await stage.run() }

    let senders = Task.detached {
      await runOnThreads(
        (0..<Self.backgroundThreads).map { thread in
          {
            for index in 0..<Self.backgroundEventsPerThread {
              try! stage.send(
                TrackedEvent(name: "background", id: "bg\(thread)-\(index)", sequence: UInt64(index), timestampMs: 0))
            }
          }
        })
    }
    let rows = shop.dataSource.sections[0].count
    for tap in 0..<Self.taps {
      clock.advance(by: .milliseconds(250))
      _ = try shop.list.tapRow(at: IndexPath(row: tap % rows, section: 0))
      if tap.isMultiple(of: 100) { await Task.yield() }
    }
    // Every tap's event built and in the stage; the stage's own flush is retried below.
    _ = try? await tracker.flush()
    await senders.value
    var flushes = 0
    while (try? await stage.flush()) == nil, flushes < 100 { flushes += 1 }
    driver.cancel()
    await driver.value
    tracker.stop()

    let statistics = stage.statistics
    let background = Self.backgroundThreads * Self.backgroundEventsPerThread
    #expect(counting.captured >= Self.taps)  // every tap captured, plus the screen view at start
    #expect(statistics.sentCount == counting.captured + background)
    #expect(statistics.pendingCount == 0)
    #expect(statistics.deliveredCount == statistics.sentCount - statistics.droppedOnOverflowCount)
    var dropped: [String] = []
    for case .droppedOnOverflow(let ids) in reports.all { dropped += ids }
    let delivered = destination.deliveredIDs
    #expect(delivered.count == statistics.deliveredCount)
    #expect(dropped.count == statistics.droppedOnOverflowCount)
    #expect(Set(delivered + dropped).count == statistics.sentCount)
    print(
      "CaptureDeliveryStressTests: \(counting.captured) captured + \(background) from \(Self.backgroundThreads) "
        + "threads; delivered \(statistics.deliveredCount), dropped on overflow \(statistics.droppedOnOverflowCount)")
  }
}
