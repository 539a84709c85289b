import DelegateProxyKit
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What an analytics SDK's network tracing records, here through typed hooks on the generated
/// proxy instead of swizzling: per task, its duration, status, bytes and redirects.
final class NetworkTracer: Sendable {
  /// One finished task.
  struct Span: Sendable {
    var method: String
    var path: String
    var status: Int
    var bytesSent: Int64
    var bytesReceived: Int64
    var redirects: Int
    var duration: Duration
    var failed: Bool
  }

  private struct State {
    var started: [Int: ContinuousClock.Instant] = [:]
    var redirects: [Int: Int] = [:]
    var spans: [Span] = []
  }

  private let state = Mutex(State())
  private let clock = ContinuousClock()

  /// The finished tasks, in the order they finished.
  var spans: [Span] { state.withLock { $0.spans } }

  /// Marks a task's start; a tracer in an SDK does this where it creates the task.
  func started(_ task: URLSessionTask) {
    let now = clock.now
    state.withLock { $0.started[task.taskIdentifier] = now }
  }

  /// Installs the hooks on the proxy in front of the app's delegate. The hooks are `@Sendable`:
  /// URLSession calls them on its delegate queue.
  func install(on proxy: URLSessionDownloadDelegateProxy) throws {
    proxy.hookBefore(\.urlSessionTask.taskWillPerformHTTPRedirection) { _, task, _, _, _ in
      self.state.withLock { $0.redirects[task.taskIdentifier, default: 0] += 1 }
    }
    proxy.hookAfter(\.urlSessionTask.taskDidCompleteWithError) { _, task, error in
      let now = self.clock.now
      self.state.withLock { state in
        let start = state.started.removeValue(forKey: task.taskIdentifier) ?? now
        state.spans.append(
          Span(
            method: task.originalRequest?.httpMethod ?? "GET", path: task.originalRequest?.url?.path ?? "?",
            status: (task.response as? HTTPURLResponse)?.statusCode ?? 0, bytesSent: task.countOfBytesSent,
            bytesReceived: task.countOfBytesReceived,
            redirects: state.redirects.removeValue(forKey: task.taskIdentifier) ?? 0, duration: now - start,
            failed: error != nil))
      }
    }
  }
}
