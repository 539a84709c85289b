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

extension LoopbackCollector {
  /// Accepts connections until ``stop()`` and hands each one to a thread of its own, so a slow or
  /// silent client never holds up the next one.
  func serve() {
    defer {
      _ = close(listener)
      finished.signal()
    }
    while !isStopping {
      var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, 20)
      guard ready > 0 else { continue }
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { continue }
      // Close-on-exec, like the listener: a program this process starts must not keep a client's
      // connection open after the collector closed it. The flag is set right after the accept
      // because accept4(2), which sets it at once, is not visible from Swift's Glibc module; a
      // child started by another thread in between still gets a copy until it exits.
      _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
      #if canImport(Darwin)
        // Darwin has no MSG_NOSIGNAL; the socket option keeps a write to a closed peer from raising
        // SIGPIPE (<sys/socket.h>: SO_NOSIGPIPE).
        var noSigPipe: Int32 = 1
        _ = setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &noSigPipe, socklen_t(MemoryLayout<Int32>.size))
      #endif
      state.withLock { $0.openConnections += 1 }
      connections.enter()
      let thread = Thread { [self] in
        serveConnection(connection)
        _ = close(connection)
        state.withLock { $0.openConnections -= 1 }
        connections.leave()
      }
      thread.name = "LoopbackCollector:\(port):connection"
      thread.start()
    }
  }

  var isStopping: Bool { stopping.load(ordering: .acquiring) }

  /// Serves the one request of a connection; returns when the connection may be closed.
  private func serveConnection(_ connection: Int32) {
    guard let parsed = readRequest(connection) else { return }
    let (response, index) = state.withLock { state -> (Response, Int) in
      let response = state.script.isEmpty ? state.defaultResponse : state.script.removeFirst()
      state.requests.append(
        Request(
          method: parsed.method, path: parsed.path, headers: parsed.headers, body: parsed.body,
          response: response, eventIDs: LoopbackCollector.eventIDs(in: parsed.body)))
      return (response, state.requests.count - 1)
    }
    defer { state.withLock { $0.requests[index].isFinished = true } }
    switch response {
    case .hang:
      waitForHangUp(connection)
    case .dropConnection:
      return
    case .status(let code, let retryAfter):
      var head = LoopbackCollector.head(status: code, contentLength: 0)
      if let retryAfter { head += "Retry-After: \(retryAfter)\r\n" }
      head += "\r\n"
      _ = sendAll(connection, Array(head.utf8))
    case .redirect(let code, let location):
      // A location that is a path names that path on this collector.
      let target = location.hasPrefix("/") ? url(path: location).absoluteString : location
      let head = LoopbackCollector.head(status: code, contentLength: 0) + "Location: \(target)\r\n\r\n"
      _ = sendAll(connection, Array(head.utf8))
    case .trickle(let interval, let code):
      let body = "{\"status\":\"slow\"}"
      let bytes = Array((LoopbackCollector.head(status: code, contentLength: body.utf8.count) + "\r\n" + body).utf8)
      let bodyStart = bytes.count - body.utf8.count
      for (offset, byte) in bytes.enumerated() {
        guard sendAll(connection, [byte]) else { return }
        if offset >= bodyStart { state.withLock { $0.requests[index].responseBodyBytesSent += 1 } }
        if offset < bytes.count - 1, !pause(connection, for: interval) { return }
      }
    case .hugeBody(let byteCount, let code, let declaresLength):
      // Without a Content-Length the body runs until the connection closes.
      let head =
        declaresLength
        ? LoopbackCollector.head(status: code, contentLength: byteCount)
        : "HTTP/1.1 \(code) \(LoopbackCollector.reason(code))\r\nConnection: close\r\n"
      guard sendAll(connection, Array((head + "\r\n").utf8)) else { return }
      let chunk = [UInt8](repeating: 0, count: 16 * 1024)
      var remaining = byteCount
      while remaining > 0, !isStopping {
        let count = min(remaining, chunk.count)
        guard sendAll(connection, chunk[0..<count]) else { return }
        remaining -= count
        state.withLock { $0.requests[index].responseBodyBytesSent += count }
      }
    }
  }

  static func head(status: Int, contentLength: Int) -> String {
    "HTTP/1.1 \(status) \(reason(status))\r\nContent-Length: \(contentLength)\r\nConnection: close\r\n"
  }

  /// Holds the connection open without answering until the client hangs up or the collector stops.
  private func waitForHangUp(_ connection: Int32) {
    while !isStopping, !clientHungUp(connection, waitingUpTo: 20) {}
  }

  /// Waits `interval`, watching for the client hanging up or the collector stopping; `false` when either happens.
  private func pause(_ connection: Int32, for interval: Duration) -> Bool {
    let deadline = ContinuousClock.now + interval
    while ContinuousClock.now < deadline {
      if isStopping { return false }
      let left = ContinuousClock.now.duration(to: deadline)
      if clientHungUp(connection, waitingUpTo: Int32(clamping: max(1, min(20, left.milliseconds)))) { return false }
    }
    return true
  }

  /// Waits up to `milliseconds` for the client to send or hang up; `true` when it hung up (or the
  /// read failed). What it sends is read and ignored: the request was read already.
  private func clientHungUp(_ connection: Int32, waitingUpTo milliseconds: Int32) -> Bool {
    var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, milliseconds) > 0 else { return false }
    var scratch = [UInt8](repeating: 0, count: 4096)
    let got = scratch.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
    return got <= 0
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
      _ = sendAll(connection, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
    }
    while bytes.count - bodyStart < length {
      guard readSome(connection, into: &bytes) else { return nil }
    }
    return ParsedRequest(
      method: String(requestLine[0]), path: String(requestLine[1]), headers: headers,
      body: Data(bytes[bodyStart..<(bodyStart + length)]))
  }

  /// Reads what is available (waiting at most ``readTimeout``); `false` on timeout, error, end of stream or stop.
  private func readSome(_ connection: Int32, into bytes: inout [UInt8]) -> Bool {
    let deadline = ContinuousClock.now + readTimeout
    var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
    // Short polls, so that stop() is noticed while a client keeps a connection open in silence.
    while poll(&poller, 1, 20) <= 0 {
      if isStopping || ContinuousClock.now >= deadline { return false }
    }
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let got = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
    guard got > 0 else { return false }
    bytes.append(contentsOf: chunk[0..<got])
    return true
  }

  /// Sends every byte; `false` when the client has gone (or the collector is stopping).
  @discardableResult
  private func sendAll(_ connection: Int32, _ bytes: some Collection<UInt8>) -> Bool {
    let bytes = Array(bytes)
    var offset = 0
    while offset < bytes.count {
      if isStopping { return false }
      // Wait until the socket can take more, in short polls, so a client that stops reading
      // cannot hold the thread past stop().
      var poller = pollfd(fd: connection, events: Int16(POLLOUT), revents: 0)
      guard poll(&poller, 1, 20) > 0 else { continue }
      let sent = bytes.withUnsafeBytes { raw in
        send(connection, raw.baseAddress! + offset, raw.count - offset, LoopbackCollector.noSignal | Self.dontWait)
      }
      if sent < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
  }

  // A peer that closed early must not kill the test process with `SIGPIPE`: Linux says so per send
  // (MSG_NOSIGNAL), Darwin per socket (SO_NOSIGPIPE, set when the connection is accepted).
  #if canImport(Darwin)
    static let noSignal: Int32 = 0
  #else
    static let noSignal = Int32(MSG_NOSIGNAL)
  #endif
  static let dontWait = Int32(MSG_DONTWAIT)

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
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
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

extension Duration {
  /// The duration in whole milliseconds, rounded towards zero.
  var milliseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
  }
}
