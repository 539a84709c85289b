extension RuntimeObject {

  /// Sends `selector` with no arguments and returns its result, of the type `returning` names.
  ///
  /// The expected result type is an argument, never inferred from the context, so that
  /// `try?` cannot turn a send into an optional-typed one by accident (see
  /// ``CaptureStrategiesError/returnTypeMismatch(selector:expected:actual:)``). The cached path
  /// allocates nothing: arguments are passed by pointer and the result is written straight
  /// into the caller's frame.
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - returning: The type the implementation returns.
  /// - Returns: The value the implementation produced.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector or a type does not
  ///   match, or what the implementation throws.
  @inlinable
  public func send<R>(_ selector: RuntimeSelector, returning: R.Type) throws -> R {
    var frame = noArgument
    return try withUnsafePointer(to: &frame) { frame in
      try sendMessage(selector, argumentCount: 0, arguments: frame, returning: R.self)
    }
  }

  /// Sends `selector` with no arguments, expecting no result.
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector or a type does not
  ///   match, or what the implementation throws.
  @inlinable
  public func send(_ selector: RuntimeSelector) throws {
    try send(selector, returning: Void.self)
  }

  /// Sends `selector` with 1 argument and returns its result, of the type `returning` names.
  ///
  /// The expected result type is an argument, never inferred from the context, so that
  /// `try?` cannot turn a send into an optional-typed one by accident (see
  /// ``CaptureStrategiesError/returnTypeMismatch(selector:expected:actual:)``). The cached path
  /// allocates nothing: arguments are passed by pointer and the result is written straight
  /// into the caller's frame.
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - returning: The type the implementation returns.
  /// - Returns: The value the implementation produced.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector or a type does not
  ///   match, or what the implementation throws.
  @inlinable
  public func send<A, R>(_ selector: RuntimeSelector, _ a: A, returning: R.Type) throws -> R {
    try withUnsafePointer(to: a) { pa in
      var frame: ArgumentEntry = (A.self as Any.Type, UnsafeRawPointer(pa))
      return try withUnsafePointer(to: &frame) { frame in
        try sendMessage(selector, argumentCount: 1, arguments: frame, returning: R.self)
      }
    }
  }

  /// Sends `selector` with 1 argument, expecting no result.
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector or a type does not
  ///   match, or what the implementation throws.
  @inlinable
  public func send<A>(_ selector: RuntimeSelector, _ a: A) throws {
    try send(selector, a, returning: Void.self)
  }

  /// Sends `selector` with 2 arguments and returns its result, of the type `returning` names.
  ///
  /// The expected result type is an argument, never inferred from the context, so that
  /// `try?` cannot turn a send into an optional-typed one by accident (see
  /// ``CaptureStrategiesError/returnTypeMismatch(selector:expected:actual:)``). The cached path
  /// allocates nothing: arguments are passed by pointer and the result is written straight
  /// into the caller's frame.
  ///
  /// ```swift
  /// let height = try delegate.send(ListHost.heightForRow, host, indexPath, returning: Double.self)
  /// ```
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - b: Argument 1.
  ///   - returning: The type the implementation returns.
  /// - Returns: The value the implementation produced.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector or a type does not
  ///   match, or what the implementation throws.
  @inlinable
  public func send<A, B, R>(_ selector: RuntimeSelector, _ a: A, _ b: B, returning: R.Type) throws -> R {
    try withUnsafePointer(to: a) { pa in
      try withUnsafePointer(to: b) { pb in
        var frame = (
          (A.self as Any.Type, UnsafeRawPointer(pa)), (B.self as Any.Type, UnsafeRawPointer(pb))
        )
        return try withUnsafePointer(to: &frame) { frame in
          try sendMessage(selector, argumentCount: 2, arguments: entries(frame), returning: R.self)
        }
      }
    }
  }

  /// Sends `selector` with 2 arguments, expecting no result.
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - b: Argument 1.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector or a type does not
  ///   match, or what the implementation throws.
  @inlinable
  public func send<A, B>(_ selector: RuntimeSelector, _ a: A, _ b: B) throws {
    try send(selector, a, b, returning: Void.self)
  }

  /// Sends `selector` with 3 arguments and returns its result, of the type `returning` names.
  ///
  /// The expected result type is an argument, never inferred from the context, so that
  /// `try?` cannot turn a send into an optional-typed one by accident (see
  /// ``CaptureStrategiesError/returnTypeMismatch(selector:expected:actual:)``). The cached path
  /// allocates nothing: arguments are passed by pointer and the result is written straight
  /// into the caller's frame.
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - b: Argument 1.
  ///   - c: Argument 2.
  ///   - returning: The type the implementation returns.
  /// - Returns: The value the implementation produced.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector or a type does not
  ///   match, or what the implementation throws.
  @inlinable
  public func send<A, B, C, R>(_ selector: RuntimeSelector, _ a: A, _ b: B, _ c: C, returning: R.Type) throws -> R {
    try withUnsafePointer(to: a) { pa in
      try withUnsafePointer(to: b) { pb in
        try withUnsafePointer(to: c) { pc in
          var frame = (
            (A.self as Any.Type, UnsafeRawPointer(pa)), (B.self as Any.Type, UnsafeRawPointer(pb)),
            (C.self as Any.Type, UnsafeRawPointer(pc))
          )
          return try withUnsafePointer(to: &frame) { frame in
            try sendMessage(selector, argumentCount: 3, arguments: entries(frame), returning: R.self)
          }
        }
      }
    }
  }

  /// Sends `selector` with 3 arguments, expecting no result.
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - b: Argument 1.
  ///   - c: Argument 2.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector or a type does not
  ///   match, or what the implementation throws.
  @inlinable
  public func send<A, B, C>(_ selector: RuntimeSelector, _ a: A, _ b: B, _ c: C) throws {
    try send(selector, a, b, c, returning: Void.self)
  }

  /// Sends `selector` with 4 arguments and returns its result, of the type `returning` names.
  ///
  /// The expected result type is an argument, never inferred from the context, so that
  /// `try?` cannot turn a send into an optional-typed one by accident (see
  /// ``CaptureStrategiesError/returnTypeMismatch(selector:expected:actual:)``). The cached path
  /// allocates nothing: arguments are passed by pointer and the result is written straight
  /// into the caller's frame.
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - b: Argument 1.
  ///   - c: Argument 2.
  ///   - d: Argument 3.
  ///   - returning: The type the implementation returns.
  /// - Returns: The value the implementation produced.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector or a type does not
  ///   match, or what the implementation throws.
  @inlinable
  public func send<A, B, C, D, R>(_ selector: RuntimeSelector, _ a: A, _ b: B, _ c: C, _ d: D, returning: R.Type) throws
    -> R
  {
    try withUnsafePointer(to: a) { pa in
      try withUnsafePointer(to: b) { pb in
        try withUnsafePointer(to: c) { pc in
          try withUnsafePointer(to: d) { pd in
            var frame = (
              (A.self as Any.Type, UnsafeRawPointer(pa)), (B.self as Any.Type, UnsafeRawPointer(pb)),
              (C.self as Any.Type, UnsafeRawPointer(pc)), (D.self as Any.Type, UnsafeRawPointer(pd))
            )
            return try withUnsafePointer(to: &frame) { frame in
              try sendMessage(selector, argumentCount: 4, arguments: entries(frame), returning: R.self)
            }
          }
        }
      }
    }
  }

  /// Sends `selector` with 4 arguments, expecting no result.
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - b: Argument 1.
  ///   - c: Argument 2.
  ///   - d: Argument 3.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector or a type does not
  ///   match, or what the implementation throws.
  @inlinable
  public func send<A, B, C, D>(_ selector: RuntimeSelector, _ a: A, _ b: B, _ c: C, _ d: D) throws {
    try send(selector, a, b, c, d, returning: Void.self)
  }

  /// Sends `selector` with 5 arguments and returns its result, of the type `returning` names.
  ///
  /// The expected result type is an argument, never inferred from the context, so that
  /// `try?` cannot turn a send into an optional-typed one by accident (see
  /// ``CaptureStrategiesError/returnTypeMismatch(selector:expected:actual:)``). The cached path
  /// allocates nothing: arguments are passed by pointer and the result is written straight
  /// into the caller's frame.
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - b: Argument 1.
  ///   - c: Argument 2.
  ///   - d: Argument 3.
  ///   - e: Argument 4.
  ///   - returning: The type the implementation returns.
  /// - Returns: The value the implementation produced.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector or a type does not
  ///   match, or what the implementation throws.
  @inlinable
  public func send<A, B, C, D, E, R>(
    _ selector: RuntimeSelector, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, returning: R.Type
  ) throws -> R {
    try withUnsafePointer(to: a) { pa in
      try withUnsafePointer(to: b) { pb in
        try withUnsafePointer(to: c) { pc in
          try withUnsafePointer(to: d) { pd in
            try withUnsafePointer(to: e) { pe in
              var frame = (
                (A.self as Any.Type, UnsafeRawPointer(pa)), (B.self as Any.Type, UnsafeRawPointer(pb)),
                (C.self as Any.Type, UnsafeRawPointer(pc)), (D.self as Any.Type, UnsafeRawPointer(pd)),
                (E.self as Any.Type, UnsafeRawPointer(pe))
              )
              return try withUnsafePointer(to: &frame) { frame in
                try sendMessage(selector, argumentCount: 5, arguments: entries(frame), returning: R.self)
              }
            }
          }
        }
      }
    }
  }

  /// Sends `selector` with 5 arguments, expecting no result.
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - b: Argument 1.
  ///   - c: Argument 2.
  ///   - d: Argument 3.
  ///   - e: Argument 4.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector or a type does not
  ///   match, or what the implementation throws.
  @inlinable
  public func send<A, B, C, D, E>(_ selector: RuntimeSelector, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E) throws {
    try send(selector, a, b, c, d, e, returning: Void.self)
  }

  /// Sends `selector` with 6 arguments and returns its result, of the type `returning` names.
  ///
  /// The expected result type is an argument, never inferred from the context, so that
  /// `try?` cannot turn a send into an optional-typed one by accident (see
  /// ``CaptureStrategiesError/returnTypeMismatch(selector:expected:actual:)``). The cached path
  /// allocates nothing: arguments are passed by pointer and the result is written straight
  /// into the caller's frame.
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - b: Argument 1.
  ///   - c: Argument 2.
  ///   - d: Argument 3.
  ///   - e: Argument 4.
  ///   - f: Argument 5.
  ///   - returning: The type the implementation returns.
  /// - Returns: The value the implementation produced.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector or a type does not
  ///   match, or what the implementation throws.
  @inlinable
  public func send<A, B, C, D, E, F, R>(
    _ selector: RuntimeSelector, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, returning: R.Type
  ) throws -> R {
    try withUnsafePointer(to: a) { pa in
      try withUnsafePointer(to: b) { pb in
        try withUnsafePointer(to: c) { pc in
          try withUnsafePointer(to: d) { pd in
            try withUnsafePointer(to: e) { pe in
              try withUnsafePointer(to: f) { pf in
                var frame = (
                  (A.self as Any.Type, UnsafeRawPointer(pa)), (B.self as Any.Type, UnsafeRawPointer(pb)),
                  (C.self as Any.Type, UnsafeRawPointer(pc)), (D.self as Any.Type, UnsafeRawPointer(pd)),
                  (E.self as Any.Type, UnsafeRawPointer(pe)), (F.self as Any.Type, UnsafeRawPointer(pf))
                )
                return try withUnsafePointer(to: &frame) { frame in
                  try sendMessage(selector, argumentCount: 6, arguments: entries(frame), returning: R.self)
                }
              }
            }
          }
        }
      }
    }
  }

  /// Sends `selector` with 6 arguments, expecting no result.
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - b: Argument 1.
  ///   - c: Argument 2.
  ///   - d: Argument 3.
  ///   - e: Argument 4.
  ///   - f: Argument 5.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector or a type does not
  ///   match, or what the implementation throws.
  @inlinable
  public func send<A, B, C, D, E, F>(_ selector: RuntimeSelector, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) throws
  {
    try send(selector, a, b, c, d, e, f, returning: Void.self)
  }

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
