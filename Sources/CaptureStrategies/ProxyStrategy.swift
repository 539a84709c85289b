import DelegateProxyKitSupport
import Synchronization

/// Captures by message forwarding: a proxy object of a root class that
/// implements nothing stands in for the real delegate.
///
/// - Selectors the strategy does not capture reach the proxy's
///   forwarding-target hook and go straight to the real delegate (the fast
///   path: no allocation). Captured selectors fall through to the proxy's
///   forward-invocation hook, which builds a ``MessageInvocation``, runs
///   the handlers and invokes the real delegate.
/// - ``RuntimeObject/responds(to:)`` on the proxy answers exactly what the
///   real delegate answers, plus the captured selectors.
/// - Scope: one delegate; nothing about its class changes.
/// - Identity: an ordinary ``ListHost``'s `delegate` becomes the proxy. A
///   host made with `cooperatesWithProxies: true` keeps returning the real
///   delegate and sends through the proxy behind the scenes.
/// - The proxy does not retain the real delegate; the delegate keeps the
///   proxy alive (as an associated object), so both are freed together. The
///   proxy learns of the delegate's death from an associated watcher, so
///   that the forwarding path needs neither a weak load nor a retain. As
///   with Objective-C's unretained delegates, freeing the delegate while
///   another thread is sending through its proxy is not supported.
/// - ``CaptureInstallation/remove()`` stops the capture at once and takes
///   the proxy out of the chain, in any order: the host, or the capture
///   proxy in front of it, forwards past it, and after the last removal the
///   host's delegate is its original object again. If something else was
///   installed in front since (another library's proxy), the proxy stays in
///   that chain as a pure forwarder until the delegate is freed, so the
///   other library keeps working.
public final class ProxyStrategy: CaptureStrategy {
  /// Always ``CaptureStrategyKind/proxy``.
  public var kind: CaptureStrategyKind { .proxy }
  /// The handlers this strategy runs, in order.
  public let handlers: [CaptureHandler]
  let id = makeStrategyID()
  let groups: [RuntimeSelector: GroupList]
  /// Which selector ids are captured; immutable after `init`, freed in
  /// `deinit`, so reading it from any thread is safe.
  nonisolated(unsafe) let capturedIDs: UnsafeMutableBufferPointer<Bool>
  static let noGroups = GroupList([])

  /// Creates a strategy that runs `handlers`.
  ///
  /// - Parameter handlers: The handlers, in order.
  public init(handlers: [CaptureHandler]) {
    self.handlers = handlers
    let groups = HandlerGroup.make(strategyID: id, handlers: handlers).mapValues { GroupList([$0]) }
    self.groups = groups
    let captured = UnsafeMutableBufferPointer<Bool>.allocate(capacity: (groups.keys.map(\.id).max() ?? -1) + 1)
    captured.initialize(repeating: false)
    for selector in groups.keys { captured[selector.id] = true }
    self.capturedIDs = captured
  }

  deinit {
    capturedIDs.deallocate()
  }

  /// The root class every capture proxy is an instance of.
  public static let proxyClass: RuntimeClass = makeProxyClass()

  /// Puts a proxy in front of `object`.
  ///
  /// - Parameters:
  ///   - object: The real delegate.
  ///   - host: The host whose delegate slot gets the proxy (or, for a
  ///     cooperating host, whose interceptor chain does). Without a host,
  ///     send to ``CaptureInstallation/receiver`` yourself.
  /// - Returns: The installation; the same one when installed twice on the
  ///   same object.
  public func install(on object: RuntimeObject, host: ListHost?) throws(CaptureStrategiesError)
    -> any CaptureInstallation
  {
    installProxy(on: object, host: host)
  }

  /// Puts a proxy in front of `object`; see ``install(on:host:)``.
  ///
  /// - Parameters:
  ///   - object: The real delegate.
  ///   - host: The host to reroute, if any.
  /// - Returns: The installation.
  public func installProxy(on object: RuntimeObject, host: ListHost?) -> ProxyInstallation {
    let record: ProxyRecord
    if let existing = object.associatedObject(forKey: id) as? ProxyRecord {
      record = existing
    } else {
      record = ProxyRecord()
      object.setAssociatedObject(record, forKey: id)
    }
    return record.state.withLock { state in
      if let current = state.current, current.isInstalled { return current }
      // The forwardee is read and the proxy put in front of it in one step, so that a removal
      // on another thread cannot unlink the forwardee in between.
      let (proxy, proxyState) = ProxyChain.lock.withLock { _ in
        let forwardee: RuntimeObject
        if let host {
          forwardee = (host.cooperatesWithProxies ? host.messageTarget : host.delegate) ?? object
        } else {
          forwardee = object
        }
        let proxyState = ProxyState(strategy: self, forwardee: forwardee)
        proxyState.watchForwardee()
        let proxy = RuntimeObject(class: Self.proxyClass, payload: proxyState)
        if let host {
          if host.cooperatesWithProxies {
            host.pushInterceptor(proxy)
          } else {
            host.delegate = proxy
          }
        }
        return (proxy, proxyState)
      }
      let installation = ProxyInstallation(proxy: proxy, state: proxyState, host: host, record: record)
      if let previous = state.current { state.passThrough.append(previous.proxy) }
      state.current = installation
      return installation
    }
  }
}

/// One proxy put in front of one delegate.
public final class ProxyInstallation: CaptureInstallation {
  /// Always ``CaptureStrategyKind/proxy``.
  public var kind: CaptureStrategyKind { .proxy }
  /// The proxy object.
  public let proxy: RuntimeObject
  let state: ProxyState
  weak let host: ListHost?
  weak let record: ProxyRecord?

  init(proxy: RuntimeObject, state: ProxyState, host: ListHost?, record: ProxyRecord) {
    self.proxy = proxy
    self.state = state
    self.host = host
    self.record = record
  }

  /// The proxy: send here for the capture to run.
  public var receiver: RuntimeObject? { proxy }

  /// Whether the proxy still captures.
  public var isInstalled: Bool { state.capturing.load(ordering: .acquiring) }

  /// Stops the capture and takes the proxy out of the host's chain.
  ///
  /// Whatever sent to the proxy sends to the proxy's forwardee from now on:
  /// the host, when the proxy is the outermost, or the capture proxy above
  /// it. Proxies of this module can therefore be removed in any order, and
  /// after the last removal the host's delegate is its original object
  /// again. When something else sits in front of the proxy (another
  /// library's proxy, or a delegate set since), the proxy stays in that
  /// chain as a pure forwarder until the delegate is freed.
  ///
  /// - Returns: `false` when already removed.
  @discardableResult
  public func remove() throws(CaptureStrategiesError) -> Bool {
    guard state.capturing.exchange(false, ordering: .acquiringAndReleasing) else { return false }
    let unlink = host.map { ProxyChain.unlink(proxy, state: state, from: $0) } ?? .detachedFromHost
    if let record {
      record.state.withLock { recordState in
        if recordState.current === self { recordState.current = nil }
        // A bypassed proxy is kept until the delegate goes: a send through the proxy above it
        // may have loaded it just before the bypass and still be running in it.
        if unlink != .detachedFromHost { recordState.passThrough.append(proxy) }
      }
    }
    if unlink == .detachedFromHost { state.unwatchForwardee() }
    return true
  }
}

/// The proxies one strategy made for one delegate, kept alive by it.
final class ProxyRecord: Sendable {
  struct State {
    var current: ProxyInstallation?
    /// Removed proxies that another library's proxy may still forward to.
    var passThrough: [RuntimeObject] = []
  }

  let state = SanitizerVisibleMutex(State())
}

private func makeProxyClass() -> RuntimeClass {
  var name = "DPKCaptureProxy"
  var attempt = 1
  var allocated: RuntimeClass?
  while allocated == nil {
    do {
      allocated = try Runtime.allocateClassPair(superclass: nil, name: name)
    } catch {
      attempt += 1
      name = "DPKCaptureProxy\(attempt)"
    }
  }
  let cls = allocated!
  cls.setForwardsToProxyForwardee()
  cls.setForwardInvocation { proxy, invocation in
    guard let state = proxy.payload(as: ProxyState.self) else { return }
    let selector = invocation.selector
    let groups =
      state.captures(selector) ? state.strategy.groups[selector] ?? ProxyStrategy.noGroups : ProxyStrategy.noGroups
    let forwardee = state.forwardee
    try invocation.withMessage { message in
      try groups.run(proxy, &message) { message in
        if let forwardee, forwardee.responds(to: selector) {
          try forwardee.dispatch(&message)
        } else if message.returnType != Void.self {
          throw CaptureStrategiesError.unrecognizedSelector(selector: selector.name, className: cls.name)
        }
      }
    }
  }
  cls.setRespondsToSelector { proxy, selector in
    guard let state = proxy.payload(as: ProxyState.self) else { return false }
    return state.captures(selector) || (state.forwardee?.responds(to: selector) ?? false)
  }
  try? Runtime.registerClassPair(cls)
  return cls
}
