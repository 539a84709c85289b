import DelegateProxyKit
import DelegateProxyKitSupport
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What one request came to.
enum UploadCompletion: Sendable, Equatable {
  /// The response head arrived; the body was read up to the cap, or not at all.
  case response(status: Int, retryAfter: String?)
  /// No usable response: a transport error, the deadline, or cancellation.
  case failed(DeliveryFailure)
}

/// One request of ``HTTPBatchUploader``: the bridge between a delegate-driven `URLSessionDataTask`
/// and the `async` caller, and the single place that decides how the request ends.
///
/// Four parties may end it, in any order and on any thread: the session's delegate (response head,
/// body bytes, completion), the deadline timer, the caller's task being cancelled, and the
/// uploader. The first to call ``finish(_:)`` wins; the others find the exchange finished and
/// do nothing. The continuation is always resumed outside the lock.
///
/// The `URLSessionDataTask` is cancelled only from ``controlQueue``, asynchronously, and only when
/// its delegate has not yet reported completion. That keeps the cancellation out of the Swift
/// runtime's cancellation handler, which runs with the cancelled task's status lock held: calling
/// into `URLSessionTask.cancel()` there is what deadlocks FoundationNetworking (see
/// ``HTTPBatchUploader``).
final class UploadExchange: Sendable {
  private struct State {
    var continuation: CheckedContinuation<UploadCompletion, Never>?
    var completion: UploadCompletion?
    var status: Int?
    var retryAfter: String?
    var bodyBytesRead = 0
    var task: URLSessionDataTask?
    var taskCompleted = false
    var cancelRequested = false
    var truncated = false
    var endedAt: ContinuousClock.Instant?
  }

  let maximumBodyBytes: Int
  private let controlQueue: DispatchQueue
  private let state = SanitizerVisibleMutex(State())

  init(maximumBodyBytes: Int, controlQueue: DispatchQueue) {
    self.maximumBodyBytes = maximumBodyBytes
    self.controlQueue = controlQueue
  }

  /// The body bytes received so far.
  var bodyBytesRead: Int { state.withLock { $0.bodyBytesRead } }

  /// Whether the body was left unread, in whole or in part, because of the cap.
  var wasTruncated: Bool { state.withLock { $0.truncated } }

  /// When the exchange ended, on whichever thread ended it; `nil` while it runs.
  var endedAt: ContinuousClock.Instant? { state.withLock { $0.endedAt } }

  /// Remembers the task, so that ending the exchange early can cancel it.
  func attach(_ task: URLSessionDataTask) {
    state.withLock { $0.task = task }
  }

  /// Waits for the exchange to end, starting the task and the deadline timer unless it already has.
  ///
  /// - Parameters:
  ///   - deadline: The request's time limit, for the failure it reports.
  ///   - startedAt: When the request began: the limit counts from there, so time spent creating
  ///     the task (which waits for the session's internal queue) counts too.
  func run(deadline: Duration, startedAt: DispatchTime) async -> UploadCompletion {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<UploadCompletion, Never>) in
        let (finished, task) = state.withLock { state -> (UploadCompletion?, URLSessionDataTask?) in
          if let completion = state.completion { return (completion, nil) }
          state.continuation = continuation
          return (nil, state.task)
        }
        if let finished {
          continuation.resume(returning: finished)
          cancelTaskIfRunning()
          return
        }
        // Weak: a finished exchange need not live until its deadline. finish() ignores a late timer.
        controlQueue.asyncAfter(deadline: startedAt + deadline.seconds) {
          [weak self] in
          guard let self else { return }
          // A response head that arrived in time still decides the outcome; only its body was late.
          finish(completionFromHead ?? .failed(.deadlineExceeded(deadline: deadline)))
        }
        task?.resume()
      }
    } onCancel: {
      // Runs with the runtime's task status lock held: only our own lock and an async hop here.
      finish(.failed(.cancelled))
    }
  }

  /// Ends the exchange with `completion` unless it has already ended; cancels the task when it still runs.
  func finish(_ completion: UploadCompletion) {
    let continuation = state.withLock { state -> CheckedContinuation<UploadCompletion, Never>? in
      guard state.completion == nil else { return nil }
      state.completion = completion
      state.endedAt = .now
      defer { state.continuation = nil }
      return state.continuation
    }
    continuation?.resume(returning: completion)
    cancelTaskIfRunning()
  }

  /// The outcome the response head gives, for a deadline or body cap that ends the exchange after it arrived.
  private var completionFromHead: UploadCompletion? {
    state.withLock { state in state.status.map { .response(status: $0, retryAfter: state.retryAfter) } }
  }

  private func cancelTaskIfRunning() {
    let task = state.withLock { state -> URLSessionDataTask? in
      guard !state.taskCompleted, !state.cancelRequested, state.completion != nil, let task = state.task else {
        return nil
      }
      state.cancelRequested = true
      return task
    }
    guard let task else { return }
    controlQueue.async { [self] in
      // Cancelling a task that has already completed is what trips FoundationNetworking's
      // task-registry check; skip it when the completion arrived in the meantime.
      let stillRunning = state.withLock { !$0.taskCompleted }
      if stillRunning { task.cancel() }
    }
  }

  // MARK: Delegate events (on the session's delegate queue)

  /// The response head: keep the status and `Retry-After`; refuse a body declared larger than the cap.
  func receivedHead(_ response: URLResponse) -> URLSession.ResponseDisposition {
    guard let http = response as? HTTPURLResponse else {
      finish(.failed(.transport(reason: "the response is not HTTP")))
      return .cancel
    }
    state.withLock { state in
      state.status = http.statusCode
      state.retryAfter = http.value(forHTTPHeaderField: "Retry-After")
    }
    if http.expectedContentLength > Int64(maximumBodyBytes), let head = completionFromHead {
      state.withLock { $0.truncated = true }
      finish(head)
    }
    // Never `.cancel`, even for a body declared over the cap: FoundationNetworking then stops
    // delivering the body but keeps receiving it until the end. The task cancellation that
    // finish() scheduled is what closes the connection.
    return .allow
  }

  /// Body bytes: counted and discarded; past the cap the exchange ends with the status it has.
  func receivedBody(byteCount: Int) {
    let overCap = state.withLock { state -> Bool in
      if state.completion != nil {
        // Bytes FoundationNetworking had in hand before the cancellation reached it: dropped here.
        return false
      }
      state.bodyBytesRead += byteCount
      if state.bodyBytesRead > maximumBodyBytes, !state.taskCompleted { state.truncated = true }
      return state.bodyBytesRead > maximumBodyBytes
    }
    if overCap, let head = completionFromHead { finish(head) }
  }

  /// The task completed (successfully, with an error, or cancelled).
  func completed(error: (any Error)?) {
    state.withLock { $0.taskCompleted = true }
    if let error {
      finish(completionFromHead ?? .failed(.transport(reason: String(describing: error))))
    } else if let head = completionFromHead {
      finish(head)
    } else {
      finish(.failed(.transport(reason: "the connection ended without a response")))
    }
  }
}

/// The session delegate of an ``HTTPBatchUploader``: routes each task's events to its exchange.
///
/// One delegate per session, because FoundationNetworking calls only the session's delegate,
/// never a per-task one.
final class UploadSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
  private let exchanges = SanitizerVisibleMutex<[Int: UploadExchange]>([:])

  func register(_ exchange: UploadExchange, for task: URLSessionTask) {
    exchanges.withLock { $0[task.taskIdentifier] = exchange }
  }

  private func exchange(for task: URLSessionTask) -> UploadExchange? {
    exchanges.withLock { $0[task.taskIdentifier] }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    completionHandler(exchange(for: dataTask)?.receivedHead(response) ?? .cancel)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    exchange(for: dataTask)?.receivedBody(byteCount: data.count)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    exchange?.completed(error: error)
  }
}
