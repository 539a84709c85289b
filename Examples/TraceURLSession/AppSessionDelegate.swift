import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The app's own URLSession delegate, as it was before anyone traced anything: it keeps what it
/// downloads, follows a redirect only when it stays on the same host, and reports each finished
/// task to the app.
final class AppSessionDelegate: NSObject, URLSessionDownloadDelegate, Sendable {
  private let finished = AsyncStream<Int>.makeStream()

  /// Waits until the next task has finished; its identifier.
  func nextFinished() async -> Int? {
    for await identifier in finished.stream { return identifier }
    return nil
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    let sameHost = request.url?.host == task.originalRequest?.url?.host
    print("app: redirect to \(request.url?.path ?? "?") \(sameHost ? "followed" : "refused")")
    completionHandler(sameHost ? request : nil)
  }

  func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
    // URLSession removes the file when this returns; the app would move it somewhere of its own.
    let size = (try? FileManager.default.attributesOfItem(atPath: location.path)[.size] as? Int) ?? 0
    print("app: kept \(downloadTask.originalRequest?.url?.path ?? "?") (\(size) bytes)")
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let outcome = error.map { " with error \(($0 as NSError).code)" } ?? ""
    print("app: \(task.originalRequest?.url?.path ?? "?") finished\(outcome)")
    finished.continuation.yield(task.taskIdentifier)
  }
}
