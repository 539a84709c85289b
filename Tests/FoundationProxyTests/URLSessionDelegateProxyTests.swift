import DelegateProxyKit
import DelegateProxyKitTestSupport
import Foundation
import LoopbackCollector
import Synchronization
import Testing

@testable import FoundationProxyFixtures

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A session whose delegate adopts only `URLSessionDelegate`, set directly and behind the
/// generated `URLSessionDelegateProxy`: the session's own callbacks reach the delegate the same
/// way, and a hook on the proxy fires once.
@Suite struct URLSessionDelegateProxyTests {
  /// An app's session-level delegate: writes down each invalidation and signals it.
  final class InvalidationRecorder: NSObject, URLSessionDelegate, Sendable {
    let log = Mutex<[String]>([])
    let invalidations = AsyncStream<Void>.makeStream()

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
      log.withLock { $0.append("invalid \((error as NSError?)?.code ?? 0)") }
      invalidations.continuation.yield()
    }

    /// Waits for the next invalidation, up to a generous deadline; `false` when it passes first.
    func nextInvalidation() async -> Bool {
      await firstElement(of: invalidations.stream) != nil
    }
  }

  /// One request with a completion handler, then the session finishes and is invalidated.
  static func run(wrap: (InvalidationRecorder) throws -> any URLSessionDelegate) async throws -> [String] {
    let collector = try LoopbackCollector(readTimeout: stallProofDeadline)
    defer { collector.stop() }
    collector.enqueue(.status(204))
    let recorder = InvalidationRecorder()
    let session = URLSession(configuration: .stallProof, delegate: try wrap(recorder), delegateQueue: nil)
    let (_, response) = try await session.data(for: URLRequest(url: collector.url(path: "/ping")))
    session.finishTasksAndInvalidate()
    let invalidated = await recorder.nextInvalidation()
    return recorder.log.withLock { $0 } + [
      "status \((response as? HTTPURLResponse)?.statusCode ?? 0)", "invalidated \(invalidated)",
    ]
  }

  @Test("the session's invalidation reaches its delegate through the proxy as directly, with a hook once")
  func invalidation() async throws {
    let direct = try await Self.run { $0 }
    let hooked = Mutex(0)
    let proxied = try await Self.run { recorder in
      let proxy = URLSessionDelegateProxy(forwardee: recorder, retainsForwardee: true)
      proxy.hookAfter(\.didBecomeInvalidWithError) { _, _ in hooked.withLock { $0 += 1 } }
      return proxy
    }
    #expect(direct == ["invalid 0", "status 204", "invalidated true"])
    #expect(proxied == direct)
    #expect(hooked.withLock { $0 } == 1)
  }
}
