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
  @usableFromInline internal var storage: ArgumentList
  /// The value the call returned, `nil` until it has returned or when it returned nothing.
  ///
  /// For a method that returns an `Optional`, this holds the `Optional` itself.
  public internal(set) var returnValue: (any Sendable)?
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
    var list = ArgumentList()
    for argument in arguments { list.append(argument) }
    self.init(selector: selector, storage: list)
  }

  @usableFromInline
  internal init(selector: String, storage: ArgumentList) {
    self.selector = selector
    self.storage = storage
    self.returnValue = nil
    self.hasReturned = false
  }

  @usableFromInline
  internal mutating func setReturnValue(_ value: any Sendable) {
    returnValue = value
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
    let value: any Sendable = returnValue ?? ()
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

/// Up to six arguments stored inline, more in an array.
@usableFromInline
internal struct ArgumentList: Sendable {
  @usableFromInline internal var count = 0
  @usableFromInline internal var first: (any Sendable)?
  @usableFromInline internal var second: (any Sendable)?
  @usableFromInline internal var third: (any Sendable)?
  @usableFromInline internal var fourth: (any Sendable)?
  @usableFromInline internal var fifth: (any Sendable)?
  @usableFromInline internal var sixth: (any Sendable)?
  @usableFromInline internal var overflow: [any Sendable] = []

  @inlinable internal init() {}

  @inlinable
  internal mutating func append(_ value: any Sendable) {
    switch count {
    case 0: first = value
    case 1: second = value
    case 2: third = value
    case 3: fourth = value
    case 4: fifth = value
    case 5: sixth = value
    default: overflow.append(value)
    }
    count += 1
  }

  internal subscript(index: Int) -> any Sendable {
    switch index {
    case 0: first!
    case 1: second!
    case 2: third!
    case 3: fourth!
    case 4: fifth!
    case 5: sixth!
    default: overflow[index - 6]
    }
  }
}
