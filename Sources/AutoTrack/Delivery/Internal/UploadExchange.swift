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
  case response(status: Int, retryAfter: String?, location: String?)
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
/// The `URLSessionDataTask` is created, started and cancelled only on ``sessionQueue``,
/// asynchronously, and cancelled only when its delegate has not yet reported completion. That keeps
/// the cancellation out of the Swift runtime's cancellation handler, which runs with the cancelled
/// task's status lock held: calling into `URLSessionTask.cancel()` there is what deadlocks
/// FoundationNetworking (see ``HTTPBatchUploader``). It also keeps the caller's thread, a thread of
/// the cooperative pool, from waiting for the session's internal queue.
///
/// The deadline fires on ``deadlineQueue``, which only ever runs ``finish(_:)``: neither a stalled
/// session nor a starved cooperative pool can hold it back. The caller's task still needs a pool
/// thread to go on after it is resumed; ``endedAt`` records when the exchange ended, whatever that
/// wait.
final class UploadExchange: Sendable {
  private struct State {
    var continuation: CheckedContinuation<UploadCompletion, Never>?
    var completion: UploadCompletion?
    var status: Int?
    var retryAfter: String?
    var location: String?
    var bodyBytesRead = 0
    var task: URLSessionDataTask?
    var taskCompleted = false
    var cancelRequested = false
    var truncated = false
    var endedAt: ContinuousClock.Instant?
  }

  let maximumBodyBytes: Int
  private let sessionQueue: DispatchQueue
  private let deadlineQueue: DispatchQueue
  private let state = SanitizerVisibleMutex(State())

  init(maximumBodyBytes: Int, sessionQueue: DispatchQueue, deadlineQueue: DispatchQueue) {
    self.maximumBodyBytes = maximumBodyBytes
    self.sessionQueue = sessionQueue
    self.deadlineQueue = deadlineQueue
  }

  /// The body bytes received so far.
  var bodyBytesRead: Int { state.withLock { $0.bodyBytesRead } }

  /// Whether the body was left unread, in whole or in part, because of the cap.
  var wasTruncated: Bool { state.withLock { $0.truncated } }

  /// When the exchange ended, on whichever thread ended it; `nil` while it runs.
  var endedAt: ContinuousClock.Instant? { state.withLock { $0.endedAt } }

  /// Waits for the exchange to end: arms the deadline, then creates and starts the task on the
  /// session queue unless the exchange has already ended.
  ///
  /// - Parameters:
  ///   - deadline: The request's time limit, for the failure it reports.
  ///   - startedAt: When the request began: the limit counts from there, so time spent waiting for
  ///     the session queue and creating the task (which waits for the session's internal queue)
  ///     counts too.
  ///   - makeTask: Creates the (suspended) data task and registers the exchange with the session's
  ///     delegate; called on the session queue, at most once.
  func run(
    deadline: Duration, startedAt: DispatchTime,
    makeTask: @escaping @Sendable (UploadExchange) -> URLSessionDataTask
  ) async -> UploadCompletion {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<UploadCompletion, Never>) in
        let finished = state.withLock { state -> UploadCompletion? in
          if let completion = state.completion { return completion }
          state.continuation = continuation
          return nil
        }
        if let finished {
          continuation.resume(returning: finished)
          return
        }
        // Weak: a finished exchange need not live until its deadline. finish() ignores a late timer.
        deadlineQueue.asyncAfter(deadline: startedAt + deadline.seconds) {
          [weak self] in
          guard let self else { return }
          // A response head that arrived in time still decides the outcome; only its body was late.
          finish(completionFromHead ?? .failed(.deadlineExceeded(deadline: deadline)))
        }
        sessionQueue.async { [self] in start(makeTask) }
      }
    } onCancel: {
      // Runs with the runtime's task status lock held: only our own lock and an async hop here.
      finish(.failed(.cancelled))
    }
  }

  /// Creates and starts the task, on the session queue; skips both when the exchange has ended.
  private func start(_ makeTask: (UploadExchange) -> URLSessionDataTask) {
    guard state.withLock({ $0.completion == nil }) else { return }
    let task = makeTask(self)
    state.withLock { $0.task = task }
    task.resume()
    // The deadline or a cancellation may have ended the exchange while the task was being made.
    cancelTaskIfRunning()
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
    state.withLock { state in
      state.status.map { .response(status: $0, retryAfter: state.retryAfter, location: state.location) }
    }
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
    sessionQueue.async { [self] in
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
      state.location = http.value(forHTTPHeaderField: "Location")
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

  /// A redirect the delegate refused: its status and headers are the answer to the request.
  func receivedRedirect(_ response: HTTPURLResponse) {
    state.withLock { state in
      state.status = response.statusCode
      state.retryAfter = response.value(forHTTPHeaderField: "Retry-After")
      state.location = response.value(forHTTPHeaderField: "Location")
    }
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

  /// Refuses every redirect: the 3xx answer itself becomes the response, which the uploader maps to
  /// ``DeliveryFailure/redirected(status:location:)``. Following it would either drop the body
  /// (301, 302 and 303 become a GET) or send the events to wherever the answer points.
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    // Kept as the head, whatever FoundationNetworking reports after the refusal.
    exchange(for: task)?.receivedRedirect(response)
    completionHandler(nil)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    exchange(for: dataTask)?.receivedBody(byteCount: data.count)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    exchange?.completed(error: error)
  }
}
