import DelegateProxyKit
import DelegateProxyKitSupport
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A ``BatchDestination`` that POSTs batches as JSON to an HTTP collector with `URLSession`.
///
/// Each request body is one JSON object:
///
/// ```json
/// {"batch":[{"id":"…","name":"element_click",…},…],"sent_at":1700000000123}
/// ```
///
/// and `sent_at` in milliseconds since 1970 (UTC). Each event is written as a ``JSONLinesStore``
/// line is: keys sorted by their UTF-8 bytes, strings escaped as `JSONEncoder` escapes them (`/`
/// left alone), integers as plain digits, and every `Double` in Swift's shortest round-trip form,
/// which always has a fraction or an exponent (`3.0`, `0.25`, `1e-07`). That keeps each number's
/// kind: a collector reads `"count":3` as an integer and `"ratio":3.0` as a floating-point number.
/// ``TrackedEvent/jsonEncoder()`` gives the same bytes except for whole-number doubles, which
/// `JSONEncoder` writes without a fraction (`3`). How responses map to outcomes:
///
/// | Response | Outcome |
/// | --- | --- |
/// | 2xx | ``DeliveryOutcome/accepted`` |
/// | 3xx (redirects are never followed) | ``DeliveryOutcome/retry(failure:retryAfter:)`` with ``DeliveryFailure/redirected(status:location:)`` |
/// | 413 Payload Too Large | the batch is split in half and each half sent again; a single event gets ``DeliveryOutcome/rejected(failure:)`` |
/// | 429, 503 | ``DeliveryOutcome/retry(failure:retryAfter:)`` with the `Retry-After` header (seconds or HTTP date) |
/// | 408, other 5xx, network errors | ``DeliveryOutcome/retry(failure:retryAfter:)`` with no delay hint |
/// | other 4xx | ``DeliveryOutcome/rejected(failure:)`` |
///
/// Before sending, a body larger than ``Configuration/maximumBatchBytes`` is split the
/// same way, so no request exceeds the limit; an event too large on its own is
/// rejected with ``DeliveryFailure/eventTooLarge(bytes:limit:)``.
///
/// ## Hostile servers and cancellation
/// - **Deadline.** Each request ends within ``Configuration/timeout`` of its start, however
///   slowly the server answers: a server that trickles a byte a second, or accepts and never
///   answers, ends in ``DeliveryFailure/deadlineExceeded(deadline:)`` (retried). A response head
///   that arrived in time still decides the outcome when only the body is late. The deadline is
///   armed on a private queue before anything touches the session, and the session's work (making
///   and starting the data task, its delegate calls) runs on private queues too, never on the
///   caller's thread or the shared global queues: neither a stalled session nor a cooperative pool
///   whose threads are all busy can push the end of a request past the deadline. The caller's task
///   is resumed then and goes on when a pool thread is free.
/// - **Redirects.** Never followed: a 3xx answer is a retry with
///   ``DeliveryFailure/redirected(status:location:)``, never a delivery, since following a 301, 302
///   or 303 turns the POST into a GET without the body, and following any redirect would send the
///   events and ``Configuration/headers`` wherever the answer points.
/// - **Body cap.** The uploader needs the status and `Retry-After`, nothing else: a body longer
///   than ``Configuration/maximumResponseBodyBytes`` is not read (a declared length over the cap
///   ends the request at the head; an undeclared one as soon as the bytes pass the cap), and the
///   bytes it reads are counted and discarded, never kept.
/// - **Cancellation.** Cancelling the task that awaits ``deliver(_:)`` (for example the driver
///   task of a ``BatchingStage``) ends the call at once with ``DeliveryFailure/cancelled``
///   (the stage re-queues the batch without counting an attempt).
///
/// Requests go through a delegate-driven `URLSessionDataTask`, not `URLSession.data(for:)`.
/// In swift-corelibs-foundation (the `URLSession` of Linux and Windows, up to at least Swift
/// 6.3.1), cancelling the task that awaits `data(for:)` calls `URLSessionTask.cancel()` from
/// inside the Swift runtime's cancellation handler, while the runtime holds the cancelled task's
/// status lock; `cancel()` then waits for the session's internal work queue, which a network
/// thread may hold while it waits for that same status lock to resume the awaiting task. The two
/// threads deadlock, and every later task of the process that touches the session blocks behind
/// them (swift-corelibs-foundation issue 5412). Under the thread sanitizer the same race instead
/// ends in FoundationNetworking's fatal error "Trying to access a behaviour for a task that in
/// not in the registry", from a cancel that reaches a task already removed from the session.
/// The uploader therefore never calls into `URLSession` from a cancellation handler: the handler
/// only resumes the caller, and the data task is cancelled later from a private serial queue,
/// and only while its delegate has not reported completion. The session has no URL cache, which
/// keeps FoundationNetworking's cache lookup (another route to that registry error) out of the
/// path.
///
/// ```swift
/// let uploader = HTTPBatchUploader(configuration: .init(endpoint: URL(string: "https://collector.example/v1/batch")!))
/// let result = await uploader.deliver(events)
/// ```
public final class HTTPBatchUploader: BatchDestination {
  /// Where and how to upload.
  public struct Configuration: Sendable {
    /// The URL that receives the POST requests.
    public var endpoint: URL
    /// The largest request body in bytes.
    public var maximumBatchBytes: Int
    /// The longest one request may take, from its start to the end of its response: connecting,
    /// sending, waiting and reading all count. A request still running then ends with
    /// ``DeliveryFailure/deadlineExceeded(deadline:)``. Not an idle timeout: a server that keeps
    /// the connection busy with a byte now and then cannot stretch it.
    public var timeout: Duration
    /// The most response body bytes read per request; the rest is not read. The uploader uses only
    /// the status and headers, so a small cap costs nothing and a huge body costs no memory.
    public var maximumResponseBodyBytes: Int
    /// Extra request headers, such as an API key.
    public var headers: [String: String]

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - endpoint: The collector's URL.
    ///   - maximumBatchBytes: The body size limit; 512 KiB by default.
    ///   - timeout: The deadline of one request; 30 seconds by default.
    ///   - maximumResponseBodyBytes: The response body cap; 64 KiB by default, negative values count as 0.
    ///   - headers: Extra headers; none by default.
    public init(
      endpoint: URL,
      maximumBatchBytes: Int = 512 * 1024,
      timeout: Duration = .seconds(30),
      maximumResponseBodyBytes: Int = 64 * 1024,
      headers: [String: String] = [:]
    ) {
      self.endpoint = endpoint
      self.maximumBatchBytes = maximumBatchBytes
      self.timeout = timeout
      self.maximumResponseBodyBytes = max(0, maximumResponseBodyBytes)
      self.headers = headers
    }
  }

  /// Counters since the uploader was created.
  public struct Statistics: Sendable, Hashable {
    /// Requests started.
    public var requestCount = 0
    /// Requests that ended at their deadline without a response head.
    public var deadlineExceededCount = 0
    /// Requests that ended because the task awaiting them was cancelled.
    public var cancelledCount = 0
    /// Responses whose body was left unread, in whole or in part, because it passed the cap.
    public var truncatedResponseCount = 0
    /// Response body bytes the uploader read (and discarded) before its request ended, over all
    /// requests: per response at most ``Configuration/maximumResponseBodyBytes`` plus the one
    /// chunk that crossed it.
    public var responseBodyBytesRead = 0
    /// The most body bytes read for any one response.
    public var largestResponseBodyBytesRead = 0
    /// The longest any request took, from its start to the moment its outcome was settled (by the
    /// response, the deadline or a cancellation), before the awaiting task resumed.
    public var longestRequestDuration = Duration.zero
  }

  private enum EncodedLine {
    case data(Data)
    case failed(DeliveryFailure)
  }

  /// The uploader's configuration.
  public let configuration: Configuration
  let session: URLSession
  let sessionDelegate: UploadSessionDelegate
  /// Where every call into the session happens (creating, starting and cancelling data tasks):
  /// never inside a cancellation handler, and never on the caller's thread, because creating a
  /// task waits for the session's internal queue, which a loaded machine can keep busy for seconds.
  let sessionQueue = DispatchQueue(label: "AutoTrack.HTTPBatchUploader.session")
  /// Where deadlines fire: a queue that nothing else blocks, so a stalled session cannot delay them.
  let deadlineQueue = DispatchQueue(label: "AutoTrack.HTTPBatchUploader.deadline")
  /// Where the session calls its delegate. A private serial queue gets a thread of its own when
  /// it has work, whereas an `OperationQueue` without one runs its operations on the global
  /// concurrent queues, whose few threads the Swift concurrency pool and other work may all hold.
  let delegateDispatchQueue = DispatchQueue(label: "AutoTrack.HTTPBatchUploader.delegate")
  let counters = SanitizerVisibleMutex(Statistics())
  let wallClock: @Sendable () -> Date

  /// Creates an uploader with a session of its own.
  ///
  /// The session is ephemeral, keeps no URL cache and sends every callback to the uploader's own
  /// delegate, which the deadline, the body cap and safe cancellation rely on; that is why no
  /// session can be passed in.
  ///
  /// - Parameters:
  ///   - configuration: Where and how to upload.
  ///   - wallClock: The time written as `sent_at` and used for HTTP-date `Retry-After` values.
  public init(
    configuration: Configuration,
    wallClock: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.configuration = configuration
    self.wallClock = wallClock
    let sessionConfiguration = URLSessionConfiguration.ephemeral
    sessionConfiguration.urlCache = nil
    sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
    // The uploader's own deadline ends every request; URLSession's timers are only a backstop, set
    // well after the deadline (a loaded machine can fire timers seconds late) so that a request
    // always ends with the same, typed failure.
    sessionConfiguration.timeoutIntervalForRequest = configuration.backstopTimeout
    sessionConfiguration.timeoutIntervalForResource = configuration.backstopTimeout
    let delegate = UploadSessionDelegate()
    sessionDelegate = delegate
    let delegateQueue = OperationQueue()
    delegateQueue.maxConcurrentOperationCount = 1
    // The operation queue does not retain its underlying queue; the uploader's property does.
    delegateQueue.underlyingQueue = delegateDispatchQueue
    session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: delegateQueue)
  }

  deinit {
    // The session holds its delegate until it is invalidated; running requests may finish.
    session.finishTasksAndInvalidate()
  }

  /// The uploader's counters.
  public var statistics: Statistics {
    counters.withLock { $0 }
  }

  /// Uploads `batch`, splitting it on HTTP 413 or when it exceeds the byte limit.
  ///
  /// - Parameter batch: The events to upload.
  /// - Returns: The outcome of each part, in batch order.
  public func deliver(_ batch: [TrackedEvent]) async -> DeliveryResult {
    let encoder = EventLineEncoder()
    let lines: [EncodedLine] = batch.map { event in
      var bytes: [UInt8] = []
      do throws(EventLineEncoder.NonFiniteNumber) {
        try encoder.append(event, to: &bytes)
        return .data(Data(bytes))
      } catch {
        return .failed(.encoding(reason: "event \(event.id): property \(error.key) is not a finite number"))
      }
    }
    return await upload(lines[...])
  }

  private func upload(_ lines: ArraySlice<EncodedLine>) async -> DeliveryResult {
    guard !lines.isEmpty else { return DeliveryResult(segments: []) }
    let count = lines.count
    var encoded: [Data] = []
    for line in lines {
      switch line {
      case .data(let data): encoded.append(data)
      case .failed(let failure):
        if count == 1 { return single(.rejected(failure: failure)) }
        return await split(lines)
      }
    }
    let body = makeBody(encoded)
    if body.count > configuration.maximumBatchBytes {
      if count == 1 {
        return single(.rejected(failure: .eventTooLarge(bytes: body.count, limit: configuration.maximumBatchBytes)))
      }
      return await split(lines)
    }
    let outcome = await post(body)
    if case .rejected(.httpStatus(413)) = outcome, count > 1 {
      return await split(lines)
    }
    return DeliveryResult(segments: [.init(count: count, outcome: outcome)])
  }

  private func single(_ outcome: DeliveryOutcome) -> DeliveryResult {
    DeliveryResult(segments: [.init(count: 1, outcome: outcome)])
  }

  private func split(_ lines: ArraySlice<EncodedLine>) async -> DeliveryResult {
    let middle = lines.startIndex + lines.count / 2
    var result = await upload(lines[..<middle])
    let rest = lines[middle...]
    if let last = result.segments.last, case .retry = last.outcome {
      // The first half must wait, so the second half waits with it: order is kept.
      result.append(contentsOf: DeliveryResult(segments: [.init(count: rest.count, outcome: last.outcome)]))
      return result
    }
    result.append(contentsOf: await upload(rest))
    return result
  }

  func makeBody(_ encoded: [Data]) -> Data {
    var body = Data("{\"batch\":[".utf8)
    for (index, line) in encoded.enumerated() {
      if index > 0 { body.append(UInt8(ascii: ",")) }
      body.append(line)
    }
    let sentAt = Int64((wallClock().timeIntervalSince1970 * 1000).rounded(.down))
    body.append(contentsOf: Data("],\"sent_at\":\(sentAt)}".utf8))
    return body
  }
}
