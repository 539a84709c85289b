import AutoTrackTesting
import DelegateProxyKitSupport
import Foundation
import Testing

@testable import AutoTrack

@Suite struct BatchingStageTests {
  private func stage(
    _ destination: ScriptedDestination, clock: ManualClock, batch: Int = 3, age: Duration = .seconds(5),
    capacity: Int = 100, retry: RetryPolicy = RetryPolicy(jitter: 0, seed: 1), outbox: JSONLinesStore? = nil,
    log: ReportLog = ReportLog()
  ) throws -> BatchingStage {
    try BatchingStage(
      destination: destination,
      configuration: .init(maximumBatchSize: batch, maximumBatchAge: age, queueCapacity: capacity, retry: retry),
      clock: clock, outbox: outbox, onReport: log.handler)
  }

  @Test func sendsAFullBatchAtOnceAndWaitsForAPartialOne() async throws {
    let destination = ScriptedDestination()
    let stage = try stage(destination, clock: ManualClock(), batch: 3)
    let events = makeEvents(7)
    for event in events.prefix(2) { try stage.send(event) }
    await stage.deliverDueBatches()
    #expect(destination.deliveredBatches.isEmpty)
    for event in events.dropFirst(2) { try stage.send(event) }
    await stage.deliverDueBatches()
    #expect(destination.deliveredBatches.map { $0.map(\.id) } == [["e-0", "e-1", "e-2"], ["e-3", "e-4", "e-5"]])
    #expect(stage.statistics.pendingCount == 1)
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity])
  func aValueJSONCannotCarryIsRefusedAtSendAndCounted(_ value: Double) async throws {
    let destination = ScriptedDestination()
    let stage = try stage(destination, clock: ManualClock(), batch: 2)
    let bad = TrackedEvent(name: "bad", id: "bad-1", sequence: 1, timestampMs: 0, properties: ["ratio": .double(value)])
    #expect(
      throws: AutoTrackError.eventEncodingFailed(
        eventID: "bad-1", reason: "property \"ratio\" is not a finite number; JSON has no NaN or infinity")
    ) {
      try stage.send(bad)
    }
    for event in makeEvents(2) { try stage.send(event) }
    await stage.deliverDueBatches()
    #expect(destination.deliveredIDs == ["e-0", "e-1"], "the refused event was never queued")
    #expect(stage.statistics.refusedCount == 1)
    #expect(stage.statistics.sentCount == 2)
  }

  @Test func sendsAPartialBatchOnceItsOldestEventIsOldEnough() async throws {
    let destination = ScriptedDestination()
    let clock = ManualClock()
    let stage = try stage(destination, clock: clock, batch: 10, age: .seconds(5))
    try stage.send(makeEvents(1)[0])
    #expect(stage.nextWakeUp == .seconds(5))
    clock.advance(by: .milliseconds(4_999))
    await stage.deliverDueBatches()
    #expect(destination.deliveredBatches.isEmpty)
    clock.advance(by: .milliseconds(1))
    await stage.deliverDueBatches()
    #expect(destination.deliveredIDs == ["e-0"])
    #expect(stage.nextWakeUp == nil)
  }

  @Test func flushSendsEverythingNowAndAcknowledgesIt() async throws {
    let destination = ScriptedDestination()
    let stage = try stage(destination, clock: ManualClock(), batch: 4)
    for event in makeEvents(6) { try stage.send(event) }
    let acknowledgement = try await stage.flush()
    #expect(acknowledgement == FlushAcknowledgement(acknowledgedCount: 6, lastAcknowledgedID: "e-5"))
    #expect(destination.deliveredBatches.map(\.count) == [4, 2])
    #expect(stage.statistics.deliveredCount == 6)
  }

  @Test func overflowDropsTheOldestWaitingEventsAndReportsThem() async throws {
    let destination = ScriptedDestination()
    let log = ReportLog()
    let stage = try stage(destination, clock: ManualClock(), batch: 10, capacity: 3, log: log)
    for event in makeEvents(5) { try stage.send(event) }
    #expect(stage.statistics.droppedOnOverflowCount == 2)
    #expect(log.all == [.droppedOnOverflow(eventIDs: ["e-0"]), .droppedOnOverflow(eventIDs: ["e-1"])])
    try await stage.flush()
    #expect(destination.deliveredIDs == ["e-2", "e-3", "e-4"])
    #expect(stage.statistics.sentCount == 5)
    #expect(
      stage.statistics.deliveredCount + stage.statistics.droppedOnOverflowCount == 5, "every event is accounted for")
  }

  @Test func retriesWithExponentialBackoffOnTheInjectedClock() async throws {
    let failure = DeliveryFailure.httpStatus(code: 500)
    let destination = ScriptedDestination(outcomes: [
      .retry(failure: failure, retryAfter: nil), .retry(failure: failure, retryAfter: nil),
    ])
    let clock = ManualClock()
    let log = ReportLog()
    let stage = try stage(
      destination, clock: clock, retry: RetryPolicy(initialDelay: .seconds(1), jitter: 0, seed: 7), log: log)
    let events = makeEvents(3)
    for event in events { try stage.send(event) }
    await stage.deliverDueBatches()
    #expect(stage.statistics.nextAttemptAt == .seconds(1))
    clock.advance(by: .milliseconds(999))
    await stage.deliverDueBatches()
    #expect(destination.deliveredBatches.count == 1, "no attempt before the delay is over")
    clock.advance(by: .milliseconds(1))
    await stage.deliverDueBatches()
    #expect(stage.statistics.nextAttemptAt == .seconds(3))
    clock.advance(by: .seconds(2))
    await stage.deliverDueBatches()
    #expect(destination.deliveredBatches.count == 3)
    #expect(destination.deliveredBatches.allSatisfy { $0 == events }, "the same events, in the same order")
    #expect(log.retryDelays == [.seconds(1), .seconds(2)])
    #expect(stage.statistics.retryCount == 2)
    #expect(stage.statistics.deliveredCount == 3)
    #expect(stage.statistics.nextAttemptAt == nil)
  }

  @Test func jitterComesFromTheSeededGenerator() async throws {
    let failure = DeliveryFailure.httpStatus(code: 502)
    let policy = RetryPolicy(initialDelay: .seconds(8), jitter: 0.5, seed: 42)
    let log = ReportLog()
    let destination = ScriptedDestination(outcomes: [
      .retry(failure: failure, retryAfter: nil), .retry(failure: failure, retryAfter: nil),
    ])
    let clock = ManualClock()
    let stage = try stage(destination, clock: clock, retry: policy, log: log)
    for event in makeEvents(3) { try stage.send(event) }
    await stage.deliverDueBatches()
    clock.advance(by: .seconds(60))
    await stage.deliverDueBatches()
    var random = SplitMix64(seed: 42)
    let expected = [
      policy.delay(forRetry: 1, unitRandom: random.nextUnit()),
      policy.delay(forRetry: 2, unitRandom: random.nextUnit()),
    ]
    #expect(log.retryDelays == expected)
    #expect(expected[0] > .seconds(4) && expected[0] <= .seconds(8))
    #expect(expected[1] > .seconds(8) && expected[1] <= .seconds(16))
  }

  @Test func retryAfterFromTheServerReplacesTheBackoff() async throws {
    let destination = ScriptedDestination(outcomes: [
      .retry(failure: .httpStatus(code: 429), retryAfter: .seconds(7)),
      .retry(failure: .httpStatus(code: 503), retryAfter: .seconds(999_999)),
    ])
    let clock = ManualClock()
    let log = ReportLog()
    let stage = try stage(
      destination, clock: clock, retry: RetryPolicy(jitter: 0, maximumRetryAfter: .seconds(60), seed: 1), log: log)
    for event in makeEvents(3) { try stage.send(event) }
    await stage.deliverDueBatches()
    #expect(stage.statistics.nextAttemptAt == .seconds(7))
    clock.advance(by: .seconds(7))
    await stage.deliverDueBatches()
    #expect(log.retryDelays == [.seconds(7), .seconds(60)], "a huge Retry-After is clamped")
  }

  @Test func aPermanentRejectionDropsTheBatchWithAReport() async throws {
    let rejection = DeliveryFailure.httpStatus(code: 400)
    let destination = ScriptedDestination(outcomes: [.rejected(failure: rejection)])
    let log = ReportLog()
    let stage = try stage(destination, clock: ManualClock(), batch: 2, log: log)
    for event in makeEvents(4) { try stage.send(event) }
    try await stage.flush()
    #expect(log.all.contains(.rejected(eventIDs: ["e-0", "e-1"], failure: rejection)))
    #expect(stage.statistics.rejectedCount == 2)
    #expect(stage.statistics.deliveredCount == 2)
    #expect(destination.deliveredBatches.count == 2, "the rejected batch is not retried")
  }

  @Test func givesUpAfterMaximumAttemptsWithAReport() async throws {
    let failure = DeliveryFailure.transport(reason: "refused")
    let destination = ScriptedDestination(
      outcomes: Array(repeating: .retry(failure: failure, retryAfter: nil), count: 5))
    let clock = ManualClock()
    let log = ReportLog()
    let stage = try stage(
      destination, clock: clock, retry: RetryPolicy(jitter: 0, maximumAttempts: 2, seed: 1), log: log)
    for event in makeEvents(3) { try stage.send(event) }
    await stage.deliverDueBatches()
    clock.advance(by: .seconds(1))
    await stage.deliverDueBatches()
    #expect(log.all.last == .rejected(eventIDs: ["e-0", "e-1", "e-2"], failure: .attemptsExhausted(attempts: 2)))
    #expect(stage.statistics.pendingCount == 0)
    #expect(stage.statistics.rejectedCount == 3)
  }

  @Test func partResultsSettleTheirPartAndRetryTheRest() async throws {
    let retry = DeliveryOutcome.retry(failure: .httpStatus(code: 500), retryAfter: nil)
    let destination = ScriptedDestination([
      .result { batch in
        DeliveryResult(segments: [.init(count: 1, outcome: .accepted), .init(count: batch.count - 1, outcome: retry)])
      }
    ])
    let clock = ManualClock()
    let stage = try stage(destination, clock: clock, batch: 3)
    for event in makeEvents(3) { try stage.send(event) }
    await stage.deliverDueBatches()
    #expect(stage.statistics.deliveredCount == 1)
    #expect(stage.statistics.pendingCount == 2)
    clock.advance(by: .seconds(1))
    await stage.deliverDueBatches()
    #expect(destination.deliveredBatches.map { $0.map(\.id) } == [["e-0", "e-1", "e-2"], ["e-1", "e-2"]])
  }

  @Test func flushReportsWhatIsStillWaiting() async throws {
    let failure = DeliveryFailure.httpStatus(code: 503)
    let destination = ScriptedDestination(outcomes: [.retry(failure: failure, retryAfter: .seconds(30))])
    let clock = ManualClock()
    let stage = try stage(destination, clock: clock, batch: 10)
    for event in makeEvents(4) { try stage.send(event) }
    await #expect(throws: AutoTrackError.flushIncomplete(pendingCount: 4, lastFailure: failure)) {
      try await stage.flush()
    }
    await #expect(throws: AutoTrackError.flushIncomplete(pendingCount: 4, lastFailure: nil)) {
      try await stage.flush()
    }
    #expect(destination.deliveredBatches.count == 1, "a flush honours the server's Retry-After")
    clock.advance(by: .seconds(30))
    #expect(try await stage.flush().acknowledgedCount == 4)
  }

  @Test func badConfigurationIsATypedError() {
    #expect(throws: AutoTrackError.invalidConfiguration(parameter: "maximumBatchSize", reason: "must be at least 1")) {
      _ = try BatchingStage(destination: ScriptedDestination(), configuration: .init(maximumBatchSize: 0))
    }
    #expect(throws: AutoTrackError.invalidConfiguration(parameter: "queueCapacity", reason: "must be at least 1")) {
      _ = try BatchingStage(destination: ScriptedDestination(), configuration: .init(queueCapacity: 0))
    }
  }

  // MARK: Restart

  private func outbox(_ directory: TemporaryDirectory) throws -> JSONLinesStore {
    try JSONLinesStore(
      configuration: .init(directory: directory.url, flushEveryEvents: 1_000, flushInterval: .seconds(60)))
  }

  @Test func anOutboxThatKeepsRefusingIsReportedOnceAndCountedPerEvent() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try outbox(directory)
    let destination = ScriptedDestination()
    let log = ReportLog()
    let stage = try stage(destination, clock: ManualClock(), batch: 1_000, outbox: store, log: log)
    try store.close()
    let events = makeEvents(100)
    for event in events { try stage.send(event) }

    let refusals = log.all.filter { report in
      if case .outboxFailed = report { return true }
      return false
    }
    #expect(refusals == [.outboxFailed(error: .sinkClosed(path: directory.url.path))])
    #expect(stage.statistics.outboxRefusedCount == 100)
    await stage.deliverDueBatches()
    #expect(stage.statistics.pendingCount == 100, "the queue kept every event the outbox refused")
  }

  @Test func anInFlightBatchSurvivesARestart() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let events = makeEvents(5)
    do {
      // The process "dies" while the batch is failing: nothing was delivered.
      let failing = ScriptedDestination(outcomes: [.retry(failure: .transport(reason: "offline"), retryAfter: nil)])
      let store = try outbox(directory)
      let first = try stage(failing, clock: ManualClock(), batch: 10, outbox: store)
      for event in events { try first.send(event) }
      await #expect(throws: AutoTrackError.self) { try await first.flush() }
      try store.close()
    }
    let destination = ScriptedDestination()
    let log = ReportLog()
    let store = try outbox(directory)
    let second = try stage(destination, clock: ManualClock(), batch: 10, outbox: store, log: log)
    #expect(second.statistics.recoveredCount == 5)
    #expect(log.all == [.recovered(count: 5)])
    try await second.flush()
    #expect(destination.deliveredBatches == [events])
    #expect(try store.readAll().isEmpty, "a stage with nothing waiting empties its outbox")
  }

  @Test func onlyUnsettledEventsComeBackAfterARestart() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let events = makeEvents(6)
    let rejection = DeliveryFailure.httpStatus(code: 422)
    do {
      let destination = ScriptedDestination(outcomes: [
        .accepted, .rejected(failure: rejection), .retry(failure: .httpStatus(code: 500), retryAfter: nil),
      ])
      let store = try outbox(directory)
      let first = try stage(destination, clock: ManualClock(), batch: 2, outbox: store)
      for event in events { try first.send(event) }
      await #expect(throws: AutoTrackError.self) { try await first.flush() }
      #expect(first.statistics.deliveredCount == 2)
      #expect(first.statistics.rejectedCount == 2)
      try store.close()
    }
    let destination = ScriptedDestination()
    let store = try outbox(directory)
    let second = try stage(destination, clock: ManualClock(), batch: 10, outbox: store)
    #expect(second.statistics.recoveredCount == 2)
    try await second.flush()
    #expect(destination.deliveredIDs == ["e-4", "e-5"])
    #expect(try store.readAll().isEmpty)
    do {
      let third = try stage(ScriptedDestination(), clock: ManualClock(), outbox: store)
      #expect(third.statistics.recoveredCount == 0)
    }
  }

  // MARK: Driver

  @Test func theDriverDeliversFullAndAgedBatchesWithoutSleeping() async throws {
    let destination = ScriptedDestination()
    let clock = ManualClock()
    let stage = try stage(destination, clock: clock, batch: 3, age: .seconds(5))
    let driver = Task { await stage.run() }
    defer { driver.cancel() }
    var batches = destination.batches.makeAsyncIterator()
    for event in makeEvents(3) { try stage.send(event) }
    #expect(await batches.next()?.map(\.id) == ["e-0", "e-1", "e-2"])
    try stage.send(makeEvents(1, from: 3)[0])
    clock.advance(by: .seconds(5))
    #expect(await batches.next()?.map(\.id) == ["e-3"])
  }
}
