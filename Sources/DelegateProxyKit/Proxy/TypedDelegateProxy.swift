/// A proxy that declares its protocol's methods once, in a ``DelegateMethodTable``, and so gets
/// typed hooks.
///
/// Adopt it with a nested `Methods` struct and one static instance:
///
/// ```swift
/// final class ListViewDelegateProxy: DelegateProxy<any ListViewDelegate>, TypedDelegateProxy {
///   struct Methods: DelegateMethodTable {
///     let didSelectRow = DelegateMethod<ListView, IndexPath, Void>("listView(_:didSelectRowAt:)")
///   }
///   static let methods = Methods()
///   // weak storage and the forwards …
/// }
/// ```
///
/// Then hooks name methods by key path, and their closures take the method's own argument types:
///
/// ```swift
/// let token = try proxy.hookAfter(\.didSelectRow) { list, indexPath in
///   selectedRows.append(indexPath)           // no casts, no argument positions
/// }
/// try ListViewDelegateProxy.hookBefore(\.didSelectRow) { _, indexPath in log(indexPath) }   // every list proxy
/// ```
///
/// One vocabulary, two receivers: the instance methods hook one proxy, the static methods of the
/// same names hook every proxy of the type. For one call the order is: type-wide before hooks,
/// the proxy's before hooks, the instead chain (type-wide first) or the forwardee, type-wide after
/// hooks, the proxy's after hooks; hooks at one position run in install order.
///
/// What each position receives:
/// - `hookBefore`: the arguments.
/// - `hookAfter`: for a method that returns nothing and cannot throw, the arguments; for one that
///   returns a value, the value, then the arguments; for a throwing method, the `Result` (the
///   value or the error, the same instance the caller gets), then the arguments.
/// - `hookInstead`: `original` — the rest of the call — then the arguments. Call it with the same
///   or changed arguments, or return a value of your own (or, for a throwing method, throw). For
///   an `async` method the hook is `async` too.
///
/// A typed hook runs without building an ``Invocation``: no allocation and no lock on the call
/// path. Hooks can be installed and removed while calls are forwarded on other threads.
public protocol TypedDelegateProxy: DelegateProxyBase {
  /// The delegate protocol, as an existential (`any ListViewDelegate`); ``DelegateProxy``
  /// provides it.
  associatedtype ProxiedDelegate
  /// The table of the protocol's methods.
  associatedtype Methods: DelegateMethodTable
  /// The one instance of the table; `forward` calls read their method from it.
  static var methods: Methods { get }
}

extension TypedDelegateProxy {
  /// Instead hooks are typed by the proxy's delegate protocol; a conforming class that is not a
  /// `DelegateProxy` of that protocol would have them misread.
  static func requireDelegateProxy() {
    precondition(
      Self.self is DelegateProxy<ProxiedDelegate>.Type,
      "\(Self.self) adopts TypedDelegateProxy but is not a DelegateProxy<\(ProxiedDelegate.self)>")
  }
}

// MARK: Hooks on one proxy

extension TypedDelegateProxy {
  /// Installs a hook on this proxy that runs before each call of a `DelegateMethod` method, with its arguments.
  ///
  /// The hook runs in the proxy's isolation (the host's), so it need not be `Sendable`: a hook installed on the main actor on a main-actor host's proxy may update main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public func hookBefore<each Argument, Result>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try hooks.installTyped(method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of a `DelegateMethod` method that returns nothing, with its arguments.
  ///
  /// The hook runs in the proxy's isolation (the host's), so it need not be `Sendable`: a hook installed on the main actor on a main-actor host's proxy may update main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public func hookAfter<each Argument>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Void>>, once: Bool = false,
    _ body: @escaping (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try hooks.installTyped(method: Self.methods[keyPath: method], position: .after, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of a `DelegateMethod` method, with the result first, then the arguments.
  ///
  /// The hook runs in the proxy's isolation (the host's), so it need not be `Sendable`: a hook installed on the main actor on a main-actor host's proxy may update main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public func hookAfter<each Argument, Result>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping (Result, repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try hooks.installTyped(method: Self.methods[keyPath: method], position: .after, once: once, kind: .value, box: ResultHook(body))
  }
  /// Installs a hook on this proxy that runs in place of each call of a `DelegateMethod` method: it calls `original` (the next instead hook or the forwardee) with the same or changed arguments, or returns a value of its own.
  ///
  /// The hook runs in the proxy's isolation (the host's), so it need not be `Sendable`: a hook installed on the main actor on a main-actor host's proxy may update main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public func hookInstead<each Argument, Result>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping (OriginalCall<ProxiedDelegate, repeat each Argument, Result, Never>, repeat each Argument) -> Result
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireDelegateProxy()
    return try hooks.installTyped(method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: InsteadHook(body))
  }
  /// Installs a hook on this proxy that runs before each call of a `ThrowingDelegateMethod` method, with its arguments.
  ///
  /// The hook runs in the proxy's isolation (the host's), so it need not be `Sendable`: a hook installed on the main actor on a main-actor host's proxy may update main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public func hookBefore<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, ThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try hooks.installTyped(method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of a `ThrowingDelegateMethod` method, with the outcome (the value or the error, as a `Result`) first, then the arguments.
  ///
  /// The hook runs in the proxy's isolation (the host's), so it need not be `Sendable`: a hook installed on the main actor on a main-actor host's proxy may update main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public func hookAfter<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, ThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping (Swift.Result<Result, Failure>, repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try hooks.installTyped(method: Self.methods[keyPath: method], position: .after, once: once, kind: .outcome, box: ResultHook(body))
  }
  /// Installs a hook on this proxy that runs in place of each call of a `ThrowingDelegateMethod` method: it calls `original` (the next instead hook or the forwardee) with the same or changed arguments, or returns a value of its own, or throws.
  ///
  /// The hook runs in the proxy's isolation (the host's), so it need not be `Sendable`: a hook installed on the main actor on a main-actor host's proxy may update main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public func hookInstead<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, ThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping (OriginalCall<ProxiedDelegate, repeat each Argument, Result, Failure>, repeat each Argument) throws(Failure) -> Result
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireDelegateProxy()
    return try hooks.installTyped(method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: InsteadHook(body))
  }
  /// Installs a hook on this proxy that runs before each call of a `AsyncDelegateMethod` method, with its arguments.
  ///
  /// The hook runs in the proxy's isolation (the host's), so it need not be `Sendable`: a hook installed on the main actor on a main-actor host's proxy may update main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public func hookBefore<each Argument, Result>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try hooks.installTyped(method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of a `AsyncDelegateMethod` method that returns nothing, with its arguments.
  ///
  /// The hook runs in the proxy's isolation (the host's), so it need not be `Sendable`: a hook installed on the main actor on a main-actor host's proxy may update main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public func hookAfter<each Argument>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Void>>, once: Bool = false,
    _ body: @escaping (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try hooks.installTyped(method: Self.methods[keyPath: method], position: .after, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of a `AsyncDelegateMethod` method, with the result first, then the arguments.
  ///
  /// The hook runs in the proxy's isolation (the host's), so it need not be `Sendable`: a hook installed on the main actor on a main-actor host's proxy may update main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public func hookAfter<each Argument, Result>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping (Result, repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try hooks.installTyped(method: Self.methods[keyPath: method], position: .after, once: once, kind: .value, box: ResultHook(body))
  }
  /// Installs an `async` hook on this proxy that runs in place of each call of a `AsyncDelegateMethod` method: it awaits `original` (the next instead hook or the forwardee) with the same or changed arguments, or returns a value of its own.
  ///
  /// The hook runs in the proxy's isolation (the host's), so it need not be `Sendable`: a hook installed on the main actor on a main-actor host's proxy may update main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public func hookInstead<each Argument, Result>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: nonisolated(nonsending) @escaping (AsyncOriginalCall<ProxiedDelegate, repeat each Argument, Result, Never>, repeat each Argument) async -> Result
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireDelegateProxy()
    return try hooks.installTyped(method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: AsyncInsteadHook(body))
  }
  /// Installs a hook on this proxy that runs before each call of a `AsyncThrowingDelegateMethod` method, with its arguments.
  ///
  /// The hook runs in the proxy's isolation (the host's), so it need not be `Sendable`: a hook installed on the main actor on a main-actor host's proxy may update main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public func hookBefore<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try hooks.installTyped(method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of a `AsyncThrowingDelegateMethod` method, with the outcome (the value or the error, as a `Result`) first, then the arguments.
  ///
  /// The hook runs in the proxy's isolation (the host's), so it need not be `Sendable`: a hook installed on the main actor on a main-actor host's proxy may update main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public func hookAfter<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping (Swift.Result<Result, Failure>, repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try hooks.installTyped(method: Self.methods[keyPath: method], position: .after, once: once, kind: .outcome, box: ResultHook(body))
  }
  /// Installs an `async` hook on this proxy that runs in place of each call of a `AsyncThrowingDelegateMethod` method: it awaits `original` (the next instead hook or the forwardee) with the same or changed arguments, or returns a value of its own, or throws.
  ///
  /// The hook runs in the proxy's isolation (the host's), so it need not be `Sendable`: a hook installed on the main actor on a main-actor host's proxy may update main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public func hookInstead<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: nonisolated(nonsending) @escaping (AsyncOriginalCall<ProxiedDelegate, repeat each Argument, Result, Failure>, repeat each Argument) async throws(Failure) -> Result
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireDelegateProxy()
    return try hooks.installTyped(method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: AsyncInsteadHook(body))
  }
}

// MARK: Hooks on every proxy of the type

extension TypedDelegateProxy {
  /// Installs a hook on every proxy of this type, existing and future that runs before each call of a `DelegateMethod` method, with its arguments.
  ///
  /// The hook must be `@Sendable`: it runs on every proxy of the type, in each one's isolation.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public static func hookBefore<each Argument, Result>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try Self.typeHooks.installTyped(method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future that runs after each call of a `DelegateMethod` method that returns nothing, with its arguments.
  ///
  /// The hook must be `@Sendable`: it runs on every proxy of the type, in each one's isolation.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public static func hookAfter<each Argument>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Void>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try Self.typeHooks.installTyped(method: Self.methods[keyPath: method], position: .after, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future that runs after each call of a `DelegateMethod` method, with the result first, then the arguments.
  ///
  /// The hook must be `@Sendable`: it runs on every proxy of the type, in each one's isolation.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public static func hookAfter<each Argument, Result>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping @Sendable (Result, repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try Self.typeHooks.installTyped(method: Self.methods[keyPath: method], position: .after, once: once, kind: .value, box: ResultHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future that runs in place of each call of a `DelegateMethod` method: it calls `original` (the next instead hook or the forwardee) with the same or changed arguments, or returns a value of its own.
  ///
  /// The hook must be `@Sendable`: it runs on every proxy of the type, in each one's isolation.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public static func hookInstead<each Argument, Result>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping @Sendable (OriginalCall<ProxiedDelegate, repeat each Argument, Result, Never>, repeat each Argument) -> Result
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireDelegateProxy()
    return try Self.typeHooks.installTyped(method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: InsteadHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future that runs before each call of a `ThrowingDelegateMethod` method, with its arguments.
  ///
  /// The hook must be `@Sendable`: it runs on every proxy of the type, in each one's isolation.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public static func hookBefore<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, ThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try Self.typeHooks.installTyped(method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future that runs after each call of a `ThrowingDelegateMethod` method, with the outcome (the value or the error, as a `Result`) first, then the arguments.
  ///
  /// The hook must be `@Sendable`: it runs on every proxy of the type, in each one's isolation.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public static func hookAfter<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, ThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping @Sendable (Swift.Result<Result, Failure>, repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try Self.typeHooks.installTyped(method: Self.methods[keyPath: method], position: .after, once: once, kind: .outcome, box: ResultHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future that runs in place of each call of a `ThrowingDelegateMethod` method: it calls `original` (the next instead hook or the forwardee) with the same or changed arguments, or returns a value of its own, or throws.
  ///
  /// The hook must be `@Sendable`: it runs on every proxy of the type, in each one's isolation.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public static func hookInstead<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, ThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping @Sendable (OriginalCall<ProxiedDelegate, repeat each Argument, Result, Failure>, repeat each Argument) throws(Failure) -> Result
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireDelegateProxy()
    return try Self.typeHooks.installTyped(method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: InsteadHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future that runs before each call of a `AsyncDelegateMethod` method, with its arguments.
  ///
  /// The hook must be `@Sendable`: it runs on every proxy of the type, in each one's isolation.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public static func hookBefore<each Argument, Result>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try Self.typeHooks.installTyped(method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future that runs after each call of a `AsyncDelegateMethod` method that returns nothing, with its arguments.
  ///
  /// The hook must be `@Sendable`: it runs on every proxy of the type, in each one's isolation.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public static func hookAfter<each Argument>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Void>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try Self.typeHooks.installTyped(method: Self.methods[keyPath: method], position: .after, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future that runs after each call of a `AsyncDelegateMethod` method, with the result first, then the arguments.
  ///
  /// The hook must be `@Sendable`: it runs on every proxy of the type, in each one's isolation.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public static func hookAfter<each Argument, Result>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping @Sendable (Result, repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try Self.typeHooks.installTyped(method: Self.methods[keyPath: method], position: .after, once: once, kind: .value, box: ResultHook(body))
  }
  /// Installs an `async` hook on every proxy of this type, existing and future that runs in place of each call of a `AsyncDelegateMethod` method: it awaits `original` (the next instead hook or the forwardee) with the same or changed arguments, or returns a value of its own.
  ///
  /// The hook must be `@Sendable`: it runs on every proxy of the type, in each one's isolation.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public static func hookInstead<each Argument, Result>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: nonisolated(nonsending) @escaping @Sendable (AsyncOriginalCall<ProxiedDelegate, repeat each Argument, Result, Never>, repeat each Argument) async -> Result
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireDelegateProxy()
    return try Self.typeHooks.installTyped(method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: AsyncInsteadHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future that runs before each call of a `AsyncThrowingDelegateMethod` method, with its arguments.
  ///
  /// The hook must be `@Sendable`: it runs on every proxy of the type, in each one's isolation.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public static func hookBefore<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping @Sendable (repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try Self.typeHooks.installTyped(method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on every proxy of this type, existing and future that runs after each call of a `AsyncThrowingDelegateMethod` method, with the outcome (the value or the error, as a `Result`) first, then the arguments.
  ///
  /// The hook must be `@Sendable`: it runs on every proxy of the type, in each one's isolation.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public static func hookAfter<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping @Sendable (Swift.Result<Result, Failure>, repeat each Argument) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try Self.typeHooks.installTyped(method: Self.methods[keyPath: method], position: .after, once: once, kind: .outcome, box: ResultHook(body))
  }
  /// Installs an `async` hook on every proxy of this type, existing and future that runs in place of each call of a `AsyncThrowingDelegateMethod` method: it awaits `original` (the next instead hook or the forwardee) with the same or changed arguments, or returns a value of its own, or throws.
  ///
  /// The hook must be `@Sendable`: it runs on every proxy of the type, in each one's isolation.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table: `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)`` when the
  ///   method's selector does not match its declaration.
  @discardableResult
  public static func hookInstead<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: nonisolated(nonsending) @escaping @Sendable (AsyncOriginalCall<ProxiedDelegate, repeat each Argument, Result, Failure>, repeat each Argument) async throws(Failure) -> Result
  ) throws(DelegateProxyError) -> HookToken {
    Self.requireDelegateProxy()
    return try Self.typeHooks.installTyped(method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: AsyncInsteadHook(body))
  }
}

// MARK: Observation

extension TypedDelegateProxy {
  /// A stream of every call of `method` on this proxy, delivered after each call finished.
  ///
  /// ```swift
  /// for await call in try proxy.invocations(of: \.didSelectRow) {
  ///   print(try call.argument(1, as: IndexPath.self))
  /// }
  /// ```
  ///
  /// Every stream gets every call; a stream finishes when the proxy is deallocated, and
  /// cancelling the iterating task removes its observer. The values cross isolation, so the
  /// method's arguments and result must be `Sendable`.
  ///
  /// - Parameters:
  ///   - method: The method, by key path into the proxy's table.
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
