extension RuntimeObject {

  /// Sends `selector` with 0 arguments and returns its result.
  ///
  /// The cached path allocates nothing: arguments are passed by pointer and
  /// the result is written straight into the caller's frame.
  ///
  /// ```swift
  /// let height: Double = try delegate.send(ListHost.heightForRow, host, indexPath)
  /// ```
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  /// - Returns: The value the implementation produced, of the type the
  ///   caller asks for.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector
  ///   or types do not match, or what the implementation throws.
  @inlinable
  public func send<R>(_ selector: Selector) throws -> R {
    var frame = noArgument
    return try withUnsafePointer(to: &frame) { frame in
      try sendMessage(selector, argumentCount: 0, arguments: frame, returning: R.self)
    }
  }

  /// Sends `selector` with 0 arguments, expecting no result.
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector
  ///   or types do not match, or what the implementation throws.
  @inlinable
  public func send(_ selector: Selector) throws {
    var frame = noArgument
    return try withUnsafePointer(to: &frame) { frame in
      try sendMessage(selector, argumentCount: 0, arguments: frame, returning: Void.self)
    }
  }

  /// Sends `selector` with 1 argument and returns its result.
  ///
  /// The cached path allocates nothing: arguments are passed by pointer and
  /// the result is written straight into the caller's frame.
  ///
  /// ```swift
  /// let height: Double = try delegate.send(ListHost.heightForRow, host, indexPath)
  /// ```
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  /// - Returns: The value the implementation produced, of the type the
  ///   caller asks for.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector
  ///   or types do not match, or what the implementation throws.
  @inlinable
  public func send<A, R>(_ selector: Selector, _ a: A) throws -> R {
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
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector
  ///   or types do not match, or what the implementation throws.
  @inlinable
  public func send<A>(_ selector: Selector, _ a: A) throws {
    try withUnsafePointer(to: a) { pa in
      var frame: ArgumentEntry = (A.self as Any.Type, UnsafeRawPointer(pa))
      return try withUnsafePointer(to: &frame) { frame in
        try sendMessage(selector, argumentCount: 1, arguments: frame, returning: Void.self)
      }
    }
  }

  /// Sends `selector` with 2 arguments and returns its result.
  ///
  /// The cached path allocates nothing: arguments are passed by pointer and
  /// the result is written straight into the caller's frame.
  ///
  /// ```swift
  /// let height: Double = try delegate.send(ListHost.heightForRow, host, indexPath)
  /// ```
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - b: Argument 1.
  /// - Returns: The value the implementation produced, of the type the
  ///   caller asks for.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector
  ///   or types do not match, or what the implementation throws.
  @inlinable
  public func send<A, B, R>(_ selector: Selector, _ a: A, _ b: B) throws -> R {
    try withUnsafePointer(to: a) { pa in
      try withUnsafePointer(to: b) { pb in
        var frame = ((A.self as Any.Type, UnsafeRawPointer(pa)), (B.self as Any.Type, UnsafeRawPointer(pb)))
        return try withUnsafePointer(to: &frame) { frame in
          try sendMessage(
            selector, argumentCount: 2, arguments: UnsafeRawPointer(frame).assumingMemoryBound(to: ArgumentEntry.self),
            returning: R.self)
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
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector
  ///   or types do not match, or what the implementation throws.
  @inlinable
  public func send<A, B>(_ selector: Selector, _ a: A, _ b: B) throws {
    try withUnsafePointer(to: a) { pa in
      try withUnsafePointer(to: b) { pb in
        var frame = ((A.self as Any.Type, UnsafeRawPointer(pa)), (B.self as Any.Type, UnsafeRawPointer(pb)))
        return try withUnsafePointer(to: &frame) { frame in
          try sendMessage(
            selector, argumentCount: 2, arguments: UnsafeRawPointer(frame).assumingMemoryBound(to: ArgumentEntry.self),
            returning: Void.self)
        }
      }
    }
  }

  /// Sends `selector` with 3 arguments and returns its result.
  ///
  /// The cached path allocates nothing: arguments are passed by pointer and
  /// the result is written straight into the caller's frame.
  ///
  /// ```swift
  /// let height: Double = try delegate.send(ListHost.heightForRow, host, indexPath)
  /// ```
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - b: Argument 1.
  ///   - c: Argument 2.
  /// - Returns: The value the implementation produced, of the type the
  ///   caller asks for.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector
  ///   or types do not match, or what the implementation throws.
  @inlinable
  public func send<A, B, C, R>(_ selector: Selector, _ a: A, _ b: B, _ c: C) throws -> R {
    try withUnsafePointer(to: a) { pa in
      try withUnsafePointer(to: b) { pb in
        try withUnsafePointer(to: c) { pc in
          var frame = (
            (A.self as Any.Type, UnsafeRawPointer(pa)), (B.self as Any.Type, UnsafeRawPointer(pb)),
            (C.self as Any.Type, UnsafeRawPointer(pc))
          )
          return try withUnsafePointer(to: &frame) { frame in
            try sendMessage(
              selector, argumentCount: 3,
              arguments: UnsafeRawPointer(frame).assumingMemoryBound(to: ArgumentEntry.self), returning: R.self)
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
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector
  ///   or types do not match, or what the implementation throws.
  @inlinable
  public func send<A, B, C>(_ selector: Selector, _ a: A, _ b: B, _ c: C) throws {
    try withUnsafePointer(to: a) { pa in
      try withUnsafePointer(to: b) { pb in
        try withUnsafePointer(to: c) { pc in
          var frame = (
            (A.self as Any.Type, UnsafeRawPointer(pa)), (B.self as Any.Type, UnsafeRawPointer(pb)),
            (C.self as Any.Type, UnsafeRawPointer(pc))
          )
          return try withUnsafePointer(to: &frame) { frame in
            try sendMessage(
              selector, argumentCount: 3,
              arguments: UnsafeRawPointer(frame).assumingMemoryBound(to: ArgumentEntry.self), returning: Void.self)
          }
        }
      }
    }
  }

  /// Sends `selector` with 4 arguments and returns its result.
  ///
  /// The cached path allocates nothing: arguments are passed by pointer and
  /// the result is written straight into the caller's frame.
  ///
  /// ```swift
  /// let height: Double = try delegate.send(ListHost.heightForRow, host, indexPath)
  /// ```
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - b: Argument 1.
  ///   - c: Argument 2.
  ///   - d: Argument 3.
  /// - Returns: The value the implementation produced, of the type the
  ///   caller asks for.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector
  ///   or types do not match, or what the implementation throws.
  @inlinable
  public func send<A, B, C, D, R>(_ selector: Selector, _ a: A, _ b: B, _ c: C, _ d: D) throws -> R {
    try withUnsafePointer(to: a) { pa in
      try withUnsafePointer(to: b) { pb in
        try withUnsafePointer(to: c) { pc in
          try withUnsafePointer(to: d) { pd in
            var frame = (
              (A.self as Any.Type, UnsafeRawPointer(pa)), (B.self as Any.Type, UnsafeRawPointer(pb)),
              (C.self as Any.Type, UnsafeRawPointer(pc)), (D.self as Any.Type, UnsafeRawPointer(pd))
            )
            return try withUnsafePointer(to: &frame) { frame in
              try sendMessage(
                selector, argumentCount: 4,
                arguments: UnsafeRawPointer(frame).assumingMemoryBound(to: ArgumentEntry.self), returning: R.self)
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
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector
  ///   or types do not match, or what the implementation throws.
  @inlinable
  public func send<A, B, C, D>(_ selector: Selector, _ a: A, _ b: B, _ c: C, _ d: D) throws {
    try withUnsafePointer(to: a) { pa in
      try withUnsafePointer(to: b) { pb in
        try withUnsafePointer(to: c) { pc in
          try withUnsafePointer(to: d) { pd in
            var frame = (
              (A.self as Any.Type, UnsafeRawPointer(pa)), (B.self as Any.Type, UnsafeRawPointer(pb)),
              (C.self as Any.Type, UnsafeRawPointer(pc)), (D.self as Any.Type, UnsafeRawPointer(pd))
            )
            return try withUnsafePointer(to: &frame) { frame in
              try sendMessage(
                selector, argumentCount: 4,
                arguments: UnsafeRawPointer(frame).assumingMemoryBound(to: ArgumentEntry.self), returning: Void.self)
            }
          }
        }
      }
    }
  }

  /// Sends `selector` with 5 arguments and returns its result.
  ///
  /// The cached path allocates nothing: arguments are passed by pointer and
  /// the result is written straight into the caller's frame.
  ///
  /// ```swift
  /// let height: Double = try delegate.send(ListHost.heightForRow, host, indexPath)
  /// ```
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - b: Argument 1.
  ///   - c: Argument 2.
  ///   - d: Argument 3.
  ///   - e: Argument 4.
  /// - Returns: The value the implementation produced, of the type the
  ///   caller asks for.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector
  ///   or types do not match, or what the implementation throws.
  @inlinable
  public func send<A, B, C, D, E, R>(_ selector: Selector, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E) throws -> R {
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
                try sendMessage(
                  selector, argumentCount: 5,
                  arguments: UnsafeRawPointer(frame).assumingMemoryBound(to: ArgumentEntry.self), returning: R.self)
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
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector
  ///   or types do not match, or what the implementation throws.
  @inlinable
  public func send<A, B, C, D, E>(_ selector: Selector, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E) throws {
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
                try sendMessage(
                  selector, argumentCount: 5,
                  arguments: UnsafeRawPointer(frame).assumingMemoryBound(to: ArgumentEntry.self), returning: Void.self)
              }
            }
          }
        }
      }
    }
  }

  /// Sends `selector` with 6 arguments and returns its result.
  ///
  /// The cached path allocates nothing: arguments are passed by pointer and
  /// the result is written straight into the caller's frame.
  ///
  /// ```swift
  /// let height: Double = try delegate.send(ListHost.heightForRow, host, indexPath)
  /// ```
  ///
  /// - Parameters:
  ///   - selector: The message to send.
  ///   - a: Argument 0.
  ///   - b: Argument 1.
  ///   - c: Argument 2.
  ///   - d: Argument 3.
  ///   - e: Argument 4.
  ///   - f: Argument 5.
  /// - Returns: The value the implementation produced, of the type the
  ///   caller asks for.
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector
  ///   or types do not match, or what the implementation throws.
  @inlinable
  public func send<A, B, C, D, E, F, R>(_ selector: Selector, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) throws
    -> R
  {
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
                  try sendMessage(
                    selector, argumentCount: 6,
                    arguments: UnsafeRawPointer(frame).assumingMemoryBound(to: ArgumentEntry.self), returning: R.self)
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
  /// - Throws: ``CaptureStrategiesError`` when nothing answers the selector
  ///   or types do not match, or what the implementation throws.
  @inlinable
  public func send<A, B, C, D, E, F>(_ selector: Selector, _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) throws {
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
                  try sendMessage(
                    selector, argumentCount: 6,
                    arguments: UnsafeRawPointer(frame).assumingMemoryBound(to: ArgumentEntry.self), returning: Void.self
                  )
                }
              }
            }
          }
        }
      }
    }
  }

  @inlinable
  func sendMessage<R>(
    _ selector: Selector,
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
        message.discardReturnValue(as: R.self)
        throw error
      }
      return try message.takeReturnValue(as: R.self)
    }
  }
}
