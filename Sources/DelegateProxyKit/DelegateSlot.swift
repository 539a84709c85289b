/// The host side of proxy installation: keeps a chain of proxies between a host and its delegate.
///
/// A host owns one slot per delegate property. Its public `delegate` property keeps returning
/// the user's own delegate, so `host.delegate === myDelegate` holds with proxies installed;
/// the host sends its calls to ``head``, the outermost proxy, when there is one, through
/// ``dispatch(orElse:_:)``:
///
/// ```swift
/// public final class ListView {
///   public let delegateSlot = DelegateSlot<any ListViewDelegate>()
///   public weak var delegate: (any ListViewDelegate)? {
///     didSet { delegateSlot.delegateDidChange(to: delegate) }
///   }
///   func dispatchDidSelect(at indexPath: IndexPath) {
///     delegateSlot.dispatch(orElse: delegate) { $0.listView(self, didSelectRowAt: indexPath) }
///   }
/// }
///
/// let proxy = list.delegateSlot.install(ListViewDelegateProxy.self) { ListViewDelegateProxy() }
/// ```
///
/// The slot holds the host's delegate weakly, as the host last told it with
/// ``delegateDidChange(to:)``: a host calls it whenever its delegate changes, including a delegate
/// set in its initializer (where `didSet` does not run).
///
/// Rules the slot keeps:
/// - Installing a proxy type that is already installed returns the existing proxy (idempotent);
///   proxies of different types stack, the most recently installed outermost.
/// - Removing proxies in any order relinks the rest.
/// - ``delegateDidChange(to:)`` re-targets the chain at a new delegate, or at none: the proxies
///   stay installed and keep capturing calls.
/// - The slot holds its proxies strongly; proxies hold the next link and the delegate weakly, so
///   the slot never keeps the user's delegate alive.
/// - A library that watches a host without being asked to (analytics) installs its proxy as a
///   *guest* (``install(_:asGuest:make:)``): an install of the same type by anyone else
///   replaces the guest proxy instead of returning it, so the host behaves as it would without the
///   library. ``addObserver(_:)`` tells the library when the chain changed, so it can move its
///   hooks to the proxy now installed.
///
/// A slot is used from its host's isolation and is not `Sendable`.
public final class DelegateSlot<Delegate> {
  private struct Link {
    let proxy: DelegateProxy<Delegate>
    let asDelegate: Delegate
    /// Installed by a library that yields the slot to any other install of the type.
    let isGuest: Bool
  }

  /// Innermost (next to the delegate) first.
  private var links: [Link] = []

  /// The host's delegate, the chain's end, as ``delegateDidChange(to:)`` last gave it.
  private let delegate = WeakReference<Delegate>()

  /// Told after each change of the chain, in the order they were added.
  private var observers: [(id: ObserverID, onChange: () -> Void)] = []
  private var nextObserverID = 0

  /// Identifies an observer added with ``DelegateSlot/addObserver(_:)``, to remove it.
  public struct ObserverID: Hashable, Sendable {
    fileprivate let value: Int
  }

  /// The outermost installed proxy, as the delegate type; `nil` when no proxy is installed.
  ///
  /// A host sends its synchronous calls through ``dispatch(orElse:_:)``, which passes the head
  /// without retaining it; reading this property retains it.
  @exclusivity(unchecked) public private(set) var head: Delegate?

  /// ``head`` in a box of its own, which keeps it alive; `headPointer` is the same box unretained,
  /// which ``dispatch(orElse:_:)`` reads.
  private var headBox: SlotHead<Delegate>?
  @exclusivity(unchecked) @usableFromInline internal var headPointer: UnsafeMutableRawPointer?
  /// The dispatches running now. While one runs, a head box the chain replaced is parked here
  /// instead of released: the running call may still be inside that head.
  @exclusivity(unchecked) @usableFromInline internal var dispatchDepth = 0
  @exclusivity(unchecked) @usableFromInline internal var parkedHeads: [AnyObject] = []

  /// Creates an empty slot.
  public init() {}

  /// Calls `call` with the outermost installed proxy, or with `delegate` when no proxy is
  /// installed: how a host sends a synchronous call down its chain.
  ///
  /// ```swift
  /// func dispatchDidSelect(at indexPath: IndexPath) {
  ///   delegateSlot.dispatch(orElse: delegate) { $0.listView(self, didSelectRowAt: indexPath) }
  /// }
  /// ```
  ///
  /// Unlike `(head ?? delegate)?.method()`, it does not retain the proxy for the call: the slot
  /// keeps the head it passed alive until `call` returns, also when the call installs or removes
  /// proxies on this slot. Use it from the slot's isolation, like every other member.
  ///
  /// - Parameters:
  ///   - delegate: The host's delegate, evaluated only when no proxy is installed.
  ///   - call: Makes the call on the target it receives.
  /// - Returns: What `call` returned, or `nil` when there is neither a proxy nor a delegate.
  /// - Throws: What `call` threw.
  @inlinable @inline(__always) @discardableResult
  public func dispatch<Result, Failure: Error>(
    orElse delegate: @autoclosure () -> Delegate?, _ call: (Delegate) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    guard let headPointer else {
      guard let delegate = delegate() else { return nil }
      return try call(delegate)
    }
    dispatchDepth &+= 1
    defer {
      dispatchDepth &-= 1
      if dispatchDepth == 0, !parkedHeads.isEmpty { releaseParkedHeads() }
    }
    let outcome: Swift.Result<Result, Failure> = Unmanaged<SlotHead<Delegate>>.fromOpaque(headPointer)
      ._withUnsafeGuaranteedRef { head in
        do throws(Failure) {
          return .success(try call(head.value))
        } catch {
          return .failure(error)
        }
      }
    return try outcome.get()
  }

  /// Releases the head boxes parked while dispatches ran, once none runs.
  @usableFromInline
  internal func releaseParkedHeads() {
    let parked = parkedHeads
    parkedHeads = []
    withExtendedLifetime(parked) {}
  }

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
  /// A guest proxy of `type` (installed with `asGuest: true`) is not returned to an install that is
  /// not a guest's: `make` creates the proxy that takes its place in the chain, and the guest proxy
  /// leaves with its hooks (its owner hears of it through ``addObserver(_:)``). A guest install
  /// returns whatever proxy of `type` is installed.
  ///
  /// `Proxy` must be a ``DelegateConvertible`` proxy of the slot's delegate type: a proxy that does
  /// not conform to the delegate protocol does not compile here.
  ///
  /// - Parameters:
  ///   - type: The proxy type; one proxy per type per slot.
  ///   - asGuest: Whether the proxy yields the slot to any other install of its type; for a library
  ///     that watches the host on its own account.
  ///   - make: Creates the proxy; called only when no proxy of `type` is installed, or only a guest's.
  /// - Returns: The installed proxy.
  @discardableResult
  public func install<Proxy: DelegateProxy<Delegate> & DelegateConvertible>(
    _ type: Proxy.Type, asGuest: Bool = false, make: () -> Proxy
  ) -> Proxy where Proxy.ProxiedDelegate == Delegate {
    let index = links.firstIndex { Swift.type(of: $0.proxy) == type }
    if let index, asGuest || !links[index].isGuest, let existing = links[index].proxy as? Proxy { return existing }
    let created = make()
    let link = Link(proxy: created, asDelegate: created.asDelegate, isGuest: asGuest)
    if let index {
      links[index].proxy.forwardee = nil
      links[index] = link
    } else {
      links.append(link)
    }
    relink()
    notifyObservers()
    return created
  }

  /// Whether `proxy` is in this slot's chain.
  ///
  /// - Parameter proxy: The proxy.
  /// - Returns: Whether it is installed here.
  public func contains(_ proxy: DelegateProxyBase) -> Bool {
    links.contains { $0.proxy === proxy }
  }

  /// Whether `proxy` is in this slot's chain as a guest (installed with `asGuest: true`).
  ///
  /// - Parameter proxy: The proxy.
  /// - Returns: Whether it is installed here as a guest; `false` when it is not installed here.
  public func isGuest(_ proxy: DelegateProxyBase) -> Bool {
    links.contains { $0.proxy === proxy && $0.isGuest }
  }

  /// Calls `onChange` after every change of the chain: a proxy installed, replaced or removed.
  ///
  /// A new delegate (``delegateDidChange(to:)``) changes no proxy and calls no observer. An observer
  /// may install or remove proxies; the observers hear of that change too, once the current round
  /// ends. Remove the observer with ``removeObserver(_:)`` when done; the slot holds `onChange`
  /// strongly, so let it capture its owner weakly.
  ///
  /// - Parameter onChange: Runs in the slot's isolation after each change.
  /// - Returns: The observer's identity, for ``removeObserver(_:)``.
  public func addObserver(_ onChange: @escaping () -> Void) -> ObserverID {
    nextObserverID += 1
    let id = ObserverID(value: nextObserverID)
    observers.append((id, onChange))
    return id
  }

  /// Removes an observer; removing one that is gone does nothing.
  ///
  /// - Parameter id: What ``addObserver(_:)`` returned.
  public func removeObserver(_ id: ObserverID) {
    observers.removeAll { $0.id == id }
  }

  /// The number of observers, for tests that check nothing accumulates.
  public var observerCount: Int { observers.count }

  /// Removes `proxy` from the chain; the rest keeps working.
  ///
  /// - Parameter proxy: The proxy to remove.
  /// - Returns: Whether the proxy was installed here.
  @discardableResult
  public func remove(_ proxy: DelegateProxy<Delegate>) -> Bool {
    guard let index = links.firstIndex(where: { $0.proxy === proxy }) else { return false }
    links.remove(at: index)
    proxy.forwardee = nil
    relink()
    notifyObservers()
    return true
  }

  /// Removes every proxy.
  public func removeAll() {
    guard !links.isEmpty else { return }
    for link in links { link.proxy.forwardee = nil }
    links.removeAll()
    relink()
    notifyObservers()
  }

  /// Re-targets the chain at the host's new delegate (or at none); proxies stay installed.
  ///
  /// The slot keeps the delegate weakly, for the proxies installed later.
  ///
  /// - Parameter delegate: The new delegate.
  public func delegateDidChange(to delegate: Delegate?) {
    _ = self.delegate.store(delegate)
    links.first?.proxy.forwardee = delegate
  }

  /// Observers run after the chain is consistent; a change an observer makes waits for the current
  /// round to end, so no observer sees a change twice inside another's call.
  private var isNotifying = false
  private var changedWhileNotifying = false

  private func notifyObservers() {
    guard !isNotifying else {
      changedWhileNotifying = true
      return
    }
    isNotifying = true
    defer { isNotifying = false }
    repeat {
      changedWhileNotifying = false
      for observer in observers { observer.onChange() }
    } while changedWhileNotifying
  }

  private func relink() {
    let delegate = delegate.value
    for index in links.indices {
      links[index].proxy.forwardee = index == 0 ? delegate : links[index - 1].asDelegate
    }
    head = links.last?.asDelegate
    if dispatchDepth > 0, let replaced = headBox { parkedHeads.append(replaced) }
    headBox = head.map { SlotHead($0) }
    headPointer = headBox.map { Unmanaged.passUnretained($0).toOpaque() }
  }
}

/// A slot's head in a box of its own, so ``DelegateSlot/dispatch(orElse:_:)`` can pass it on
/// borrowed: the box's `let` needs no retain to be read through an unretained reference.
@usableFromInline
internal final class SlotHead<Delegate> {
  @usableFromInline let value: Delegate

  init(_ value: Delegate) {
    self.value = value
  }
}
