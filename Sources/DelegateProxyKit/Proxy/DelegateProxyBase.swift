internal import CForwardingPath
public import Foundation
import Synchronization

/// The part of every delegate proxy that does not depend on the delegate protocol: its hook
/// registries and the re-entrancy guard.
///
/// Subclass ``DelegateProxy`` (or ``SendableDelegateProxy``) rather than this class. It exists so
/// that code can handle proxies of any protocol alike (`[DelegateProxyBase]`).
///
/// Every proxy is an `NSObject`, on Linux (swift-corelibs-foundation) as on Apple platforms, so
/// a proxy conforms to a delegate protocol that refines `NSObjectProtocol` with nothing more to
/// write: `isEqual(_:)`, `hash`, `description` and the rest of `NSObjectProtocol` are `NSObject`'s
/// own, answered by the proxy and never forwarded. The price is small and paid once: `NSObject`
/// adds no stored property and nothing to a forwarded call, whose path uses only `final` members
/// (see <doc:ProxyBases>). A consequence for plain protocols: a requirement spelled like an
/// `NSObject` member (`var description: String`) is satisfied by `NSObject` in a hand-written
/// proxy, not forwarded, and the generator refuses it with that reason (<doc:GeneratingAProxy>).
///
/// A ``DelegateProxy`` is not `Sendable`: use it from the isolation of its host (the main actor
/// for HeadlessUI hosts). A ``SendableDelegateProxy`` may be used from any thread. The ``hooks``
/// registry is `Sendable` and may be used from any thread in both cases.
open class DelegateProxyBase: NSObject {
  /// The hooks installed on this proxy: the dynamic layer (methods by name, ``Invocation``,
  /// streams), the error handler, and removing every hook at once. Typed hooks installed on the
  /// proxy live here too.
  ///
  /// The registry is `Sendable` and may be used from any thread, while the proxy itself is used
  /// from its host's isolation.
  public let hooks: HookRegistry
  /// The type-wide registry of this proxy's type, cached so calls check it with one atomic load.
  @usableFromInline internal let typeHookRegistry: HookRegistry

  /// The identity bits of the forwardee when it is itself a proxy, 0 otherwise; for a
  /// ``SendableDelegateProxy``, always `ForwardeeLink.shared` (its link is behind its lock). An
  /// atomic so the hot path reads it through a `let` (no dynamic exclusivity check); it is written
  /// only when the forwardee of a plain proxy changes, from the proxy's own isolation.
  @usableFromInline internal let forwardeeProxyLink = Atomic<UInt>(0)
  /// Whether a proxy has ever had this proxy as its forwardee. Until one has, no thread's
  /// forwarding path holds an entry that forwards here, so a hooked call skips reading it. Never
  /// reset: a call may still be on its way in from a link that was just changed.
  @usableFromInline internal let isLinkTarget = Atomic<Bool>(false)

  /// Creates a proxy with no hooks.
  public override init() {
    hooks = HookRegistry(proxyType: Self.self, isTypeWide: false)
    typeHookRegistry = TypeHooks.registry(for: Self.self)
    super.init()
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

  /// Checks the chain that led here for a loop and pushes this proxy, about to forward to `link`,
  /// on `path`, or on the thread's path when the caller does not have it. Returns the path to pop
  /// when the forward returns, or `nil` (and reports) when the call must stop.
  ///
  /// One call does it all, the thread-local read included, so a link of a chain pays one call
  /// into the library for its check.
  @usableFromInline
  internal final func enterChain(
    _ path: ForwardingPath?, link: UInt, method: @autoclosure () -> String
  ) -> ForwardingPath? {
    let path = path ?? ForwardingPath.current
    let me = UInt(bitPattern: ObjectIdentifier(self))
    let type = UInt(bitPattern: ObjectIdentifier(Swift.type(of: self)))
    if path.chain(into: me, type: type).loops || !path.push(proxy: me, type: type, forwardee: link) {
      reportCycle(method())
      return nil
    }
    return path
  }

  /// Decides what a call with hooks installed does: stop (a loop), forward without hooks (a proxy
  /// of this type already ran its hooks further out), or run them; with the thread's forwarding
  /// path when deciding needed it.
  ///
  /// A chain that leads here has an entry on the thread's path whose forwardee is this proxy, and
  /// only a proxy that some proxy has had as its forwardee can be one: for the others the check
  /// would find nothing, so they skip reading the thread-local path.
  @inlinable @inline(__always)
  internal final func planHookedCall(_ method: ProxyMethod) -> (plan: HookedCallPlan, path: ForwardingPath?) {
    guard isLinkTarget.load(ordering: .relaxed) else { return (.run, nil) }
    #if DEBUG
      hooks.forwardingPathReads.wrappingAdd(1, ordering: .relaxed)
    #endif
    let path = ForwardingPath.current
    return (planHookedCall(path, method: method), path)
  }

  /// ``planHookedCall(_:)`` with the thread's forwarding path in hand.
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
  /// published snapshots, without a lock, for a synchronous call: the result is valid on this
  /// thread until ``endReadingHooks(_:)``.
  ///
  /// A registry whose hooked methods do not include `method`'s bit is not read at all: the
  /// call then behaves as if it started before that registry's next hook was installed. When
  /// either is read, the thread's reader record announces the read (``HookReaders``): no shared
  /// memory is written.
  @inlinable @inline(__always)
  internal final func beginReadingHooks(for method: ProxyMethod) -> CallHooks {
    let bit = method.hookBit
    let readsTypeWide = typeHookRegistry.hookedMask.load(ordering: .relaxed) & bit != 0
    let readsInstance = hooks.hookedMask.load(ordering: .relaxed) & bit != 0
    guard readsTypeWide || readsInstance else { return CallHooks(typeWide: nil, instance: nil) }
    return readHooks(of: method, typeWide: readsTypeWide, instance: readsInstance)
  }

  /// ``beginReadingHooks(for:)`` once a registry is known to be read: each snapshot read is
  /// protected by a slot of the thread's reader record. Out of line: the record is C thread-local
  /// state that the inlined forwarding paths cannot reach. Calls nested deeper than the record's
  /// slots hold their snapshots as `async` calls do.
  @usableFromInline
  internal final func readHooks(of method: ProxyMethod, typeWide readsTypeWide: Bool, instance readsInstance: Bool)
    -> CallHooks
  {
    let count: UInt64 = readsTypeWide && readsInstance ? 2 : 1
    let reserved = dpk_hook_reserve(count)
    guard reserved >= 0 else { return beginHoldingHooks(for: method) }
    let first = UInt64(reserved)
    let id = UInt(bitPattern: ObjectIdentifier(method))
    let typeWide = readsTypeWide ? typeHookRegistry.protectPublished(slot: first) : nil
    let instance = readsInstance ? hooks.protectPublished(slot: readsTypeWide ? first + 1 : first) : nil
    return CallHooks(
      typeWide: typeWide?._withUnsafeGuaranteedRef { $0.hooks(for: id) },
      instance: instance?._withUnsafeGuaranteedRef { $0.hooks(for: id) }, threadSlots: UInt8(truncatingIfNeeded: count))
  }

  /// Ends a read started by ``beginReadingHooks(for:)``, on the thread that started it.
  @inlinable @inline(__always)
  internal final func endReadingHooks(_ hooks: CallHooks) {
    if hooks.needsEnd { finishReadingHooks(hooks) }
  }

  /// ``endReadingHooks(_:)`` for a call that read a registry: releases its slots, or its holds.
  @usableFromInline
  internal final func finishReadingHooks(_ hooks: CallHooks) {
    if hooks.threadSlots != 0 {
      HookReaders.endRead(Int(hooks.threadSlots))
    } else {
      endHoldingHooks(hooks)
    }
  }

  /// Starts holding the hooks of `method` for an `async` call, whose awaits may end on another
  /// thread than the one that started it: each registry read counts the call among its holders.
  /// The result is valid until ``endHoldingHooks(_:)``.
  @inlinable @inline(__always)
  internal final func beginHoldingHooks(for method: ProxyMethod) -> CallHooks {
    let id = UInt(bitPattern: ObjectIdentifier(method))
    let bit = method.hookBit
    let typeWide = typeHookRegistry.hookedMask.load(ordering: .relaxed) & bit != 0 ? typeHookRegistry.beginHold() : nil
    let instance = hooks.hookedMask.load(ordering: .relaxed) & bit != 0 ? hooks.beginHold() : nil
    return CallHooks(
      typeWide: typeWide?._withUnsafeGuaranteedRef { $0.hooks(for: id) },
      instance: instance?._withUnsafeGuaranteedRef { $0.hooks(for: id) }, holdsTypeWide: typeWide != nil,
      holdsInstance: instance != nil)
  }

  /// Ends a hold started by ``beginHoldingHooks(for:)``.
  @inlinable @inline(__always)
  internal final func endHoldingHooks(_ hooks: CallHooks) {
    if hooks.holdsTypeWide { typeHookRegistry.endHold() }
    if hooks.holdsInstance { self.hooks.endHold() }
  }

  /// Runs a string-keyed before or after hook, or feeds a stream.
  ///
  /// Inlined into the reifying paths, so that a hook's body is called straight from the call;
  /// the rarer parts (a failure to report, a stream to feed) stay out of line.
  @inlinable @inline(__always)
  internal final func runInvocationHook(_ entry: HookEntry, _ invocation: Invocation) {
    guard entry.invocationBody != nil else { return feedStream(entry, invocation) }
    do {
      // Called through the entry, not bound to a local: a local costs a retain and a release.
      try entry.invocationBody?(invocation)
    } catch {
      reportHookFailure(entry, invocation.selector, error)
    }
  }

  /// Reports that the string-keyed hook `entry` threw `error`.
  @usableFromInline
  internal final func reportHookFailure(_ entry: HookEntry, _ selector: String, _ error: any Error) {
    report(.hookFailed(selector: selector, position: entry.position, message: String(describing: error)))
  }

  /// Feeds `invocation` to the stream of `entry`, if it has one.
  @usableFromInline
  internal final func feedStream(_ entry: HookEntry, _ invocation: Invocation) {
    entry.stream?.yield(invocation)
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

  #if canImport(ObjectiveC)
    // Apple platforms only, and NOT VERIFIED: this package is built and tested on Linux, where
    // these members do not exist. They let a proxy of an `@objc` protocol with `@objc optional`
    // requirements answer the Objective-C runtime as its forwardee would.

    /// The Objective-C selectors of the protocol's `@objc optional` requirements, each with the
    /// method of the table that forwards it. Apple platforms only; not verified.
    ///
    /// A host such as `URLSession` or `UITableView` asks its delegate `responds(to:)` before it
    /// calls an optional method, and behaves differently when the answer is no. A proxy
    /// implements every requirement, so for the selectors listed here ``responds(to:)`` answers
    /// like the forwardee instead — or yes when the method is hooked, so that a hook on a method
    /// the delegate does not implement still fires. A generated proxy of such a protocol lists
    /// them:
    ///
    /// ```swift
    /// override class var optionalRequirements: [Selector: ProxyMethod] {
    ///   [#selector(NSCacheDelegate.cache(_:willEvictObject:)): methods.willEvictObject]
    /// }
    /// ```
    open class var optionalRequirements: [Selector: ProxyMethod] { [:] }

    /// The forwardee as an object, for the runtime's questions; ``DelegateProxy`` provides it.
    internal var forwardeeObject: AnyObject? { nil }

    /// Whether the proxy answers `selector`: for an `@objc optional` requirement listed in
    /// ``optionalRequirements``, whether the forwardee does or the method is hooked; for any
    /// other selector, whether the proxy or its forwardee does. Apple platforms only; not verified.
    ///
    /// - Parameter selector: The selector the runtime asks about.
    /// - Returns: Whether a message with this selector will be handled.
    open override func responds(to selector: Selector!) -> Bool {
      if let method = type(of: self).optionalRequirements[selector] {
        return forwardeeResponds(to: selector) || hookedMethods & method.hookBit != 0
      }
      return super.responds(to: selector) || forwardeeResponds(to: selector)
    }

    /// The forwardee, for a selector the proxy does not implement but its forwardee does — a
    /// requirement of the protocol that the proxy's table leaves out, or a method outside the
    /// protocol the host calls anyway; such a call is not hooked. Apple platforms only; not
    /// verified.
    ///
    /// - Parameter selector: The selector of a message the proxy does not implement.
    /// - Returns: The object the runtime sends the message to instead.
    open override func forwardingTarget(for selector: Selector!) -> Any? {
      if let object = forwardeeObject, forwardeeResponds(to: selector) { return object }
      return super.forwardingTarget(for: selector)
    }

    private func forwardeeResponds(to selector: Selector) -> Bool {
      (forwardeeObject as? any NSObjectProtocol)?.responds(to: selector) ?? false
    }
  #endif
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
