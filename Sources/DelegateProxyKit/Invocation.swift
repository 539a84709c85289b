/// A delegate call made into a value: its method, its arguments and, once it has returned, its
/// result or error.
///
/// The dynamic layer's currency: string-keyed hooks and ``HookRegistry/invocations(of:bufferingPolicy:)``
/// streams receive invocations. A proxy builds one only for a call that has such a hook; typed
/// hooks never need one. Its values are `Sendable`, since an invocation may cross isolation, which
/// is why only methods whose arguments and result are `Sendable` can be reified.
///
/// ```swift
/// try proxy.hooks.addHook(for: "listView(_:didSelectRowAt:)", at: .after) { invocation in
///   let indexPath = try invocation.argument(1, as: IndexPath.self)
///   print(invocation.selector, indexPath)
/// }
/// ```
public struct Invocation: Sendable {
  /// The selector name of the method called (its `#function` spelling).
  public let selector: String
  /// The arguments, in order.
  public let arguments: [any Sendable]
  /// The value the call returned, `nil` until it has returned (and for a call that threw).
  ///
  /// For a method that returns nothing it holds `()`; for a method that returns an `Optional`,
  /// the `Optional` itself.
  public internal(set) var returnValue: (any Sendable)?
  /// The error the call threw, for a throwing method; `nil` otherwise.
  public internal(set) var error: (any Error)?
  /// Whether the call has finished (true in after hooks and streams).
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
    self.selector = selector
    self.arguments = arguments
    self.returnValue = nil
    self.error = nil
    self.hasReturned = false
  }

  /// The number of arguments.
  public var argumentCount: Int { arguments.count }

  @usableFromInline
  internal mutating func finish(returning value: any Sendable) {
    returnValue = value
    hasReturned = true
  }

  @usableFromInline
  internal mutating func finish(throwing error: any Error) {
    self.error = error
    hasReturned = true
  }

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
    guard arguments.indices.contains(index) else {
      throw .argumentIndexOutOfRange(selector: selector, index: index, count: argumentCount)
    }
    let value = arguments[index]
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
  /// - Throws: ``DelegateProxyError/returnValueUnavailable(selector:)`` before the call returned
  ///   or when it threw, ``DelegateProxyError/returnTypeMismatch(selector:returns:requested:)`` for a
  ///   wrong type.
  public func returnValue<T>(as type: T.Type = T.self) throws(DelegateProxyError) -> T {
    guard hasReturned, let value = returnValue else { throw .returnValueUnavailable(selector: selector) }
    guard let typed = value as? T else {
      throw .returnTypeMismatch(
        selector: selector, returns: String(describing: Swift.type(of: value)), requested: String(describing: T.self))
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
