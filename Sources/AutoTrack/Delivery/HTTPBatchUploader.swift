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
/// with the events encoded as by ``TrackedEvent/jsonEncoder()`` and `sent_at` in
/// milliseconds since 1970 (UTC). How responses map to outcomes:
///
/// | Response | Outcome |
/// | --- | --- |
/// | 2xx | ``DeliveryOutcome/accepted`` |
/// | 413 Payload Too Large | the batch is split in half and each half sent again; a single event gets ``DeliveryOutcome/rejected(failure:)`` |
/// | 429, 503 | ``DeliveryOutcome/retry(failure:retryAfter:)`` with the `Retry-After` header (seconds or HTTP date) |
/// | 408, other 5xx, network errors | ``DeliveryOutcome/retry(failure:retryAfter:)`` with no delay hint |
/// | other 4xx | ``DeliveryOutcome/rejected(failure:)`` |
///
/// Before sending, a body larger than ``Configuration/maximumBatchBytes`` is split the
/// same way, so no request exceeds the limit; an event too large on its own is
/// rejected with ``DeliveryFailure/eventTooLarge(bytes:limit:)``.
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
    /// How long one request may take before it counts as a transport failure.
    public var timeout: Duration
    /// Extra request headers, such as an API key.
    public var headers: [String: String]

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - endpoint: The collector's URL.
    ///   - maximumBatchBytes: The body size limit; 512 KiB by default.
    ///   - timeout: The request timeout; 30 seconds by default.
    ///   - headers: Extra headers; none by default.
    public init(
      endpoint: URL,
      maximumBatchBytes: Int = 512 * 1024,
      timeout: Duration = .seconds(30),
      headers: [String: String] = [:]
    ) {
      self.endpoint = endpoint
      self.maximumBatchBytes = maximumBatchBytes
      self.timeout = timeout
      self.headers = headers
    }
  }

  private enum EncodedLine {
    case data(Data)
    case failed(DeliveryFailure)
  }

  /// The uploader's configuration.
  public let configuration: Configuration
  private let session: URLSession
  private let wallClock: @Sendable () -> Date

  /// Creates an uploader.
  ///
  /// - Parameters:
  ///   - configuration: Where and how to upload.
  ///   - session: The session to use; a new ephemeral session by default.
  ///   - wallClock: The time written as `sent_at` and used for HTTP-date `Retry-After` values.
  public init(
    configuration: Configuration,
    session: URLSession? = nil,
    wallClock: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.configuration = configuration
    self.wallClock = wallClock
    if let session {
      self.session = session
    } else {
      let sessionConfiguration = URLSessionConfiguration.ephemeral
      sessionConfiguration.timeoutIntervalForRequest = configuration.timeout.seconds
      self.session = URLSession(configuration: sessionConfiguration)
    }
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

  private func post(_ body: Data) async -> DeliveryOutcome {
    var request = URLRequest(url: configuration.endpoint)
    request.httpMethod = "POST"
    request.timeoutInterval = configuration.timeout.seconds
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    for (name, value) in configuration.headers { request.setValue(value, forHTTPHeaderField: name) }
    request.httpBody = body
    let response: URLResponse
    do {
      (_, response) = try await session.data(for: request)
    } catch {
      return .retry(failure: .transport(reason: String(describing: error)), retryAfter: nil)
    }
    guard let http = response as? HTTPURLResponse else {
      return .retry(failure: .transport(reason: "the response is not HTTP"), retryAfter: nil)
    }
    return HTTPBatchUploader.outcome(
      status: http.statusCode, retryAfter: http.value(forHTTPHeaderField: "Retry-After"), now: wallClock())
  }

  /// Maps an HTTP status and `Retry-After` header to an outcome.
  static func outcome(status: Int, retryAfter: String?, now: Date) -> DeliveryOutcome {
    switch status {
    case 200..<300:
      return .accepted
    case 429, 503:
      return .retry(
        failure: .httpStatus(code: status), retryAfter: retryAfter.flatMap { parseRetryAfter($0, now: now) })
    case 408, 500..<600:
      return .retry(failure: .httpStatus(code: status), retryAfter: nil)
    case 400..<500:
      return .rejected(failure: .httpStatus(code: status))
    default:
      return .retry(failure: .httpStatus(code: status), retryAfter: nil)
    }
  }

  /// Reads a `Retry-After` value: a number of seconds, or an HTTP date (RFC 9110).
  ///
  /// - Parameters:
  ///   - value: The header value.
  ///   - now: The current wall-clock time, for dates.
  /// - Returns: The delay (zero for dates in the past), or `nil` when the value is neither form.
  public static func parseRetryAfter(_ value: String, now: Date) -> Duration? {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
      guard let seconds = Int64(trimmed) else { return nil }
      return .seconds(seconds)
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: trimmed) else { return nil }
    let seconds = max(0, date.timeIntervalSince(now))
    return .milliseconds(Int64((seconds * 1000).rounded(.up)))
  }
}
