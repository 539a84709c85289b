import DelegateProxyKit
import Foundation
import Testing

@testable import FoundationProxyFixtures

/// `NSCache` evicting through its delegate directly and through the generated
/// `NSCacheDelegateProxy` (a protocol that refines `NSObjectProtocol`, which the proxy's `NSObject`
/// base answers).
@Suite struct CacheProxyTests {
  /// The cache's delegate in an app: writes down what is evicted.
  final class EvictionRecorder: NSObject, NSCacheDelegate {
    private(set) var evicted: [String] = []

    func cache(_ cache: NSCache<AnyObject, AnyObject>, willEvictObject obj: Any) {
      evicted.append((obj as? NSString).map { $0 as String } ?? "\(obj)")
    }
  }

  /// Fills a cache of two beyond its limit, then empties it (which swift-corelibs-foundation
  /// does without asking the delegate): what the delegate saw.
  static func evictions(through wrap: (EvictionRecorder) -> any NSCacheDelegate) -> [String] {
    let recorder = EvictionRecorder()
    let delegate = wrap(recorder)
    let cache = NSCache<NSString, NSString>()
    cache.countLimit = 2
    cache.delegate = delegate
    withExtendedLifetime(delegate) {
      for key in ["a", "b", "c", "d"] { cache.setObject(key.uppercased() as NSString, forKey: key as NSString) }
      cache.removeAllObjects()
    }
    return recorder.evicted
  }

  @Test("evictions reach the delegate through the proxy exactly as directly")
  func evictions() {
    let direct = Self.evictions { $0 }
    let proxied = Self.evictions { NSCacheDelegateProxy(forwardee: $0, retainsForwardee: true) }
    #expect(direct.count == 2)
    #expect(proxied == direct)
  }

  @Test("a typed hook sees every evicted object, and NSObjectProtocol comes from NSObject")
  func hook() throws {
    let recorder = EvictionRecorder()
    let proxy = NSCacheDelegateProxy(forwardee: recorder)
    let seen = Seen()
    proxy.hookBefore(\.willEvictObject) { _, object in seen.objects.append("\(object)") }
    let cache = NSCache<NSString, NSString>()
    cache.countLimit = 1
    cache.delegate = proxy
    cache.setObject("one", forKey: "1")
    cache.setObject("two", forKey: "2")
    #expect(seen.objects.count == 1)
    #expect(recorder.evicted.count == 1)
    #expect(proxy.isEqual(proxy))
    #expect(!proxy.isEqual(recorder))
  }

  final class Seen {
    var objects: [String] = []
  }
}
