import DelegateProxyKitTestSupport
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An app's URLSession task delegate: answers every question with a configured disposition and
/// writes each callback down, as URLSession makes it, on the session's delegate queue. Its
/// subclasses add the data and the download callbacks: URLSession asks its delegate which
/// protocols it adopts, so the delegate set directly adopts exactly what the proxy it is compared
/// with adopts.
///
/// `@unchecked Sendable` because the class is not final (its two subclasses): every stored
/// property is a `let` of a `Sendable` type, the log behind a `Mutex`.
///
/// The log is normalized where URLSession's chunking varies from run to run: consecutive
/// `didReceive data`, `didSendBodyData` and `didWriteData` calls are kept as one line with the
/// final count, so two runs of the same task compare equal.
class SessionRecorder: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
  /// What the delegate answers.
  struct Answers: Sendable {
    /// Follow redirects (`true`) or stop at the redirect response (`false`).
    var followsRedirects = true
    /// The answer to a response.
    var responseDisposition = URLSession.ResponseDisposition.allow
  }

  let answers: Answers
  fileprivate let log = Mutex<[String]>([])
  private let ends = AsyncStream<String>.makeStream()

  required init(answers: Answers = Answers()) {
    self.answers = answers
  }

  /// The callbacks so far.
  var events: [String] { log.withLock { $0 } }

  /// Waits for the next task to complete or the session to become invalid (its line), up to
  /// ``stallProofDeadline``; `nil` when the deadline passes first.
  func nextEnd() async -> String? {
    await firstElement(of: ends.stream)
  }

  fileprivate func record(_ line: String, mergingPrefix prefix: String? = nil) {
    log.withLock { log in
      if let prefix, let last = log.last, last.hasPrefix(prefix) { log.removeLast() }
      log.append(line)
    }
  }

  // MARK: URLSessionDelegate

  func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
    record("invalid \((error as NSError?)?.code ?? 0)")
    ends.continuation.yield("invalid")
  }

  // MARK: URLSessionTaskDelegate

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    record("redirect \(response.statusCode) to \(request.url?.path ?? "-")")
    completionHandler(answers.followsRedirects ? request : nil)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
    totalBytesExpectedToSend: Int64
  ) {
    record("sent \(totalBytesSent) of \(totalBytesExpectedToSend)", mergingPrefix: "sent ")
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let status = (task.response as? HTTPURLResponse)?.statusCode ?? 0
    record("complete \(status) error \((error as NSError?)?.code ?? 0)")
    ends.continuation.yield("complete \(task.taskIdentifier)")
  }
}

/// The app's delegate of data tasks.
final class DataSessionRecorder: SessionRecorder, URLSessionDataDelegate, @unchecked Sendable {
  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    record("response \((response as? HTTPURLResponse)?.statusCode ?? 0)")
    completionHandler(answers.responseDisposition)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    log.withLock { log in
      var total = data.count
      if let last = log.last, last.hasPrefix("data "), let previous = Int(last.dropFirst(5)) {
        total += previous
        log.removeLast()
      }
      log.append("data \(total)")
    }
  }
}

/// The app's delegate of download tasks.
final class DownloadSessionRecorder: SessionRecorder, URLSessionDownloadDelegate, @unchecked Sendable {
  func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
    // The file is removed when this returns: its size is read now.
    let size = (try? FileManager.default.attributesOfItem(atPath: location.path)[.size] as? Int) ?? -1
    record("downloaded \(size)")
  }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
  ) {
    record("wrote \(totalBytesWritten) of \(totalBytesExpectedToWrite)", mergingPrefix: "wrote ")
  }
}
