import DelegateProxyKit
import DelegateProxyKitSupport
import Synchronization

/// A value type result, to check structs pass through unchanged.
struct Size: Sendable, Hashable {
  var width: Double
  var height: Double
}

/// An object result, to check references pass through unchanged.
final class Token: Sendable {
  let name: String
  init(name: String) { self.name = name }
}

/// A delegate protocol defined only in the tests: the "user's own protocol" case.
protocol ProbeDelegate: AnyObject {
  func ping()
  func one(_ a: Int)
  func two(_ a: Int, _ b: String) -> Bool
  func three(_ a: Int, _ b: Double, _ c: String) -> Double
  func four(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Size
  func five(_ a: String, _ b: String, _ c: String, _ d: String, _ e: String) -> String
  func six(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int) -> Token
  func height(forRow row: Int) -> Double?
  func shouldSelect(_ row: Int) -> Bool
}

/// "Not implemented" defaults, as the host would see them without any delegate.
extension ProbeDelegate {
  func ping() {}
  func one(_ a: Int) {}
  func two(_ a: Int, _ b: String) -> Bool { false }
  func three(_ a: Int, _ b: Double, _ c: String) -> Double { 0 }
  func four(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Size { Size(width: 0, height: 0) }
  func five(_ a: String, _ b: String, _ c: String, _ d: String, _ e: String) -> String { "" }
  func six(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int) -> Token { Token(name: "default") }
  func height(forRow row: Int) -> Double? { nil }
  func shouldSelect(_ row: Int) -> Bool { true }
}

final class ProbeDelegateProxy: DelegateProxy<any ProbeDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let ping = DelegateMethod<Void>("ping()")
    let one = DelegateMethod<Int, Void>("one(_:)")
    let two = DelegateMethod<Int, String, Bool>("two(_:_:)")
    let three = DelegateMethod<Int, Double, String, Double>("three(_:_:_:)")
    let four = DelegateMethod<Int, Int, Int, Int, Size>("four(_:_:_:_:)")
    let five = DelegateMethod<String, String, String, String, String, String>("five(_:_:_:_:_:)")
    let six = DelegateMethod<Int, Int, Int, Int, Int, Int, Token>("six(_:_:_:_:_:_:)")
    let height = DelegateMethod<Int, Double?>("height(forRow:)")
    let shouldSelect = DelegateMethod<Int, Bool>("shouldSelect(_:)")
  }
  static let methods = Methods()
}

extension ProbeDelegateProxy: ProbeDelegate, DelegateConvertible {
  var asDelegate: any ProbeDelegate { self }
  func ping() { forward(Self.methods.ping) { $0.ping() } }
  func one(_ a: Int) { forward(Self.methods.one, a) { $0.one($1) } }
  func two(_ a: Int, _ b: String) -> Bool { forward(Self.methods.two, a, b, orElse: false) { $0.two($1, $2) } }
  func three(_ a: Int, _ b: Double, _ c: String) -> Double {
    forward(Self.methods.three, a, b, c, orElse: 0) { $0.three($1, $2, $3) }
  }
  func four(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Size {
    forward(Self.methods.four, a, b, c, d, orElse: Size(width: 0, height: 0)) { $0.four($1, $2, $3, $4) }
  }
  func five(_ a: String, _ b: String, _ c: String, _ d: String, _ e: String) -> String {
    forward(Self.methods.five, a, b, c, d, e, orElse: "") { $0.five($1, $2, $3, $4, $5) }
  }
  func six(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int) -> Token {
    forward(Self.methods.six, a, b, c, d, e, f, orElse: Token(name: "default")) { $0.six($1, $2, $3, $4, $5, $6) }
  }
  func height(forRow row: Int) -> Double? {
    forward(Self.methods.height, row, orElse: nil) { $0.height(forRow: $1) }
  }
  func shouldSelect(_ row: Int) -> Bool {
    forward(Self.methods.shouldSelect, row, orElse: true) { $0.shouldSelect($1) }
  }
}

/// A second proxy type, to stack two "libraries" on one slot. It declares only two methods.
final class OtherProbeProxy: DelegateProxy<any ProbeDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let one = DelegateMethod<Int, Void>("one(_:)")
    let shouldSelect = DelegateMethod<Int, Bool>("shouldSelect(_:)")
  }
  static let methods = Methods()
}

extension OtherProbeProxy: ProbeDelegate, DelegateConvertible {
  var asDelegate: any ProbeDelegate { self }
  func one(_ a: Int) { forward(Self.methods.one, a) { $0.one($1) } }
  func shouldSelect(_ row: Int) -> Bool {
    forward(Self.methods.shouldSelect, row, orElse: true) { $0.shouldSelect($1) }
  }
}

/// Records every call it receives; implements every method with a recognisable result.
final class RecordingProbe: ProbeDelegate, Sendable {
  let calls = SanitizerVisibleMutex<[String]>([])
  let token = Token(name: "recorded")
  var log: [String] { calls.withLock { $0 } }
  func record(_ entry: String) { calls.withLock { $0.append(entry) } }

  func ping() { record("ping") }
  func one(_ a: Int) { record("one \(a)") }
  func two(_ a: Int, _ b: String) -> Bool {
    record("two \(a) \(b)")
    return a > 0
  }
  func three(_ a: Int, _ b: Double, _ c: String) -> Double {
    record("three \(a) \(b) \(c)")
    return Double(a) * b
  }
  func four(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Size {
    record("four \(a) \(b) \(c) \(d)")
    return Size(width: Double(a + b), height: Double(c + d))
  }
  func five(_ a: String, _ b: String, _ c: String, _ d: String, _ e: String) -> String {
    record("five")
    return [a, b, c, d, e].joined(separator: "|")
  }
  func six(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int) -> Token {
    record("six \(a + b + c + d + e + f)")
    return token
  }
  func height(forRow row: Int) -> Double? {
    record("height \(row)")
    return row == 0 ? nil : Double(row) * 10
  }
  func shouldSelect(_ row: Int) -> Bool {
    record("shouldSelect \(row)")
    return row != 3
  }
}

/// Implements nothing: every method is the protocol default.
final class EmptyProbe: ProbeDelegate, Sendable {}

/// A minimal host with a delegate slot, the way HeadlessUI hosts are built.
final class ProbeHost {
  let delegateSlot = DelegateSlot<any ProbeDelegate>()
  weak var delegate: (any ProbeDelegate)? {
    didSet { delegateSlot.delegateDidChange(to: delegate) }
  }
  var target: (any ProbeDelegate)? { delegateSlot.head ?? delegate }

  @discardableResult
  func install<P: DelegateProxy<any ProbeDelegate> & DelegateConvertible>(_ type: P.Type, make: () -> P) -> P
  where P.ProxiedDelegate == any ProbeDelegate {
    delegateSlot.install(type, make: make)
  }

  @discardableResult
  func remove(_ proxy: DelegateProxy<any ProbeDelegate>) -> Bool { delegateSlot.remove(proxy) }

  /// The host's own use of `shouldSelect`: no delegate means "yes".
  func select(_ row: Int) -> Bool { delegateSlot.dispatch(orElse: delegate) { $0.shouldSelect(row) } ?? true }
  func tap(_ row: Int) { delegateSlot.dispatch(orElse: delegate) { $0.one(row) } }
}

/// A thread-safe counter for hooks.
final class Counter: Sendable {
  private let value = SanitizerVisibleMutex(0)
  func increment() { value.withLock { $0 += 1 } }
  var count: Int { value.withLock { $0 } }
}

/// Lets a test hand a proxy to other threads.
///
/// Proxies are not `Sendable`: a proxy belongs to its host's isolation. The concurrency and
/// stress tests share them with other threads on purpose — to install and remove hooks there
/// (the hook methods only touch the proxy's thread-safe registry) and to make calls from several
/// threads at once, which is exactly what those tests are about. This box is the explicit
/// opt-out; nothing outside those tests uses it.
final class SharedProxy<Proxy: AnyObject>: @unchecked Sendable {
  let proxy: Proxy
  init(_ proxy: Proxy) { self.proxy = proxy }
}
