/// The host side of proxy installation: keeps a chain of proxies between a host and its delegate.
///
/// A host owns one slot per delegate property. Its public `delegate` property keeps returning
/// the user's own delegate, so `host.delegate === myDelegate` holds with proxies installed;
/// the host sends its calls to ``head``, the outermost proxy, when there is one:
///
/// ```swift
/// public final class ListView {
///   public let delegateSlot = DelegateSlot<any ListViewDelegate>()
///   public weak var delegate: (any ListViewDelegate)? {
///     didSet { delegateSlot.delegateDidChange(to: delegate) }
///   }
///   var dispatchTarget: (any ListViewDelegate)? { delegateSlot.head ?? delegate }
/// }
///
/// let proxy = try list.delegateSlot.install(ListViewDelegateProxy.self, delegate: list.delegate) {
///   ListViewDelegateProxy()
/// }
/// ```
///
/// Rules the slot keeps:
/// - Installing a proxy type that is already installed returns the existing proxy (idempotent);
///   proxies of different types stack, the most recently installed outermost.
/// - Removing proxies in any order relinks the rest.
/// - ``delegateDidChange(to:)`` re-targets the chain at a new delegate, or at none: the proxies
///   stay installed and keep capturing calls.
/// - The slot holds its proxies strongly; proxies hold the next link and the delegate weakly, so
///   the slot never keeps the user's delegate alive.
///
/// A slot is used from its host's isolation and is not `Sendable`.
public final class DelegateSlot<Delegate> {
  private struct Link {
    let proxy: DelegateProxy<Delegate>
    let asDelegate: Delegate
  }

  /// Innermost (next to the delegate) first.
  private var links: [Link] = []

  /// The outermost installed proxy, as the delegate type; `nil` when no proxy is installed.
  @exclusivity(unchecked) public private(set) var head: Delegate?

  /// Creates an empty slot.
  public init() {}

  /// The installed proxies, outermost first.
  public var proxies: [DelegateProxy<Delegate>] { links.reversed().map(\.proxy) }

  /// The installed proxy of type `type`, if any.
  ///
  /// - Parameter type: The proxy type.
  /// - Returns: The proxy, or `nil`.
  public func proxy<Proxy: DelegateProxy<Delegate>>(ofType type: Proxy.Type) -> Proxy? {
    links.first { Swift.type(of: $0.proxy) == type }?.proxy as? Proxy
  }

  /// Installs a proxy of type `type`, or returns the one already installed.
  ///
  /// - Parameters:
  ///   - type: The proxy type; one proxy per type per slot.
  ///   - delegate: The host's current delegate (the chain's end).
  ///   - make: Creates the proxy; called only when no proxy of `type` is installed.
  /// - Returns: The installed proxy.
  /// - Throws: ``DelegateProxyError/proxyDoesNotConform(proxyType:delegateType:)`` when the proxy
  ///   does not conform to the delegate protocol; the slot is unchanged.
  @discardableResult
  public func install<Proxy: DelegateProxy<Delegate>>(
    _ type: Proxy.Type, delegate: Delegate?, make: () -> Proxy
  ) throws(DelegateProxyError) -> Proxy {
    if let existing = proxy(ofType: type) { return existing }
    let created = make()
    guard let asDelegate = created as? Delegate else {
      throw .proxyDoesNotConform(
        proxyType: String(describing: Swift.type(of: created)), delegateType: String(describing: Delegate.self))
    }
    links.append(Link(proxy: created, asDelegate: asDelegate))
    relink(delegate: delegate)
    return created
  }

  /// Removes `proxy` from the chain; the rest keeps working.
  ///
  /// - Parameters:
  ///   - proxy: The proxy to remove.
  ///   - delegate: The host's current delegate.
  /// - Returns: Whether the proxy was installed here.
  @discardableResult
  public func remove(_ proxy: DelegateProxy<Delegate>, delegate: Delegate?) -> Bool {
    guard let index = links.firstIndex(where: { $0.proxy === proxy }) else { return false }
    links.remove(at: index)
    proxy.forwardee = nil
    relink(delegate: delegate)
    return true
  }

  /// Removes every proxy.
  ///
  /// - Parameter delegate: The host's current delegate.
  public func removeAll(delegate: Delegate?) {
    for link in links { link.proxy.forwardee = nil }
    links.removeAll()
    relink(delegate: delegate)
  }

  /// Re-targets the chain at the host's new delegate (or at none); proxies stay installed.
  ///
  /// - Parameter delegate: The new delegate.
  public func delegateDidChange(to delegate: Delegate?) {
    links.first?.proxy.forwardee = delegate
  }

  private func relink(delegate: Delegate?) {
    for index in links.indices {
      links[index].proxy.forwardee = index == 0 ? delegate : links[index - 1].asDelegate
    }
    head = links.last?.asDelegate
  }
}
