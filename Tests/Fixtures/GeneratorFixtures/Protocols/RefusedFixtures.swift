// Protocols the generator refuses, one per reason. None is marked for generation; the refusal
// tests name each one and check the message and that nothing was written.

/// Has a static requirement.
protocol StaticRequirementDelegate: AnyObject {
  /// Static.
  static func makeDefault() -> Int
}

/// Is not class-bound.
protocol ValueDelegate {
  /// Any requirement.
  func didChange(_ value: Int)
}

/// Has an `inout` parameter in an `async` requirement.
protocol InoutDelegate: AnyObject {
  /// `inout` and `async`.
  func adjust(_ value: inout Int) async
}

/// Has a `consuming` parameter.
protocol OwnershipDelegate: AnyObject {
  /// `consuming`.
  func take(_ value: consuming String)
}

/// Has an `isolated` parameter.
protocol IsolatedParameterDelegate: AnyObject {
  /// Runs on the actor passed in.
  func run(on actor: isolated any Actor) async
}

/// Has a variadic parameter.
protocol VariadicDelegate: AnyObject {
  /// Variadic.
  func log(_ values: Int...)
}

/// Has a non-escaping closure parameter.
protocol NonEscapingDelegate: AnyObject {
  /// Non-escaping.
  func perform(_ body: (Int) -> Void)
}

/// Has an opaque type inside another type.
protocol OpaqueInsideDelegate: AnyObject {
  /// An array of an opaque type with a primary associated type.
  func show(_ items: [some Collection<Int>])
}

/// Three requirements given the same name by their documentation: the generator tells derived
/// names apart, never given ones.
protocol CollidingNamesDelegate: AnyObject {
  /// Named `value`.
  ///
  /// - ProxyMethodName: value
  func value(_ x: Int)
  /// Named `value` as well.
  ///
  /// - ProxyMethodName: value
  func value(of x: String)
  /// And a third, an overload of the first that differs only by type.
  ///
  /// - ProxyMethodName: value
  func value(_ x: String)
}

/// Refused for several reasons at once, all of which the refusal names.
protocol ManyReasonsDelegate: AnyObject {
  /// Static.
  static func make() -> Int
  /// Variadic.
  func log(_ values: Int...)
  /// Variadic too, an overload that differs only by type.
  func log(_ values: String...)
  /// A subscript.
  subscript(index: Int) -> Int { get }
}

/// A directive that is not an identifier.
protocol BadDirectiveDelegate: AnyObject {
  /// Badly named.
  ///
  /// - ProxyMethodName: 2fast
  func go()
}

/// Private to this file.
private protocol HiddenDelegate: AnyObject {
  /// Any requirement.
  func hidden()
}

/// Inherits a protocol from another module whose requirements the generator does not know.
protocol ForeignParentDelegate: CustomStringConvertible, AnyObject {
  /// Any requirement.
  func foreign()
}

/// Declares requirements named like members of `NSObject`, which every proxy derives from.
protocol NSObjectNamesDelegate: AnyObject {
  /// `NSObject`'s `description`, restated.
  var description: String { get }
  /// `NSObject`'s `hash`, with another type.
  var hash: String { get set }
  /// `NSObject`'s `isEqual(_:)`, restated.
  func isEqual(_ object: Any?) -> Bool
  /// Not a member of `NSObject`: an overload of `NSObject`'s `isEqual(_:)` for another type.
  func isEqual(_ other: Int) -> Bool
}

/// Refines `Sendable`.
protocol SendableDelegate: AnyObject, Sendable {
  /// Any requirement.
  func didSend()
}

/// Not a protocol: the generator says so.
final class NotAProtocol {}
