// The per-arity `send` overloads are generated: Generated/RuntimeObject+SendArities.swift
// (.ci/generate-runtime-sends). This file holds what they share.

extension RuntimeObject {
  @inlinable
  func sendMessage<R>(
    _ selector: RuntimeSelector,
    argumentCount: Int,
    arguments: UnsafePointer<ArgumentEntry>,
    returning: R.Type
  ) throws -> R {
    try withUnsafeTemporaryAllocation(of: R.self, capacity: 1) { buffer in
      var message = Message(
        selector: selector,
        argumentCount: argumentCount,
        arguments: arguments,
        returnType: R.self,
        returnSlot: UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped)
      )
      do {
        try dispatch(&message)
      } catch {
        message.endMarks()
        message.discardReturnValue(as: R.self)
        throw error
      }
      message.endMarks()
      return try message.takeReturnValue(as: R.self)
    }
  }
}

/// A tuple of argument entries seen as the array it is laid out as.
@inlinable
func entries<Frame>(_ frame: UnsafePointer<Frame>) -> UnsafePointer<ArgumentEntry> {
  UnsafeRawPointer(frame).assumingMemoryBound(to: ArgumentEntry.self)
}

extension RuntimeObject {
  /// Refuses a send whose result type would come from the context instead of `returning:`.
  ///
  /// `let name: String = try object.send(selector, 5)` has no overload to call: a send without
  /// `returning:` expects no result. This declaration exists only so that the compiler says so,
  /// naming `returning:`, for every arity and for the `try?` spelling, instead of a type mismatch
  /// on `()`. It can never be called.
  @available(
    *, unavailable,
    message: "name the result type with 'returning:', e.g. send(selector, arguments…, returning: String.self)"
  )
  public func send<each Argument, Result>(_ selector: RuntimeSelector, _ arguments: repeat each Argument) throws
    -> Result
  {
    fatalError("unavailable")
  }
}
