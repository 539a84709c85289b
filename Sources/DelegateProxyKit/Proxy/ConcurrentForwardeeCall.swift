/// The forwardee and the arguments of a call to a plain `async` requirement — one that Swift runs
/// off the caller's actor — handed from a `forward` closure to that requirement.
///
/// A plain `async` requirement of a protocol that is not isolated to an actor is `@concurrent`:
/// the caller sends the arguments off its actor. The proxy's witness of it is `@concurrent` too,
/// and so are `forward` and its closure when they run inside it. But the closure's type is
/// `nonisolated(nonsending)` — it runs wherever `forward` is called from — and Swift checks it
/// for that general case, in which calling the forwardee's `@concurrent` method would send the
/// forwardee and the arguments away from the caller's actor. This type carries them across that
/// one check:
///
/// ```swift
/// func loader(_ key: String, sizeIn ledger: Ledger) async -> Int {
///   await forward(Self.methods.size, key, ledger, orElse: 0) { forwardee, key, ledger in
///     await ConcurrentForwardeeCall((forwardee, key, ledger)).run { await $0.0.loader($0.1, sizeIn: $0.2) }
///   }
/// }
/// ```
///
/// Why that is sound: the values come from the witness's own arguments and the proxy's
/// forwardee, which the caller already handed off its actor by calling a `@concurrent` method;
/// the proxy passes them on, unchanged and in the same task, to a method that runs off every actor
/// too — where the direct call would have sent them. Use it only inside the `forward` closure of
/// such a witness; the generator writes it there and nowhere else.
public struct ConcurrentForwardeeCall<Value>: @unchecked Sendable {
  @usableFromInline internal let value: Value

  /// Wraps the forwardee and the arguments, as one value or a tuple.
  ///
  /// - Parameter value: The forwardee, or a tuple of the forwardee and the arguments.
  @inlinable
  public init(_ value: Value) {
    self.value = value
  }

  /// Calls the requirement on the forwardee, off every actor, as the direct call would.
  ///
  /// - Parameter body: Calls the requirement with the wrapped values.
  /// - Returns: The requirement's result.
  /// - Throws: The requirement's error, unchanged.
  @inlinable
  @concurrent
  public func run<Result, Failure: Error>(
    _ body: @Sendable @concurrent (Value) async throws(Failure) -> sending Result
  ) async throws(Failure) -> sending Result {
    try await body(value)
  }
}
