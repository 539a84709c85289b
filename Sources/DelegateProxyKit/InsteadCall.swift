/// The call a string-keyed `instead` hook stands in for: proceed with it, replace its result, or
/// skip it.
///
/// ```swift
/// try proxy.hooks.addInsteadHook(for: "listView(_:heightForRowAt:)") { call in
///   call.proceed()                                                  // ask the real delegate
///   if call.returnValue as? Double? == nil { call.returnValue = 44.0 }   // fill in a default
/// }
/// ```
///
/// Only plain methods (neither `throws` nor `async`) take string-keyed instead hooks. Typed
/// instead hooks (`hookInstead(_:once:_:)`) do the same for every kind of method, with the
/// method's own types and no casts. An `InsteadCall` lives only while its hook runs; it is not
/// `Sendable`.
public final class InsteadCall {
  /// The call: selector and arguments, and after ``proceed()`` the forwardee's return value.
  public private(set) var invocation: Invocation
  /// Whether ``proceed()`` has run.
  public private(set) var didProceed = false
  @usableFromInline internal private(set) var producedValue = false
  private let next: () -> (any Sendable)?

  @usableFromInline
  internal init(invocation: Invocation, next: @escaping () -> (any Sendable)?) {
    self.invocation = invocation
    self.next = next
  }

  /// The value the host will receive.
  ///
  /// After ``proceed()`` it holds the forwardee's result; set it to replace that result. It must
  /// have the method's return type (for an `Optional`-returning method, the `Optional` or its
  /// wrapped type); a wrong type is reported as
  /// ``DelegateProxyError/returnTypeMismatch(selector:returns:requested:)`` and the host receives
  /// the result of the rest of the call instead (the next instead hook, or the forwardee), run
  /// now if ``proceed()`` did not run it.
  public var returnValue: (any Sendable)? {
    get { invocation.returnValue }
    set {
      invocation.finish(returning: newValue)
      producedValue = true
    }
  }

  /// Runs the rest of the call: the next `instead` hook, or the forwardee.
  ///
  /// The call is made at most once: a second `proceed()` does nothing.
  public func proceed() {
    guard !didProceed else { return }
    didProceed = true
    let result = next()
    invocation.finish(returning: result)
    producedValue = result != nil
  }
}

@available(*, unavailable, message: "an InsteadCall is used only inside its hook")
extension InsteadCall: Sendable {}
