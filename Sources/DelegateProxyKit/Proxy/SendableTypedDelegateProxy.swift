/// A proxy for a delegate protocol that refines `Sendable`: typed hooks with `@Sendable`
/// closures, installable from any thread.
///
/// Adopt it, in place of ``TypedDelegateProxy``, on a subclass of ``SendableDelegateProxy``:
///
/// ```swift
/// final class TickerDelegateProxy: SendableDelegateProxy<any TickerDelegate>, SendableTypedDelegateProxy,
///   @unchecked Sendable
/// {
///   struct Methods: DelegateMethodTable { let tick = DelegateMethod<Int, Void>("tick(_:)") }
///   static let methods = Methods()
///   // the weak storage and one `forward` per method, as for any proxy …
/// }
///
/// let proxy = TickerDelegateProxy(forwardee: ticker)
/// let ticks = Counter()                                   // a Sendable counter
/// Task.detached {
///   let token = try proxy.hookAfter(\.tick) { count in ticks.add(count) }   // a @Sendable closure
///   …
///   token.remove()
/// }
/// ```
///
/// The instance methods are those of ``TypedDelegateProxy`` — the same names, positions, key paths
/// and `once:` option, and the same order of hooks for one call — but their closures are
/// `@Sendable`, because the host of a `Sendable` delegate may call the proxy on any thread, and on
/// several at once. The hooks on every proxy of the type and the streams of calls come from
/// ``MethodTableProxy``, as for any typed proxy. A proxy adopts one of the two protocols, never
/// both.
///
/// Installing a hook on a proxy that adopts this protocol but does not derive from
/// ``SendableDelegateProxy`` stops the program: its forwardee would not be safe to share.
public protocol SendableTypedDelegateProxy: MethodTableProxy, Sendable {}

extension SendableTypedDelegateProxy {
  /// Hooks run on any thread; only a ``SendableDelegateProxy`` reads its forwardee safely there.
  static func requireSendableDelegateProxy() {
    precondition(
      Self.self is SendableDelegateProxy<ProxiedDelegate>.Type,
      "\(Self.self) adopts SendableTypedDelegateProxy but is not a SendableDelegateProxy<\(ProxiedDelegate.self)>")
  }
}

extension SendableTypedDelegateProxy {
  /// Installs a hook on this proxy that runs before each call of a plain method (``DelegateMethod``), with the call's
  /// arguments.
  ///
  /// The proxy may be called on any thread, so the hook is `@Sendable`; it may be installed, and its token removed,
  /// from any thread while calls are forwarded.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration in the table.
  @discardableResult
  public func hookBefore<each Argument, Result>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireSendableDelegateProxy()
    return try hooks.installTyped(
      method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of a plain method (``DelegateMethod``) that returns
  /// nothing, with the call's arguments.
  ///
  /// The proxy may be called on any thread, so the hook is `@Sendable`; it may be installed, and its token removed,
  /// from any thread while calls are forwarded.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration in the table.
  @discardableResult
  public func hookAfter<each Argument>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Void>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireSendableDelegateProxy()
    return try hooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of a plain method (``DelegateMethod``) that returns a
  /// value, with the value first, then the call's arguments.
  ///
  /// The proxy may be called on any thread, so the hook is `@Sendable`; it may be installed, and its token removed,
  /// from any thread while calls are forwarded.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.shouldHighlightRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the returned value, then the call's arguments.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration in the table.
  @discardableResult
  public func hookAfter<each Argument, Result>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping @Sendable (Result, repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireSendableDelegateProxy()
    return try hooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .value, box: ResultHook(body))
  }
  /// Installs a hook on this proxy that runs in place of each call of a plain method (``DelegateMethod``).
  ///
  /// The hook receives the rest of the call as `original`: it calls it to go on — with the arguments it received, or
  /// changed ones — or returns a value of its own. `original` runs the next instead hook, or the forwardee when there
  /// is none.
  ///
  /// The proxy may be called on any thread, so the hook is `@Sendable`; it may be installed, and its token removed,
  /// from any thread while calls are forwarded.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.shouldHighlightRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives `original`, an ``OriginalCall``, then the call's arguments, and returns what the
  ///     host gets.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration in the table.
  @discardableResult
  public func hookInstead<each Argument, Result>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body:
      @escaping @Sendable (OriginalCall<ProxiedDelegate, repeat each Argument, Result, Never>, repeat each Argument) ->
      Result
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireSendableDelegateProxy()
    return try hooks.installTyped(
      method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: InsteadHook(body))
  }
  /// Installs a hook on this proxy that runs before each call of a throwing method (``ThrowingDelegateMethod``), with
  /// the call's arguments.
  ///
  /// The proxy may be called on any thread, so the hook is `@Sendable`; it may be installed, and its token removed,
  /// from any thread while calls are forwarded.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.authorize`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration in the table.
  @discardableResult
  public func hookBefore<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, ThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireSendableDelegateProxy()
    return try hooks.installTyped(
      method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of a throwing method (``ThrowingDelegateMethod``), with
  /// the call's outcome first — the value, or the error the caller receives — then its arguments.
  ///
  /// The proxy may be called on any thread, so the hook is `@Sendable`; it may be installed, and its token removed,
  /// from any thread while calls are forwarded.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.authorize`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the outcome as a `Result`, then the call's arguments.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration in the table.
  @discardableResult
  public func hookAfter<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, ThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping @Sendable (Swift.Result<Result, Failure>, repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireSendableDelegateProxy()
    return try hooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .outcome, box: ResultHook(body))
  }
  /// Installs a hook on this proxy that runs in place of each call of a throwing method (``ThrowingDelegateMethod``).
  ///
  /// The hook receives the rest of the call as `original`: it calls it to go on — with the arguments it received, or
  /// changed ones — or returns a value of its own, or throws; what it throws reaches the caller. `original` runs the
  /// next instead hook, or the forwardee when there is none.
  ///
  /// The proxy may be called on any thread, so the hook is `@Sendable`; it may be installed, and its token removed,
  /// from any thread while calls are forwarded.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.authorize`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives `original`, an ``OriginalCall``, then the call's arguments, and returns what the
  ///     host gets.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration in the table.
  @discardableResult
  public func hookInstead<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, ThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body:
      @escaping @Sendable (OriginalCall<ProxiedDelegate, repeat each Argument, Result, Failure>, repeat each Argument)
      throws(Failure) -> Result
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireSendableDelegateProxy()
    return try hooks.installTyped(
      method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: InsteadHook(body))
  }
  /// Installs a hook on this proxy that runs before each call of an `async` method (``AsyncDelegateMethod``), with
  /// the call's arguments.
  ///
  /// The proxy may be called on any thread, so the hook is `@Sendable`; it may be installed, and its token removed,
  /// from any thread while calls are forwarded.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.prepare`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration in the table.
  @discardableResult
  public func hookBefore<each Argument, Result>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireSendableDelegateProxy()
    return try hooks.installTyped(
      method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of an `async` method (``AsyncDelegateMethod``) that
  /// returns nothing, with the call's arguments.
  ///
  /// The hook runs once the forwardee's call has finished, and is itself synchronous.
  ///
  /// The proxy may be called on any thread, so the hook is `@Sendable`; it may be installed, and its token removed,
  /// from any thread while calls are forwarded.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.prepare`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration in the table.
  @discardableResult
  public func hookAfter<each Argument>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Void>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireSendableDelegateProxy()
    return try hooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of an `async` method (``AsyncDelegateMethod``) that
  /// returns a value, with the value first, then the call's arguments.
  ///
  /// The hook runs once the forwardee's call has finished, and is itself synchronous.
  ///
  /// The proxy may be called on any thread, so the hook is `@Sendable`; it may be installed, and its token removed,
  /// from any thread while calls are forwarded.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.prepare`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the returned value, then the call's arguments.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration in the table.
  @discardableResult
  public func hookAfter<each Argument, Result>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping @Sendable (Result, repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireSendableDelegateProxy()
    return try hooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .value, box: ResultHook(body))
  }
  /// Installs an `async` hook on this proxy that runs in place of each call of an `async` method
  /// (``AsyncDelegateMethod``).
  ///
  /// The hook receives the rest of the call as `original`: it awaits it to go on — with the arguments it received, or
  /// changed ones — or returns a value of its own. `original` runs the next instead hook, or the forwardee when there
  /// is none.
  ///
  /// The proxy may be called on any thread, so the hook is `@Sendable`; it may be installed, and its token removed,
  /// from any thread while calls are forwarded.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.prepare`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives `original`, an ``AsyncOriginalCall``, then the call's arguments, and returns
  ///     what the host gets.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration in the table.
  @discardableResult
  public func hookInstead<each Argument, Result>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body:
      nonisolated(nonsending) @escaping @Sendable (
        AsyncOriginalCall<ProxiedDelegate, repeat each Argument, Result, Never>, repeat each Argument
      ) async -> Result
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireSendableDelegateProxy()
    return try hooks.installTyped(
      method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: AsyncInsteadHook(body)
    )
  }
  /// Installs a hook on this proxy that runs before each call of an `async throws` method
  /// (``AsyncThrowingDelegateMethod``), with the call's arguments.
  ///
  /// The proxy may be called on any thread, so the hook is `@Sendable`; it may be installed, and its token removed,
  /// from any thread while calls are forwarded.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.fetchReceipt`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration in the table.
  @discardableResult
  public func hookBefore<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireSendableDelegateProxy()
    return try hooks.installTyped(
      method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of an `async throws` method
  /// (``AsyncThrowingDelegateMethod``), with the call's outcome first — the value, or the error the caller receives —
  /// then its arguments.
  ///
  /// The hook runs once the forwardee's call has finished, and is itself synchronous.
  ///
  /// The proxy may be called on any thread, so the hook is `@Sendable`; it may be installed, and its token removed,
  /// from any thread while calls are forwarded.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.fetchReceipt`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the outcome as a `Result`, then the call's arguments.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration in the table.
  @discardableResult
  public func hookAfter<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping @Sendable (Swift.Result<Result, Failure>, repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireSendableDelegateProxy()
    return try hooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .outcome, box: ResultHook(body))
  }
  /// Installs an `async` hook on this proxy that runs in place of each call of an `async throws` method
  /// (``AsyncThrowingDelegateMethod``).
  ///
  /// The hook receives the rest of the call as `original`: it awaits it to go on — with the arguments it received, or
  /// changed ones — or returns a value of its own, or throws; what it throws reaches the caller. `original` runs the
  /// next instead hook, or the forwardee when there is none.
  ///
  /// The proxy may be called on any thread, so the hook is `@Sendable`; it may be installed, and its token removed,
  /// from any thread while calls are forwarded.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.fetchReceipt`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives `original`, an ``AsyncOriginalCall``, then the call's arguments, and returns
  ///     what the host gets.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration in the table.
  @discardableResult
  public func hookInstead<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body:
      nonisolated(nonsending) @escaping @Sendable (
        AsyncOriginalCall<ProxiedDelegate, repeat each Argument, Result, Failure>, repeat each Argument
      ) async throws(Failure) -> Result
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireSendableDelegateProxy()
    return try hooks.installTyped(
      method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: AsyncInsteadHook(body)
    )
  }
}
