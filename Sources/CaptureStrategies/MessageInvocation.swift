/// A message turned into an object: its selector, a copy of its arguments,
/// and, once invoked, its return value.
///
/// The runtime builds one when a send falls through to a class's
/// forward-invocation handler; a handler may inspect it, keep it, invoke it
/// on another object (``invoke(on:)``), or set the return value itself.
/// Building one copies the arguments to the heap, which is why forwarding
/// through ``RuntimeClass/setForwardInvocation(_:)`` is the slow path.
///
/// ```swift
/// proxyClass.setForwardInvocation { proxy, invocation in
///   log(invocation.selector.name, invocation.arguments)
///   try invocation.invoke(on: realTarget)
/// }
/// ```
public final class MessageInvocation {
  /// The selector of the message.
  public let selector: RuntimeSelector
  /// The argument types as the sender passed them.
  public let argumentTypes: [Any.Type]
  /// The static type the sender expects back.
  public let returnType: Any.Type
  private let storage: [UnsafeMutableRawPointer]
  private let returnStorage: UnsafeMutableRawPointer
  private var returnIsSet: Bool
  var marks: CaptureMarks

  /// Copies `message` into a new invocation.
  ///
  /// - Parameter message: The message to copy; its return value, if already
  ///   set, is copied too.
  public init(copying message: Message) {
    selector = message.selector
    returnType = message.returnType
    var types: [Any.Type] = []
    var storage: [UnsafeMutableRawPointer] = []
    for index in 0..<message.argumentCount {
      let entry = message.slot(index)
      types.append(entry.type)
      storage.append(allocateCopy(entry.type, from: entry.pointer))
    }
    argumentTypes = types
    self.storage = storage
    returnStorage = allocateUninitialized(message.returnType)
    returnIsSet = message.returnType == Void.self
    marks = message.marks.copied()
    if message.returnIsSet, message.returnType != Void.self {
      copyInitialize(message.returnType, from: UnsafeRawPointer(message.returnSlot), to: returnStorage)
      returnIsSet = true
    }
  }

  deinit {
    marks.releaseOverflow()
    for (type, pointer) in zip(argumentTypes, storage) {
      destroyAndFree(type, pointer, initialized: true)
    }
    destroyAndFree(returnType, returnStorage, initialized: returnIsSet && returnType != Void.self)
  }

  /// The arguments as `Any` values.
  public var arguments: [Any] {
    zip(argumentTypes, storage).map { (type: Any.Type, pointer: UnsafeMutableRawPointer) -> Any in
      copyAny(type, from: UnsafeRawPointer(pointer))
    }
  }

  /// Reads argument `index` as `T`.
  ///
  /// - Parameters:
  ///   - index: The zero-based argument position.
  ///   - type: The type the sender passed.
  /// - Returns: A copy of the argument.
  /// - Throws: ``CaptureStrategiesError/argumentIndexOutOfRange(selector:index:count:)``
  ///   or ``CaptureStrategiesError/argumentTypeMismatch(selector:index:expected:actual:)``.
  public func argument<T>(_ index: Int, as type: T.Type = T.self) throws(CaptureStrategiesError) -> T {
    try withMessage { message throws(CaptureStrategiesError) in try message.argument(index, as: T.self) }
  }

  /// The return value as `Any`, or `nil` before anything produced one.
  /// Setting it checks the type against ``returnType``; a mismatch is
  /// reported when the send completes.
  public var returnValue: Any? {
    guard returnIsSet else { return nil }
    return copyAny(returnType, from: UnsafeRawPointer(returnStorage))
  }

  /// Sets the return value, checking its dynamic type.
  ///
  /// - Parameter value: A value of the invocation's ``returnType``.
  /// - Throws: ``CaptureStrategiesError/returnTypeMismatch(selector:expected:actual:)``.
  public func setReturnValue(_ value: Any) throws(CaptureStrategiesError) {
    try withMessage { message throws(CaptureStrategiesError) in try message.setAnyReturnValue(value) }
  }

  /// Sends the invocation's message to `target` and stores its result.
  ///
  /// - Parameter target: The object to send to.
  /// - Throws: Whatever the target's implementation throws, or
  ///   ``CaptureStrategiesError/unrecognizedSelector(selector:className:)``.
  public func invoke(on target: RuntimeObject) throws {
    try withMessage { message in try target.dispatch(&message) }
  }

  /// Runs `body` with a ``Message`` that reads this invocation's arguments
  /// and writes its return value.
  ///
  /// - Parameter body: Code that works on the message; do not keep it.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withMessage<Result, Failure: Error>(
    _ body: (inout Message) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withUnsafeTemporaryAllocation(of: ArgumentEntry.self, capacity: max(argumentTypes.count, 1)) {
      (entries) throws(Failure) -> Result in
      entries.initialize(repeating: noArgument)
      for index in argumentTypes.indices {
        entries[index] = (argumentTypes[index], UnsafeRawPointer(storage[index]))
      }
      var message = Message(
        selector: selector,
        argumentCount: argumentTypes.count,
        arguments: UnsafePointer(entries.baseAddress.unsafelyUnwrapped),
        returnType: returnType,
        returnSlot: returnStorage
      )
      message.returnIsSet = returnIsSet
      message.marks = marks
      defer {
        returnIsSet = message.returnIsSet
        marks = message.marks
      }
      return try body(&message)
    }
  }

  /// Copies this invocation's return value into `message` (runtime side).
  func copyReturnValue(into message: inout Message) {
    message.marks.formUnion(marks)
    guard returnIsSet, returnType != Void.self else { return }
    // Same type on both sides: the invocation was made from this message.
    copyValue(returnType, from: UnsafeRawPointer(returnStorage), to: message.returnSlot, replacing: message.returnIsSet)
    message.returnIsSet = true
  }
}

@available(*, unavailable)
extension MessageInvocation: Sendable {}

private func allocateCopy<T>(_ type: T.Type, from pointer: UnsafeRawPointer) -> UnsafeMutableRawPointer {
  let copy = UnsafeMutablePointer<T>.allocate(capacity: 1)
  copy.initialize(to: pointer.assumingMemoryBound(to: T.self).pointee)
  return UnsafeMutableRawPointer(copy)
}

private func allocateUninitialized<T>(_ type: T.Type) -> UnsafeMutableRawPointer {
  UnsafeMutableRawPointer(UnsafeMutablePointer<T>.allocate(capacity: 1))
}

private func copyInitialize<T>(_ type: T.Type, from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer) {
  target.assumingMemoryBound(to: T.self).initialize(to: source.assumingMemoryBound(to: T.self).pointee)
}

private func copyValue<T>(
  _ type: T.Type,
  from source: UnsafeRawPointer,
  to target: UnsafeMutableRawPointer,
  replacing: Bool
) {
  let value = source.assumingMemoryBound(to: T.self).pointee
  let slot = target.assumingMemoryBound(to: T.self)
  if replacing { slot.pointee = value } else { slot.initialize(to: value) }
}

private func destroyAndFree<T>(_ type: T.Type, _ pointer: UnsafeMutableRawPointer, initialized: Bool) {
  let typed = pointer.assumingMemoryBound(to: T.self)
  if initialized { typed.deinitialize(count: 1) }
  typed.deallocate()
}
