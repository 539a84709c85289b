/// A host whose delegate calls go through a ``DelegateSlot``, so proxies can be installed
/// between the host and its delegate: the install and remove API for any host type.
///
/// Every HeadlessUI host conforms; so can a host class of your own. Give it a slot, send its
/// delegate calls through the slot (``DelegateSlot/dispatch(orElse:_:)``: the outermost proxy,
/// else the delegate), and keep the slot told of delegate changes:
///
/// ```swift
/// final class Uploader: DelegateHosting {
///   let delegateSlot = DelegateSlot<any UploadDelegate>()
///   weak var delegate: (any UploadDelegate)? {
///     didSet { delegateSlot.delegateDidChange(to: delegate) }
///   }
///   var hostedDelegate: (any UploadDelegate)? { delegate }
///
///   func finish(_ file: String) {
///     delegateSlot.dispatch(orElse: delegate) { $0.uploadDidFinish(file) }
///   }
/// }
///
/// let proxy = uploader.installProxy(UploadDelegateProxy())
/// uploader.delegate === myDelegate   // still true
/// ```
///
/// A main-actor host (as UIKit's are) conforms with an isolated conformance,
/// `extension MyView: @MainActor DelegateHosting`, and is then used from the main actor.
///
/// The host's own `delegate` property keeps returning the user's delegate with proxies
/// installed; installing a proxy type twice returns the one installed; proxies of different
/// types stack, and can be removed in any order.
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
  /// The proxy expression is evaluated only when no proxy of its type is installed yet. The proxy
  /// must be a ``DelegateConvertible`` proxy of the host's delegate type, which the compiler checks:
  /// a proxy that does not conform to the delegate protocol does not compile here. The install
  /// first tells the slot the host's ``hostedDelegate``, so a delegate set where `didSet` does not
  /// run (in the host's initializer) is the chain's end all the same.
  ///
  /// - Parameter make: The proxy to install, e.g. `ListViewDelegateProxy()`.
  /// - Returns: The installed proxy.
  @discardableResult
  public func installProxy<Proxy: DelegateProxy<Delegate> & DelegateConvertible>(
    _ make: @autoclosure () -> Proxy
  ) -> Proxy where Proxy.ProxiedDelegate == Delegate {
    delegateSlot.delegateDidChange(to: hostedDelegate)
    return delegateSlot.install(Proxy.self, make: make)
  }

  /// Removes an installed proxy; the other proxies keep working.
  ///
  /// - Parameter proxy: The proxy to remove.
  /// - Returns: Whether it was installed on this host.
  @discardableResult
  public func removeProxy(_ proxy: DelegateProxy<Delegate>) -> Bool {
    delegateSlot.remove(proxy)
  }

  /// The installed proxy of a type, if any.
  ///
  /// - Parameter type: The proxy type.
  /// - Returns: The proxy, or `nil`.
  public func installedProxy<Proxy: DelegateProxy<Delegate>>(ofType type: Proxy.Type) -> Proxy? {
    delegateSlot.proxy(ofType: type)
  }
}
