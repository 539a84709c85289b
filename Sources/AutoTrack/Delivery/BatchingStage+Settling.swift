import DelegateProxyKit
import DelegateProxyKitSupport
import Foundation

extension BatchingStage {
  /// Applies a delivery result; returns the reports and the failure that calls for a retry, if any.
  func settle(
    _ state: inout State, batch: [TrackedEvent], result: DeliveryResult, now: Duration
  ) -> ([Report], DeliveryFailure?) {
    var reports: [Report] = []
    var index = 0
    var retry: (failure: DeliveryFailure, after: Duration?)?
    for segment in result.segments where index < batch.count && retry == nil {
      let count = min(max(0, segment.count), batch.count - index)
      guard count > 0 else { continue }
      let part = batch[index..<(index + count)]
      switch segment.outcome {
      case .accepted:
        state.statistics.deliveredCount += count
        reports.append(.delivered(count: count))
      case .rejected(let failure):
        state.statistics.rejectedCount += count
        reports.append(.rejected(eventIDs: part.map(\.id), failure: failure))
      case .retry(let failure, let after):
        retry = (failure, after)
        continue
      }
      markSettled(&state, part)
      index += count
    }
    state.inFlightCount = 0
    let remaining = batch[index...]
    guard !remaining.isEmpty else {
      state.consecutiveFailures = 0
      state.nextAttemptAt = nil
      return (reports, nil)
    }
    let failure = retry?.failure ?? .transport(reason: "the destination reported no outcome for these events")
    if failure == .cancelled {
      // The driver is being stopped: the events go back as they were, no attempt is counted and
      // no delay starts, so the next run (or a restart) picks them up at once.
      requeue(&state, remaining, now: now, reports: &reports)
      return (reports, failure)
    }
    state.consecutiveFailures += 1
    let policy = configuration.retry
    if let limit = policy.maximumAttempts, state.consecutiveFailures >= limit {
      let exhausted = DeliveryFailure.attemptsExhausted(attempts: state.consecutiveFailures)
      state.statistics.rejectedCount += remaining.count
      reports.append(.rejected(eventIDs: remaining.map(\.id), failure: exhausted))
      markSettled(&state, remaining)
      state.consecutiveFailures = 0
      state.nextAttemptAt = nil
      return (reports, exhausted)
    }
    let delay =
      retry?.after.map { policy.delay(forRetryAfter: $0) }
      ?? policy.delay(forRetry: state.consecutiveFailures, unitRandom: state.random.nextUnit())
    state.nextAttemptAt = now + delay
    state.statistics.retryCount += 1
    reports.append(
      .retryScheduled(
        eventCount: state.queue.count + remaining.count, attempt: state.consecutiveFailures, delay: delay,
        failure: failure))
    requeue(&state, remaining, now: now, reports: &reports)
    return (reports, failure)
  }

  /// Puts unsettled events back at the front of the queue, due at once (when no retry delay runs),
  /// and drops the oldest waiting events past the capacity.
  private func requeue(
    _ state: inout State, _ events: ArraySlice<TrackedEvent>, now: Duration, reports: inout [Report]
  ) {
    state.queue.prepend(
      contentsOf: events.map { Queued(event: $0, enqueuedAt: now - configuration.maximumBatchAge, sequence: 0) })
    if let dropped = BatchingStage.dropOverflow(&state, capacity: configuration.queueCapacity) {
      reports.append(dropped)
    }
  }

  private func markSettled(_ state: inout State, _ events: ArraySlice<TrackedEvent>) {
    guard let last = events.last else { return }
    state.settledCount += events.count
    state.lastSettledID = last.id
    if outbox != nil {
      for event in events { state.outboxState.noteSettled(event.id, sequence: 0) }
    }
  }
}
