import AutoTrackTesting
import Foundation
import LoopbackCollector
import Testing

@testable import AutoTrack

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The uploader against a collector that misbehaves: trickles, hangs, floods, asks for busy retries.
///
/// Deadlines here are short (1 s). Time bounds are on what the uploader measured itself, where
/// the request ended: the test task resumes only when a thread of the cooperative pool is free,
/// which on a loaded machine running the whole suite under a sanitizer can take any time.
@Suite struct HTTPBatchUploaderFaultTests {
  static let deadline = Duration.seconds(1)
  /// How late the uploader's own measure of a request may be after its deadline. The deadline
  /// timer has fired 0.65 s late under the thread sanitizer on a loaded machine; 8 s is still
  /// short of the 13 s URLSession backstop (three times the deadline plus 10 s) and of the 18 s
  /// the trickled answer takes, so only the uploader's own deadline can end the request in time.
  static let lateness = Duration.seconds(8)

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
    let statistics = uploader.statistics
    #expect(statistics.deadlineExceededCount == 1)
    // The uploader's own measure, taken where the request ended, before the test task resumed.
    #expect(statistics.longestRequestDuration >= Self.deadline)
    #expect(
      statistics.longestRequestDuration < Self.deadline + Self.lateness,
      "the request ended \(statistics.longestRequestDuration) after it started")
    print(
      "\(response) against a \(Self.deadline) deadline: the request ended after "
        + "\(statistics.longestRequestDuration), the call returned after \(elapsed)")
  }

  /// Creating a data task waits for the session's internal queue, which a loaded machine has kept
  /// busy for 7.5 s. The deadline counts from the start of the request and is armed before the
  /// task is made, on a queue of its own, so such a stall cannot push the end of the request out.
  @Test func aStallWhileTheTaskIsMadeCannotHoldARequestPastItsDeadline() async throws {
    let collector = try LoopbackCollector()
    defer { collector.stop() }
    collector.enqueue(.hang)
    let uploader = uploader(collector)
    let exchange = UploadExchange(
      maximumBodyBytes: 1024, sessionQueue: DispatchQueue(label: "test.session"),
      deadlineQueue: DispatchQueue(label: "test.deadline"))
    let stall = Duration.seconds(6)
    let started = ContinuousClock.now
    let completion = await exchange.run(deadline: Self.deadline, startedAt: .now()) { exchange in
      // On the test's own session queue, a Dispatch thread, never one of the cooperative pool.
      Thread.sleep(forTimeInterval: stall.seconds)
      let task = uploader.session.dataTask(with: URLRequest(url: collector.url))
      uploader.sessionDelegate.register(exchange, for: task)
      return task
    }
    #expect(completion == .failed(.deadlineExceeded(deadline: Self.deadline)))
    let ended = try #require(exchange.endedAt)
    #expect(ended - started >= Self.deadline)
    #expect(ended - started < stall - .seconds(1), "the request ended \(ended - started) after it started")
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
      // Not a deadline test: a timeout that a stalled session on a loaded machine cannot reach, so
      // every answer is the collector's 503 (checked below) and never a deadline's default backoff.
      destination: uploader(collector, timeout: loopbackAnswerDeadline),
      configuration: .init(
        maximumBatchSize: 3, retry: RetryPolicy(jitter: 0, minimumRetryAfter: .milliseconds(1_500), seed: 1)),
      clock: clock, onReport: log.handler)
    let events = makeEvents(3)
    for event in events { try stage.send(event) }
    await stage.deliverDueBatches()
    #expect(log.retryFailures == [.httpStatus(code: 503)], "the collector's answer, not another failure")
    #expect(log.retryDelays == [.milliseconds(1_500)], "Retry-After: 0 is raised to the minimum")
    #expect(stage.statistics.nextAttemptAt == .milliseconds(1_500))
    await stage.deliverDueBatches()
    clock.advance(by: .milliseconds(1_499))
    await stage.deliverDueBatches()
    #expect(collector.requests.count == 1, "no request before the minimum delay is over")
    clock.advance(by: .milliseconds(1))
    await stage.deliverDueBatches()
    #expect(collector.requests.count == 2)
    #expect(log.retryFailures == [.httpStatus(code: 503), .httpStatus(code: 503)])
    #expect(
      log.retryDelays == [.milliseconds(1_500), .milliseconds(1_500)], "a date in the past is raised to the minimum")
    #expect(stage.statistics.nextAttemptAt == .milliseconds(3_000))
    clock.advance(by: .milliseconds(1_500))
    try await stage.flush()
    #expect(collector.acceptedEventIDs == events.map(\.id))
    #expect(collector.requests.count == 3)
  }
}
