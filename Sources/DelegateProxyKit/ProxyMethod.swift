/// One method of a delegate protocol, as a proxy type declares it.
///
/// A proxy lists the methods of its protocol in ``DelegateProxyBase/methods`` so that hooks
/// on a misspelled selector fail at install time with ``DelegateProxyError/unknownSelector(selector:proxyType:)``
/// instead of never firing. The selector is the method's `#function` name.
///
/// ```swift
/// override class var methods: [ProxyMethod] {
///   [.void("listView(_:didSelectRowAt:)"), .optional("listView(_:heightForRowAt:)"),
///    .value("textField(_:shouldChangeCharactersIn:replacementString:)")]
/// }
/// ```
public struct ProxyMethod: Sendable, Hashable {
  /// What a method gives back, which decides what an `instead` hook may do.
  public enum ReturnKind: Sendable, Hashable {
    /// The method returns nothing.
    case void
    /// The method returns an `Optional`, where `nil` means "use the host default".
    case optional
    /// The method returns a value the host needs (for example a `Bool` veto).
    case value
  }

  /// The method's selector name, as `#function` spells it inside the method.
  public let selector: String
  /// What the method returns.
  public let returnKind: ReturnKind

  /// Creates a method description.
  ///
  /// - Parameters:
  ///   - selector: The `#function` name of the method.
  ///   - returnKind: What the method returns.
  public init(_ selector: String, returns returnKind: ReturnKind) {
    self.selector = selector
    self.returnKind = returnKind
  }

  /// A method that returns nothing.
  public static func void(_ selector: String) -> ProxyMethod { ProxyMethod(selector, returns: .void) }
  /// A method that returns an `Optional` (`nil` = host default).
  public static func optional(_ selector: String) -> ProxyMethod { ProxyMethod(selector, returns: .optional) }
  /// A method that returns a value the host needs.
  public static func value(_ selector: String) -> ProxyMethod { ProxyMethod(selector, returns: .value) }
}
