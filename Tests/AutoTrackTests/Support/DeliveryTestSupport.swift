import DelegateProxyKit
import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Foundation
import LoopbackCollector
import Synchronization
import Testing

@testable import AutoTrack

/// The request deadline of every test whose subject is the collector's answer, not a deadline,
/// and the read timeout of every collector whose subject is not its own timeout.
///
/// The suite runs its tests in parallel, and under the thread sanitizer, with another CPU-bound job
/// on both cores, a loopback request has gone unanswered for more than 30 s while the stress
/// suites ran beside it (the whole run took 414 s). A deadline that fires there turns the
/// collector's answer into a retried `deadlineExceeded` (a read timeout, into a request the
/// collector never saw), and the test fails for the machine, not the code. The tests about
/// deadlines set their own.
let loopbackAnswerDeadline = stallProofDeadline

/// A collector on a free port whose reads outlast any stall of a loaded machine
/// (``loopbackAnswerDeadline``), for tests not about its read timeout.
func makeCollector() throws -> LoopbackCollector {
  try LoopbackCollector(readTimeout: loopbackAnswerDeadline)
}

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

/// Waits, checking every 5 ms, for a condition that other tasks or threads make true, and
/// requires it: a test whose condition never comes fails at ``stallProofDeadline`` instead of hanging.
/// The condition is checked on the caller's actor.
func waitUntil(
  _ what: String, isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async throws {
  let held = await eventually(isolation: isolation, condition)
  try #require(held, "\(what): not within \(stallProofDeadline)")
}
