import DelegateProxyKitSupport
import Synchronization

/// A proxy's per-instance state, stored as its payload.
final class ProxyState: Sendable {
  /// The object the proxy forwards to, unretained (the forwardee keeps the
  /// proxy alive, not the other way round); `nil` once it has been freed.
  /// Changes when a proxy below this one leaves the chain (``relink(to:)``).
  let forwardeeSlot: Atomic<Unmanaged<RuntimeObject>?>
  let strategy: ProxyStrategy
  /// `strategy.capturedIDs`, read without going through the strategy
  /// (which `strategy` keeps alive).
  nonisolated(unsafe) let capturedIDs: UnsafeMutableBufferPointer<Bool>
  let capturing = Atomic<Bool>(true)
  let watchKey = makeStrategyID()

  init(strategy: ProxyStrategy, forwardee: RuntimeObject) {
    self.strategy = strategy
    self.capturedIDs = strategy.capturedIDs
    self.forwardeeSlot = Atomic(Unmanaged.passUnretained(forwardee))
  }

  /// Attaches the watcher that clears the forwardee when it dies.
  func watchForwardee() {
    guard let forwardee else { return }
    forwardee.setAssociatedObject(ForwardeeWatch(self, watching: forwardee), forKey: watchKey)
  }

  /// Detaches the watcher (when the proxy leaves the chain).
  func unwatchForwardee() {
    if let forwardee { forwardee.setAssociatedObject(nil, forKey: watchKey) }
  }

  /// The forwardee, or `nil` once it has been freed.
  var forwardee: RuntimeObject? {
    forwardeeSlot.load(ordering: .acquiring)?.takeUnretainedValue()
  }

  /// Forwards to `target` from now on: the proxy this one forwarded to was
  /// removed, and `target` is what that proxy forwarded to.
  func relink(to target: RuntimeObject?) {
    let old = forwardeeSlot.exchange(target.map { Unmanaged.passUnretained($0) }, ordering: .acquiringAndReleasing)
    // The old watcher, released here, finds the slot changed and leaves it alone.
    old?.takeUnretainedValue().setAssociatedObject(nil, forKey: watchKey)
    target?.setAssociatedObject(ForwardeeWatch(self, watching: target!), forKey: watchKey)
  }

  /// Where a capture proxy sends `selector` on the fast path: its forwardee,
  /// unretained, when the proxy does not capture the selector; `nil` when it
  /// does, when the forwardee is gone, or when `proxy` has no proxy state
  /// (forward-invocation then decides).
  @inline(__always)
  static func fastForwardee(of proxy: RuntimeObject, for selector: RuntimeSelector) -> Unmanaged<RuntimeObject>? {
    guard let state = proxy.proxyState else { return nil }
    return state._withUnsafeGuaranteedRef { state in
      guard !state.captures(selector) else { return nil }
      return state.forwardeeSlot.load(ordering: .acquiring)
    }
  }

  @inline(__always)
  func captures(_ selector: RuntimeSelector) -> Bool {
    selector.id < capturedIDs.count && capturedIDs[selector.id] && capturing.load(ordering: .relaxed)
  }
}

/// Associated with a proxy's forwardee; clears the proxy's forwardee when
/// that object dies.
final class ForwardeeWatch: Sendable {
  let state: ProxyState
  /// The watched object's address (it is never dereferenced).
  let watched: UInt

  init(_ state: ProxyState, watching object: RuntimeObject) {
    self.state = state
    self.watched = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
  }

  deinit {
    let current = state.forwardeeSlot.load(ordering: .acquiring)
    guard let current, UInt(bitPattern: current.toOpaque()) == watched else { return }
    _ = state.forwardeeSlot.compareExchange(expected: current, desired: nil, ordering: .acquiringAndReleasing)
  }
}

/// Where a removed proxy was in its host's chain.
enum ProxyUnlink {
  /// The host sent to it directly; the host now sends to its forwardee.
  case detachedFromHost
  /// Another capture proxy forwarded to it; that proxy now forwards to its forwardee.
  case bypassed
  /// Neither (another library's proxy, or a delegate set since, is in front
  /// of it): it stays in the chain as a pure forwarder.
  case notFound
}

/// Edits of hosts' proxy chains, one at a time.
enum ProxyChain {
  static let lock = SanitizerVisibleMutex(())

  /// Takes `proxy` out of `host`'s chain: the object that sent to it (the
  /// host or a capture proxy above it) sends to `state`'s forwardee instead.
  static func unlink(_ proxy: RuntimeObject, state: ProxyState, from host: ListHost) -> ProxyUnlink {
    lock.withLock { _ in
      let forwardee = state.forwardee
      let top = host.cooperatesWithProxies ? host.messageTarget : host.delegate
      if top === proxy {
        if host.cooperatesWithProxies {
          _ = host.removeInterceptor(proxy)
        } else {
          host.delegate = forwardee
        }
        return .detachedFromHost
      }
      var current = top
      while let above = current, let aboveState = above.payload(as: ProxyState.self) {
        let next = aboveState.forwardee
        if next === proxy {
          aboveState.relink(to: forwardee)
          if host.cooperatesWithProxies { _ = host.removeInterceptor(proxy) }
          return .bypassed
        }
        current = next
      }
      return .notFound
    }
  }
}
