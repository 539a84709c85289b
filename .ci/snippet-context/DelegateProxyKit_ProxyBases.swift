// What ProxyBases.md's blocks use without declaring it: the app's URLSession delegate, a counter.
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

final class SnippetSessionDelegate: NSObject, URLSessionDelegate, Sendable {}
let appDelegate = SnippetSessionDelegate()

/// A `Sendable` counter.
final class Counter: Sendable {
  private let value = Mutex(0)
  func increment() { value.withLock { $0 += 1 } }
}

// The conformance the article's abridged proxy leaves out (every requirement has a default).
extension URLSessionDelegateProxy: URLSessionDelegate {}
