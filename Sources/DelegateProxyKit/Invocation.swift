/// A delegate call made into a value: its selector, its arguments and, once it has returned, its result.
///
/// Hooks and observers receive invocations. A proxy builds one only when a hook or an
/// observer is installed; with none, forwarding never creates one. Arguments are stored
/// inline (up to six without any heap allocation for arguments of three words or less).
///
/// ```swift
/// try proxy.addHook(for: "listView(_:didSelectRowAt:)", at: .after) { invocation in
///   let indexPath = try invocation.argument(1, as: IndexPath.self)
///   print(invocation.selector, indexPath)
/// }
/// ```
public struct Invocation: Sendable {
  /// The selector name of the method called (its `#function` spelling).
  public let selector: String
  @usableFromInline internal let storage: ArgumentList
  /// The value the call returned, `nil` until it has returned.
  ///
  /// For a method that returns nothing it holds `()`; for a method that returns an `Optional`,
  /// the `Optional` itself.
  public internal(set) var returnValue: (any Sendable)? {
    get { hasReturned ? returned : nil }
    set {
      returned = newValue ?? Optional<Int>.none
    }
  }
  /// Stored without an `Optional` wrapper: destroying a plain existential is cheaper.
  @usableFromInline internal var returned: any Sendable
  /// Whether the call has returned (true in `after` hooks and observers).
  public internal(set) var hasReturned: Bool

  /// Creates an invocation with the given arguments.
  ///
  /// Proxies create invocations themselves; this initializer exists for tests and for code that
  /// replays calls.
  ///
  /// - Parameters:
  ///   - selector: The selector name.
  ///   - arguments: The arguments, in order.
  public init(selector: String, arguments: [any Sendable]) {
    self.init(selector: selector, storage: ArrayArguments(arguments))
  }

  @usableFromInline
  internal init(selector: String, storage: ArgumentList) {
    self.selector = selector
    self.storage = storage
    self.returned = ()
    self.hasReturned = false
  }

  @usableFromInline
  internal mutating func setReturnValue(_ value: any Sendable) {
    returned = value
    hasReturned = true
  }

  /// The number of arguments.
  public var argumentCount: Int { storage.count }

  /// All arguments, in order.
  public var arguments: [any Sendable] { (0..<storage.count).map { storage[$0] } }

  /// Returns argument `index`, cast to `T`.
  ///
  /// ```swift
  /// let row = try invocation.argument(1, as: IndexPath.self).row
  /// ```
  ///
  /// - Parameters:
  ///   - index: The zero-based position of the argument.
  ///   - type: The type the argument has.
  /// - Returns: The argument.
  /// - Throws: ``DelegateProxyError/argumentIndexOutOfRange(selector:index:count:)`` for an index
  ///   the call does not have, ``DelegateProxyError/argumentTypeMismatch(selector:index:expected:actual:)``
  ///   for a wrong type.
  public func argument<T>(_ index: Int, as type: T.Type = T.self) throws(DelegateProxyError) -> T {
    guard index >= 0, index < storage.count else {
      throw .argumentIndexOutOfRange(selector: selector, index: index, count: storage.count)
    }
    let value = storage[index]
    guard let typed = value as? T else {
      throw .argumentTypeMismatch(
        selector: selector, index: index, expected: String(describing: T.self),
        actual: String(describing: Swift.type(of: value)))
    }
    return typed
  }

  /// Returns the value the call returned, cast to `T`.
  ///
  /// - Parameter type: The method's return type (for an `Optional`-returning method, the `Optional`).
  /// - Returns: The return value.
  /// - Throws: ``DelegateProxyError/returnValueUnavailable(selector:)`` before the call returned,
  ///   ``DelegateProxyError/returnTypeMismatch(selector:expected:actual:)`` for a wrong type.
  public func returnValue<T>(as type: T.Type = T.self) throws(DelegateProxyError) -> T {
    guard hasReturned else { throw .returnValueUnavailable(selector: selector) }
    let value = returned
    guard let typed = value as? T else {
      throw .returnTypeMismatch(
        selector: selector, expected: String(describing: T.self),
        actual: String(describing: Swift.type(of: value)))
    }
    return typed
  }
}

extension Invocation: CustomStringConvertible {
  /// The selector and arguments, for logs.
  public var description: String {
    let rendered = arguments.map { String(describing: $0) }.joined(separator: ", ")
    return "\(selector)[\(rendered)]"
  }
}

/// The arguments of one call.
///
/// The base class answers by index; ``PackArguments`` stores the arguments of a forwarded call
/// as a typed tuple in one allocation (no existential boxing until a hook reads one), and
/// ``ArrayArguments`` stores a list given as an array. Both are immutable after creation, which is
/// why the unchecked `Sendable` conformances are safe.
@usableFromInline
internal class ArgumentList: @unchecked Sendable {
  @usableFromInline internal init() {}
  internal var count: Int { 0 }
  internal subscript(index: Int) -> any Sendable { preconditionFailure("no argument \(index)") }
}

/// The arguments of a forwarded call, stored as the parameter pack they came in.
@usableFromInline
internal final class PackArguments<each Argument: Sendable>: ArgumentList, @unchecked Sendable {
  @usableFromInline internal let values: (repeat each Argument)

  @inlinable
  internal init(_ values: repeat each Argument) {
    self.values = (repeat each values)
    super.init()
  }

  override internal var count: Int {
    var count = 0
    for _ in repeat each values { count += 1 }
    return count
  }

  override internal subscript(index: Int) -> any Sendable {
    var position = 0
    for value in repeat each values {
      if position == index { return value }
      position += 1
    }
    preconditionFailure("no argument \(index)")
  }
}

/// Arguments given as an array.
internal final class ArrayArguments: ArgumentList, @unchecked Sendable {
  private let values: [any Sendable]

  init(_ values: [any Sendable]) {
    self.values = values
    super.init()
  }

  override var count: Int { values.count }
  override subscript(index: Int) -> any Sendable { values[index] }
}
