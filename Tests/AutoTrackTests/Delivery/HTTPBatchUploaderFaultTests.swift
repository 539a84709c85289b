import AutoTrackTesting
import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Foundation
import LoopbackCollector
import Testing

@testable import AutoTrack

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The uploader against a collector that misbehaves: trickles, hangs, floods, asks for busy retries.
///
/// Deadlines here are short (1 s). What ended a request is checked by its outcome, never by how
/// soon it ended: under the thread sanitizer with both cores busy the whole process has paused for
/// 46 s, longer than the 13 s URLSession backstop (three times the deadline plus 10 s) and the 18 s
/// a trickled answer takes, so no upper bound on the time can tell the uploader's deadline from
/// them on such a machine. The outcome can: only the uploader's deadline ends a request in
/// ``DeliveryFailure/deadlineExceeded(deadline:)``; the backstop ends it in a transport failure,
/// and a trickled answer that arrives in a status.
@Suite struct HTTPBatchUploaderFaultTests {
  static let deadline = Duration.seconds(1)

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
    let collector = try makeCollector()
    defer { collector.stop() }
    collector.enqueue(response)
    let uploader = uploader(collector)
    let events = makeEvents(2)
    let started = ContinuousClock.now
    let result = await uploader.deliver(events)
    let elapsed = ContinuousClock.now - started
    // Ended by the uploader's own deadline, neither by the backstop nor by the answer's end.
    #expect(result == .whole(events, .retry(failure: .deadlineExceeded(deadline: Self.deadline), retryAfter: nil)))
    #expect(elapsed >= Self.deadline, "the request ran until its deadline")
    let statistics = uploader.statistics
    #expect(statistics.deadlineExceededCount == 1)
    // The uploader's own measure, taken where the request ended, before the test task resumed.
    #expect(statistics.longestRequestDuration >= Self.deadline)
    print(
      "\(response) against a \(Self.deadline) deadline: the request ended after "
        + "\(statistics.longestRequestDuration), the call returned after \(elapsed)")
  }

  /// Creating a data task waits for the session's internal queue, which a loaded machine has kept
  /// busy for 7.5 s. The deadline counts from the start of the request and is armed before the
  /// task is made, on a queue of its own, so such a stall cannot push the end of the request out.
  ///
  /// The stall here lasts until the exchange has ended: a deadline armed on the session queue, or
  /// counted from the task's creation, cannot end it while the task is being made, and the stall
  /// then gives up at ``stallProofDeadline`` with the exchange still running. The check is that
  /// order, not a time, so a stall of the whole process cannot fail it.
  @Test func aStallWhileTheTaskIsMadeCannotHoldARequestPastItsDeadline() async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    collector.enqueue(.hang)
    let uploader = uploader(collector)
    let sessionQueue = DispatchQueue(label: "test.session")
    let exchange = UploadExchange(
      maximumBodyBytes: 1024, sessionQueue: sessionQueue, deadlineQueue: DispatchQueue(label: "test.deadline"))
    // Whether the exchange had ended when the stall gave way; set once the stall is over, and never
    // when the exchange ended before the session queue came to make the task (it is not made then).
    let endedDuringTheStall = SanitizerVisibleMutex<Bool?>(nil)
    let started = ContinuousClock.now
    let completion = await exchange.run(deadline: Self.deadline, startedAt: .now()) { exchange in
      // On the test's own session queue, a Dispatch thread, never one of the cooperative pool.
      let ended = blockUntil { exchange.endedAt != nil }
      endedDuringTheStall.withLock { $0 = ended }
      let task = uploader.session.dataTask(with: URLRequest(url: collector.url))
      uploader.sessionDelegate.register(exchange, for: task)
      return task
    }
    #expect(completion == .failed(.deadlineExceeded(deadline: Self.deadline)))
    let ended = try #require(exchange.endedAt)
    #expect(ended - started >= Self.deadline)
    // The exchange may resume the test before the stalled thread sees that it ended: the session
    // queue is serial, so a block queued now runs once the task is made (or skipped).
    await withCheckedContinuation { continuation in sessionQueue.async { continuation.resume() } }
    #expect(endedDuringTheStall.withLock { $0 } != false, "the request ended while its task was being made")
  }

  @Test(arguments: [true, false])
  func aHugeResponseBodyIsNotRead(declaresLength: Bool) async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    let gibibyte = 1 << 30
    collector.enqueue(.hugeBody(byteCount: gibibyte, status: 200, declaresLength: declaresLength))
    let cap = 64 * 1024
    let uploader = uploader(collector, timeout: loopbackAnswerDeadline, bodyCap: cap)
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
    let collector = try makeCollector()
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
