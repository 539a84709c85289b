/// One message being sent: its selector, its typed arguments and the slot
/// for its return value.
///
/// A `Message` lives on the sender's stack for the length of one send and
/// points at the caller's argument values, so building one allocates
/// nothing. Implementations and capture handlers read arguments with
/// ``argument(_:as:)`` and answer with ``setReturnValue(_:)``. Never keep a
/// message after the call that received it returns: its pointers would
/// dangle. To keep a call, make a ``MessageInvocation`` from it.
///
/// ```swift
/// let add = Implementation { message in
///   let a = try message.argument(0, as: Int.self)
///   let b = try message.argument(1, as: Int.self)
///   try message.setReturnValue(a + b)
/// }
/// ```
public struct Message {
  /// The message's selector.
  public let selector: RuntimeSelector
  /// How many arguments the sender passed (0 through 6).
  public let argumentCount: Int
  @usableFromInline let arguments: UnsafePointer<ArgumentEntry>
  /// The static type the sender expects back (`Void` for no value).
  public let returnType: Any.Type
  @usableFromInline let returnSlot: UnsafeMutableRawPointer
  @usableFromInline var returnIsSet: Bool
  @usableFromInline var marks = CaptureMarks()

  /// The largest number of arguments a message carries.
  public static let maximumArgumentCount = 6

  @inlinable
  init(
    selector: RuntimeSelector,
    argumentCount: Int,
    arguments: UnsafePointer<ArgumentEntry>,
    returnType: Any.Type,
    returnSlot: UnsafeMutableRawPointer
  ) {
    self.selector = selector
    self.argumentCount = argumentCount
    self.arguments = arguments
    self.returnType = returnType
    self.returnSlot = returnSlot
    self.returnIsSet = returnType == Void.self
  }

  /// The static type of argument `index`, as the sender passed it.
  ///
  /// - Parameter index: The zero-based argument position.
  /// - Returns: The type, or `nil` when `index` is out of range.
  public func argumentType(at index: Int) -> Any.Type? {
    guard index >= 0, index < argumentCount else { return nil }
    return slot(index).type
  }

  /// Reads argument `index` as a value of type `T`.
  ///
  /// - Parameters:
  ///   - index: The zero-based argument position.
  ///   - type: The type the sender passed for that argument.
  /// - Returns: A copy of the argument.
  /// - Throws: ``CaptureStrategiesError/argumentIndexOutOfRange(selector:index:count:)``
  ///   or ``CaptureStrategiesError/argumentTypeMismatch(selector:index:expected:actual:)``.
  @inlinable
  public func argument<T>(_ index: Int, as type: T.Type = T.self) throws(CaptureStrategiesError) -> T {
    guard index >= 0, index < argumentCount, arguments[index].type == T.self else {
      throw argumentError(index, expected: T.self)
    }
    return arguments[index].pointer.unsafelyUnwrapped.assumingMemoryBound(to: T.self).pointee
  }

  /// The error for a failed ``argument(_:as:)`` (kept out of line so the
  /// typed fast path stays small).
  @usableFromInline
  @inline(never)
  func argumentError(_ index: Int, expected: Any.Type) -> CaptureStrategiesError {
    guard index >= 0, index < argumentCount else {
      return .argumentIndexOutOfRange(selector: selector.name, index: index, count: argumentCount)
    }
    return .argumentTypeMismatch(
      selector: selector.name,
      index: index,
      expected: String(reflecting: expected),
      actual: String(reflecting: slot(index).type)
    )
  }

  /// The error for a failed ``setReturnValue(_:)``.
  @usableFromInline
  @inline(never)
  func returnTypeError(actual: Any.Type) -> CaptureStrategiesError {
    .returnTypeMismatch(
      selector: selector.name,
      expected: String(reflecting: returnType),
      actual: String(reflecting: actual)
    )
  }

  /// Reads argument `index` as `Any`, whatever its type.
  ///
  /// - Parameter index: The zero-based argument position.
  /// - Returns: A copy of the argument in an existential box.
  /// - Throws: ``CaptureStrategiesError/argumentIndexOutOfRange(selector:index:count:)``.
  public func anyArgument(_ index: Int) throws(CaptureStrategiesError) -> Any {
    guard index >= 0, index < argumentCount else {
      throw .argumentIndexOutOfRange(selector: selector.name, index: index, count: argumentCount)
    }
    let entry = slot(index)
    return copyAny(entry.type, from: entry.pointer)
  }

  /// All arguments as `Any` values (allocates; for logging and invocations).
  public var anyArguments: [Any] {
    (0..<argumentCount).map { copyAny(slot($0).type, from: slot($0).pointer) }
  }

  /// Sets the value the send returns.
  ///
  /// Setting it again replaces the earlier value.
  ///
  /// - Parameter value: The value, of exactly the type the sender expects.
  /// - Throws: ``CaptureStrategiesError/returnTypeMismatch(selector:expected:actual:)``
  ///   when `T` is not ``returnType``.
  @inlinable
  public mutating func setReturnValue<T>(_ value: T) throws(CaptureStrategiesError) {
    guard T.self == returnType else { throw returnTypeError(actual: T.self) }
    let typed = returnSlot.assumingMemoryBound(to: T.self)
    if returnIsSet {
      typed.pointee = value
    } else {
      typed.initialize(to: value)
      returnIsSet = true
    }
  }

  /// Sets the return value from an `Any`, checking its dynamic type.
  ///
  /// - Parameter value: A value whose dynamic type is ``returnType``.
  /// - Throws: ``CaptureStrategiesError/returnTypeMismatch(selector:expected:actual:)``.
  public mutating func setAnyReturnValue(_ value: Any) throws(CaptureStrategiesError) {
    let wasSet = returnIsSet
    guard storeAny(returnType, value, into: returnSlot, replacing: wasSet) else {
      throw .returnTypeMismatch(
        selector: selector.name,
        expected: String(reflecting: returnType),
        actual: String(reflecting: type(of: value))
      )
    }
    returnIsSet = true
  }

  /// Whether an implementation has produced the return value yet.
  ///
  /// Always `true` for messages whose return type is `Void`.
  public var hasReturnValue: Bool { returnIsSet }

  /// The return value produced so far, read as `T` (for `after` handlers).
  ///
  /// - Parameter type: The message's return type.
  /// - Returns: A copy of the value, or `nil` when none was set or `T` is
  ///   not the return type.
  public func returnValue<T>(as type: T.Type = T.self) -> T? {
    guard returnIsSet, T.self == returnType else { return nil }
    return returnSlot.assumingMemoryBound(to: T.self).pointee
  }

  /// The return value produced so far as `Any`, or `nil` when none was set.
  public var anyReturnValue: Any? {
    guard returnIsSet else { return nil }
    return copyAny(returnType, from: UnsafeRawPointer(returnSlot))
  }

  @inlinable
  func slot(_ index: Int) -> (type: Any.Type, pointer: UnsafeRawPointer) {
    let entry = arguments[index]
    return (entry.type, entry.pointer.unsafelyUnwrapped)
  }

  /// Moves the return value out after the send (sender side).
  @inlinable
  func takeReturnValue<R>(as type: R.Type) throws(CaptureStrategiesError) -> R {
    guard returnIsSet else { throw .missingReturnValue(selector: selector.name) }
    return returnSlot.assumingMemoryBound(to: R.self).move()
  }

  /// Frees the capture marks' overflow when the send that owns this
  /// message is over (a no-op unless more than four strategies captured it).
  @inlinable
  mutating func endMarks() {
    if marks.overflow != nil { marks.releaseOverflow() }
  }

  /// Destroys a return value that was set when the send fails afterwards.
  @inlinable
  func discardReturnValue<R>(as type: R.Type) {
    if returnIsSet, R.self != Void.self {
      returnSlot.assumingMemoryBound(to: R.self).deinitialize(count: 1)
    }
  }
}

@available(*, unavailable)
extension Message: Sendable {}

/// One argument as the sender passed it: its static type and its address.
@usableFromInline
typealias ArgumentEntry = (type: Any.Type, pointer: UnsafeRawPointer?)

/// The argument entry standing in for a message with no arguments.
@inlinable
var noArgument: ArgumentEntry { (Void.self, nil) }

func copyAny<T>(_ type: T.Type, from pointer: UnsafeRawPointer) -> Any {
  pointer.assumingMemoryBound(to: T.self).pointee
}

func storeAny<T>(_ type: T.Type, _ value: Any, into pointer: UnsafeMutableRawPointer, replacing: Bool) -> Bool {
  guard let typed = value as? T else { return false }
  let slot = pointer.assumingMemoryBound(to: T.self)
  if replacing {
    slot.pointee = typed
  } else {
    slot.initialize(to: typed)
  }
  return true
}
