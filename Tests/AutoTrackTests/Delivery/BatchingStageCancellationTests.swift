import DelegateProxyKit
import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Dispatch
import Foundation
import LoopbackCollector
import Testing

@testable import AutoTrack

/// Stopping a stage's driver while its uploader has a request in flight, over and over.
///
/// The awaited `URLSession.data(for:)` of swift-corelibs-foundation deadlocks or crashes on this
/// (see ``HTTPBatchUploader``); the uploader's delegate-driven tasks must not.
@Suite struct BatchingStageCancellationTests {
  /// The bound on one cancel. A deadlock never ends, so any bound tells it apart; the driver needs
  /// a cooperative thread to finish, and a full run under the thread sanitizer with both cores busy
  /// (load average 21) has taken 22 s for one cancel, and a test task has resumed 160 s late.
  static let cancelBound = stallProofDeadline

  @Test func cancellingTheDriverWithRequestsInFlightNeverDeadlocks() async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    collector.defaultResponse = .hang
    // A deadline past `cancelBound`: only the cancellation can end these requests.
    let uploader = HTTPBatchUploader(configuration: .init(endpoint: collector.url, timeout: Self.cancelBound * 2))
    let log = ReportLog()
    let stage = try BatchingStage(
      destination: uploader, configuration: .init(maximumBatchSize: 1, maximumBatchAge: .zero),
      onReport: log.handler)
    try stage.send(makeEvents(1)[0])
    var slowest = Duration.zero
    for round in 0..<100 {
      let startedRequests = uploader.statistics.requestCount
      let heldRequests = collector.requests.count
      let driver = Task { await stage.run() }
      // Alternate the moment of the cancel: as soon as the request has started on the client, and
      // once the collector holds a request too (maybe this one, maybe an earlier one whose
      // connection arrived late: either way this round's request is in flight).
      try await waitUntil("round \(round): the request starts") {
        uploader.statistics.requestCount > startedRequests
      }
      if !round.isMultiple(of: 2) {
        try await waitUntil("round \(round): the collector holds the request") {
          collector.requests.count > heldRequests
        }
      }
      let started = ContinuousClock.now
      driver.cancel()
      let ended = await finishes(driver, within: Self.cancelBound)
      try #require(ended, "round \(round): the cancelled driver did not finish within \(Self.cancelBound)")
      slowest = max(slowest, ContinuousClock.now - started)
    }
    let statistics = stage.statistics
    #expect(statistics.pendingCount == 1, "the event in flight is back in the queue, not lost")
    #expect(statistics.retryCount == 0, "a cancelled attempt is not a failed one")
    #expect(statistics.rejectedCount == 0)
    #expect(uploader.statistics.cancelledCount == 100)
    #expect(log.all.isEmpty, "nothing to report: nothing was delivered, retried or dropped")
    print("slowest of 100 cancels: \(slowest)")

    // The process's URLSession machinery still works: the same uploader, and the same stage.
    collector.defaultResponse = .ok
    let fresh = makeEvents(2, prefix: "fresh")
    #expect(await uploader.deliver(fresh) == .whole(fresh, .accepted))
    let acknowledgement = try await stage.flush()
    #expect(acknowledgement.acknowledgedCount == 1)
    // Cancelled requests whose bytes had already left may reach the collector late and be answered
    // 200 now: duplicates of e-0, which its id lets a collector drop.
    #expect(Set(collector.acceptedEventIDs) == Set(fresh.map(\.id) + ["e-0"]))
    #expect(collector.acceptedEventIDs.filter { $0.hasPrefix("fresh") } == fresh.map(\.id))
  }

}
