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
  /// The number of arguments.
  public let argumentCount: Int
  /// Returns argument `index` (in range). For a forwarded call it reads the arguments from the
  /// closure's own context, which the client module lays out and frees with its concrete types.
  @usableFromInline internal let element: @Sendable (Int) -> any Sendable
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
    self.init(selector: selector, count: arguments.count) { arguments[$0] }
  }

  @usableFromInline
  internal init(selector: String, count: Int, element: @escaping @Sendable (Int) -> any Sendable) {
    self.selector = selector
    self.argumentCount = count
    self.element = element
    self.returned = ()
    self.hasReturned = false
  }

  /// An invocation for a forwarded call's arguments, kept as the pack they came in.
  @inlinable
  internal static func packing<each Argument: Sendable>(
    _ selector: String, _ arguments: repeat each Argument
  ) -> Invocation {
    var count = 0
    for _ in repeat each arguments { count += 1 }
    let values = (repeat each arguments)
    return Invocation(selector: selector, count: count) { index in
      var position = 0
      for value in repeat each values {
        if position == index { return value }
        position += 1
      }
      preconditionFailure("no argument \(index)")
    }
  }

  @usableFromInline
  internal mutating func markReturned() {
    hasReturned = true
  }

  @usableFromInline
  internal mutating func setReturnValue(_ value: any Sendable) {
    returned = value
    hasReturned = true
  }

  /// All arguments, in order.
  public var arguments: [any Sendable] { (0..<argumentCount).map { element($0) } }

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
    guard index >= 0, index < argumentCount else {
      throw .argumentIndexOutOfRange(selector: selector, index: index, count: argumentCount)
    }
    let value = element(index)
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
