extension ProxyMethod {
  /// A value that crossed the method table of a generic requirement with its generic types
  /// erased, as the type the call was made with.
  ///
  /// A method table states one type per argument and result, so a requirement such as
  /// `func value<T: Decodable>(forKey key: String, as type: T.Type) -> T?` is declared with its
  /// generic parameter erased — `DelegateMethod<String, any Decodable.Type, (any Decodable)?>` —
  /// and its witness, which has the call's `T` in scope, casts each value back: the arguments it
  /// passes to the forwardee, the answer it returns and, for `throws(Failure)` with a generic
  /// `Failure`, the error it throws.
  ///
  /// ```swift
  /// func value<T: Decodable>(forKey key: String, as type: T.Type) -> T? {
  ///   let method = Self.methods.value
  ///   let answer = forward(method, key, type, orElse: nil) { (forwardee, key: String, type: any Decodable.Type) in
  ///     forwardee.value(forKey: key, as: method.reopened(type, as: T.Type.self)) as T?
  ///   }
  ///   return method.reopened(answer, as: T?.self)
  /// }
  /// ```
  ///
  /// The cast succeeds for every value the forwardee, a default implementation or the caller
  /// produced, which already have the call's types. Only an instead hook can hand on another
  /// type, since it sees the erased types: one that answers a `String` for a call made with
  /// `Int`, or passes on a different metatype, is a programming error, and the call stops with a
  /// `preconditionFailure` that names the method and both types.
  ///
  /// - Parameters:
  ///   - value: The value as the table holds it (an existential, `Any`, or an `Optional` of one).
  ///   - type: The type of this call.
  /// - Returns: `value` as `type`.
  /// - Complexity: One dynamic cast.
  public final func reopened<Erased, Value>(_ value: Erased, as type: Value.Type) -> Value {
    if let value = value as? Value { return value }
    preconditionFailure(
      "\(selector): a hook handed on a value of type \(Swift.type(of: value)) where this call has \(Value.self)")
  }
}
