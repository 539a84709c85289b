/// The errors DelegateProxyKit reports: every bad request gets one of these, never a crash.
///
/// Errors compare by value, so tests can match them exactly:
///
/// ```swift
/// #expect(throws: DelegateProxyError.unknownSelector(selector: "nope", proxyType: "ListViewDelegateProxy")) {
///   try proxy.addHook(for: "nope", at: .before) { _ in }
/// }
/// ```
public enum DelegateProxyError: Error, Equatable, Sendable {
  /// A hook or observer named a selector that the proxy's protocol does not have.
  ///
  /// The selectors a proxy knows are the ones its type lists in ``DelegateProxyBase/methods``.
  case unknownSelector(selector: String, proxyType: String)
  /// ``Invocation/argument(_:as:)`` was asked for an index the call does not have.
  case argumentIndexOutOfRange(selector: String, index: Int, count: Int)
  /// ``Invocation/argument(_:as:)`` was asked for a type the argument does not have.
  case argumentTypeMismatch(selector: String, index: Int, expected: String, actual: String)
  /// A return value was read before the call returned (for example in a `before` hook).
  case returnValueUnavailable(selector: String)
  /// A return value was read, or set by an `instead` hook, with a type the method does not return.
  case returnTypeMismatch(selector: String, expected: String, actual: String)
  /// A skipping `instead` hook (one that cannot set a return value) was installed on a method that
  /// returns a value; use ``DelegateProxyBase/addInsteadHook(for:once:_:)`` there.
  case insteadHookCannotProduceValue(selector: String, proxyType: String)
  /// A hook token was removed, or a hook installed, after its proxy was deallocated.
  case proxyDeallocated(proxyType: String)
  /// A hook threw; the call itself was still forwarded unchanged.
  case hookFailed(selector: String, position: HookPosition, message: String)
  /// Proxies forward to each other in a loop; the call was stopped at the proxy named here
  /// and the host's default returned.
  case forwardingCycle(selector: String, proxyType: String)
  /// An object installed in a ``DelegateSlot`` does not conform to the slot's delegate protocol.
  case proxyDoesNotConform(proxyType: String, delegateType: String)
}

extension DelegateProxyError: CustomStringConvertible {
  /// A sentence that says what went wrong and where.
  public var description: String {
    switch self {
    case .unknownSelector(let selector, let proxyType):
      "\(proxyType) has no method '\(selector)'"
    case .argumentIndexOutOfRange(let selector, let index, let count):
      "'\(selector)' has \(count) argument(s); index \(index) is out of range"
    case .argumentTypeMismatch(let selector, let index, let expected, let actual):
      "argument \(index) of '\(selector)' is \(actual), not \(expected)"
    case .returnValueUnavailable(let selector):
      "'\(selector)' has not returned yet; its return value is read in after hooks"
    case .returnTypeMismatch(let selector, let expected, let actual):
      "'\(selector)' returns \(expected), not \(actual)"
    case .insteadHookCannotProduceValue(let selector, let proxyType):
      "\(proxyType).\(selector) returns a value; a skipping instead hook cannot produce one"
    case .proxyDeallocated(let proxyType):
      "the \(proxyType) this token belongs to has been deallocated"
    case .hookFailed(let selector, let position, let message):
      "\(position) hook on '\(selector)' threw: \(message)"
    case .forwardingCycle(let selector, let proxyType):
      "'\(selector)' went round a loop of proxies and was stopped at \(proxyType)"
    case .proxyDoesNotConform(let proxyType, let delegateType):
      "\(proxyType) does not conform to \(delegateType)"
    }
  }
}
