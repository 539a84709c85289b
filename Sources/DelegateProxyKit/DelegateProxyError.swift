/// The errors DelegateProxyKit reports: every bad request gets one of these, never a crash.
///
/// Errors compare by value, so tests can match them exactly:
///
/// ```swift
/// #expect(throws: DelegateProxyError.unknownSelector(selector: "nope", proxyType: "ListViewDelegateProxy")) {
///   try proxy.hooks.addHook(for: "nope", at: .before) { _ in }
/// }
/// ```
public enum DelegateProxyError: Error, Equatable, Sendable {
  /// A name given to the dynamic layer is not a method of the proxy's protocol.
  ///
  /// The methods a proxy knows are the ones its ``DelegateMethodTable`` declares.
  case unknownSelector(selector: String, proxyType: String)
  /// A method's declaration is malformed: its selector is not spelled `name(label:…)` or names a
  /// different number of arguments than its types. Thrown when the dynamic layer looks the method
  /// up by name; a typed hook on it stops the program instead, as the table is source code (find
  /// such defects in a test with ``MethodTableProxy/validateMethodTable()``).
  case invalidMethodDeclaration(selector: String, proxyType: String, reason: String)
  /// ``MethodTableProxy/validateMethodTable()`` found entries of the proxy's method table that are
  /// wrong: every one, in declaration order.
  case invalidMethodTable(proxyType: String, defects: [MethodTableDefect])
  /// The dynamic layer (``Invocation``, string-keyed hooks, streams) was asked for a method whose
  /// arguments or result are not all `Sendable`; use a typed hook.
  case argumentsNotSendable(selector: String, proxyType: String)
  /// A string-keyed instead hook was asked for a method that throws or is `async`; use a typed
  /// instead hook, which handles every kind.
  case unsupportedEffects(selector: String, proxyType: String, effects: DelegateMethodEffects)
  /// ``HookRegistry/addHook(for:at:once:_:)`` was given `.instead`: an instead hook by name needs
  /// an ``InsteadCall``, so it is installed with ``HookRegistry/addInsteadHook(for:once:_:)``.
  case insteadHookNeedsCall(selector: String, proxyType: String)
  /// ``Invocation/argument(_:as:)`` was asked for an index the call does not have.
  case argumentIndexOutOfRange(selector: String, index: Int, count: Int)
  /// ``Invocation/argument(_:as:)`` was asked for a type the argument does not have.
  case argumentTypeMismatch(selector: String, index: Int, expected: String, actual: String)
  /// A return value was read before the call returned (for example in a `before` hook), or the
  /// call threw.
  case returnValueUnavailable(selector: String)
  /// A return value was read, or produced by a string-keyed `instead` hook, with a type other
  /// than the one the method returns: `returns` is the method's type, `requested` the other.
  case returnTypeMismatch(selector: String, returns: String, requested: String)
  /// A hook token was removed, or a hook installed, after its proxy was deallocated.
  case proxyDeallocated(proxyType: String)
  /// A string-keyed hook threw; the call itself was still forwarded unchanged.
  case hookFailed(selector: String, position: HookPosition, message: String)
  /// Proxies forward to each other in a loop; the call was stopped at the proxy named here
  /// and the host's default returned.
  case forwardingCycle(selector: String, proxyType: String)
}

extension DelegateProxyError: CustomStringConvertible {
  /// A sentence that says what went wrong and where.
  public var description: String {
    switch self {
    case .unknownSelector(let selector, let proxyType):
      "\(proxyType) has no method '\(selector)'"
    case .invalidMethodDeclaration(let selector, let proxyType, let reason):
      "\(proxyType) declares '\(selector)' wrongly: \(reason)"
    case .invalidMethodTable(let proxyType, let defects):
      "\(proxyType).Methods has \(defects.count) wrong entr\(defects.count == 1 ? "y" : "ies"): "
        + defects.map(\.description).joined(separator: "; ")
    case .argumentsNotSendable(let selector, let proxyType):
      "\(proxyType).\(selector) has arguments or a result that are not Sendable; use a typed hook"
    case .unsupportedEffects(let selector, let proxyType, let effects):
      "\(proxyType).\(selector) is \(effects.adjective); a string-keyed instead hook needs a method that neither throws nor suspends, so use a typed instead hook"
    case .insteadHookNeedsCall(let selector, let proxyType):
      "an instead hook on \(proxyType).\(selector) by name is installed with addInsteadHook(for:)"
    case .argumentIndexOutOfRange(let selector, let index, let count):
      "'\(selector)' has \(count) argument(s); index \(index) is out of range"
    case .argumentTypeMismatch(let selector, let index, let expected, let actual):
      "argument \(index) of '\(selector)' is \(actual), not \(expected)"
    case .returnValueUnavailable(let selector):
      "'\(selector)' has no return value here: it is read in after hooks of calls that returned"
    case .returnTypeMismatch(let selector, let returns, let requested):
      "'\(selector)' returns \(returns), not \(requested)"
    case .proxyDeallocated(let proxyType):
      "the \(proxyType) this token belongs to has been deallocated"
    case .hookFailed(let selector, let position, let message):
      "\(position) hook on '\(selector)' threw: \(message)"
    case .forwardingCycle(let selector, let proxyType):
      "'\(selector)' went round a loop of proxies and was stopped at \(proxyType)"
    }
  }
}
