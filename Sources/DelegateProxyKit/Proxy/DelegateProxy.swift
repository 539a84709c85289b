import Synchronization

/// A proxy that conforms to a delegate protocol and forwards every call to the real delegate.
///
/// Subclass it once per protocol: declare the protocol's methods once as a
/// ``DelegateMethodTable`` (adopting ``TypedDelegateProxy``) and write each method as one call to
/// `forward`, which passes the call on unchanged — its result, or its error — and runs any hooks:
///
/// ```swift
/// final class DownloadDelegateProxy: DelegateProxy<any DownloadDelegate>, TypedDelegateProxy, DelegateConvertible {
///   struct Methods: DelegateMethodTable {
///     let didFinish = DelegateMethod<URL, Void>("downloadDidFinish(_:)")
///     let shouldRetry = DelegateMethod<URL, Int, Bool>("shouldRetry(_:attempt:)")
///   }
///   static let methods = Methods()
///   var asDelegate: any DownloadDelegate { self }   // for the install APIs
/// }
///
/// extension DownloadDelegateProxy: DownloadDelegate {
///   func downloadDidFinish(_ url: URL) { forward(Self.methods.didFinish, url) { $0.downloadDidFinish($1) } }
///   func shouldRetry(_ url: URL, attempt: Int) -> Bool {
///     forward(Self.methods.shouldRetry, url, attempt, orElse: true) { $0.shouldRetry($1, attempt: $2) }
///   }
/// }
/// ```
///
/// The forwardee is held weakly, like a UIKit delegate, unless the proxy was created with
/// `retainsForwardee: true`. With no forwardee, a method returns what the host would have
/// seen with no delegate at all: nothing for `Void`, else the `orElse` value (`nil` for an
/// `Optional` result that lets the host use its default).
///
/// The base holds the forwardee itself, weakly or strongly: a subclass declares no storage. A
/// forwardee that is not a class instance (a struct behind a protocol that is not class-bound)
/// has no weak reference to it, so it stays only while the proxy retains it.
///
/// - Complexity: With no hooks installed and a forwardee that is not itself a proxy, a forwarded
///   call performs three relaxed atomic loads, one weak load and the call: no allocation, no
///   lock, no dynamic cast. With typed hooks installed it adds a lock-free read of the published
///   hooks and the hooks' own calls; on the synchronous path that allocates nothing either. For a
///   method of up to six arguments the forwardee's closure and each typed before or after hook are
///   called at the method's arity; with seven or more, each such call also builds a parameter
///   pack (a copy of the arguments, a retain per class argument).
open class DelegateProxy<Delegate>: DelegateProxyBase {
  /// The delegate protocol, for ``TypedDelegateProxy`` and ``DelegateConvertible``.
  public typealias ProxiedDelegate = Delegate

  /// The forwardee as an object, held strongly when the proxy retains its forwardee. It keeps the
  /// object behind the weak reference alive (for a value, the box that reference points at).
  private var retainedForwardeeObject: AnyObject?
  private let retainsForwardee: Bool
  /// The forwardee when it is itself a proxy, held strongly (see ``forwardee``) in a box of its
  /// own. A strong reference keeps the linked proxy free of a weak-reference side table; the box
  /// lets the synchronous forwarding path call it borrowed, through ``proxyLinkPointer``, without
  /// retaining it. A link replaced while a forward runs on this thread is parked on the thread's
  /// forwarding path until the forward returns (see ``forwardee``'s setter).
  @exclusivity(unchecked) @usableFromInline internal final var proxyLink: ProxyLink<Delegate>?
  /// ``proxyLink`` unretained, for the forwarding path; set and cleared with it.
  @exclusivity(unchecked) @usableFromInline internal final var proxyLinkPointer: UnsafeMutableRawPointer?
  /// The forwardee when it is a delegate, held weakly. Written only where the forwardee is written
  /// (from the proxy's isolation, or under the lock of a ``SendableDelegateProxy``).
  @usableFromInline internal final let weakForwardeeReference = WeakReference<Delegate>()

  /// Creates a proxy.
  ///
  /// - Parameters:
  ///   - forwardee: The real delegate calls are forwarded to.
  ///   - retainsForwardee: Whether the proxy keeps the forwardee alive. By default it does not.
  public init(forwardee: Delegate? = nil, retainsForwardee: Bool = false) {
    self.retainsForwardee = retainsForwardee
    super.init()
    if let forwardee { self.forwardee = forwardee }
  }

  /// The forwardee when it is a delegate held weakly: `nil` once the delegate is gone.
  ///
  /// Read and write ``forwardee`` instead; it keeps the proxy's bookkeeping in step.
  @inlinable @inline(__always)
  internal final var weakForwardee: Delegate? { weakForwardeeReference.value }

  /// The real delegate that calls are forwarded to.
  ///
  /// Set it from the isolation the proxy is used in (a ``DelegateSlot`` does this for hosts); a
  /// ``SendableDelegateProxy`` takes it from any thread. A delegate is held weakly (strongly with
  /// `retainsForwardee`); a forwardee that is itself a proxy is held strongly, as links of a chain
  /// are: do not link proxies into a loop — the loop is stopped at call time, but its proxies keep
  /// each other alive until a forwardee is reset.
  public final var forwardee: Delegate? {
    get {
      if forwardeeProxyLink.load(ordering: .relaxed) == ForwardeeLink.shared {
        return sharedProxy.lockedForwardee().forwardee
      }
      return proxyLink?.value ?? weakForwardee
    }
    set {
      if forwardeeProxyLink.load(ordering: .relaxed) == ForwardeeLink.shared {
        sharedProxy.setLockedForwardee(newValue)
      } else {
        let stored = storeForwardee(newValue)
        forwardeeProxyLink.store(stored.link, ordering: .relaxed)
        // A forward running on this thread (this proxy's, or one further out that is calling
        // through it) may be inside the proxy it linked to, borrowed: keep that proxy alive
        // until the forward returns. The forwardee is set from the proxy's own isolation, so
        // such a forward can only be on this thread.
        if let replacedLink = stored.replaced.link { ForwardingPath.current.keepUntilUnwound(replacedLink) }
      }
    }
  }

  /// Stores a new forwardee in the proxy's storage and returns its proxy link (0 for a delegate)
  /// with the strong references it replaced, for the caller to release: a ``SendableDelegateProxy``
  /// calls it under its lock and releases them after, so no deinitializer runs under the lock.
  internal final func storeForwardee(
    _ newValue: Delegate?
  ) -> (link: UInt, replaced: (link: ProxyLink<Delegate>?, object: AnyObject?)) {
    let replaced = (proxyLink, retainedForwardeeObject)
    if let newValue, let proxy = (newValue as AnyObject) as? DelegateProxyBase {
      // Before the link is published (below, or under a `SendableDelegateProxy`'s lock), so a
      // call that comes in through it sees the flag.
      proxy.isLinkTarget.store(true, ordering: .relaxed)
      let link = ProxyLink(newValue)
      proxyLink = link
      proxyLinkPointer = Unmanaged.passUnretained(link).toOpaque()
      _ = weakForwardeeReference.store(nil)
      retainedForwardeeObject = nil
      return (UInt(bitPattern: ObjectIdentifier(proxy)), replaced)
    }
    proxyLink = nil
    proxyLinkPointer = nil
    let object = weakForwardeeReference.store(newValue)
    retainedForwardeeObject = retainsForwardee ? object : nil
    return (0, replaced)
  }

  #if canImport(ObjectiveC)
    // Apple platforms only; not verified (see `DelegateProxyBase.optionalRequirements`).
    override internal var forwardeeObject: AnyObject? { forwardee.map { $0 as AnyObject } }
  #endif

  /// This proxy as the ``SendableDelegateProxy`` it is: only one of those has
  /// ``ForwardeeLink/shared`` in its ``forwardeeProxyLink``, so check that first.
  @inlinable @inline(__always)
  internal final var sharedProxy: SendableDelegateProxy<Delegate> {
    unsafeDowncast(self, to: SendableDelegateProxy<Delegate>.self)
  }
}

/// Values of ``DelegateProxyBase/forwardeeProxyLink`` that are not a proxy's identity.
@usableFromInline
internal enum ForwardeeLink {
  /// A ``SendableDelegateProxy``: its forwardee and link live behind its lock. No object is at
  /// address 1, so this never collides with a proxy's identity.
  @inlinable static var shared: UInt { 1 }
}
