/// A method body in the dispatch model: the receiver and the message in,
/// the return value written into the message.
///
/// Implementations are reference types so that their identity can be
/// compared: a strategy that replaced a method checks with `===` that the
/// class still holds *its* implementation before restoring the original.
///
/// Write bodies against ``Message`` directly, or use the typed initialisers
/// that read the arguments and store the result for you:
///
/// ```swift
/// let height = Implementation { (_: RuntimeObject, host: ListHost, path: IndexPath) -> Double in
///   path.row == 0 ? 88 : 44
/// }
/// ```
public final class Implementation: Sendable {
  /// The body the dispatcher calls.
  public let body: @Sendable (RuntimeObject, inout Message) throws -> Void
  /// For a strategy's override that calls what its class's superclass
  /// answers for the same selector: makes the implementation the method
  /// cache calls instead of ``body``, with that superclass implementation
  /// passed in, so that the call needs no look-up of its own. A cache is
  /// rebuilt after any change to a superclass's methods, so the
  /// implementation passed in is always the current one.
  let bindingSuper: (@Sendable (_ superImplementation: Implementation) -> Implementation)?

  /// Creates an implementation from a body that works on the message.
  ///
  /// - Parameter body: Reads arguments from the message and sets its return
  ///   value (not needed for `Void`).
  public init(_ body: @escaping @Sendable (_ receiver: RuntimeObject, _ message: inout Message) throws -> Void) {
    self.body = body
    self.bindingSuper = nil
  }

  /// Creates a strategy's override that calls the superclass's implementation.
  ///
  /// - Parameters:
  ///   - body: The override looking the superclass's implementation up when
  ///     called; what runs when the superclass has none for the selector.
  ///   - bindingSuper: The override calling the implementation passed in.
  init(
    lookingUpSuper body: @escaping @Sendable (_ receiver: RuntimeObject, _ message: inout Message) throws -> Void,
    bindingSuper: @escaping @Sendable (_ superImplementation: Implementation) -> Implementation
  ) {
    self.body = body
    self.bindingSuper = bindingSuper
  }

  /// Creates an implementation of a message with no arguments.
  ///
  /// - Parameter body: Returns the message's result.
  @inlinable
  public convenience init<R>(_ body: @escaping @Sendable (RuntimeObject) throws -> R) {
    self.init { receiver, message in try message.setReturnValue(body(receiver)) }
  }

  /// Creates an implementation of a message with one argument.
  ///
  /// - Parameter body: Receives the typed argument and returns the result.
  @inlinable
  public convenience init<A, R>(_ body: @escaping @Sendable (RuntimeObject, A) throws -> R) {
    self.init { receiver, message in
      try message.setReturnValue(body(receiver, message.argument(0)))
    }
  }

  /// Creates an implementation of a message with two arguments.
  ///
  /// - Parameter body: Receives the typed arguments and returns the result.
  @inlinable
  public convenience init<A, B, R>(_ body: @escaping @Sendable (RuntimeObject, A, B) throws -> R) {
    self.init { receiver, message in
      try message.setReturnValue(body(receiver, message.argument(0), message.argument(1)))
    }
  }

  /// Creates an implementation of a message with three arguments.
  ///
  /// - Parameter body: Receives the typed arguments and returns the result.
  @inlinable
  public convenience init<A, B, C, R>(_ body: @escaping @Sendable (RuntimeObject, A, B, C) throws -> R) {
    self.init { receiver, message in
      try message.setReturnValue(
        body(receiver, message.argument(0), message.argument(1), message.argument(2))
      )
    }
  }

  /// Creates an implementation of a message with four arguments.
  ///
  /// - Parameter body: Receives the typed arguments and returns the result.
  @inlinable
  public convenience init<A, B, C, D, R>(_ body: @escaping @Sendable (RuntimeObject, A, B, C, D) throws -> R) {
    self.init { receiver, message in
      try message.setReturnValue(
        body(receiver, message.argument(0), message.argument(1), message.argument(2), message.argument(3))
      )
    }
  }

  /// Creates an implementation of a message with five arguments.
  ///
  /// - Parameter body: Receives the typed arguments and returns the result.
  @inlinable
  public convenience init<A, B, C, D, E, R>(
    _ body: @escaping @Sendable (RuntimeObject, A, B, C, D, E) throws -> R
  ) {
    self.init { receiver, message in
      try message.setReturnValue(
        body(
          receiver, message.argument(0), message.argument(1), message.argument(2), message.argument(3),
          message.argument(4)
        )
      )
    }
  }

  /// Creates an implementation of a message with six arguments.
  ///
  /// - Parameter body: Receives the typed arguments and returns the result.
  @inlinable
  public convenience init<A, B, C, D, E, F, R>(
    _ body: @escaping @Sendable (RuntimeObject, A, B, C, D, E, F) throws -> R
  ) {
    self.init { receiver, message in
      try message.setReturnValue(
        body(
          receiver, message.argument(0), message.argument(1), message.argument(2), message.argument(3),
          message.argument(4), message.argument(5)
        )
      )
    }
  }
}
