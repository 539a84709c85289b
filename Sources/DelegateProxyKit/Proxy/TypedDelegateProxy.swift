/// A proxy that declares its protocol's methods once, in a ``DelegateMethodTable``, and in return
/// takes typed hooks.
///
/// Adopt it with a nested `Methods` table and one static instance of it:
///
/// ```swift
/// final class ListViewDelegateProxy: DelegateProxy<any ListViewDelegate>, TypedDelegateProxy {
///   struct Methods: DelegateMethodTable {
///     let shouldHighlightRow = DelegateMethod<ListView, IndexPath, Bool>("listView(_:shouldHighlightRowAt:)")
///     let didSelectRow = DelegateMethod<ListView, IndexPath, Void>("listView(_:didSelectRowAt:)")
///   }
///   static let methods = Methods()
///   // one `forward` per method, in a conformance …
/// }
/// ```
///
/// Hooks then name a method by key path into the table, and their closures take the method's own
/// argument and result types:
///
/// ```swift
/// let token = proxy.hookAfter(\.didSelectRow) { list, indexPath in
///   selectedRows.append(indexPath)           // no casts, no argument positions
/// }
/// proxy.hookInstead(\.shouldHighlightRow) { original, list, indexPath in
///   indexPath.section > 0 && original(list, indexPath)
/// }
/// ListViewDelegateProxy.hookBefore(\.didSelectRow) { _, indexPath in log(indexPath) }   // every list proxy
/// ```
///
/// Installing a typed hook cannot fail on input: the key path and the closure's types are checked
/// by the compiler, and the proxy is alive while it is called. What remains is the table itself —
/// a selector that does not match its method's generic shape, such as `"merge(_:)"` declared with
/// two argument types. That is a programming error, so the install stops the program with a
/// message naming the selector, the proxy type and what is wrong. Call
/// ``MethodTableProxy/validateMethodTable()`` in a test to find every such defect without
/// installing anything.
///
/// One vocabulary, two receivers: the instance methods hook one proxy, with closures that run in
/// the proxy's isolation and need not be `Sendable`; the static methods of the same names (from
/// ``MethodTableProxy``) hook every proxy of the type, with `@Sendable` closures. A proxy for a
/// `Sendable` protocol adopts ``SendableTypedDelegateProxy`` instead, whose instance methods take
/// `@Sendable` closures. For one call the order is: the type-wide
/// before hooks, the proxy's before hooks, the instead chain (type-wide hooks first) or the
/// forwardee, the type-wide after hooks, the proxy's after hooks. Hooks at one position run in
/// install order.
///
/// What each position receives:
/// - `hookBefore`: the arguments.
/// - `hookAfter`: for a method that returns nothing and cannot throw, the arguments; for one that
///   returns a value, the value, then the arguments; for a throwing method, the outcome as a
///   `Result` (the value, or the very error the caller receives), then the arguments.
/// - `hookInstead`: `original` — the rest of the call — then the arguments. The hook calls
///   `original` with the same or changed arguments, or returns a value of its own; for a throwing
///   method it may throw. For an `async` method the hook is `async` and awaits `original`.
///
/// A typed hook is a closure call with the arguments as they are: it builds no ``Invocation`` and
/// takes no lock, and on the synchronous path it allocates nothing. Hooks can be removed, and
/// type-wide hooks installed, from any thread while calls are forwarded on others.
public protocol TypedDelegateProxy: MethodTableProxy {}

// MARK: Hooks on one proxy

extension TypedDelegateProxy {
  /// Installs a hook on this proxy that runs before each call of a plain method (``DelegateMethod``), with the call's
  /// arguments.
  ///
  /// The hook runs in the proxy's isolation, where the host makes its calls, so it need not be `Sendable`: installed
  /// on the main actor, it may use main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public func hookBefore<each Argument, Result>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping (repeat each Argument) -> Void
  ) -> HookToken {
    hooks.installTyped(
      method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of a plain method (``DelegateMethod``) that returns
  /// nothing, with the call's arguments.
  ///
  /// The hook runs in the proxy's isolation, where the host makes its calls, so it need not be `Sendable`: installed
  /// on the main actor, it may use main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.didSelectRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public func hookAfter<each Argument>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Void>>, once: Bool = false,
    _ body: @escaping (repeat each Argument) -> Void
  ) -> HookToken {
    hooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of a plain method (``DelegateMethod``) that returns a
  /// value, with the value first, then the call's arguments.
  ///
  /// The hook runs in the proxy's isolation, where the host makes its calls, so it need not be `Sendable`: installed
  /// on the main actor, it may use main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.shouldHighlightRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the returned value, then the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public func hookAfter<each Argument, Result>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping (Result, repeat each Argument) -> Void
  ) -> HookToken {
    hooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .value, box: ResultHook(body))
  }
  /// Installs a hook on this proxy that runs in place of each call of a plain method (``DelegateMethod``).
  ///
  /// The hook receives the rest of the call as `original`: it calls it to go on — with the arguments it received, or
  /// changed ones — or returns a value of its own. `original` runs the next instead hook, or the forwardee when there
  /// is none.
  ///
  /// The hook runs in the proxy's isolation, where the host makes its calls, so it need not be `Sendable`: installed
  /// on the main actor, it may use main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.shouldHighlightRow`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives `original`, an ``OriginalCall``, then the call's arguments, and returns what the
  ///     host gets.
  /// - Returns: A token that removes the hook.
  @discardableResult @_disfavoredOverload
  public func hookInstead<each Argument, Result>(
    _ method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body:
      @escaping (OriginalCall<ProxiedDelegate, repeat each Argument, Result, Never>, repeat each Argument) -> Result
  ) -> HookToken {
    Self.requireDelegateProxy()
    return hooks.installTyped(
      method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: InsteadHook(body))
  }
  /// Installs a hook on this proxy that runs before each call of a throwing method (``ThrowingDelegateMethod``), with
  /// the call's arguments.
  ///
  /// The hook runs in the proxy's isolation, where the host makes its calls, so it need not be `Sendable`: installed
  /// on the main actor, it may use main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.authorize`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public func hookBefore<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, ThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping (repeat each Argument) -> Void
  ) -> HookToken {
    hooks.installTyped(
      method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of a throwing method (``ThrowingDelegateMethod``), with
  /// the call's outcome first — the value, or the error the caller receives — then its arguments.
  ///
  /// The hook runs in the proxy's isolation, where the host makes its calls, so it need not be `Sendable`: installed
  /// on the main actor, it may use main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.authorize`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the outcome as a `Result`, then the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public func hookAfter<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, ThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping (Swift.Result<Result, Failure>, repeat each Argument) -> Void
  ) -> HookToken {
    hooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .outcome, box: ResultHook(body))
  }
  /// Installs a hook on this proxy that runs in place of each call of a throwing method (``ThrowingDelegateMethod``).
  ///
  /// The hook receives the rest of the call as `original`: it calls it to go on — with the arguments it received, or
  /// changed ones — or returns a value of its own, or throws; what it throws reaches the caller. `original` runs the
  /// next instead hook, or the forwardee when there is none.
  ///
  /// The hook runs in the proxy's isolation, where the host makes its calls, so it need not be `Sendable`: installed
  /// on the main actor, it may use main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.authorize`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives `original`, an ``OriginalCall``, then the call's arguments, and returns what the
  ///     host gets.
  /// - Returns: A token that removes the hook.
  @discardableResult @_disfavoredOverload
  public func hookInstead<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, ThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body:
      @escaping (OriginalCall<ProxiedDelegate, repeat each Argument, Result, Failure>, repeat each Argument)
      throws(Failure) -> Result
  ) -> HookToken {
    Self.requireDelegateProxy()
    return hooks.installTyped(
      method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: InsteadHook(body))
  }
  /// Installs a hook on this proxy that runs before each call of an `async` method (``AsyncDelegateMethod``), with
  /// the call's arguments.
  ///
  /// The hook runs in the proxy's isolation, where the host makes its calls, so it need not be `Sendable`: installed
  /// on the main actor, it may use main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.prepare`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public func hookBefore<each Argument, Result>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping (repeat each Argument) -> Void
  ) -> HookToken {
    hooks.installTyped(
      method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of an `async` method (``AsyncDelegateMethod``) that
  /// returns nothing, with the call's arguments.
  ///
  /// The hook runs once the forwardee's call has finished, and is itself synchronous.
  ///
  /// The hook runs in the proxy's isolation, where the host makes its calls, so it need not be `Sendable`: installed
  /// on the main actor, it may use main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.prepare`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public func hookAfter<each Argument>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Void>>, once: Bool = false,
    _ body: @escaping (repeat each Argument) -> Void
  ) -> HookToken {
    hooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of an `async` method (``AsyncDelegateMethod``) that
  /// returns a value, with the value first, then the call's arguments.
  ///
  /// The hook runs once the forwardee's call has finished, and is itself synchronous.
  ///
  /// The hook runs in the proxy's isolation, where the host makes its calls, so it need not be `Sendable`: installed
  /// on the main actor, it may use main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.prepare`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the returned value, then the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public func hookAfter<each Argument, Result>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body: @escaping (Result, repeat each Argument) -> Void
  ) -> HookToken {
    hooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .value, box: ResultHook(body))
  }
  /// Installs an `async` hook on this proxy that runs in place of each call of an `async` method
  /// (``AsyncDelegateMethod``).
  ///
  /// The hook receives the rest of the call as `original`: it awaits it to go on — with the arguments it received, or
  /// changed ones — or returns a value of its own. `original` runs the next instead hook, or the forwardee when there
  /// is none.
  ///
  /// The hook runs in the proxy's isolation, where the host makes its calls, so it need not be `Sendable`: installed
  /// on the main actor, it may use main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.prepare`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives `original`, an ``AsyncOriginalCall``, then the call's arguments, and returns
  ///     what the host gets.
  /// - Returns: A token that removes the hook.
  @discardableResult @_disfavoredOverload
  public func hookInstead<each Argument, Result>(
    _ method: KeyPath<Methods, AsyncDelegateMethod<repeat each Argument, Result>>, once: Bool = false,
    _ body:
      nonisolated(nonsending) @escaping (
        AsyncOriginalCall<ProxiedDelegate, repeat each Argument, Result, Never>, repeat each Argument
      ) async -> Result
  ) -> HookToken {
    Self.requireDelegateProxy()
    return hooks.installTyped(
      method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: AsyncInsteadHook(body)
    )
  }
  /// Installs a hook on this proxy that runs before each call of an `async throws` method
  /// (``AsyncThrowingDelegateMethod``), with the call's arguments.
  ///
  /// The hook runs in the proxy's isolation, where the host makes its calls, so it need not be `Sendable`: installed
  /// on the main actor, it may use main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.fetchReceipt`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public func hookBefore<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping (repeat each Argument) -> Void
  ) -> HookToken {
    hooks.installTyped(
      method: Self.methods[keyPath: method], position: .before, once: once, kind: .arguments, box: ArgumentsHook(body))
  }
  /// Installs a hook on this proxy that runs after each call of an `async throws` method
  /// (``AsyncThrowingDelegateMethod``), with the call's outcome first — the value, or the error the caller receives —
  /// then its arguments.
  ///
  /// The hook runs once the forwardee's call has finished, and is itself synchronous.
  ///
  /// The hook runs in the proxy's isolation, where the host makes its calls, so it need not be `Sendable`: installed
  /// on the main actor, it may use main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.fetchReceipt`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives the outcome as a `Result`, then the call's arguments.
  /// - Returns: A token that removes the hook.
  @discardableResult
  public func hookAfter<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body: @escaping (Swift.Result<Result, Failure>, repeat each Argument) -> Void
  ) -> HookToken {
    hooks.installTyped(
      method: Self.methods[keyPath: method], position: .after, once: once, kind: .outcome, box: ResultHook(body))
  }
  /// Installs an `async` hook on this proxy that runs in place of each call of an `async throws` method
  /// (``AsyncThrowingDelegateMethod``).
  ///
  /// The hook receives the rest of the call as `original`: it awaits it to go on — with the arguments it received, or
  /// changed ones — or returns a value of its own, or throws; what it throws reaches the caller. `original` runs the
  /// next instead hook, or the forwardee when there is none.
  ///
  /// The hook runs in the proxy's isolation, where the host makes its calls, so it need not be `Sendable`: installed
  /// on the main actor, it may use main-actor state directly.
  ///
  /// - Parameters:
  ///   - method: The method, as a key path into the proxy's method table, such as `\.fetchReceipt`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook; it receives `original`, an ``AsyncOriginalCall``, then the call's arguments, and returns
  ///     what the host gets.
  /// - Returns: A token that removes the hook.
  @discardableResult @_disfavoredOverload
  public func hookInstead<each Argument, Result, Failure: Error>(
    _ method: KeyPath<Methods, AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>>, once: Bool = false,
    _ body:
      nonisolated(nonsending) @escaping (
        AsyncOriginalCall<ProxiedDelegate, repeat each Argument, Result, Failure>, repeat each Argument
      ) async throws(Failure) -> Result
  ) -> HookToken {
    Self.requireDelegateProxy()
    return hooks.installTyped(
      method: Self.methods[keyPath: method], position: .instead, once: once, kind: .instead, box: AsyncInsteadHook(body)
    )
  }
}
