import DelegateProxyKit
import DelegateProxyKitSupport
import Foundation
import Synchronization
import Testing

@testable import AutoTrack

/// The request deadline of every test whose subject is the collector's answer, not a deadline.
///
/// The suite runs its tests in parallel, and under the thread sanitizer, with another CPU-bound job
/// on both cores, a loopback request has gone unanswered for more than 30 s while the stress
/// suites ran beside it (the whole run took 414 s). A deadline that fires there turns the
/// collector's answer into a retried `deadlineExceeded`, and the test fails for the machine, not
/// the code. Ten minutes is beyond any stall seen; a request that really hangs still ends, and
/// the tests about deadlines set their own.
let loopbackAnswerDeadline = Duration.seconds(600)

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
  let url: URL

  init(_ label: String = #function) throws {
    let name = "autotrack-\(label.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString)"
    url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  var path: String { url.path }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// Events with predictable ids `<prefix>-0`, `<prefix>-1`, … and a few properties of each kind.
func makeEvents(_ count: Int, prefix: String = "e", from start: Int = 0) -> [TrackedEvent] {
  (start..<(start + count)).map { index in
    TrackedEvent(
      name: index.isMultiple(of: 2) ? "element_click" : "screen_view", id: "\(prefix)-\(index)",
      sequence: UInt64(index), timestampMs: 1_700_000_000_000 + Int64(index),
      properties: [
        "screen_name": "Home", "element_path": .string("Screen/List[0]/Cell[0][\(index)]"), "index": .int(index),
        "ratio": 0.25, "checked": .bool(index.isMultiple(of: 3)), "text": "line\nbreak \"quoted\" é/ü",
      ])
  }
}

/// A destination that answers from a script and records every batch it was given.
///
/// When the script runs out it accepts. Each batch is also yielded to `batches`, so a
/// test can await deliveries made by a running stage without sleeping.
final class ScriptedDestination: BatchDestination {
  enum Answer: Sendable {
    case outcome(DeliveryOutcome)
    case result(@Sendable ([TrackedEvent]) -> DeliveryResult)
  }

  private let script: SanitizerVisibleMutex<[Answer]>
  private let received = SanitizerVisibleMutex<[[TrackedEvent]]>([])
  let batches: AsyncStream<[TrackedEvent]>
  private let continuation: AsyncStream<[TrackedEvent]>.Continuation

  init(_ script: [Answer] = []) {
    self.script = SanitizerVisibleMutex(script)
    (batches, continuation) = AsyncStream.makeStream(of: [TrackedEvent].self)
  }

  convenience init(outcomes: [DeliveryOutcome]) {
    self.init(outcomes.map { .outcome($0) })
  }

  func deliver(_ batch: [TrackedEvent]) async -> DeliveryResult {
    received.withLock { $0.append(batch) }
    continuation.yield(batch)
    let answer = script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    switch answer {
    case nil: return .whole(batch, .accepted)
    case .outcome(let outcome): return .whole(batch, outcome)
    case .result(let make): return make(batch)
    }
  }

  var deliveredBatches: [[TrackedEvent]] { received.withLock { $0 } }
  var deliveredIDs: [String] { deliveredBatches.flatMap { $0.map(\.id) } }
}

/// Collects a stage's reports.
final class ReportLog: Sendable {
  private let reports = SanitizerVisibleMutex<[BatchingStage.Report]>([])

  var handler: @Sendable (BatchingStage.Report) -> Void {
    { report in self.reports.withLock { $0.append(report) } }
  }

  var all: [BatchingStage.Report] { reports.withLock { $0 } }

  var retryDelays: [Duration] {
    all.compactMap { report in
      if case .retryScheduled(_, _, let delay, _) = report { return delay }
      return nil
    }
  }

  /// The failure of each scheduled retry, in order.
  var retryFailures: [DeliveryFailure] {
    all.compactMap { report in
      if case .retryScheduled(_, _, _, let failure) = report { return failure }
      return nil
    }
  }
}

/// Whether `task` finishes within `bound`; never waits longer, even if the task never ends (a
/// lost wake-up or a deadlock), so such a test fails instead of hanging.
func finishes(_ task: Task<Void, Never>, within bound: Duration) async -> Bool {
  let once = OnceFlag()
  return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
    Task {
      await task.value
      if once.claim() { continuation.resume(returning: true) }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + bound.seconds) {
      if once.claim() { continuation.resume(returning: false) }
    }
  }
}

/// True for the first caller of ``claim()`` only.
final class OnceFlag: Sendable {
  private let claimed = SanitizerVisibleMutex(false)

  func claim() -> Bool {
    claimed.withLock { claimed in
      defer { claimed = true }
      return !claimed
    }
  }
}

/// Waits, checking every 5 ms, for a condition that other tasks or threads make true.
///
/// Gives up after `giveUpAfter`, so a test whose condition never comes fails instead of hanging.
/// The default is far above what a loaded machine needs: a full run under the thread sanitizer
/// with both cores busy has kept a test task waiting 90 s for a cooperative thread.
func waitUntil(
  _ what: String, giveUpAfter: Duration = .seconds(300), _ condition: () -> Bool
) async throws {
  let giveUp = ContinuousClock.now + giveUpAfter
  while !condition() {
    try #require(ContinuousClock.now < giveUp, "\(what): not within \(giveUpAfter)")
    try await Task.sleep(for: .milliseconds(5))
  }
}
