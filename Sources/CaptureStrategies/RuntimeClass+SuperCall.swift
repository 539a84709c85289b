extension RuntimeClass {
  /// Runs this class's implementation of `message` (its own or the one it
  /// inherits) on `receiver`: how an override calls its superclass.
  ///
  /// This is the model's `objc_msgSendSuper`. An override defined in a
  /// class `B` whose superclass is `A` passes the message on with
  /// `A.invokeImplementation(&message, on: receiver)`: the look-up starts at
  /// `A`, whatever `receiver`'s real class is, so a subclass of `B`
  /// (including a strategy's dynamic subclass) cannot send the call back to
  /// `B`. The look-up happens at call time, so a method wrapped or replaced
  /// in `A` after `B` was made is the one that runs.
  ///
  /// ```swift
  /// let a = try Runtime.makeClass(named: "A", methods: [
  ///   didSelect: Implementation { (_: RuntimeObject, _: ListHost, path: IndexPath) in print("A", path) }
  /// ])
  /// let b = try Runtime.makeClass(named: "B", superclass: a, methods: [
  ///   didSelect: Implementation { receiver, message in
  ///     print("B")
  ///     try a.invokeImplementation(&message, on: receiver)  // [super listView:didSelectRowAtIndexPath:]
  ///   }
  /// ])
  /// ```
  ///
  /// Unlike a send, this does not fall back to forwarding: when neither
  /// this class nor its superclasses implement the selector, it throws.
  ///
  /// - Parameters:
  ///   - message: The message the override received; the implementation
  ///     reads its arguments and sets its return value.
  ///   - receiver: The object the override is running for.
  /// - Throws: ``CaptureStrategiesError/unrecognizedSelector(selector:className:)``
  ///   when nothing from this class up implements the selector, or what the
  ///   implementation throws.
  public func invokeImplementation(_ message: inout Message, on receiver: RuntimeObject) throws {
    let handled = try cache.read { cache in
      cache.isComplete ? try cache.invoke(receiver, &message) : false
    }
    if handled { return }
    if try completeCache().invoke(receiver, &message) { return }
    throw CaptureStrategiesError.unrecognizedSelector(selector: message.selector.name, className: name)
  }
}
