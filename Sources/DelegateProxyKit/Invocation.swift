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
  /// The arguments, held inline for a call of up to four (see ``arguments``).
  @usableFromInline internal let storage: InvocationArguments
  /// Where the call is: running, returned (with or without a value) or thrown.
  @usableFromInline internal var completion: Completion

  /// The value the call returned, `nil` until it has returned (and for a call that threw).
  ///
  /// For a method that returns nothing it holds `()`; for a method that returns an `Optional`,
  /// the `Optional` itself.
  public var returnValue: (any Sendable)? {
    if case .returned(let value) = completion { value } else { nil }
  }
  /// The error the call threw, for a throwing method; `nil` otherwise.
  public var error: (any Error)? {
    if case .threw(let error) = completion { error } else { nil }
  }
  /// Whether the call has finished (true in after hooks and streams).
  public var hasReturned: Bool {
    if case .running = completion { false } else { true }
  }

  /// Creates an invocation with the given arguments.
  ///
  /// Proxies create invocations themselves; this initializer exists for tests and for code that
  /// replays calls.
  ///
  /// - Parameters:
  ///   - selector: The selector name.
  ///   - arguments: The arguments, in order.
  public init(selector: String, arguments: [any Sendable]) {
    self.init(selector: selector, arguments: InvocationArguments(arguments))
  }

  /// Creates an invocation of a call the proxy reified, its arguments already in place.
  @usableFromInline
  internal init(selector: String, arguments: InvocationArguments) {
    self.selector = selector
    self.storage = arguments
    self.completion = .running
  }

  /// The arguments, in order, as a new array.
  ///
  /// An invocation keeps the arguments of a call of up to four inside itself, so that reifying a
  /// call allocates nothing when each argument fits an existential's inline buffer (three words);
  /// this property copies them into an array. Read one argument with ``argument(_:as:)`` instead,
  /// which neither allocates nor copies the others.
  public var arguments: [any Sendable] { storage.array }

  /// The number of arguments.
  @inlinable
  public var argumentCount: Int { storage.count }

  @inlinable
  internal mutating func finish(returning value: any Sendable) {
    completion = .returned(value)
  }

  /// Marks the call returned with `value`, which is `nil` when no value was produced (an instead
  /// call whose rest produced none).
  @usableFromInline
  internal mutating func finish(returning value: (any Sendable)?) {
    completion = value.map { .returned($0) } ?? .returnedNothing
  }

  @inlinable
  internal mutating func finish(throwing error: any Error) {
    completion = .threw(error)
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
  /// The argument's own type is read without a dynamic cast; another type that the value casts
  /// to with `as?` (a superclass, a protocol it conforms to, an `Optional` of it) is read with one.
  ///
  /// - Throws: ``DelegateProxyError/argumentIndexOutOfRange(selector:index:count:)`` for an index
  ///   the call does not have, ``DelegateProxyError/argumentTypeMismatch(selector:index:expected:actual:)``
  ///   for a wrong type.
  @inlinable
  public func argument<T>(_ index: Int, as type: T.Type = T.self) throws(DelegateProxyError) -> T {
    guard index >= 0, index < storage.count else { throw indexOutOfRange(index) }
    if let typed = storage.exactly(index, as: T.self) { return typed }
    let value = storage[index]
    guard let typed = value as? T else { throw typeMismatch(index, value, expected: T.self) }
    return typed
  }

  @usableFromInline
  internal func indexOutOfRange(_ index: Int) -> DelegateProxyError {
    .argumentIndexOutOfRange(selector: selector, index: index, count: argumentCount)
  }

  @usableFromInline
  internal func typeMismatch(_ index: Int, _ value: any Sendable, expected: Any.Type) -> DelegateProxyError {
    .argumentTypeMismatch(
      selector: selector, index: index, expected: String(describing: expected),
      actual: String(describing: Swift.type(of: value)))
  }

  /// Returns the value the call returned, cast to `T`.
  ///
  /// - Parameter type: The method's return type (for an `Optional`-returning method, the `Optional`).
  /// - Returns: The return value.
  /// - Throws: ``DelegateProxyError/returnValueUnavailable(selector:)`` before the call returned
  ///   or when it threw, ``DelegateProxyError/returnTypeMismatch(selector:returns:requested:)`` for a
  ///   wrong type.
  @inlinable
  public func returnValue<T>(as type: T.Type = T.self) throws(DelegateProxyError) -> T {
    guard hasReturned, let value = returnValue else { throw .returnValueUnavailable(selector: selector) }
    if let typed = exactly(value, as: T.self) { return typed }
    guard let typed = value as? T else { throw returnTypeMismatch(value, requested: T.self) }
    return typed
  }

  @usableFromInline
  internal func returnTypeMismatch(_ value: any Sendable, requested: Any.Type) -> DelegateProxyError {
    .returnTypeMismatch(
      selector: selector, returns: String(describing: Swift.type(of: value)), requested: String(describing: requested))
  }
}

extension Invocation {
  /// Where a call is. One enumeration rather than an optional value, an optional error and a
  /// flag: the reified paths start and finish an invocation on every call, and assigning or
  /// destroying an optional existential goes through the runtime's generic `Optional` witnesses.
  @usableFromInline
  internal enum Completion: Sendable {
    /// Not returned yet (before hooks, instead hooks before ``InsteadCall/proceed()``).
    case running
    /// Returned `value`.
    case returned(any Sendable)
    /// Returned, with no value produced (an instead call whose rest produced none).
    case returnedNothing
    /// Threw `error`.
    case threw(any Error)
  }
}

extension Invocation: CustomStringConvertible {
  /// The selector and arguments, for logs.
  public var description: String {
    let rendered = (0..<storage.count).map { String(describing: storage[$0]) }.joined(separator: ", ")
    return "\(selector)[\(rendered)]"
  }
}
