import DelegateProxyKit
import ProxyBenchHarness

/// The rows of `typed-forwarding` for method shapes the list's did-select does not have: a
/// throwing method, and methods of six and seven arguments (the host and five or six integers).
/// Each shape is its own group, with the host calling its delegate directly as the baseline,
/// so a row's ratio compares one shape with itself.
///
/// - `throwing-direct` (baseline), `throwing-proxy`, `throwing-proxy-after-hook`: a throwing
///   method that returns a value and does not throw in the loop.
/// - `six-args-direct` (baseline), `six-args-proxy`, `six-args-proxy-after-hook`: six arguments,
///   the most the core's arity-specific paths take.
/// - `seven-args-direct` (baseline), `seven-args-proxy`: seven arguments, which still go through
///   the parameter-pack path (reported, no target).
@MainActor
func methodShapeGroupsAndVariants() -> (groups: [VariantGroup], variants: [Variant]) {
  let proxyTargets: [PerformanceTarget] = [.ratioToBaselineAtMost(1.25), .allocationsPerOperationAtMost(0)]
  let hookTargets: [PerformanceTarget] = [.ratioToBaselineAtMost(1.5), .allocationsPerOperationAtMost(0)]
  var variants: [Variant] = []
  for shape in MethodShape.allCases {
    variants.append(
      Variant(id: "\(shape.rawValue)-direct", group: shape.group, body: .timedLoop { shapeLoop(shape, .direct) }))
    variants.append(
      Variant(
        id: "\(shape.rawValue)-proxy", group: shape.group, targets: shape == .sevenArguments ? [] : proxyTargets,
        body: .timedLoop { shapeLoop(shape, .proxy) }))
    if shape != .sevenArguments {
      variants.append(
        Variant(
          id: "\(shape.rawValue)-proxy-after-hook", group: shape.group, targets: hookTargets,
          body: .timedLoop { shapeLoop(shape, .proxyAfterHook) }))
    }
  }
  let groups = MethodShape.allCases.map { VariantGroup(id: $0.group, baseline: "\($0.rawValue)-direct") }
  return (groups, variants)
}

/// A method shape of ``ShapesDelegate``.
enum MethodShape: String, CaseIterable {
  case throwing
  case sixArguments = "six-args"
  case sevenArguments = "seven-args"

  /// The group id of the shape's rows.
  var group: String { "typed-forwarding-\(rawValue)" }
}

/// How a shape's loop reaches the delegate.
enum ShapePath {
  /// The host calls the delegate.
  case direct
  /// Through ``ShapesProxy``, no hooks.
  case proxy
  /// Through ``ShapesProxy`` with one typed after hook adding to an atomic counter.
  case proxyAfterHook
}

/// Builds a host, its delegate and (for the proxy paths) a proxy, and returns the timed loop.
@MainActor
func shapeLoop(_ shape: MethodShape, _ path: ShapePath) -> @MainActor @Sendable (Int) -> Void {
  let host = ShapesHost()
  let delegate = CountingShapesDelegate()
  host.delegate = delegate
  let counter = IsolatedCounter()
  if path != .direct {
    let proxy = host.installProxy(ShapesProxy())
    if path == .proxyAfterHook {
      switch shape {
      case .throwing:
        proxy.hookAfter(\.validate) { result, _, _ in
          if case .success(let value) = result { counter.add(value & 1) }
        }
      case .sixArguments:
        proxy.hookAfter(\.six) { _, first, _, _, _, last in counter.add(first &+ last) }
      case .sevenArguments:
        proxy.hookAfter(\.seven) { _, first, _, _, _, _, last in counter.add(first &+ last) }
      }
    }
  }
  let value = opaque(1)
  return { iterations in
    switch shape {
    case .throwing:
      var sum = 0
      do {
        for _ in 0..<iterations { sum &+= try host.dispatchValidate(value) }
      } catch {
        preconditionFailure("the benchmark's delegate never throws: \(error)")
      }
      blackHole(sum)
    case .sixArguments:
      for _ in 0..<iterations { host.dispatchSix(value) }
    case .sevenArguments:
      for _ in 0..<iterations { host.dispatchSeven(value) }
    }
    blackHole(delegate.total)
    blackHole(counter.value)
  }
}

/// What a ``ShapesHost`` tells its delegate: one method per shape the benchmark prices.
@MainActor
protocol ShapesDelegate: AnyObject {
  /// A throwing method that returns a value.
  func host(_ host: ShapesHost, validate value: Int) throws -> Int
  /// A method of six arguments.
  func host(_ host: ShapesHost, six a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int)
  /// A method of seven arguments.
  func host(_ host: ShapesHost, seven a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int)
}

/// A host holding its delegate weakly behind a slot, as HeadlessUI's hosts do, and calling the
/// first proxy or the delegate.
@MainActor
final class ShapesHost {
  let delegateSlot = DelegateSlot<any ShapesDelegate>()
  weak var delegate: (any ShapesDelegate)? {
    didSet { delegateSlot.delegateDidChange(to: delegate) }
  }

  func dispatchValidate(_ value: Int) throws -> Int {
    try delegateSlot.dispatch(orElse: delegate) { try $0.host(self, validate: value) } ?? 0
  }

  func dispatchSix(_ value: Int) {
    delegateSlot.dispatch(orElse: delegate) {
      $0.host(self, six: value, value &+ 1, value &+ 2, value &+ 3, value &+ 4)
    }
  }

  func dispatchSeven(_ value: Int) {
    delegateSlot.dispatch(orElse: delegate) {
      $0.host(self, seven: value, value &+ 1, value &+ 2, value &+ 3, value &+ 4, value &+ 5)
    }
  }
}

extension ShapesHost: @MainActor DelegateHosting {
  var hostedDelegate: (any ShapesDelegate)? { delegate }
}

/// The delegate: adds what it receives, and never throws.
@MainActor
final class CountingShapesDelegate: ShapesDelegate {
  var total = 0

  func host(_ host: ShapesHost, validate value: Int) throws -> Int {
    total &+= value
    return total
  }

  func host(_ host: ShapesHost, six a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int) {
    total &+= a &+ e
  }

  func host(_ host: ShapesHost, seven a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int) {
    total &+= a &+ f
  }
}

/// The hand-written typed proxy for ``ShapesDelegate``, written like `SecondListProxy`.
final class ShapesProxy: DelegateProxy<any ShapesDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let validate = ThrowingDelegateMethod<ShapesHost, Int, Int, any Error>("host(_:validate:)")
    let six = DelegateMethod<ShapesHost, Int, Int, Int, Int, Int, Void>("host(_:six:_:_:_:_:)")
    let seven = DelegateMethod<ShapesHost, Int, Int, Int, Int, Int, Int, Void>("host(_:seven:_:_:_:_:_:)")
  }
  static let methods = Methods()
}

extension ShapesProxy: ShapesDelegate, DelegateConvertible {
  var asDelegate: any ShapesDelegate { self }
  func host(_ host: ShapesHost, validate value: Int) throws -> Int {
    try forward(Self.methods.validate, host, value, orElse: 0) { try $0.host($1, validate: $2) }
  }

  func host(_ host: ShapesHost, six a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int) {
    forward(Self.methods.six, host, a, b, c, d, e) { $0.host($1, six: $2, $3, $4, $5, $6) }
  }

  func host(_ host: ShapesHost, seven a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int) {
    forward(Self.methods.seven, host, a, b, c, d, e, f) { $0.host($1, seven: $2, $3, $4, $5, $6, $7) }
  }
}
