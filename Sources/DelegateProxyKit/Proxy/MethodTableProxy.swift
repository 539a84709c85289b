/// A proxy whose protocol's methods are declared once, in a ``DelegateMethodTable``: what
/// ``TypedDelegateProxy`` and ``SendableTypedDelegateProxy`` have in common.
///
/// Adopt one of those two, never this protocol alone: they add the hooks on one proxy, whose
/// closures run in the proxy's isolation (``TypedDelegateProxy``) or on any thread
/// (``SendableTypedDelegateProxy``). This protocol carries the method table, the hooks on every
/// proxy of the type (`hookBefore(_:once:_:)` and its siblings as static methods, with
/// `@Sendable` closures) and observation (``invocations(of:bufferingPolicy:)``). Constrain generic
/// code to it when that code needs only those:
///
/// ```swift
/// func logEveryCall<Proxy: MethodTableProxy>(of proxyType: Proxy.Type) throws {
///   for method in proxyType.typeHooks.methods { print(method.selector) }
/// }
/// ```
public protocol MethodTableProxy: DelegateProxyBase {
  /// The delegate protocol, as an existential (`any ListViewDelegate`); ``DelegateProxy``
  /// provides it.
  associatedtype ProxiedDelegate
  /// The table of the protocol's methods.
  associatedtype Methods: DelegateMethodTable
  /// The one instance of the table; `forward` calls read their method from it.
  static var methods: Methods { get }
}

extension MethodTableProxy {
  /// Instead hooks are typed by the proxy's delegate protocol; a conforming class that is not a
  /// `DelegateProxy` of that protocol would have them misread.
  @usableFromInline
  static func requireDelegateProxy() {
    precondition(
      Self.self is DelegateProxy<ProxiedDelegate>.Type,
      "\(Self.self) adopts a typed proxy protocol but is not a DelegateProxy<\(ProxiedDelegate.self)>")
  }
}

// MARK: Hooks on every proxy of the type

extension MethodTableProxy {
  /// Installs a hook on every proxy of this type, existing and future, that runs before each call of a plain method
  /// (``DelegateMethod``), with the call's arguments.
  ///
  /// The hook runs before the hooks each proxy has of its own at the same position. It runs on every proxy, each in
  /// its own isolation, so it must be `@Sendable`.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run, on whichever proxy runs it first.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public static func hookBefore<each Argument, Result>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) -> HookToken {
    Self.typeHooks.installTyped(
      method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future, that runs after each call of a plain method
  /// (``DelegateMethod``) that returns nothing, with the call's arguments.
  ///
  /// The hook runs before the hooks each proxy has of its own at the same position. It runs on every proxy, each in
  /// its own isolation, so it must be `@Sendable`.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run, on whichever proxy runs it first.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public static func hookAfter<each Argument>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Void>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) -> HookToken {
    Self.typeHooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future, that runs after each call of a plain method
  /// (``DelegateMethod``) that returns a value, with the value first, then the call's arguments.
  ///
  /// The hook runs before the hooks each proxy has of its own at the same position. It runs on every proxy, each in
  /// its own isolation, so it must be `@Sendable`.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.shouldHighlightRow`.
  ///   - once: Whether the hook removes itself after its first run, on whichever proxy runs it first.
  ///   - body: The hook; it receives the returned value, then the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public static func hookAfter<each Argument, Result>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping @Sendable (Result, repeat each Argument) -> Void
  ) -> HookToken {
    Self.typeHooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .value, box: ResultHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future, that runs in place of each call of a plain
  /// method (``DelegateMethod``).
  ///
  /// The hook receives the rest of the call as `original`: it calls it to go on — with the arguments it received, or
  /// changed ones — or returns a value of its own. `original` runs the next instead hook, or the forwardee when there
  /// is none.
  ///
  /// The hook runs before the hooks each proxy has of its own at the same position. It runs on every proxy, each in
  /// its own isolation, so it must be `@Sendable`.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.shouldHighlightRow`.
  ///   - once: Whether the hook removes itself after its first run, on whichever proxy runs it first.
  ///   - body: The hook; it receives `original`, an ``OriginalCall``, then the call's arguments, and returns what the
  ///     host gets.
  /// - Returns: A token that removes the hook.
  @discardableResult @_disfavoredOverload
  public static func hookInstead<each Argument, Result>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body:
      @escaping @Sendable (OriginalCall<ProxiedDelegate, repeat each Argument, Result, Never>, repeat each Argument) ->
      Result
  ) -> HookToken {
    Self.requireDelegateProxy()
    return Self.typeHooks.installTyped(
      method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: InsteadHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future, that runs before each call of a throwing
  /// method (``ThrowingDelegateMethod``), with the call's arguments.
  ///
  /// The hook runs before the hooks each proxy has of its own at the same position. It runs on every proxy, each in
  /// its own isolation, so it must be `@Sendable`.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.authorize`.
  ///   - once: Whether the hook removes itself after its first run, on whichever proxy runs it first.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public static func hookBefore<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, ThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) -> HookToken {
    Self.typeHooks.installTyped(
      method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future, that runs after each call of a throwing method
  /// (``ThrowingDelegateMethod``), with the call's outcome first — the value, or the error the caller receives — then
  /// its arguments.
  ///
  /// The hook runs before the hooks each proxy has of its own at the same position. It runs on every proxy, each in
  /// its own isolation, so it must be `@Sendable`.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.authorize`.
  ///   - once: Whether the hook removes itself after its first run, on whichever proxy runs it first.
  ///   - body: The hook; it receives the outcome as a `Result`, then the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public static func hookAfter<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, ThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping @Sendable (Swift.Result<Result, Failure>, repeat each Argument) -> Void
  ) -> HookToken {
    Self.typeHooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .outcome, box: ResultHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future, that runs in place of each call of a throwing
  /// method (``ThrowingDelegateMethod``).
  ///
  /// The hook receives the rest of the call as `original`: it calls it to go on — with the arguments it received, or
  /// changed ones — or returns a value of its own, or throws; what it throws reaches the caller. `original` runs the
  /// next instead hook, or the forwardee when there is none.
  ///
  /// The hook runs before the hooks each proxy has of its own at the same position. It runs on every proxy, each in
  /// its own isolation, so it must be `@Sendable`.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.authorize`.
  ///   - once: Whether the hook removes itself after its first run, on whichever proxy runs it first.
  ///   - body: The hook; it receives `original`, an ``OriginalCall``, then the call's arguments, and returns what the
  ///     host gets.
  /// - Returns: A token that removes the hook.
  @discardableResult @_disfavoredOverload
  public static func hookInstead<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, ThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body:
      @escaping @Sendable (OriginalCall<ProxiedDelegate, repeat each Argument, Result, Failure>, repeat each Argument)
      throws(Failure) -> Result
  ) -> HookToken {
    Self.requireDelegateProxy()
    return Self.typeHooks.installTyped(
      method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: InsteadHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future, that runs before each call of an `async`
  /// method (``AsyncDelegateMethod``), with the call's arguments.
  ///
  /// The hook runs before the hooks each proxy has of its own at the same position. It runs on every proxy, each in
  /// its own isolation, so it must be `@Sendable`.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.prepare`.
  ///   - once: Whether the hook removes itself after its first run, on whichever proxy runs it first.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public static func hookBefore<each Argument, Result>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) -> HookToken {
    Self.typeHooks.installTyped(
      method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future, that runs after each call of an `async` method
  /// (``AsyncDelegateMethod``) that returns nothing, with the call's arguments.
  ///
  /// The hook runs once the forwardee's call has finished, and is itself synchronous.
  ///
  /// The hook runs before the hooks each proxy has of its own at the same position. It runs on every proxy, each in
  /// its own isolation, so it must be `@Sendable`.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.prepare`.
  ///   - once: Whether the hook removes itself after its first run, on whichever proxy runs it first.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public static func hookAfter<each Argument>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Void>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) -> HookToken {
    Self.typeHooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future, that runs after each call of an `async` method
  /// (``AsyncDelegateMethod``) that returns a value, with the value first, then the call's arguments.
  ///
  /// The hook runs once the forwardee's call has finished, and is itself synchronous.
  ///
  /// The hook runs before the hooks each proxy has of its own at the same position. It runs on every proxy, each in
  /// its own isolation, so it must be `@Sendable`.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.prepare`.
  ///   - once: Whether the hook removes itself after its first run, on whichever proxy runs it first.
  ///   - body: The hook; it receives the returned value, then the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public static func hookAfter<each Argument, Result>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping @Sendable (Result, repeat each Argument) -> Void
  ) -> HookToken {
    Self.typeHooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .value, box: ResultHook(body))
  }
  /// Installs an `async` hook on every proxy of this type, existing and future, that runs in place of each call of an
  /// `async` method (``AsyncDelegateMethod``).
  ///
  /// The hook receives the rest of the call as `original`: it awaits it to go on — with the arguments it received, or
  /// changed ones — or returns a value of its own. `original` runs the next instead hook, or the forwardee when there
  /// is none.
  ///
  /// The hook runs before the hooks each proxy has of its own at the same position. It runs on every proxy, each in
  /// its own isolation, so it must be `@Sendable`.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.prepare`.
  ///   - once: Whether the hook removes itself after its first run, on whichever proxy runs it first.
  ///   - body: The hook; it receives `original`, an ``AsyncOriginalCall``, then the call's arguments, and returns
  ///     what the host gets.
  /// - Returns: A token that removes the hook.
  @discardableResult @_disfavoredOverload
  public static func hookInstead<each Argument, Result>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body:
      nonisolated(nonsending) @escaping @Sendable (
        AsyncOriginalCall<ProxiedDelegate, repeat each Argument, Result, Never>, repeat each Argument
      ) async -> Result
  ) -> HookToken {
    Self.requireDelegateProxy()
    return Self.typeHooks.installTyped(
      method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: AsyncInsteadHook(body)
    )
  }
  /// Installs a hook on every proxy of this type, existing and future, that runs before each call of an `async
  /// throws` method (``AsyncThrowingDelegateMethod``), with the call's arguments.
  ///
  /// The hook runs before the hooks each proxy has of its own at the same position. It runs on every proxy, each in
  /// its own isolation, so it must be `@Sendable`.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.fetchReceipt`.
  ///   - once: Whether the hook removes itself after its first run, on whichever proxy runs it first.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public static func hookBefore<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) -> HookToken {
    Self.typeHooks.installTyped(
      method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future, that runs after each call of an `async throws`
  /// method (``AsyncThrowingDelegateMethod``), with the call's outcome first — the value, or the error the caller
  /// receives — then its arguments.
  ///
  /// The hook runs once the forwardee's call has finished, and is itself synchronous.
  ///
  /// The hook runs before the hooks each proxy has of its own at the same position. It runs on every proxy, each in
  /// its own isolation, so it must be `@Sendable`.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.fetchReceipt`.
  ///   - once: Whether the hook removes itself after its first run, on whichever proxy runs it first.
  ///   - body: The hook; it receives the outcome as a `Result`, then the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public static func hookAfter<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping @Sendable (Swift.Result<Result, Failure>, repeat each Argument) -> Void
  ) -> HookToken {
    Self.typeHooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .outcome, box: ResultHook(body))
  }
  /// Installs an `async` hook on every proxy of this type, existing and future, that runs in place of each call of an
  /// `async throws` method (``AsyncThrowingDelegateMethod``).
  ///
  /// The hook receives the rest of the call as `original`: it awaits it to go on — with the arguments it received, or
  /// changed ones — or returns a value of its own, or throws; what it throws reaches the caller. `original` runs the
  /// next instead hook, or the forwardee when there is none.
  ///
  /// The hook runs before the hooks each proxy has of its own at the same position. It runs on every proxy, each in
  /// its own isolation, so it must be `@Sendable`.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.fetchReceipt`.
  ///   - once: Whether the hook removes itself after its first run, on whichever proxy runs it first.
  ///   - body: The hook; it receives `original`, an ``AsyncOriginalCall``, then the call's arguments, and returns
  ///     what the host gets.
  /// - Returns: A token that removes the hook.
  @discardableResult @_disfavoredOverload
  public static func hookInstead<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body:
      nonisolated(nonsending) @escaping @Sendable (
        AsyncOriginalCall<ProxiedDelegate, repeat each Argument, Result, Failure>, repeat each Argument
      ) async throws(Failure) -> Result
  ) -> HookToken {
    Self.requireDelegateProxy()
    return Self.typeHooks.installTyped(
      method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: AsyncInsteadHook(body)
    )
  }
}

// MARK: Observation

extension MethodTableProxy {
  /// A stream of every call of `method` on this proxy, each delivered as an ``Invocation`` once
  /// the call has finished.
  ///
  /// ```swift
  /// for await call in try proxy.invocations(of: \.didSelectRow) {
  ///   print(try call.argument(1, as: IndexPath.self))
  /// }
  /// ```
  ///
  /// Every stream gets every call, in order, with its result or error. A stream finishes when the
  /// proxy is deallocated or its hooks are cleared with ``HookRegistry/removeAll()``; cancelling
  /// the iterating task removes its observer. The delegate call does not wait for the reader.
  ///
  /// An invocation leaves the call's isolation, so the method's arguments and result must be
  /// `Sendable`, as for the rest of the dynamic layer. Typed hooks have no such requirement.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.didSelectRow`.
  ///   - bufferingPolicy: What the stream keeps when its reader falls behind.
  /// - Returns: The stream.
  /// - Throws: ``DelegateProxyError/argumentsNotSendable(selector:proxyType:)`` for a method
  ///   whose values are not all `Sendable`.
  public func invocations<Method: ProxyMethod>(
    of method: KeyPath<Methods, Method>,
    bufferingPolicy: AsyncStream<Invocation>.Continuation.BufferingPolicy = .unbounded
  ) throws(DelegateProxyError) -> AsyncStream<Invocation> {
    let method = Self.methods[keyPath: method]
    guard method.isReifiable else {
      throw .argumentsNotSendable(selector: method.selector, proxyType: String(describing: Self.self))
    }
    return try hooks.invocations(of: method, bufferingPolicy: bufferingPolicy)
  }
}
