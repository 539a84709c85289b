/// A proxy that the compiler knows to be its delegate: what the install APIs take.
///
/// A proxy stands in for its delegate only if it conforms to the delegate protocol. Swift cannot
/// state that as a generic constraint (`Proxy: Delegate`, where `Delegate` is itself a generic
/// parameter such as `any ListViewDelegate`), so the proxy states it once, as a property that
/// returns `self`:
///
/// ```swift
/// final class DownloadDelegateProxy: DelegateProxy<any DownloadDelegate>, TypedDelegateProxy,
///   DelegateConvertible
/// {
///   // the method table …
///   var asDelegate: any DownloadDelegate { self }
/// }
/// ```
///
/// That line compiles only where the proxy conforms to its delegate protocol, and
/// ``DelegateHosting/installProxy(_:)`` and ``DelegateSlot/install(_:asGuest:make:)`` accept only
/// proxies that adopt this protocol for their host's delegate type: a proxy that does not conform
/// is refused by the compiler, where the call is written, instead of at run time. The proxy
/// generator writes the line. A proxy generic over a concrete forwardee type (for a protocol with
/// associated types) is not its delegate type, so it cannot adopt this protocol and cannot be
/// installed on a slot.
public protocol DelegateConvertible: DelegateProxyBase {
  /// The delegate protocol, as an existential: `any DownloadDelegate`. ``DelegateProxy`` names it.
  associatedtype ProxiedDelegate

  /// This proxy as its delegate protocol: `self`.
  var asDelegate: ProxiedDelegate { get }
}
