/// The rest of a call, as an instead hook receives it: call it to go on with the call.
///
/// Calling it runs the next instead hook, or the forwardee when there is none, and returns its
/// result. Call it with the arguments the hook received, or with changed ones; call it more than
/// once, or not at all and return a value of your own:
///
/// ```swift
/// proxy.hookInstead(\.shouldHighlightRow) { original, list, indexPath in
///   indexPath.section == 0 ? false : original(list, indexPath)
/// }
/// ```
///
/// It is valid only while its hook runs: do not store it or capture it in an escaping closure
/// (the toolkit checks this at run time and stops the program if it escaped).
public struct OriginalCall<Delegate, each Argument, Result, Failure: Error> {
  @usableFromInline let proxy: DelegateProxy<Delegate>
  @usableFromInline let hooks: CallHooks
  @usableFromInline let next: Int
  @usableFromInline let method: ProxyMethod
  @usableFromInline let reifier: Reifier<repeat each Argument, Result>?
  @usableFromInline let path: ForwardingPath
  @usableFromInline let fallback: () throws(Failure) -> Result
  @usableFromInline let call: (Delegate, repeat each Argument) throws(Failure) -> Result

  @inlinable
  init(
    proxy: DelegateProxy<Delegate>, hooks: CallHooks, next: Int, method: ProxyMethod,
    reifier: Reifier<repeat each Argument, Result>?, path: ForwardingPath,
    fallback: @escaping () throws(Failure) -> Result,
    call: @escaping (Delegate, repeat each Argument) throws(Failure) -> Result
  ) {
    self.proxy = proxy
    self.hooks = hooks
    self.next = next
    self.method = method
    self.reifier = reifier
    self.path = path
    self.fallback = fallback
    self.call = call
  }

  /// Goes on with the call: the next instead hook, or the forwardee.
  ///
  /// - Parameter arguments: The arguments to pass on: the hook's own, or changed ones.
  /// - Returns: The result of the rest of the call (the host's default when there is no forwardee).
  /// - Throws: What the rest of the call threw, for a throwing method.
  @inlinable
  public func callAsFunction(_ arguments: repeat each Argument) throws(Failure) -> Result {
    try proxy.runInstead(hooks, from: next, method, reifier, path, repeat each arguments, orElse: fallback, to: call)
  }
}

@available(*, unavailable, message: "an OriginalCall is used only inside its hook")
extension OriginalCall: Sendable {}

/// The rest of an `async` call, as an instead hook receives it: await it to go on with the call.
///
/// ```swift
/// proxy.hookInstead(\.fetchReceipt) { original, order in
///   try await original(order.trimmingCharacters(in: .whitespaces))
/// }
/// ```
///
/// It is valid only while its hook runs: do not store it or let it escape.
public struct AsyncOriginalCall<Delegate, each Argument, Result, Failure: Error> {
  @usableFromInline let proxy: DelegateProxy<Delegate>
  @usableFromInline let hooks: CallHooks
  @usableFromInline let next: Int
  @usableFromInline let method: ProxyMethod
  @usableFromInline let fallback: Swift.Result<Result, Failure>
  @usableFromInline let call: nonisolated(nonsending) (Delegate, repeat each Argument) async throws(Failure) -> Result

  @inlinable
  init(
    proxy: DelegateProxy<Delegate>, hooks: CallHooks, next: Int, method: ProxyMethod,
    fallback: Swift.Result<Result, Failure>,
    call: nonisolated(nonsending) @escaping (Delegate, repeat each Argument) async throws(Failure) -> Result
  ) {
    self.proxy = proxy
    self.hooks = hooks
    self.next = next
    self.method = method
    self.fallback = fallback
    self.call = call
  }

  /// Goes on with the call: the next instead hook, or the forwardee, awaited.
  ///
  /// - Parameter arguments: The arguments to pass on: the hook's own, or changed ones.
  /// - Returns: The result of the rest of the call.
  /// - Throws: What the rest of the call threw, for a throwing method.
  @inlinable
  nonisolated(nonsending) public func callAsFunction(_ arguments: repeat each Argument) async throws(Failure) -> Result
  {
    try await proxy.runInsteadAsync(
      hooks, from: next, method, repeat each arguments, orElse: fallback, to: call)
  }
}

@available(*, unavailable, message: "an AsyncOriginalCall is used only inside its hook")
extension AsyncOriginalCall: Sendable {}
