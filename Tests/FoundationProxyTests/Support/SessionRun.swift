import DelegateProxyKitTestSupport
import Foundation
import LoopbackCollector

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSessionConfiguration {
  /// An ephemeral configuration whose request and resource timeouts (60 s and 7 days by default)
  /// are ``stallProofDeadline``: no test here is about URLSession's timeouts, and a sanitizer's
  /// stall of a loaded machine has reached 46 s.
  static var stallProof: URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = stallProofDeadline.seconds
    configuration.timeoutIntervalForResource = stallProofDeadline.seconds
    return configuration
  }
}

extension Duration {
  /// The duration in seconds, for Foundation's `TimeInterval`s.
  fileprivate var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}

/// One session against a fresh ``LoopbackCollector``: its tasks run one after another, then the
/// session is invalidated; every wait is an `await` on the delegate's own signal, bounded by a
/// generous deadline, so no thread of the cooperative pool is ever blocked.
struct SessionRun {
  /// Why a run did not finish.
  struct Timeout: Error, CustomStringConvertible {
    var description: String
  }

  /// What the collector answers, in order.
  var responses: [LoopbackCollector.Response]
  /// What the app's delegate answers.
  var answers = SessionRecorder.Answers()
  /// The app's delegate: the task recorder, or its data or download subclass.
  var recorderType: SessionRecorder.Type = SessionRecorder.self

  /// Runs the tasks `makeTasks` creates, each to its end, with `wrap(recorder)` as the session's
  /// delegate.
  ///
  /// - Returns: The delegate's log, and the requests the collector received.
  func run(
    wrap: (SessionRecorder) throws -> any URLSessionDelegate,
    tasks makeTasks: (URLSession, LoopbackCollector) -> [URLSessionTask]
  ) async throws -> (events: [String], requests: [LoopbackCollector.Request]) {
    let collector = try LoopbackCollector(readTimeout: stallProofDeadline)
    defer { collector.stop() }
    for response in responses { collector.enqueue(response) }
    let recorder = recorderType.init(answers: answers)
    let session = URLSession(configuration: .stallProof, delegate: try wrap(recorder), delegateQueue: nil)
    for task in makeTasks(session, collector) {
      task.resume()
      guard let end = await recorder.nextEnd(), end == "complete \(task.taskIdentifier)" else {
        session.invalidateAndCancel()
        throw Timeout(description: "task \(task.taskIdentifier) did not complete: \(recorder.events)")
      }
    }
    session.finishTasksAndInvalidate()
    guard await recorder.nextEnd() == "invalid" else {
      throw Timeout(description: "the session did not become invalid: \(recorder.events)")
    }
    return (recorder.events, collector.requests)
  }
}
