import ClockTestSupport
import Foundation
import LoopbackCollector
import Testing

@testable import AutoTrack

/// The uploader against a collector that misbehaves: trickles, hangs, floods, asks for busy retries.
///
/// Deadlines here are short (1 s) and the upper bounds generous, for a loaded 2-core machine
/// running the suite under a sanitizer.
@Suite struct HTTPBatchUploaderFaultTests {
  static let deadline = Duration.seconds(1)
  /// How long after the deadline the awaiting call may return. The request itself ends on time
  /// (checked with the uploader's own measure); the test task then waits for a cooperative thread,
  /// which in a full `swift test` run, with suites that block their threads, took up to 5.5 s.
  static let slack = Duration.seconds(29)

  func uploader(_ collector: LoopbackCollector, timeout: Duration = deadline, bodyCap: Int = 64 * 1024)
    -> HTTPBatchUploader
  {
    HTTPBatchUploader(
      configuration: .init(endpoint: collector.url, timeout: timeout, maximumResponseBodyBytes: bodyCap))
  }

  @Test(arguments: [
    LoopbackCollector.Response.trickle(interval: .milliseconds(200)), .hang,
  ])
  func aSlowOrSilentServerCannotHoldARequestPastItsDeadline(response: LoopbackCollector.Response) async throws {
    let collector = try LoopbackCollector()
    defer { collector.stop() }
    collector.enqueue(response)
    let uploader = uploader(collector)
    let events = makeEvents(2)
    let started = ContinuousClock.now
    let result = await uploader.deliver(events)
    let elapsed = ContinuousClock.now - started
    #expect(result == .whole(events, .retry(failure: .deadlineExceeded(deadline: Self.deadline), retryAfter: nil)))
    #expect(elapsed >= Self.deadline, "the request ran until its deadline")
    #expect(elapsed < Self.deadline + Self.slack, "the call returned \(elapsed) after it started")
    let statistics = uploader.statistics
    #expect(statistics.deadlineExceededCount == 1)
    // The uploader's own measure, taken where the request ended, before the test task resumed
    // (on a loaded machine that can take seconds more). Its timer itself fired 0.65 s late once
    // under the thread sanitizer; 4 s is still far short of the 13 s URLSession backstop and of
    // the 18 s the trickled answer takes.
    #expect(statistics.longestRequestDuration >= Self.deadline)
    #expect(
      statistics.longestRequestDuration < Self.deadline + .seconds(4),
      "the request ended \(statistics.longestRequestDuration) after it started")
    print(
      "\(response) against a \(Self.deadline) deadline: the request ended after "
        + "\(statistics.longestRequestDuration), the call returned after \(elapsed)")
  }

  @Test(arguments: [true, false])
  func aHugeResponseBodyIsNotRead(declaresLength: Bool) async throws {
    let collector = try LoopbackCollector()
    defer { collector.stop() }
    let gibibyte = 1 << 30
    collector.enqueue(.hugeBody(byteCount: gibibyte, status: 200, declaresLength: declaresLength))
    let cap = 64 * 1024
    let uploader = uploader(collector, timeout: .seconds(20), bodyCap: cap)
    let events = makeEvents(2)
    #expect(await uploader.deliver(events) == .whole(events, .accepted), "the status decides the outcome")
    let statistics = uploader.statistics
    #expect(statistics.truncatedResponseCount == 1)
    #expect(statistics.deadlineExceededCount == 0)
    if declaresLength {
      #expect(statistics.responseBodyBytesRead == 0, "a body declared over the cap is not read at all")
    } else {
      // Reading stops at the chunk that crosses the cap; FoundationNetworking hands over at most 64 KiB at a time.
      #expect(statistics.responseBodyBytesRead > cap, "read \(statistics.responseBodyBytesRead)")
      #expect(statistics.responseBodyBytesRead <= 2 * cap, "read \(statistics.responseBodyBytesRead)")
    }
    #expect(collector.requests.count == 1)
  }

  @Test func retryAfterZeroAndPastDatesKeepTheMinimumDelay() async throws {
    let collector = try LoopbackCollector()
    defer { collector.stop() }
    collector.enqueue(.retryAfterZero, .retryAfterPastDate)
    let clock = ManualClock()
    let log = ReportLog()
    let stage = try BatchingStage(
      destination: uploader(collector, timeout: .seconds(10)),
      configuration: .init(
        maximumBatchSize: 3, retry: RetryPolicy(jitter: 0, minimumRetryAfter: .milliseconds(1_500), seed: 1)),
      clock: clock, onReport: log.handler)
    let events = makeEvents(3)
    for event in events { try stage.send(event) }
    await stage.deliverDueBatches()
    #expect(log.retryDelays == [.milliseconds(1_500)], "Retry-After: 0 is raised to the minimum")
    #expect(stage.statistics.nextAttemptAt == .milliseconds(1_500))
    await stage.deliverDueBatches()
    clock.advance(by: .milliseconds(1_499))
    await stage.deliverDueBatches()
    #expect(collector.requests.count == 1, "no request before the minimum delay is over")
    clock.advance(by: .milliseconds(1))
    await stage.deliverDueBatches()
    #expect(collector.requests.count == 2)
    #expect(
      log.retryDelays == [.milliseconds(1_500), .milliseconds(1_500)], "a date in the past is raised to the minimum")
    #expect(stage.statistics.nextAttemptAt == .milliseconds(3_000))
    clock.advance(by: .milliseconds(1_500))
    try await stage.flush()
    #expect(collector.acceptedEventIDs == events.map(\.id))
    #expect(collector.requests.count == 3)
  }

  /// Waits for a condition the collector's threads make true, giving up after 10 seconds.
  func waitUntil(_ condition: () -> Bool) async throws {
    let giveUp = ContinuousClock.now + .seconds(10)
    while !condition() {
      try #require(ContinuousClock.now < giveUp, "the condition did not become true within 10 s")
      try await Task.sleep(for: .milliseconds(5))
    }
  }
}
