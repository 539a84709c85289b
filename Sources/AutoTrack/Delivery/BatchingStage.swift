import DelegateProxyKit
import DelegateProxyKitSupport
import Foundation
import Synchronization

/// An ``EventSink`` that groups events into batches and hands them to a ``BatchDestination``,
/// retrying failures without ever losing an event silently.
///
/// ## When a batch goes out
/// A batch of up to ``Configuration/maximumBatchSize`` events is sent as soon as
/// that many are waiting, when the oldest waiting event is
/// ``Configuration/maximumBatchAge`` old, or on demand with ``flush()``. One batch is
/// in flight at a time, so events arrive in send order.
///
/// ## Bounded queue
/// At most ``Configuration/queueCapacity`` events wait (the batch in flight is not
/// counted). One more makes the stage **drop the oldest waiting event**: recent
/// activity is usually worth more than old, and the queue cannot grow without
/// bound while a collector is down. Every drop is counted in
/// ``Statistics/droppedOnOverflowCount`` and reported as
/// ``Report/droppedOnOverflow(eventIDs:)``.
///
/// ## Failures
/// - ``DeliveryOutcome/retry(failure:retryAfter:)`` (HTTP 408, 429, 5xx, network errors)
///   puts the events back at the front of the queue and waits: the server's
///   `Retry-After` when it sent one, else the ``RetryPolicy``'s exponential backoff with jitter.
/// - ``DeliveryOutcome/rejected(failure:)`` (a permanent 4xx) drops the events with a
///   ``Report/rejected(eventIDs:failure:)`` report.
///
/// ## Surviving a restart
/// Give the stage an `outbox` ``JSONLinesStore`` and every event is also written
/// there; before a batch goes out the outbox is flushed, and the ids of settled
/// events (delivered, rejected or dropped) are appended to `<baseName>.settled` in
/// the same directory before the settlement is reported, each id encoded once. A new
/// stage on the same outbox re-queues every event that is not settled, so a batch that
/// was in flight when the process died is sent again. Delivery is therefore *at least
/// once*; each event's unique ``TrackedEvent/id`` lets the collector drop the duplicates.
/// Ids are compared by their UTF-8 bytes, never as Swift strings (which would make a
/// precomposed "é" equal to "e" followed by U+0301).
///
/// The outbox holds little more than the queue, however long the collector is down:
/// once the events written and the ids settled since the last compaction reach the
/// queue capacity (at least 64), the stage writes the waiting events to
/// `<baseName>.pending` (a new file, synced and renamed into place), empties the store,
/// then replaces the settled list (again by a rename). A process killed at any point of
/// it loses no waiting event and brings back nothing settled. That costs one encoding of
/// the queue per *capacity* events sent, done outside the stage's lock, so a send never
/// pays for the backlog; no `fsync` runs under the lock. When nothing is waiting, the
/// stage empties all three files. Opening skips (and reports with
/// ``Report/outboxLinesSkipped(path:lineNumbers:byteCount:)``) damaged lines of the
/// snapshot, the settled list and the store's files.
///
/// When the disk fails, the stage goes on from memory. An event the store refuses stays
/// queued, and the next successful outbox write is a snapshot of the whole queue: until
/// then no event goes to the store, so none becomes durable before an earlier accepted
/// one. The failure is reported once with ``Report/outboxFailed(error:)``, its end with
/// ``Report/outboxRecovered(failedAttempts:)``; in between the stage tries again on its
/// clock with a doubling delay (the store's ``JSONLinesStore/Configuration/writeRetryDelay``
/// up to its ``JSONLinesStore/Configuration/maximumWriteRetryDelay``), and ``flush()``
/// tries at once. Settled ids wait in memory, at most a capacity's worth; past that they
/// are given up, and the next compaction first rebuilds the settled list from the files.
///
/// ## Time
/// All timing reads the injected `Clock` (`ContinuousClock` by default). Instants the stage
/// reports, such as ``nextWakeUp`` and ``Statistics/nextAttemptAt``, are durations on the stage's
/// own time line, which starts at zero when the stage is created. ``run()`` drives the stage in
/// production; tests call ``deliverDueBatches()`` after moving a manual clock, so they never sleep.
///
/// ```swift
/// let uploader = HTTPBatchUploader(configuration: .init(endpoint: collectorURL))
/// let stage = try BatchingStage(destination: uploader, outbox: store) { report in print(report) }
/// let driver = Task { await stage.run() }
/// stage.send(event)
/// try await stage.flush()
/// driver.cancel()
/// ```
public final class BatchingStage: EventSink {
  /// Thresholds and limits of a stage.
  public struct Configuration: Sendable, Hashable {
    /// The most events in one batch; a full batch is sent at once.
    public var maximumBatchSize: Int
    /// The longest an event waits before its (partial) batch is sent.
    public var maximumBatchAge: Duration
    /// The most events waiting; one more drops the oldest.
    public var queueCapacity: Int
    /// How retries are spaced.
    public var retry: RetryPolicy

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - maximumBatchSize: Events per batch; 100 by default.
    ///   - maximumBatchAge: The longest wait; 10 seconds by default.
    ///   - queueCapacity: Waiting events kept; 10,000 by default.
    ///   - retry: The retry policy.
    public init(
      maximumBatchSize: Int = 100,
      maximumBatchAge: Duration = .seconds(10),
      queueCapacity: Int = 10_000,
      retry: RetryPolicy = RetryPolicy()
    ) {
      self.maximumBatchSize = maximumBatchSize
      self.maximumBatchAge = maximumBatchAge
      self.queueCapacity = queueCapacity
      self.retry = retry
    }

    func validate() throws(AutoTrackError) {
      guard maximumBatchSize >= 1 else {
        throw .invalidConfiguration(parameter: "maximumBatchSize", reason: "must be at least 1")
      }
      guard maximumBatchAge >= .zero else {
        throw .invalidConfiguration(parameter: "maximumBatchAge", reason: "must not be negative")
      }
      guard queueCapacity >= 1 else {
        throw .invalidConfiguration(parameter: "queueCapacity", reason: "must be at least 1")
      }
      try retry.validate()
    }
  }

  /// Something the stage did that a person may want to know about.
  public enum Report: Sendable, Equatable {
    /// Events re-queued from the outbox when the stage started.
    ///
    /// - Parameter count: How many.
    case recovered(count: Int)
    /// The destination accepted events.
    ///
    /// - Parameter count: How many.
    case delivered(count: Int)
    /// Waiting events were dropped because the queue was full.
    ///
    /// - Parameter eventIDs: The ids of the dropped events.
    case droppedOnOverflow(eventIDs: [String])
    /// The destination refused events for good (or the stage gave up on them); they are dropped.
    ///
    /// - Parameters:
    ///   - eventIDs: The ids of the dropped events.
    ///   - failure: Why.
    case rejected(eventIDs: [String], failure: DeliveryFailure)
    /// An attempt failed; the events wait and are tried again.
    ///
    /// - Parameters:
    ///   - eventCount: How many events wait for the retry.
    ///   - attempt: The number of consecutive failed attempts so far.
    ///   - delay: How long the stage waits before the next attempt.
    ///   - failure: Why the attempt failed.
    case retryScheduled(eventCount: Int, attempt: Int, delay: Duration, failure: DeliveryFailure)
    /// Writing to the outbox failed; delivery goes on from memory.
    ///
    /// Reported once for a run of failures, however many operations fail in it (each is counted in
    /// ``Statistics/outboxFailureCount``, each event the outbox did not take in
    /// ``Statistics/outboxRefusedCount``), until ``outboxRecovered(failedAttempts:)`` says the
    /// outbox holds every waiting event again. Meanwhile the stage retries on its clock, after the
    /// outbox store's ``JSONLinesStore/Configuration/writeRetryDelay``, doubling up to its
    /// ``JSONLinesStore/Configuration/maximumWriteRetryDelay``; events accepted in between are
    /// delivered from memory, and a crash before the recovery loses those not yet written.
    ///
    /// - Parameter error: The first failure of the run.
    case outboxFailed(error: AutoTrackError)
    /// The outbox works again after ``outboxFailed(error:)``: its files hold every waiting event
    /// and every settled id.
    ///
    /// - Parameter failedAttempts: How many outbox operations failed in the run.
    case outboxRecovered(failedAttempts: Int)
    /// Opening the outbox skipped damaged lines of one of its files (the snapshot, the settled-id
    /// journal or one of the store's files), such as the torn end of a write that failed or was cut
    /// short by a crash.
    ///
    /// A skipped event line is an event that cannot be read back; a skipped journal line is a
    /// settled id that may come back and be delivered again.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - lineNumbers: The 1-based numbers of the skipped lines.
    ///   - byteCount: Their length in bytes.
    case outboxLinesSkipped(path: String, lineNumbers: [Int], byteCount: Int)
  }

  /// Counters since the stage was created.
  public struct Statistics: Sendable, Hashable {
    /// Events ``send(_:)`` accepted.
    public var sentCount = 0
    /// Events ``send(_:)`` refused with an error, because JSON cannot carry one of their values.
    public var refusedCount = 0
    /// Events re-queued from the outbox at start.
    public var recoveredCount = 0
    /// Events the destination accepted.
    public var deliveredCount = 0
    /// Events dropped because the queue was full.
    public var droppedOnOverflowCount = 0
    /// Events dropped because the destination refused them or attempts ran out.
    public var rejectedCount = 0
    /// Failed attempts that led to a retry.
    public var retryCount = 0
    /// Events waiting or in flight.
    public var pendingCount = 0
    /// Times the outbox was rewritten to hold just the waiting events (see "Surviving a restart").
    public var outboxCompactionCount = 0
    /// Events the outbox did not take when they were sent: refused by its store, or held back while
    /// a refusal waited for a snapshot of the queue. The queue keeps them, and the next successful
    /// compaction writes them; they are lost only when the process dies first.
    public var outboxRefusedCount = 0
    /// Outbox operations that failed (writes, flushes, compactions); reported once per run with
    /// ``Report/outboxFailed(error:)``.
    public var outboxFailureCount = 0
    /// Damaged lines of the outbox's files skipped when the stage opened it.
    public var outboxSkippedLineCount = 0
    /// When the next attempt may start after a failure, as time since the stage was created on its clock;
    /// `nil` when not backing off.
    public var nextAttemptAt: Duration?
  }

  struct Queued {
    var event: TrackedEvent
    var enqueuedAt: Duration
    /// The order of sending; the outbox compaction tells old entries from new ones by it.
    var sequence: UInt64
  }

  struct State {
    var queue = RingBuffer<Queued>()
    var inFlightCount = 0
    var consecutiveFailures = 0
    var nextAttemptAt: Duration?
    var random: SplitMix64
    var statistics = Statistics()
    var settledCount = 0
    var lastSettledID: String?
    var nextSequence: UInt64 = 0
    var outboxState = OutboxState()
    var isDelivering = false
    var turnWaiters: [CheckedContinuation<Void, Never>] = []
    var driverWaiter: CheckedContinuation<Void, Never>?
    var wakePending = false
    /// Whether a ``BatchingStage/run()`` call drives the stage; a later call joins it.
    var isRunning = false
    /// The ``BatchingStage/run()`` calls that joined the driving one, by join number.
    var joiners: [UInt64: CheckedContinuation<Void, Never>] = [:]
    var nextJoinerNumber: UInt64 = 0
  }

  /// The stage's thresholds and limits.
  public let configuration: Configuration
  private let destination: any BatchDestination
  let clock: ElapsedClock
  let outbox: JSONLinesStore?
  private let onReport: (@Sendable (Report) -> Void)?
  let state: SanitizerVisibleMutex<State>

  /// Creates a stage, re-queuing the unsettled events of `outbox` when one is given.
  ///
  /// - Parameters:
  ///   - destination: Where batches go.
  ///   - configuration: Thresholds and limits.
  ///   - clock: The time source; `ContinuousClock` by default.
  ///   - outbox: A store that keeps events until they are settled, so they survive a restart.
  ///     The stage owns it from now on: send events to the stage, not to the store.
  ///   - onReport: Called, outside the stage's lock, for every ``Report``.
  /// - Throws: ``AutoTrackError/invalidConfiguration(parameter:reason:)``, or an error reading the outbox.
  public init(
    destination: any BatchDestination,
    configuration: Configuration = Configuration(),
    clock: some Clock<Duration> = ContinuousClock(),
    outbox: JSONLinesStore? = nil,
    onReport: (@Sendable (Report) -> Void)? = nil
  ) throws(AutoTrackError) {
    try configuration.validate()
    self.configuration = configuration
    self.destination = destination
    let clock = ElapsedClock(clock)
    self.clock = clock
    self.outbox = outbox
    self.onReport = onReport
    var initial = State(random: SplitMix64(seed: configuration.retry.seed ?? UInt64.random(in: .min ... .max)))
    var reports: [Report] = []
    if let outbox {
      let recovery = try BatchingStage.openOutbox(outbox)
      initial.outboxState = recovery.state
      reports += recovery.skipped
      for case .outboxLinesSkipped(_, let lines, _) in recovery.skipped {
        initial.statistics.outboxSkippedLineCount += lines.count
      }
      // Recovered events are overdue by definition: make them due now.
      let dueAt = clock.now() - configuration.maximumBatchAge
      for event in recovery.unsettled {
        initial.queue.append(Queued(event: event, enqueuedAt: dueAt, sequence: initial.nextSequence))
        initial.nextSequence += 1
      }
      initial.statistics.recoveredCount = recovery.unsettled.count
      if !recovery.unsettled.isEmpty { reports.append(.recovered(count: recovery.unsettled.count)) }
      if let dropped = BatchingStage.dropOverflow(&initial, capacity: configuration.queueCapacity) {
        reports.append(dropped)
      }
    }
    state = SanitizerVisibleMutex(initial)
    emit(reports)
    if outbox != nil { emit(compactOutbox()) }
  }

  // MARK: Sending

  /// Queues `event` (and writes it to the outbox's buffer), dropping the oldest waiting event when full.
  ///
  /// Never waits for the network or for an `fsync`; with an outbox it may do a buffered file write,
  /// and a drop appends its id to the settled journal before it is reported. An event that returns
  /// normally is accepted: it is delivered, or reported and counted as dropped or rejected. The
  /// outbox refusing it does not refuse it here: the queue keeps it, the refusal is reported as
  /// ``Report/outboxFailed(error:)`` (once for a run of failures), and the next successful write to
  /// the outbox is a snapshot of the whole queue.
  ///
  /// - Parameter event: The event to deliver.
  /// - Throws: ``AutoTrackError/eventEncodingFailed(eventID:reason:)`` when a property is a NaN or
  ///   infinite `Double`, which the batch's JSON cannot carry; the event is not queued and is
  ///   counted in ``Statistics/refusedCount``.
  /// - Complexity: O(1) amortized.
  public func send(_ event: TrackedEvent) throws(AutoTrackError) {
    if let refusal = EventLineEncoder.refusal(of: event) {
      state.withLock { $0.statistics.refusedCount += 1 }
      throw refusal
    }
    let now = clock.now()
    let (reports, wake) = state.withLock { state -> ([Report], Bool) in
      // The queue keeps the event whatever the outbox says; its failure is reported.
      var reports: [Report] = []
      state.statistics.sentCount += 1
      let wasEmpty = state.queue.isEmpty
      state.queue.append(Queued(event: event, enqueuedAt: now, sequence: state.nextSequence))
      state.nextSequence += 1
      if let failure = logToOutbox(&state, event, now: now) { reports.append(failure) }
      if let dropped = BatchingStage.dropOverflow(&state, capacity: configuration.queueCapacity) {
        // A drop is journaled before it is reported, so a crash cannot bring the event back; a
        // failing journal is tried again on its backoff schedule, not on every send.
        if let failure = writeJournal(&state, now: now) { reports.append(failure) }
        reports.append(dropped)
      }
      let outboxState = state.outboxState
      // A due compaction wakes the driver even while it waits out a retry delay, so the outbox
      // stays bounded however long the collector is down.
      let compactionDue =
        outbox != nil && outboxState.logPausedFrom == nil
        && (outboxState.entriesSinceAttempt >= compactionThreshold
          || (outboxState.needsRepair && (outboxState.nextAttemptAt ?? now) <= now))
      return (reports, wasEmpty || compactionDue || state.queue.count >= configuration.maximumBatchSize)
    }
    emit(reports)
    if wake { wakeDriver() }
  }

  static func dropOverflow(_ state: inout State, capacity: Int) -> Report? {
    guard state.queue.count > capacity else { return nil }
    var ids: [String] = []
    while state.queue.count > capacity, let oldest = state.queue.removeFirst() {
      ids.append(oldest.event.id)
      state.outboxState.noteSettled(oldest.event.id, sequence: oldest.sequence)
    }
    state.statistics.droppedOnOverflowCount += ids.count
    return .droppedOnOverflow(eventIDs: ids)
  }

  // MARK: Delivering

  /// Sends every batch that is due now: full batches, and a partial one whose oldest event is old enough.
  ///
  /// Stops at the first failure that calls for a retry, and does nothing while a retry delay runs.
  /// ``run()`` calls it; tests call it after moving their clock.
  public func deliverDueBatches() async {
    _ = await deliverBatches(force: false)
  }

  /// Sends everything that is waiting now, without waiting for batches to fill or age.
  ///
  /// A retry delay that is running is honoured: the stage does not call a server that asked it to wait.
  ///
  /// - Returns: How many events are settled in total (delivered, rejected or dropped), and the last one's id.
  /// - Throws: ``AutoTrackError/flushIncomplete(pendingCount:lastFailure:)`` when events are still
  ///   waiting; they stay queued and are retried on schedule.
  @discardableResult
  public func flush() async throws(AutoTrackError) -> FlushAcknowledgement {
    let failure = await deliverBatches(force: true)
    // A flush makes the outbox whole if it can, whatever a failure's backoff says.
    if outbox != nil, state.withLock({ $0.outboxState.needsRepair }) {
      await acquireTurn()
      emit(compactOutbox(ignoringBackoff: true))
      releaseTurn()
    }
    let (pending, acknowledgement) = state.withLock { state in
      (
        state.queue.count + state.inFlightCount,
        FlushAcknowledgement(acknowledgedCount: state.settledCount, lastAcknowledgedID: state.lastSettledID)
      )
    }
    if pending > 0 { throw .flushIncomplete(pendingCount: pending, lastFailure: failure) }
    return acknowledgement
  }

  /// Delivers batches as they come due, until the calling task is cancelled.
  ///
  /// Sleeps on the stage's clock between batches and wakes early when a batch fills.
  ///
  /// One call drives the stage at a time. A call made while another one runs *joins* it: it
  /// delivers nothing itself and returns when the driving call returns or when its own task is
  /// cancelled, whichever comes first. A second driver would add nothing (one batch is in flight
  /// at a time), and two drivers waiting for work at once is what lost a wake-up before.
  ///
  /// ```swift
  /// let driver = Task { await stage.run() }
  /// defer { driver.cancel() }
  /// ```
  public func run() async {
    guard claimDriving() else {
      await joinDriving()
      return
    }
    defer { endDriving() }
    while !Task.isCancelled {
      await deliverDueBatches()
      await waitForWork(until: nextWakeUp)
    }
  }

  /// The instant at which the stage next has work to do by the clock alone: the end of a retry
  /// delay, the moment the oldest waiting event reaches the batch age, or the next try at a failing
  /// outbox, as time since the stage was created on its clock. `nil` when nothing waits.
  public var nextWakeUp: Duration? {
    state.withLock { state in
      var wake: Duration?
      if let oldest = state.queue.first {
        let ageDeadline = oldest.enqueuedAt + configuration.maximumBatchAge
        let due = state.queue.count >= configuration.maximumBatchSize ? clock.now() : ageDeadline
        wake = max(due, state.nextAttemptAt ?? due)
      }
      if outbox != nil, state.outboxState.needsRepair {
        let retry = state.outboxState.nextAttemptAt ?? clock.now()
        wake = min(wake ?? retry, retry)
      }
      return wake
    }
  }

  /// The stage's counters.
  public var statistics: Statistics {
    state.withLock { state in
      var statistics = state.statistics
      statistics.pendingCount = state.queue.count + state.inFlightCount
      statistics.nextAttemptAt = state.nextAttemptAt
      statistics.outboxCompactionCount = state.outboxState.compactionCount
      return statistics
    }
  }

  private func deliverBatches(force: Bool) async -> DeliveryFailure? {
    await acquireTurn()
    defer { releaseTurn() }
    // A snapshot the outbox needs (after a refusal) goes before the batches.
    if outbox != nil { emit(compactOutbox()) }
    var lastFailure: DeliveryFailure?
    while !Task.isCancelled {
      let now = clock.now()
      let batch = state.withLock { state -> [TrackedEvent]? in
        guard let oldest = state.queue.first else { return nil }
        if let next = state.nextAttemptAt, now < next { return nil }
        if !force, state.queue.count < configuration.maximumBatchSize,
          now - oldest.enqueuedAt < configuration.maximumBatchAge
        {
          return nil
        }
        let batch = state.queue.removeFirst(configuration.maximumBatchSize).map(\.event)
        state.inFlightCount = batch.count
        return batch
      }
      guard let batch else { break }
      if outbox != nil { emit(flushOutbox()) }
      let result = await destination.deliver(batch)
      let (reports, failure) = state.withLock { state in
        let now = clock.now()
        var (reports, failure) = settle(&state, batch: batch, result: result, now: now)
        // Journal each batch before its reports: a crash later resends nothing settled.
        if let journalFailure = writeJournal(&state, now: now) { reports.append(journalFailure) }
        return (reports, failure)
      }
      emit(reports)
      if let failure {
        lastFailure = failure
        break
      }
    }
    if outbox != nil {
      let now = clock.now()
      if let journalFailure = state.withLock({ writeJournal(&$0, now: now) }) { emit([journalFailure]) }
      emit(compactOutbox())
    }
    return lastFailure
  }

  /// Flushes the outbox store before a batch goes out, so the batch is on disk before it is on the
  /// wire. Sends to the store pause meanwhile, so none waits for the flush's `fsync`. Skipped while
  /// the store's log lacks events (a snapshot will hold them).
  func flushOutbox() -> [Report] {
    guard let outbox else { return [] }
    let paused = state.withLock { state -> Bool in
      guard !state.outboxState.needsSnapshot, state.outboxState.logPausedFrom == nil else { return false }
      state.outboxState.logPausedFrom = state.nextSequence
      return true
    }
    guard paused else { return [] }
    var failure: AutoTrackError?
    do { try outbox.flush() } catch { failure = error }
    let now = clock.now()
    return state.withLock { state in
      var reports = resumeLogging(&state, now: now)
      if let failure {
        if let report = noteOutboxFailure(&state, failure, now: now) { reports.append(report) }
      } else if let report = noteOutboxSuccess(&state) {
        reports.append(report)
      }
      return reports
    }
  }

  func emit(_ reports: [Report]) {
    guard let onReport else { return }
    for report in reports { onReport(report) }
  }
}
