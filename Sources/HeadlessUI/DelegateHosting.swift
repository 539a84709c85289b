import DelegateProxyKit

/// A host whose delegate calls go through a `DelegateSlot`, so proxies can
/// be installed between the host and its delegate.
///
/// Every HeadlessUI host with a delegate conforms: ``ScrollView``, ``ListView``, ``GridView``,
/// ``TextField``, ``Screen`` (its lifecycle delegate) and ``Application``. The host's own
/// delegate property keeps returning the user's delegate with proxies installed; the host calls
/// the slot's outermost proxy when there is one, else the delegate.
///
/// ```swift
/// let proxy = try list.installProxy(ListViewDelegateProxy())
/// try proxy.addHook(for: "listView(_:didSelectRowAt:)", at: .after) { invocation in
///   print("selected", try invocation.argument(1, as: IndexPath.self))
/// }
/// list.delegate === myDelegate  // still true
/// ```
@MainActor
public protocol DelegateHosting: AnyObject {
  /// The delegate protocol, as an existential: `any ListViewDelegate`.
  associatedtype Delegate

  /// The slot holding the installed proxies.
  var delegateSlot: DelegateSlot<Delegate> { get }

  /// The user's own delegate: what the host's delegate property returns.
  var hostedDelegate: Delegate? { get }
}

extension DelegateHosting {
  /// Installs a proxy, or returns the one of the same type already installed.
  ///
  /// The proxy expression is evaluated only when no proxy of its type is installed yet.
  ///
  /// - Parameter make: The proxy to install, e.g. `ListViewDelegateProxy()`.
  /// - Returns: The installed proxy.
  /// - Throws: `DelegateProxyError.proxyDoesNotConform(proxyType:delegateType:)`
  ///   when the proxy does not conform to the host's delegate protocol; nothing changes then.
  @discardableResult
  public func installProxy<Proxy: DelegateProxy<Delegate>>(
    _ make: @autoclosure () -> Proxy
  ) throws(DelegateProxyError) -> Proxy {
    try delegateSlot.install(Proxy.self, delegate: hostedDelegate, make: make)
  }

  /// Removes an installed proxy; the other proxies keep working.
  ///
  /// - Parameter proxy: The proxy to remove.
  /// - Returns: Whether it was installed on this host.
  @discardableResult
  public func removeProxy(_ proxy: DelegateProxy<Delegate>) -> Bool {
    delegateSlot.remove(proxy, delegate: hostedDelegate)
  }

  /// The installed proxy of a type, if any.
  ///
  /// - Parameter type: The proxy type.
  /// - Returns: The proxy, or `nil`.
  public func installedProxy<Proxy: DelegateProxy<Delegate>>(ofType type: Proxy.Type) -> Proxy? {
    delegateSlot.proxy(ofType: type)
  }
}
