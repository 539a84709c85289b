import Synchronization

/// The part of every delegate proxy that does not depend on the delegate protocol: its hook
/// registries and the re-entrancy guard.
///
/// Subclass ``DelegateProxy`` rather than this class. It exists so that code can handle proxies
/// of any protocol alike (`[DelegateProxyBase]`).
///
/// Proxies are not `Sendable`: use a proxy from the isolation of its host (the main actor for
/// HeadlessUI hosts). Its ``hooks`` registry is `Sendable` and may be used from any thread.
open class DelegateProxyBase {
  /// The hooks installed on this proxy: the dynamic layer (methods by name, ``Invocation``,
  /// streams), the error handler, and removing every hook at once. Typed hooks installed on the
  /// proxy live here too.
  ///
  /// The registry is `Sendable` and may be used from any thread, while the proxy itself is used
  /// from its host's isolation.
  public let hooks: HookRegistry
  /// The type-wide registry of this proxy's type, cached so calls check it with one atomic load.
  @usableFromInline internal let typeHookRegistry: HookRegistry

  /// The identity bits of the forwardee when it is itself a proxy, 0 otherwise. An atomic so the
  /// hot path reads it through a `let` (no dynamic exclusivity check); it is written only when
  /// the forwardee changes, from the proxy's own isolation.
  @usableFromInline internal let forwardeeProxyLink = Atomic<UInt>(0)

  /// Creates a proxy with no hooks.
  public init() {
    hooks = HookRegistry(proxyType: Self.self, isTypeWide: false)
    typeHookRegistry = TypeHooks.registry(for: Self.self)
  }

  deinit {
    hooks.invalidate()
  }

  /// The type-wide hook registry of this proxy type: the dynamic layer for every proxy of the type
  /// (string-keyed hooks, streams), and the error handler proxies of the type fall back on.
  ///
  /// Typed type-wide hooks are installed with the static methods of ``TypedDelegateProxy``
  /// (`hookBefore(_:once:_:)` and its siblings) and live here too. Type-wide hooks run before a
  /// proxy's own hooks at the same position. Each class has its own registry, which lives as long
  /// as the process.
  public class var typeHooks: HookRegistry { TypeHooks.registry(for: self) }

  // MARK: Non-generic pieces of the forwarding path

  /// This proxy's identity, as the re-entrancy guards record it.
  @usableFromInline
  internal final var identityBits: UInt { UInt(bitPattern: ObjectIdentifier(self)) }

  /// This proxy's type's identity, as the re-entrancy guards record it.
  @usableFromInline
  internal final var typeIdentityBits: UInt { UInt(bitPattern: ObjectIdentifier(Swift.type(of: self))) }

  /// The `hookBit`s of the methods hooked on this proxy or its type: two relaxed atomic loads.
  @inlinable
  internal final var hookedMethods: UInt64 {
    hooks.hookedMask.load(ordering: .relaxed) | typeHookRegistry.hookedMask.load(ordering: .relaxed)
  }

  /// Checks the chain that led here for a loop and pushes this proxy, about to forward to `link`.
  /// Returns `false` (and reports) when the call must stop.
  @usableFromInline
  internal final func enterChain(_ path: ForwardingPath, link: UInt, method: @autoclosure () -> String) -> Bool {
    let me = UInt(bitPattern: ObjectIdentifier(self))
    let type = UInt(bitPattern: ObjectIdentifier(Swift.type(of: self)))
    if path.chain(into: me, type: type).loops || !path.push(proxy: me, type: type, forwardee: link) {
      reportCycle(method())
      return false
    }
    return true
  }

  /// Decides what a call with hooks installed does: stop (a loop), forward without hooks (a proxy
  /// of this type already ran its hooks further out), or run them.
  @usableFromInline
  internal final func planHookedCall(_ path: ForwardingPath, method: ProxyMethod) -> HookedCallPlan {
    let chain = path.chain(
      into: UInt(bitPattern: ObjectIdentifier(self)), type: UInt(bitPattern: ObjectIdentifier(Swift.type(of: self))))
    if chain.loops {
      reportCycle(method.selector)
      return .stop
    }
    return chain.sameType ? .forward : .run
  }

  /// Starts reading the hooks of `method` on this proxy's type and on this proxy, from the
  /// published snapshots, without a lock. The result is valid until ``endReadingHooks(_:)``.
  @usableFromInline
  internal final func beginReadingHooks(for method: ProxyMethod) -> CallHooks {
    let id = UInt(bitPattern: ObjectIdentifier(method))
    let typeWide = typeHookRegistry.beginRead()
    let instance = hooks.beginRead()
    return CallHooks(
      typeWide: typeWide?._withUnsafeGuaranteedRef { $0.hooks(for: id) },
      instance: instance?._withUnsafeGuaranteedRef { $0.hooks(for: id) }, readsTypeWide: typeWide != nil,
      readsInstance: instance != nil)
  }

  /// Ends a read started by ``beginReadingHooks(for:)``.
  @usableFromInline
  internal final func endReadingHooks(_ hooks: CallHooks) {
    if hooks.readsTypeWide { typeHookRegistry.endRead() }
    if hooks.readsInstance { self.hooks.endRead() }
  }

  /// Runs a string-keyed before or after hook, or feeds a stream.
  @usableFromInline
  internal final func runInvocationHook(_ entry: HookEntry, _ invocation: Invocation) {
    if let body = entry.invocationBody {
      do {
        try body(invocation)
      } catch {
        report(.hookFailed(selector: invocation.selector, position: entry.position, message: String(describing: error)))
      }
    } else if let stream = entry.stream {
      stream.yield(invocation)
    }
  }

  /// Runs a string-keyed instead hook's body.
  @usableFromInline
  internal final func runInsteadCallBody(_ entry: HookEntry, _ call: InsteadCall) {
    guard let body = entry.insteadCallBody else { return }
    do {
      try body(call)
    } catch {
      report(.hookFailed(selector: call.invocation.selector, position: .instead, message: String(describing: error)))
    }
  }

  @usableFromInline
  internal final func reportCycle(_ selector: String) {
    hooks.report(.forwardingCycle(selector: selector, proxyType: String(describing: Swift.type(of: self))))
  }

  @usableFromInline
  internal final func report(_ error: DelegateProxyError) {
    hooks.report(error)
  }
}

/// What a call with hooks installed does.
@usableFromInline
internal enum HookedCallPlan {
  /// Stop: the call went round a loop of proxies; the host gets its default.
  case stop
  /// Forward without running hooks.
  case forward
  /// Run the hooks around the call.
  case run
}
