import DelegateProxyKit
import DelegateProxyKitTestSupport
import Foundation
import LoopbackCollector
import Testing

@testable import FoundationProxyFixtures

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Data tasks with the app's data delegate set directly and behind the generated
/// `URLSessionDataDelegateProxy`: the response's disposition reaches the session through the proxy,
/// and a hook reads the status and counts the bytes as they arrive.
@Suite struct URLSessionDataProxyTests {
  static func proxy(_ recorder: SessionRecorder) -> any URLSessionDelegate {
    URLSessionDataDelegateProxy(forwardee: recorder as? DataSessionRecorder, retainsForwardee: true)
  }

  @Test(
    "a data task's response, data and completion come through the data proxy as directly",
    arguments: [URLSession.ResponseDisposition.allow, .cancel])
  func dataTask(disposition: URLSession.ResponseDisposition) async throws {
    var run = SessionRun(responses: [.hugeBody(byteCount: 64 * 1024)], recorderType: DataSessionRecorder.self)
    run.answers.responseDisposition = disposition
    let events = try await URLSessionTaskProxyTests.compare(
      run, proxy: Self.proxy,
      tasks: { session, collector in [session.dataTask(with: URLSessionTaskProxyTests.request(collector, "/data"))] })
    // swift-corelibs-foundation carries on after `.cancel` as after `.allow` (measured: the body
    // arrives and the task succeeds), so the answer shows only in the comparison above; the
    // redirect tests show an answer that changes the outcome.
    #expect(events == ["response 200", "data 65536", "complete 200 error 0", "invalid 0"])
  }

  @Test("hooks on the data proxy read the status and count the bytes as they arrive")
  func hooksCountBytes() async throws {
    let traces = TraceLog()
    let run = SessionRun(
      responses: [.redirect(status: 302, location: "/moved"), .hugeBody(byteCount: 20_000)],
      recorderType: DataSessionRecorder.self)
    let result = try await run.run(
      wrap: { recorder in
        let proxy = URLSessionDataDelegateProxy(forwardee: recorder as? DataSessionRecorder, retainsForwardee: true)
        proxy.hookBefore(\.dataTaskDidReceiveCompletionHandler) { _, _, response, _ in
          traces.append("status \((response as? HTTPURLResponse)?.statusCode ?? 0)")
        }
        proxy.hookBefore(\.dataTaskDidReceive) { _, _, data in traces.append("bytes \(data.count)") }
        proxy.hookBefore(\.urlSessionTask.taskWillPerformHTTPRedirection) { _, _, response, _, _ in
          traces.append("redirect \(response.statusCode)")
        }
        return proxy
      },
      tasks: { session, collector in [session.dataTask(with: URLSessionTaskProxyTests.request(collector, "/start"))] })
    let lines = traces.lines
    #expect(lines.prefix(2) == ["redirect 302", "status 200"])
    let bytes = lines.dropFirst(2).map { Int($0.dropFirst("bytes ".count)) ?? -1 }
    #expect(bytes.reduce(0, +) == 20_000)
    #expect(
      result.events == ["redirect 302 to /moved", "response 200", "data 20000", "complete 200 error 0", "invalid 0"])
  }
}

/// A proxy whose forwardee is gone still answers URLSession's questions: each requirement that
/// returns nothing runs Foundation's default implementation, which calls the completion handler,
/// so the session follows the redirect, takes the response and ends the task instead of waiting
/// forever for an answer.
@Suite struct URLSessionProxyWithoutForwardeeTests {
  @Test("without a forwardee the data proxy answers with Foundation's defaults and the task ends")
  func defaultsAnswerTheSession() async throws {
    let collector = try LoopbackCollector(readTimeout: stallProofDeadline)
    defer { collector.stop() }
    collector.enqueue(.redirect(status: 302, location: "/moved"), .hugeBody(byteCount: 4_000))
    let proxy = URLSessionDataDelegateProxy()
    let traces = TraceLog()
    let ends = AsyncStream<Int>.makeStream()
    proxy.hookBefore(\.urlSessionTask.taskWillPerformHTTPRedirection) { _, _, response, _, _ in
      traces.append("redirect \(response.statusCode)")
    }
    proxy.hookBefore(\.dataTaskDidReceiveCompletionHandler) { _, _, response, _ in
      traces.append("status \((response as? HTTPURLResponse)?.statusCode ?? 0)")
    }
    proxy.hookAfter(\.urlSessionTask.taskDidCompleteWithError) { _, task, error in
      traces.append("complete \((task.response as? HTTPURLResponse)?.statusCode ?? 0) error \(error == nil ? 0 : 1)")
      ends.continuation.yield(task.taskIdentifier)
    }
    let session = URLSession(configuration: .stallProof, delegate: proxy, delegateQueue: nil)
    defer { session.invalidateAndCancel() }
    let task = session.dataTask(with: URLSessionTaskProxyTests.request(collector, "/start"))
    task.resume()
    // Bounded by a generous deadline, awaited: before the defaults ran, the task waited forever
    // for the redirect's completion handler.
    let ended = await firstElement(of: ends.stream)
    #expect(ended == task.taskIdentifier, "the task never ended: \(traces.lines)")
    #expect(traces.lines == ["redirect 302", "status 200", "complete 200 error 0"])
    #expect(collector.requests.map(\.path) == ["/start", "/moved"])
  }
}
