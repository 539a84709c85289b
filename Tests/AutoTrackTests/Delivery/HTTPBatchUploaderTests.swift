import AutoTrackTesting
import Foundation
import LoopbackCollector
import Testing

@testable import AutoTrack

/// Real HTTP over loopback: every test starts its own collector and stops it.
@Suite struct HTTPBatchUploaderTests {
  static let sentAt = Date(timeIntervalSince1970: 1_700_000_123.456)

  /// An uploader whose deadline (``loopbackAnswerDeadline`` unless a test is about deadlines) a
  /// request on a loaded machine under a sanitizer never reaches, so every outcome is the
  /// collector's answer.
  func uploader(
    _ collector: LoopbackCollector, maximumBatchBytes: Int = 512 * 1024,
    timeout: Duration = loopbackAnswerDeadline
  ) -> HTTPBatchUploader {
    HTTPBatchUploader(
      configuration: .init(
        endpoint: collector.url, maximumBatchBytes: maximumBatchBytes, timeout: timeout,
        headers: ["X-Api-Key": "test-key"]),
      wallClock: { HTTPBatchUploaderTests.sentAt })
  }

  @Test func postsTheBatchAsJSON() async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    let events = makeEvents(3)
    let result = await uploader(collector).deliver(events)
    #expect(result == .whole(events, .accepted))
    let request = try #require(collector.requests.first)
    #expect(collector.requests.count == 1)
    #expect(request.method == "POST")
    #expect(request.path == "/v1/batch")
    #expect(request.headers["content-type"] == "application/json")
    #expect(request.headers["x-api-key"] == "test-key")
    let body = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
    #expect(Set(body.keys) == ["batch", "sent_at"])
    #expect(body["sent_at"] as? Int == 1_700_000_123_456)
    struct Body: Decodable { var batch: [TrackedEvent] }
    #expect(try JSONDecoder().decode(Body.self, from: request.body).batch == events)
  }

  /// A redirect is never a delivery: it is not followed (301, 302 and 303 would come back as a GET
  /// without the body, answered 200 by whatever sits at the new address), and the batch is retried
  /// with a failure that names the redirect.
  @Test(arguments: [301, 302, 303, 307, 308])
  func aRedirectIsRetriedAndNeverFollowed(status: Int) async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    let moved = collector.url.deletingLastPathComponent().appendingPathComponent("moved").absoluteString
    collector.enqueue(.redirect(status: status, location: moved))
    let events = makeEvents(3)
    let result = await uploader(collector).deliver(events)
    #expect(result == .whole(events, .retry(failure: .redirected(status: status, location: moved), retryAfter: nil)))
    #expect(collector.requests.map(\.path) == ["/v1/batch"], "the redirect was not followed")
    #expect(collector.acceptedEventIDs.isEmpty)
  }

  /// The body's exact bytes, as the uploader's documentation states them: sorted keys, `/` not
  /// escaped, an integer as digits and a `Double` always with a fraction or an exponent.
  @Test func theBodyKeepsEachNumbersKind() async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    let event = TrackedEvent(
      name: "n", id: "d-0", sequence: 7, timestampMs: 1_700_000_000_000,
      properties: ["count": .int(3), "ratio": .double(3), "tiny": .double(1e-7), "path": "a/b"])
    #expect(await uploader(collector).deliver([event]) == .whole([event], .accepted))
    let body = try #require(collector.requests.first?.body)
    #expect(
      String(decoding: body, as: UTF8.self)
        == #"{"batch":[{"id":"d-0","name":"n","properties":{"count":3,"path":"a/b","ratio":3.0,"tiny":1e-07},"#
        + #""sequence":7,"timestamp":1700000000000}],"sent_at":1700000123456}"#)
  }

  @Test func splitsTheBatchInHalfOn413() async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    collector.enqueue(.status(413), .status(413))
    let events = makeEvents(8)
    let result = await uploader(collector).deliver(events)
    #expect(result == .whole(events, .accepted))
    #expect(collector.requests.map(\.eventIDs.count) == [8, 4, 2, 2, 4])
    #expect(collector.acceptedEventIDs == events.map(\.id))
  }

  @Test func aSingleEventAnswered413IsRejected() async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    collector.enqueue(.status(413), .status(413))
    let events = makeEvents(2)
    let result = await uploader(collector).deliver(events)
    #expect(
      result
        == DeliveryResult(segments: [
          .init(count: 1, outcome: .rejected(failure: .httpStatus(code: 413))), .init(count: 1, outcome: .accepted),
        ]))
  }

  @Test func aRetryInTheFirstHalfHoldsBackTheSecond() async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    collector.enqueue(.status(413), .status(500))
    let events = makeEvents(4)
    let result = await uploader(collector).deliver(events)
    #expect(result == .whole(events, .retry(failure: .httpStatus(code: 500), retryAfter: nil)))
    #expect(collector.requests.count == 2)
  }

  @Test(arguments: [
    (
      LoopbackCollector.Response.status(429, retryAfter: "7"),
      DeliveryOutcome.retry(failure: .httpStatus(code: 429), retryAfter: .seconds(7))
    ),
    (
      .status(503, retryAfter: "Tue, 14 Nov 2023 22:15:33 GMT"),
      .retry(failure: .httpStatus(code: 503), retryAfter: .milliseconds(10_000 - 456))
    ),
    (.status(503), .retry(failure: .httpStatus(code: 503), retryAfter: nil)),
    (.status(500), .retry(failure: .httpStatus(code: 500), retryAfter: nil)),
    (.status(408), .retry(failure: .httpStatus(code: 408), retryAfter: nil)),
    (.status(400), .rejected(failure: .httpStatus(code: 400))),
    (.status(401), .rejected(failure: .httpStatus(code: 401))),
    (.status(202), .accepted),
  ])
  func mapsStatusCodesToOutcomes(response: LoopbackCollector.Response, expected: DeliveryOutcome) async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    collector.enqueue(response)
    let events = makeEvents(2)
    #expect(await uploader(collector).deliver(events) == .whole(events, expected))
  }

  @Test func aDroppedConnectionIsARetryableTransportFailure() async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    collector.enqueue(.dropConnection)
    let result = await uploader(collector).deliver(makeEvents(2))
    guard case .retry(.transport, nil) = try #require(result.segments.first).outcome else {
      Issue.record("expected a transport retry, got \(result)")
      return
    }
    #expect(collector.requests.count == 1)
  }

  @Test func aServerThatHangsEndsAtTheDeadlineAsARetryableFailure() async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    collector.enqueue(.hang)
    let result = await uploader(collector, timeout: .milliseconds(300)).deliver(makeEvents(2))
    #expect(
      result.segments.map(\.outcome) == [
        .retry(failure: .deadlineExceeded(deadline: .milliseconds(300)), retryAfter: nil)
      ])
  }

  @Test func bodiesStayUnderTheByteLimit() async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    let events = makeEvents(10)
    let limit = 1_200
    let result = await uploader(collector, maximumBatchBytes: limit).deliver(events)
    #expect(result == .whole(events, .accepted))
    #expect(collector.requests.count > 1)
    #expect(collector.requests.allSatisfy { $0.body.count <= limit })
    #expect(collector.acceptedEventIDs == events.map(\.id))
  }

  @Test func anEventLargerThanTheLimitIsRejectedWithoutARequest() async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    var events = makeEvents(1)
    events[0].properties["blob"] = .string(String(repeating: "x", count: 2_000))
    let result = await uploader(collector, maximumBatchBytes: 1_000).deliver(events)
    guard case .rejected(.eventTooLarge(let bytes, 1_000)) = try #require(result.segments.first).outcome else {
      Issue.record("expected eventTooLarge, got \(result)")
      return
    }
    #expect(bytes > 2_000)
    #expect(collector.requests.isEmpty)
  }

  @Test func parsesRetryAfterInBothForms() {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(HTTPBatchUploader.parseRetryAfter("120", now: now) == .seconds(120))
    #expect(HTTPBatchUploader.parseRetryAfter(" 0 ", now: now) == .zero)
    #expect(HTTPBatchUploader.parseRetryAfter("Tue, 14 Nov 2023 22:13:40 GMT", now: now) == .seconds(20))
    #expect(
      HTTPBatchUploader.parseRetryAfter("Mon, 13 Nov 2023 00:00:00 GMT", now: now) == .zero, "past dates mean now")
    #expect(HTTPBatchUploader.parseRetryAfter("-5", now: now) == nil)
    #expect(HTTPBatchUploader.parseRetryAfter("soon", now: now) == nil)
  }
}

/// The whole delivery path against a real collector: stage, outbox, uploader, loopback HTTP.
@Suite struct DeliveryEndToEndTests {
  /// Delivers through the uploader, then claims a transport failure: the response "got lost".
  final class LostResponseDestination: BatchDestination {
    let inner: HTTPBatchUploader
    init(_ inner: HTTPBatchUploader) { self.inner = inner }
    func deliver(_ batch: [TrackedEvent]) async -> DeliveryResult {
      _ = await inner.deliver(batch)
      return .whole(batch, .retry(failure: .transport(reason: "response lost"), retryAfter: nil))
    }
  }

  @Test func honoursRetryAfterThenDeliversEverything() async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    collector.enqueue(.status(503, retryAfter: "2"))
    let clock = ManualClock()
    let log = ReportLog()
    let stage = try BatchingStage(
      destination: HTTPBatchUploader(configuration: .init(endpoint: collector.url, timeout: loopbackAnswerDeadline)),
      configuration: .init(maximumBatchSize: 5, retry: RetryPolicy(jitter: 0, seed: 3)), clock: clock,
      onReport: log.handler)
    let events = makeEvents(12)
    for event in events { try stage.send(event) }
    await #expect(throws: AutoTrackError.flushIncomplete(pendingCount: 12, lastFailure: .httpStatus(code: 503))) {
      try await stage.flush()
    }
    #expect(log.retryDelays == [.seconds(2)])
    clock.advance(by: .seconds(2))
    try await stage.flush()
    #expect(collector.acceptedEventIDs == events.map(\.id))
    #expect(collector.requests.map(\.eventIDs.count) == [5, 5, 5, 2])
  }

  @Test func lostResponsesCauseDuplicatesThatEventIDsLetTheCollectorDrop() async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let events = makeEvents(4)
    let uploader = HTTPBatchUploader(configuration: .init(endpoint: collector.url, timeout: loopbackAnswerDeadline))
    do {
      let store = try JSONLinesStore(configuration: .init(directory: directory.url))
      let stage = try BatchingStage(
        destination: LostResponseDestination(uploader), configuration: .init(maximumBatchSize: 10),
        clock: ManualClock(), outbox: store)
      for event in events { try stage.send(event) }
      await #expect(throws: AutoTrackError.self) { try await stage.flush() }
      try store.close()
    }
    // After the restart the same events go out again.
    let store = try JSONLinesStore(configuration: .init(directory: directory.url))
    let stage = try BatchingStage(destination: uploader, clock: ManualClock(), outbox: store)
    try await stage.flush()
    #expect(collector.acceptedEventIDs == events.map(\.id) + events.map(\.id))
    #expect(collector.uniqueAcceptedEventIDs == events.map(\.id))
  }
}

extension HTTPBatchUploaderTests {
  @Test func anUnencodableEventIsRejectedAndTheRestDelivered() async throws {
    let collector = try makeCollector()
    defer { collector.stop() }
    var events = makeEvents(3)
    events[2].properties["bad"] = .double(.nan)
    let result = await uploader(collector).deliver(events)
    #expect(result.segments.map(\.count) == [2, 1])
    #expect(result.segments.first?.outcome == .accepted)
    guard case .rejected(.encoding) = try #require(result.segments.last).outcome else {
      Issue.record("expected an encoding rejection, got \(result)")
      return
    }
    #expect(collector.acceptedEventIDs == ["e-0", "e-1"])
  }
}
