/// A typed reference to a delegate method that neither throws nor suspends.
///
/// Declare one per protocol method, once, in the proxy's ``DelegateMethodTable``; the generic
/// parameters are the method's argument types followed by its result type. Forwarding, hooks,
/// observation and the dynamic layer all derive from this one declaration:
///
/// ```swift
/// struct Methods: DelegateMethodTable {
///   let didSelectRow = DelegateMethod<ListView, IndexPath, Void>("listView(_:didSelectRowAt:)")
///   let heightForRow = DelegateMethod<ListView, IndexPath, Double?>("listView(_:heightForRowAt:)")
/// }
/// ```
///
/// A method without arguments is `DelegateMethod<Void>`: no argument types, `Void` as the result.
///
/// The selector is the method's `#function` spelling. It is typed only here; hooks name the
/// method by key path (`\.didSelectRow`), so a misspelling cannot make a hook silently never fire.
/// A selector whose labels do not match the number of arguments is a programming error: a typed
/// hook on it stops the program with a message naming it, and
/// ``MethodTableProxy/validateMethodTable()`` reports it in a test.
public final class DelegateMethod<each Argument, Result>: ProxyMethod, @unchecked Sendable {
  @usableFromInline internal let reifier: Reifier<repeat each Argument, Result>?

  @usableFromInline
  internal init(_ selector: String, reifier: Reifier<repeat each Argument, Result>?) {
    self.reifier = reifier
    super.init(
      MethodDeclaration(
        selector: selector, effects: .plain, argumentTypes: DelegateProxyKit.argumentTypes(repeat (each Argument).self),
        resultType: Result.self))
  }

  /// Declares a method whose arguments or result are not all `Sendable`: typed hooks only (the
  /// dynamic layer refuses it with ``DelegateProxyError/argumentsNotSendable(selector:proxyType:)``).
  ///
  /// - Parameter selector: The method's `#function` name, such as `"ledger(_:didPost:)"`.
  public convenience init(_ selector: String) {
    self.init(selector, reifier: nil)
  }

  /// Whether every argument and the result are `Sendable`.
  public override var isReifiable: Bool { reifier != nil }
}

extension DelegateMethod where repeat each Argument: Sendable, Result: Sendable {
  /// Declares a method whose arguments and result are `Sendable`: typed hooks and the dynamic
  /// layer (string look-up, ``Invocation``, streams).
  ///
  /// - Parameter selector: The method's `#function` name, such as `"listView(_:didSelectRowAt:)"`.
  @inlinable
  public convenience init(_ selector: String) {
    self.init(selector, reifier: .make())
  }
}

/// A typed reference to a delegate method that throws: `throws` (`Failure` is `any Error`) or
/// `throws(Failure)`.
///
/// ```swift
/// struct Methods: DelegateMethodTable {
///   let authorize = ThrowingDelegateMethod<Payment, Ledger, Bool, any Error>("authorize(_:ledger:)")
///   let validate = ThrowingDelegateMethod<String, Void, ValidationError>("validate(_:)")
/// }
/// ```
///
/// The caller of the proxy receives the forwardee's error unchanged — the same instance — with or
/// without hooks. An after hook sees a `Result`; an instead hook may throw `Failure`.
public final class ThrowingDelegateMethod<each Argument, Result, Failure: Error>: ProxyMethod, @unchecked Sendable {
  @usableFromInline internal let reifier: Reifier<repeat each Argument, Result>?

  @usableFromInline
  internal init(_ selector: String, reifier: Reifier<repeat each Argument, Result>?) {
    self.reifier = reifier
    super.init(
      MethodDeclaration(
        selector: selector, effects: .throwing,
        argumentTypes: DelegateProxyKit.argumentTypes(repeat (each Argument).self), resultType: Result.self,
        failureType: Failure.self))
  }

  /// Declares a throwing method whose arguments or result are not all `Sendable`.
  ///
  /// - Parameter selector: The method's `#function` name.
  public convenience init(_ selector: String) {
    self.init(selector, reifier: nil)
  }

  /// Whether every argument and the result are `Sendable`.
  public override var isReifiable: Bool { reifier != nil }
}

extension ThrowingDelegateMethod where repeat each Argument: Sendable, Result: Sendable {
  /// Declares a throwing method whose arguments and result are `Sendable`.
  ///
  /// - Parameter selector: The method's `#function` name.
  @inlinable
  public convenience init(_ selector: String) {
    self.init(selector, reifier: .make())
  }
}

/// A typed reference to an `async` delegate method that does not throw.
///
/// ```swift
/// struct Methods: DelegateMethodTable {
///   let prepare = AsyncDelegateMethod<Player, URL, Void>("player(_:prepare:)")
/// }
/// ```
///
/// Forwarding awaits the forwardee in the caller's isolation; before hooks run before the call
/// starts and after hooks once it has finished. An instead hook is itself `async`.
///
/// Because nothing is sent to another isolation, the protocol's `async` requirement must not run
/// off the caller's actor: isolate the protocol to a global actor (`@MainActor`), or declare the
/// requirement `nonisolated(nonsending)`.
public final class AsyncDelegateMethod<each Argument, Result>: ProxyMethod, @unchecked Sendable {
  @usableFromInline internal let reifier: Reifier<repeat each Argument, Result>?

  @usableFromInline
  internal init(_ selector: String, reifier: Reifier<repeat each Argument, Result>?) {
    self.reifier = reifier
    super.init(
      MethodDeclaration(
        selector: selector, effects: .async, argumentTypes: DelegateProxyKit.argumentTypes(repeat (each Argument).self),
        resultType: Result.self))
  }

  /// Declares an `async` method whose arguments or result are not all `Sendable`.
  ///
  /// - Parameter selector: The method's `#function` name.
  public convenience init(_ selector: String) {
    self.init(selector, reifier: nil)
  }

  /// Whether every argument and the result are `Sendable`.
  public override var isReifiable: Bool { reifier != nil }
}

extension AsyncDelegateMethod where repeat each Argument: Sendable, Result: Sendable {
  /// Declares an `async` method whose arguments and result are `Sendable`.
  ///
  /// - Parameter selector: The method's `#function` name.
  @inlinable
  public convenience init(_ selector: String) {
    self.init(selector, reifier: .make())
  }
}

/// A typed reference to an `async throws` delegate method (`Failure` is `any Error` for an
/// untyped `throws`).
///
/// ```swift
/// struct Methods: DelegateMethodTable {
///   let fetchReceipt = AsyncThrowingDelegateMethod<String, Receipt, any Error>("fetchReceipt(for:)")
/// }
/// ```
///
/// The caller receives the forwardee's error unchanged, and a cancelled task's cancellation
/// reaches the forwardee as it would without the proxy. As for ``AsyncDelegateMethod``, the
/// protocol's requirement must be isolated to a global actor or `nonisolated(nonsending)`.
public final class AsyncThrowingDelegateMethod<each Argument, Result, Failure: Error>: ProxyMethod, @unchecked Sendable
{
  @usableFromInline internal let reifier: Reifier<repeat each Argument, Result>?

  @usableFromInline
  internal init(_ selector: String, reifier: Reifier<repeat each Argument, Result>?) {
    self.reifier = reifier
    super.init(
      MethodDeclaration(
        selector: selector, effects: .asyncThrowing,
        argumentTypes: DelegateProxyKit.argumentTypes(repeat (each Argument).self), resultType: Result.self,
        failureType: Failure.self))
  }

  /// Declares an `async throws` method whose arguments or result are not all `Sendable`.
  ///
  /// - Parameter selector: The method's `#function` name.
  public convenience init(_ selector: String) {
    self.init(selector, reifier: nil)
  }

  /// Whether every argument and the result are `Sendable`.
  public override var isReifiable: Bool { reifier != nil }
}

extension AsyncThrowingDelegateMethod where repeat each Argument: Sendable, Result: Sendable {
  /// Declares an `async throws` method whose arguments and result are `Sendable`.
  ///
  /// - Parameter selector: The method's `#function` name.
  @inlinable
  public convenience init(_ selector: String) {
    self.init(selector, reifier: .make())
  }
}
