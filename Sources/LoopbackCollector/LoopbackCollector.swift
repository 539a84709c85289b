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

/// A tiny HTTP/1.1 server on 127.0.0.1 that plays an analytics collector, for tests and examples.
///
/// It binds port 0 (the kernel picks a free port; read it from ``port``), accepts on its own
/// thread and serves each connection on a thread of its own, answering each request with the
/// next scripted ``Response`` (``defaultResponse`` when the script is empty). It records every
/// request, and the event ids of every batch it accepted, so a test can check what arrived and
/// how often.
///
/// Besides plain statuses it plays the servers a client must survive: one that trickles its
/// answer a byte at a time (``Response/trickle(interval:status:)``), one that streams a huge body
/// without holding it in memory (``Response/hugeBody(byteCount:status:declaresLength:)``), one that asks for a
/// retry at once or at a date in the past (``Response/retryAfterZero``,
/// ``Response/retryAfterPastDate``), and one that never answers (``Response/hang``).
///
/// Written with the C library's sockets only. Every connection is answered with
/// `Connection: close`. Reads give up after ``readTimeout``; ``stop()`` ends the
/// server, closes hanging connections and waits for its threads.
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
    /// Answer with this redirect status (such as 301, 302, 303, 307 or 308), a `Location` header
    /// and an empty body. A client that follows it sends its next request to `location`, which the
    /// collector answers like any other (so a URL of the collector itself records where it went).
    /// A `location` that starts with `/` names that path on this collector.
    case redirect(status: Int, location: String)
    /// Read the request and never answer; the connection stays open until the client closes it
    /// or ``LoopbackCollector/stop()``.
    case hang
    /// Read the request and close the connection without answering.
    case dropConnection
    /// Answer with this status and a short body, sending one byte of the whole response (status
    /// line and headers included) per `interval`, until it is sent or the client hangs up.
    case trickle(interval: Duration, status: Int = 200)
    /// Answer with this status and a body of `byteCount` zero bytes, streamed in small chunks as
    /// fast as the client reads, never held in memory; stops when the client hangs up. The bytes
    /// actually sent are in ``Request/responseBodyBytesSent``. With `declaresLength` false the
    /// head has no `Content-Length`, so the client learns the size only by reading.
    case hugeBody(byteCount: Int, status: Int = 200, declaresLength: Bool = true)

    /// `200 OK`.
    public static let ok = Response.status(200)
    /// `503 Service Unavailable` with `Retry-After: 0`: a server asking to be called again at once.
    public static let retryAfterZero = Response.status(503, retryAfter: "0")
    /// `503 Service Unavailable` with a `Retry-After` date long past (IMF-fixdate, 1994).
    public static let retryAfterPastDate = Response.status(503, retryAfter: "Sun, 06 Nov 1994 08:49:37 GMT")
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
    /// The response body bytes the collector managed to send before it finished or the client hung
    /// up; updated while a slow answer is still going out.
    public var responseBodyBytesSent = 0
    /// Whether the collector has finished with the connection: answered in full, or seen the client
    /// hang up, or given up.
    public var isFinished = false
  }

  struct State {
    var script: [Response] = []
    var defaultResponse: Response = .ok
    var requests: [Request] = []
    var openConnections = 0
  }

  /// The port the collector listens on.
  public let port: UInt16
  /// How long the collector waits for a slow client's bytes before giving up on the connection.
  public let readTimeout: Duration
  let listener: Int32
  let state = Locked(State())
  let stopping = Atomic<Bool>(false)
  let finished = DispatchSemaphore(value: 0)
  /// Every connection thread is in this group until it has closed its socket.
  let connections = DispatchGroup()
  private let stopped = Locked(false)

  /// Starts a collector on 127.0.0.1 with a free port.
  ///
  /// - Parameter readTimeout: The read timeout per connection; 30 seconds by default, long enough
  ///   for a client on a loaded machine (a sanitizer build with every core busy has taken seconds to
  ///   send a small request), since a connection given up on is a request the collector never saw.
  /// - Throws: ``LoopbackCollectorError/socketFailed(operation:errno:)`` when the socket cannot be set up.
  public init(readTimeout: Duration = .seconds(30)) throws(LoopbackCollectorError) {
    self.readTimeout = readTimeout
    #if canImport(Darwin)
      // Darwin's <sys/socket.h> has no SOCK_CLOEXEC: close-on-exec is set with fcntl instead.
      let fd = socket(AF_INET, SOCK_STREAM, 0)
      if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    #else
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #endif
    guard fd >= 0 else { throw .socketFailed(operation: "socket", errno: errno) }
    var reuse: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    #if canImport(Darwin)
      // Darwin's `struct sockaddr_in` starts with a length byte (<netinet/in.h>).
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
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

  /// The URL of a path on the collector: `http://127.0.0.1:<port><path>`. Every path gets the next
  /// scripted response; the path is only recorded.
  ///
  /// - Parameter path: The request target, starting with `/`.
  public func url(path: String) -> URL {
    URL(string: "http://127.0.0.1:\(port)\(path)")!
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

  /// The connections the collector holds open right now (hanging, trickling, streaming, or being read).
  public var openConnectionCount: Int {
    state.withLock { $0.openConnections }
  }

  /// Stops listening, closes open connections and waits (at most 5 seconds) for the server threads.
  ///
  /// Calling it again does nothing.
  public func stop() {
    let already = stopped.withLock { stopped -> Bool in
      defer { stopped = true }
      return stopped
    }
    guard !already else { return }
    stopping.store(true, ordering: .releasing)
    let deadline = DispatchTime.now() + 5
    _ = finished.wait(timeout: deadline)
    _ = connections.wait(timeout: deadline)
  }
}

/// A value behind an `NSLock`: a pthread mutex, whose hand-over between threads the thread
/// sanitizer sees (it does not see a contended `Synchronization.Mutex` change hands on Linux).
final class Locked<Value: Sendable>: @unchecked Sendable {
  // Safe to share: `value` is only touched inside `withLock`, under `lock`.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
