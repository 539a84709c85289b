import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The errors that ``LoopbackCollector`` throws.
public enum LoopbackCollectorError: Error, Equatable, Sendable {
  /// A socket call failed while the collector was starting.
  ///
  /// - Parameters:
  ///   - operation: The call, such as `"bind"` or `"listen"`.
  ///   - errno: The `errno` value it reported.
  case socketFailed(operation: String, errno: Int32)
}

extension LoopbackCollectorError: CustomStringConvertible {
  /// One line naming the socket call and its `errno`.
  public var description: String {
    switch self {
    case .socketFailed(let operation, let code):
      "the loopback collector could not start: \(operation) failed with errno \(code) (\(String(cString: strerror(code))))"
    }
  }
}

extension LoopbackCollectorError: LocalizedError {
  /// The same line as ``description``.
  public var errorDescription: String? { description }
}

/// A tiny HTTP/1.1 server on 127.0.0.1 that plays an analytics collector, for tests and examples.
///
/// It binds port 0 (the kernel picks a free port; read it from ``port``), serves one
/// connection at a time on its own thread, and answers each request with the next
/// scripted ``Response`` (``defaultResponse`` when the script is empty). It records
/// every request, and the event ids of every batch it accepted, so a test can check
/// what arrived and how often.
///
/// Written with the C library's sockets only. Every connection is answered with
/// `Connection: close`. Reads give up after ``readTimeout``; ``stop()`` ends the
/// server, closes hanging connections and waits for the thread.
///
/// ```swift
/// let collector = try LoopbackCollector()
/// defer { collector.stop() }
/// collector.enqueue(.status(503, retryAfter: "2"), .status(200))
/// // … POST to collector.url …
/// collector.acceptedEventIDs
/// ```
public final class LoopbackCollector: Sendable {
  /// How the collector answers one request.
  public enum Response: Sendable, Hashable {
    /// Answer with this status and an empty body, adding a `Retry-After` header when given.
    case status(Int, retryAfter: String? = nil)
    /// Read the request and never answer; the connection stays open until ``LoopbackCollector/stop()``.
    case hang
    /// Read the request and close the connection without answering.
    case dropConnection

    /// `200 OK`.
    public static let ok = Response.status(200)
  }

  /// One request the collector received.
  public struct Request: Sendable, Hashable {
    /// The method, such as `POST`.
    public var method: String
    /// The request target, such as `/v1/batch`.
    public var path: String
    /// The headers, with lower-cased names.
    public var headers: [String: String]
    /// The body.
    public var body: Data
    /// How the collector answered.
    public var response: Response
    /// The `id` of each object in the body's `batch` array, in order (empty when the body is not a batch).
    public var eventIDs: [String]
  }

  private struct State {
    var script: [Response] = []
    var defaultResponse: Response = .ok
    var requests: [Request] = []
  }

  /// The port the collector listens on.
  public let port: UInt16
  /// How long the collector waits for a slow client's bytes before giving up on the connection.
  public let readTimeout: Duration
  private let listener: Int32
  private let state = Mutex(State())
  private let stopping = Atomic<Bool>(false)
  private let finished = DispatchSemaphore(value: 0)
  private let stopped = Mutex(false)

  /// Starts a collector on 127.0.0.1 with a free port.
  ///
  /// - Parameter readTimeout: The read timeout per connection; 2 seconds by default.
  /// - Throws: ``LoopbackCollectorError/socketFailed(operation:errno:)`` when the socket cannot be set up.
  public init(readTimeout: Duration = .seconds(2)) throws(LoopbackCollectorError) {
    self.readTimeout = readTimeout
    #if canImport(Darwin)
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #else
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #endif
    guard fd >= 0 else { throw .socketFailed(operation: "socket", errno: errno) }
    var reuse: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else {
      let code = errno
      _ = close(fd)
      throw .socketFailed(operation: "bind", errno: code)
    }
    guard listen(fd, 16) == 0 else {
      let code = errno
      _ = close(fd)
      throw .socketFailed(operation: "listen", errno: code)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else {
      let code = errno
      _ = close(fd)
      throw .socketFailed(operation: "getsockname", errno: code)
    }
    port = UInt16(bigEndian: address.sin_port)
    listener = fd
    let thread = Thread { [self] in serve() }
    thread.name = "LoopbackCollector:\(port)"
    thread.start()
  }

  deinit {
    stop()
  }

  /// The URL of the batch endpoint: `http://127.0.0.1:<port>/v1/batch`.
  public var url: URL {
    URL(string: "http://127.0.0.1:\(port)/v1/batch")!
  }

  /// Appends responses to the script; each request takes the next one.
  ///
  /// - Parameter responses: The answers, in order.
  public func enqueue(_ responses: Response...) {
    state.withLock { $0.script.append(contentsOf: responses) }
  }

  /// The answer given when the script is empty; `200 OK` unless changed.
  public var defaultResponse: Response {
    get { state.withLock { $0.defaultResponse } }
    set { state.withLock { $0.defaultResponse = newValue } }
  }

  /// Every request received so far, in arrival order.
  public var requests: [Request] {
    state.withLock { $0.requests }
  }

  /// The event ids of every batch answered with a 2xx status, in arrival order, duplicates included.
  public var acceptedEventIDs: [String] {
    state.withLock { state in
      state.requests.flatMap { request -> [String] in
        if case .status(let code, _) = request.response, (200..<300).contains(code) { return request.eventIDs }
        return []
      }
    }
  }

  /// The accepted event ids with duplicates removed, first arrival kept: what a deduplicating collector stores.
  public var uniqueAcceptedEventIDs: [String] {
    var seen = Set<String>()
    return acceptedEventIDs.filter { seen.insert($0).inserted }
  }

  /// Stops listening, closes open connections and waits (at most 5 seconds) for the server thread.
  ///
  /// Calling it again does nothing.
  public func stop() {
    let already = stopped.withLock { stopped -> Bool in
      defer { stopped = true }
      return stopped
    }
    guard !already else { return }
    stopping.store(true, ordering: .releasing)
    _ = finished.wait(timeout: .now() + 5)
  }

  // MARK: Serving

  private func serve() {
    var hanging: [Int32] = []
    defer {
      for fd in hanging { _ = close(fd) }
      _ = close(listener)
      finished.signal()
    }
    while !stopping.load(ordering: .acquiring) {
      var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, 20)
      guard ready > 0 else { continue }
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { continue }
      if handle(connection) {
        hanging.append(connection)
      } else {
        _ = close(connection)
      }
    }
  }

  /// Serves one request; returns `true` when the connection must stay open (``Response/hang``).
  private func handle(_ connection: Int32) -> Bool {
    guard let parsed = readRequest(connection) else { return false }
    let response = state.withLock { state -> Response in
      let response = state.script.isEmpty ? state.defaultResponse : state.script.removeFirst()
      state.requests.append(
        Request(
          method: parsed.method, path: parsed.path, headers: parsed.headers, body: parsed.body,
          response: response, eventIDs: LoopbackCollector.eventIDs(in: parsed.body)))
      return response
    }
    switch response {
    case .hang:
      return true
    case .dropConnection:
      return false
    case .status(let code, let retryAfter):
      var head = "HTTP/1.1 \(code) \(LoopbackCollector.reason(code))\r\nContent-Length: 0\r\nConnection: close\r\n"
      if let retryAfter { head += "Retry-After: \(retryAfter)\r\n" }
      head += "\r\n"
      sendAll(connection, Array(head.utf8))
      return false
    }
  }

  private struct ParsedRequest {
    var method: String
    var path: String
    var headers: [String: String]
    var body: Data
  }

  private func readRequest(_ connection: Int32) -> ParsedRequest? {
    var bytes: [UInt8] = []
    let separator: [UInt8] = [13, 10, 13, 10]
    var headerEnd: Int?
    while headerEnd == nil {
      guard readSome(connection, into: &bytes) else { return nil }
      headerEnd = LoopbackCollector.find(separator, in: bytes)
      if bytes.count > 1 << 20 { return nil }
    }
    let head = String(decoding: bytes[..<headerEnd!], as: UTF8.self)
    var lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ")
    guard requestLine.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let length = Int(headers["content-length"] ?? "0") ?? 0
    guard length >= 0, length <= 64 << 20 else { return nil }
    let bodyStart = headerEnd! + separator.count
    if headers["expect"]?.lowercased() == "100-continue", bytes.count - bodyStart < length {
      sendAll(connection, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
    }
    while bytes.count - bodyStart < length {
      guard readSome(connection, into: &bytes) else { return nil }
    }
    return ParsedRequest(
      method: String(requestLine[0]), path: String(requestLine[1]), headers: headers,
      body: Data(bytes[bodyStart..<(bodyStart + length)]))
  }

  /// Reads what is available (waiting at most ``readTimeout``); `false` on timeout, error or end of stream.
  private func readSome(_ connection: Int32, into bytes: inout [UInt8]) -> Bool {
    let timeoutMs = Int32(
      clamping: readTimeout.components.seconds * 1000 + readTimeout.components.attoseconds / 1_000_000_000_000_000)
    var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, timeoutMs) > 0 else { return false }
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let got = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
    guard got > 0 else { return false }
    bytes.append(contentsOf: chunk[0..<got])
    return true
  }

  private func sendAll(_ connection: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes { raw in
        send(connection, raw.baseAddress! + offset, raw.count - offset, LoopbackCollector.noSignal)
      }
      if sent < 0, errno == EINTR { continue }
      guard sent > 0 else { return }
      offset += sent
    }
  }

  #if canImport(Darwin)
    static let noSignal: Int32 = 0
  #else
    /// A peer that closed early must not kill the test process with `SIGPIPE`.
    static let noSignal = Int32(MSG_NOSIGNAL)
  #endif

  static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for start in 0...(haystack.count - needle.count)
    where haystack[start..<(start + needle.count)].elementsEqual(needle) {
      return start
    }
    return nil
  }

  static func eventIDs(in body: Data) -> [String] {
    guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
      let batch = object["batch"] as? [[String: Any]]
    else { return [] }
    return batch.compactMap { $0["id"] as? String }
  }

  static func reason(_ code: Int) -> String {
    switch code {
    case 200: "OK"
    case 202: "Accepted"
    case 400: "Bad Request"
    case 408: "Request Timeout"
    case 413: "Payload Too Large"
    case 429: "Too Many Requests"
    case 500: "Internal Server Error"
    case 503: "Service Unavailable"
    default: "Status"
    }
  }
}
