import Synchronization

/// A proxy for a delegate protocol that refines `Sendable`: the proxy is `Sendable` too, and safe
/// to use from any thread.
///
/// Subclass it in place of ``DelegateProxy`` and adopt ``SendableTypedDelegateProxy`` in place of
/// ``TypedDelegateProxy``; everything else is written as for any proxy:
///
/// ```swift
/// protocol TickerDelegate: AnyObject, Sendable { func tick(_ count: Int) }
///
/// final class TickerDelegateProxy: SendableDelegateProxy<any TickerDelegate>, SendableTypedDelegateProxy,
///   @unchecked Sendable
/// {
///   struct Methods: DelegateMethodTable { let tick = DelegateMethod<Int, Void>("tick(_:)") }
///   static let methods = Methods()
/// }
///
/// extension TickerDelegateProxy: TickerDelegate {
///   func tick(_ count: Int) { forward(Self.methods.tick, count) { $0.tick($1) } }
/// }
/// ```
///
/// The subclass restates `@unchecked Sendable` because Swift asks every subclass to; it is safe
/// because this class reads and writes the forwardee storage of ``DelegateProxy`` only while it
/// holds its lock, and a subclass has no storage of its own to share. URLSession's
/// delegates (`URLSessionDelegate: NSObjectProtocol, Sendable`) take this base as they are, since
/// every proxy is an `NSObject`.
///
/// What is guaranteed:
/// - ``DelegateProxy/forwardee`` may be read and set from any thread. A call forwarded while the
///   forwardee changes goes to the old forwardee or the new one, never to none (unless one of
///   them is `nil`).
/// - Calls may be forwarded from any number of threads at once, hooked or not, to a forwardee
///   that is a delegate or another proxy; the re-entrancy guard is per thread (per task for
///   `async` calls).
/// - Typed instance hooks (with `@Sendable` closures), type-wide hooks, string-keyed hooks and
///   streams may be installed and removed from any thread while calls are forwarded. A call runs
///   exactly the hooks that were installed when it started; a once-only hook runs once, on
///   whichever thread claims it first.
/// - The thread sanitizer reports nothing for any of this (the package's stress tests run under it).
///
/// What it does not do: it does not make the forwardee or the hooks' own state thread-safe, and
/// calls are not serialised: the forwardee is called concurrently when its host calls
/// concurrently, exactly as without the proxy.
///
/// - Complexity: A forwarded call adds one uncontended lock and unlock around the weak load of the
///   forwardee to the path of ``DelegateProxy`` (`typed-forwarding/sendable-proxy` in
///   `proxy-bench`); the hooks are read as on any proxy, without a lock. Calls forwarded at the
///   same moment from several threads contend for the lock for the length of that weak load only.
open class SendableDelegateProxy<Delegate>: DelegateProxy<Delegate>, @unchecked Sendable {
  /// Guards the forwardee storage of ``DelegateProxy`` (its weak reference and strong ones) and
  /// holds the forwardee's proxy link, which for this kind of proxy is not in the atomic.
  ///
  /// A `Mutex` with the hand-over atomic of the package's `SanitizerVisibleMutex` spelled out
  /// beside it, because the read below is inlined into each proxy's `forward` calls (where it is
  /// specialised for the proxy's protocol), and inlinable code can use only public types.
  @usableFromInline internal let forwardeeLock = Mutex<UInt>(0)
  /// Makes the hand-over of ``forwardeeLock`` visible to the thread sanitizer (see
  /// `SanitizerVisibleMutex`, whose reasons apply here).
  @usableFromInline internal let forwardeeLockHandOver = Atomic<UInt>(0)

  /// Creates a proxy.
  ///
  /// - Parameters:
  ///   - forwardee: The real delegate calls are forwarded to.
  ///   - retainsForwardee: Whether the proxy keeps the forwardee alive. By default it does not.
  public override init(forwardee: Delegate? = nil, retainsForwardee: Bool = false) {
    super.init(forwardee: nil, retainsForwardee: retainsForwardee)
    // From here on every read and write of the forwardee goes through the lock.
    forwardeeProxyLink.store(ForwardeeLink.shared, ordering: .relaxed)
    if let forwardee { self.forwardee = forwardee }
  }

  /// The forwardee with its proxy link, read under the lock.
  @inlinable @inline(__always)
  internal final func lockedForwardee() -> (forwardee: Delegate?, link: UInt) {
    forwardeeLock.withLock { link in
      _ = forwardeeLockHandOver.load(ordering: .acquiring)
      defer { forwardeeLockHandOver.add(1, ordering: .releasing) }
      return (proxyLink?.value ?? weakForwardee, link)
    }
  }

  /// Sets the forwardee under the lock.
  internal final func setLockedForwardee(_ newValue: Delegate?) {
    // The replaced strong references leave the lock in `replaced` and are released after it:
    // a forwardee's deinitializer may use this proxy.
    var replaced: (link: ProxyLink<Delegate>?, object: AnyObject?) = (nil, nil)
    forwardeeLock.withLock { link in
      _ = forwardeeLockHandOver.load(ordering: .acquiring)
      defer { forwardeeLockHandOver.add(1, ordering: .releasing) }
      let stored = storeForwardee(newValue)
      link = stored.link
      replaced = stored.replaced
    }
    withExtendedLifetime(replaced) {}
  }
}
