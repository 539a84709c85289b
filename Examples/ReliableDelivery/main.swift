// Deliver analytics events through a collector outage: a `BatchingStage` in front of an
// `HTTPBatchUploader`, posting to a local collector that fails twice and then accepts.
//
//   swift run ReliableDelivery

import AutoTrack
import Foundation
import LoopbackCollector

// MARK: A collector on 127.0.0.1 with a script: 503 + Retry-After, then 500, then 200 OK

let collector = try LoopbackCollector()
defer { collector.stop() }
collector.enqueue(.status(503, retryAfter: "1"), .status(500))  // afterwards: the default, 200 OK
print("collector listening on \(collector.url)")
print("script: 503 Service Unavailable (Retry-After: 1), then 500 Internal Server Error, then 200 OK\n")

// MARK: The pipeline: stage → uploader

let uploader = HTTPBatchUploader(configuration: .init(endpoint: collector.url, timeout: .seconds(5)))

// Short delays so the example finishes in about a second and a half. No jitter, so the
// backoff is exactly initialDelay × multiplier^(retry − 1).
let configuration = BatchingStage.Configuration(
  maximumBatchSize: 3,
  maximumBatchAge: .milliseconds(200),
  retry: RetryPolicy(initialDelay: .milliseconds(150), multiplier: 2, jitter: 0)
)

// The stage reports what it does; the example turns the reports into a stream it can wait on.
let (reports, reportContinuation) = AsyncStream<BatchingStage.Report>.makeStream()
let stage = try BatchingStage(destination: uploader, configuration: configuration) { report in
  reportContinuation.yield(report)
}
let driver = Task { await stage.run() }  // production drives a stage like this, on the system clock
let start = ContinuousClock.now

func stamp() -> String {
  let elapsed = ContinuousClock.now - start
  let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
  return "[+\(milliseconds) ms]"
}

// MARK: Capture three events; the third fills a batch, so the stage sends at once

let names = ["screen_view", "element_click", "element_click"]
for (index, name) in names.enumerated() {
  let event = TrackedEvent(
    name: name, sequence: UInt64(index + 1), timestampMs: Int64(Date().timeIntervalSince1970 * 1000),
    properties: ["screen_name": "Checkout", "element_content": index == 0 ? "" : "Pay"])
  try stage.send(event)
  print("\(stamp()) app: sent \(name) #\(index + 1) to the stage (returns at once, never waits for the network)")
}

// MARK: Watch the stage work

var attempts = 0
reportLoop: for await report in reports {
  switch report {
  case .retryScheduled(let eventCount, let attempt, let delay, let failure):
    attempts = attempt
    let why: String
    if case .httpStatus(503) = failure {
      why = "the server's Retry-After is honoured"
    } else {
      why = "no Retry-After, so exponential backoff: 150 ms × 2^\(attempt - 1)"
    }
    print("\(stamp()) attempt \(attempt) failed (\(failure)); \(eventCount) events wait \(delay): \(why)")
  case .delivered(let count):
    print("\(stamp()) attempt \(attempts + 1) accepted: \(count) events delivered")
    break reportLoop
  case .rejected(let eventIDs, let failure):
    print("\(stamp()) rejected \(eventIDs.count) events for good: \(failure)")
    break reportLoop
  case .droppedOnOverflow(let eventIDs):
    print("\(stamp()) queue full: dropped \(eventIDs.count) events")
  case .recovered(let count):
    print("\(stamp()) recovered \(count) events from the outbox")
  case .outboxFailed(let error):
    print("\(stamp()) outbox failed: \(error)")
  case .outboxRecovered(let failedAttempts):
    print("\(stamp()) outbox works again after \(failedAttempts) failed attempts")
  case .outboxLinesSkipped(let path, let lineNumbers, _):
    print("\(stamp()) outbox: skipped \(lineNumbers.count) damaged lines of \(path)")
  }
}
driver.cancel()

// MARK: What the collector saw

func describe(_ response: LoopbackCollector.Response) -> String {
  guard case .status(let code, let retryAfter) = response else { return "\(response)" }
  return retryAfter.map { "\(code), Retry-After: \($0)" } ?? "\(code)"
}
print("\nthe collector received \(collector.requests.count) requests:")
for (index, request) in collector.requests.enumerated() {
  let ids = request.eventIDs.map { $0.prefix(8) }.joined(separator: " ")
  print("  \(index + 1). \(request.method) \(request.path) events [\(ids)] → \(describe(request.response))")
}
let sameIDs = Set(collector.requests.map(\.eventIDs)).count == 1
print("each retry resent \(sameIDs ? "the same" : "different") event ids: a collector can drop duplicates by id")
print("accepted: \(collector.acceptedEventIDs.count) events, \(collector.uniqueAcceptedEventIDs.count) unique")
let statistics = stage.statistics
print(
  "stage statistics: sent \(statistics.sentCount), delivered \(statistics.deliveredCount), "
    + "retries \(statistics.retryCount), dropped \(statistics.droppedOnOverflowCount + statistics.rejectedCount), "
    + "pending \(statistics.pendingCount)")
guard statistics.deliveredCount == names.count, statistics.pendingCount == 0 else {
  print("FAILED: not every event was delivered")
  exit(1)
}
print("delivered \(statistics.deliveredCount) of \(names.count) events after \(statistics.retryCount) retries")
