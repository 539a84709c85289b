/// A proxy for a delegate protocol that refines `Sendable`: typed hooks with `@Sendable`
/// closures, installable from any thread.
///
/// Adopt it, in place of ``TypedDelegateProxy``, on a subclass of ``SendableDelegateProxy``:
///
/// ```swift
/// final class TickerDelegateProxy: SendableDelegateProxy<any TickerDelegate>, SendableTypedDelegateProxy,
///   @unchecked Sendable
/// {
///   struct Methods: DelegateMethodTable { let tick = DelegateMethod<Int, Void>("tick(_:)") }
///   static let methods = Methods()
///   // one `forward` per method, as for any proxy …
/// }
///
/// let proxy = TickerDelegateProxy(forwardee: ticker)
/// let ticks = Counter()                                   // a Sendable counter
/// Task.detached {
///   let token = proxy.hookAfter(\.tick) { count in ticks.add(count) }   // a @Sendable closure
///   …
///   token.remove()
/// }
/// ```
///
/// The instance methods are those of ``TypedDelegateProxy`` — the same names, positions, key paths
/// and `once:` option, and the same order of hooks for one call — but their closures are
/// `@Sendable`, because the host of a `Sendable` delegate may call the proxy on any thread, and on
/// several at once. The hooks on every proxy of the type and the streams of calls come from
/// ``MethodTableProxy``, as for any typed proxy. A proxy adopts one of the two protocols, never
/// both.
///
/// The hook methods are generated from ``TypedDelegateProxy``'s by `.ci/generate-arity-paths`
/// (`Generated/SendableTypedDelegateProxy+Hooks.swift`).
///
/// Installing a hook on a proxy that adopts this protocol but does not derive from
/// ``SendableDelegateProxy`` stops the program: its forwardee would not be safe to share.
public protocol SendableTypedDelegateProxy: MethodTableProxy, Sendable {}

extension SendableTypedDelegateProxy {
  /// Hooks run on any thread; only a ``SendableDelegateProxy`` reads its forwardee safely there.
  @usableFromInline
  static func requireSendableDelegateProxy() {
    precondition(
      Self.self is SendableDelegateProxy<ProxiedDelegate>.Type,
      "\(Self.self) adopts SendableTypedDelegateProxy but is not a SendableDelegateProxy<\(ProxiedDelegate.self)>")
  }
}
