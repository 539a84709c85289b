import DelegateProxyKit
import Foundation
import LoopbackCollector
import Synchronization
import Testing

@testable import FoundationProxyFixtures

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// URLSession against LoopbackCollector with the app's delegate set directly and behind the
/// generated task and download proxies: the same callbacks, the delegate's answers reaching the
/// session through the proxy, and hooks that read each task's status and byte counts.
@Suite struct URLSessionTaskProxyTests {
  static func request(_ collector: LoopbackCollector, _ path: String, method: String = "GET") -> URLRequest {
    var request = URLRequest(url: collector.url(path: path))
    request.httpMethod = method
    return request
  }

  /// Runs the same session directly and through a proxy, and checks both logs are the same.
  static func compare(
    _ run: SessionRun, proxy: (SessionRecorder) -> any URLSessionDelegate, comparesRequests: Bool = true,
    tasks: (URLSession, LoopbackCollector) -> [URLSessionTask]
  ) async throws -> [String] {
    let direct = try await run.run(wrap: { $0 }, tasks: tasks)
    let proxied = try await run.run(wrap: proxy, tasks: tasks)
    #expect(proxied.events == direct.events)
    if comparesRequests { #expect(proxied.requests.map(\.path) == direct.requests.map(\.path)) }
    return direct.events
  }

  @Test("an upload's progress and completion come through the task proxy as directly")
  func upload() async throws {
    let body = Data(repeating: 7, count: 48 * 1024)
    let events = try await Self.compare(
      SessionRun(responses: [.status(201)]),
      proxy: { URLSessionTaskDelegateProxy(forwardee: $0, retainsForwardee: true) },
      tasks: { session, collector in
        [session.uploadTask(with: Self.request(collector, "/upload", method: "POST"), from: body)]
      })
    #expect(events == ["sent \(body.count) of \(body.count)", "complete 201 error 0", "invalid 0"])
  }

  @Test("a redirect asks the delegate through the proxy, and its answer is followed", arguments: [true, false])
  func redirect(follows: Bool) async throws {
    var run = SessionRun(responses: [.redirect(status: 302, location: "/moved"), .hugeBody(byteCount: 10)])
    run.answers.followsRedirects = follows
    let events = try await Self.compare(
      run, proxy: { URLSessionTaskDelegateProxy(forwardee: $0, retainsForwardee: true) },
      tasks: { session, collector in [session.dataTask(with: Self.request(collector, "/start"))] })
    #expect(events.first == "redirect 302 to /moved")
    #expect(events.dropFirst().first == (follows ? "complete 200 error 0" : "complete 302 error 0"))
  }

  @Test("a cancelled task ends with the cancellation through the proxy as directly")
  func cancel() async throws {
    let events = try await Self.compare(
      SessionRun(responses: [.hang]),
      proxy: { URLSessionTaskDelegateProxy(forwardee: $0, retainsForwardee: true) },
      // Whether the request leaves before the cancel is a race, in both runs.
      comparesRequests: false,
      tasks: { session, collector in
        let task = session.dataTask(with: Self.request(collector, "/slow"))
        task.resume()
        task.cancel()
        return [task]
      })
    #expect(events == ["complete 0 error \(NSURLErrorCancelled)", "invalid 0"])
  }

  @Test("a download's progress, file and completion come through the download proxy as directly")
  func download() async throws {
    let size = 256 * 1024
    let events = try await Self.compare(
      SessionRun(responses: [.hugeBody(byteCount: size)], recorderType: DownloadSessionRecorder.self),
      proxy: { URLSessionDownloadDelegateProxy(forwardee: $0 as? DownloadSessionRecorder, retainsForwardee: true) },
      tasks: { session, collector in [session.downloadTask(with: Self.request(collector, "/file"))] })
    #expect(events == ["wrote \(size) of \(size)", "downloaded \(size)", "complete 200 error 0", "invalid 0"])
  }

  @Test("typed hooks on a Sendable proxy read each task's status and byte counts on the delegate queue")
  func hooksReadStatusAndBytes() async throws {
    let traces = TraceLog()
    let body = Data(repeating: 1, count: 5000)
    let session = SessionRun(
      responses: [.status(204), .hugeBody(byteCount: 3000)], recorderType: DownloadSessionRecorder.self)
    let run = try await session.run(
      wrap: { recorder in
        let proxy = URLSessionDownloadDelegateProxy(
          forwardee: recorder as? DownloadSessionRecorder, retainsForwardee: true)
        proxy.hookBefore(\.urlSessionTask.taskDidCompleteWithError) { _, task, error in
          let status = (task.response as? HTTPURLResponse)?.statusCode ?? 0
          let method = task.originalRequest?.httpMethod ?? "-"
          traces.append("\(method) \(status) sent \(task.countOfBytesSent) received \(task.countOfBytesReceived)")
        }
        return proxy
      },
      tasks: { session, collector in
        [
          session.uploadTask(with: Self.request(collector, "/up", method: "PUT"), from: body),
          session.downloadTask(with: Self.request(collector, "/down")),
        ]
      })
    #expect(traces.lines == ["PUT 204 sent 5000 received 0", "GET 200 sent 0 received 3000"])
    // The hook ran before the delegate saw each completion, and the delegate saw both.
    #expect(run.events.filter { $0.hasPrefix("complete") } == ["complete 204 error 0", "complete 200 error 0"])
  }
}

/// Lines written from the session's delegate queue and read by the test.
final class TraceLog: Sendable {
  private let storage = Mutex<[String]>([])

  var lines: [String] { storage.withLock { $0 } }

  func append(_ line: String) { storage.withLock { $0.append(line) } }
}
