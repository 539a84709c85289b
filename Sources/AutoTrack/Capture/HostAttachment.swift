import DelegateProxyKit
import HeadlessUI

/// AutoTrack's typed hooks on one host, and how to take them off again.
///
/// The hooks sit on the host's standard HeadlessUI proxy (`ListViewDelegateProxy` & co.). When the
/// app or another library already installed that proxy on the host's slot, AutoTrack shares it;
/// otherwise AutoTrack installs it. Detaching removes AutoTrack's hooks only, then takes the proxy off
/// the host when AutoTrack installed it and no one else's hooks are on it, so the host is as it was.
@MainActor
struct HostAttachment {
  /// How the proxy carrying the hooks came to be on the host.
  enum ProxyOrigin {
    /// Someone else installed it; it stays when the hooks go.
    case shared
    /// The tracker installed it; the closure takes it off the host unless others hooked it since.
    case installed(uninstall: @MainActor () -> Void)
  }

  /// The host the hooks are on.
  private weak var host: AnyObject?
  /// The tracker's hooks.
  let tokens: [HookToken]
  /// Whether the proxy was there before.
  let origin: ProxyOrigin

  /// Attaches hooks to a host's proxy of type `Proxy`, installing the proxy when the host has none.
  ///
  /// - Parameters:
  ///   - host: The host.
  ///   - make: Creates the proxy when it must be installed.
  ///   - hooks: Installs the hooks on the proxy and returns their tokens.
  static func attach<Host: DelegateHosting, Proxy: DelegateProxy<Host.Delegate> & TypedDelegateProxy>(
    to host: Host, installing make: @autoclosure () -> Proxy,
    hooks: (Proxy) throws(DelegateProxyError) -> [HookToken]
  ) -> HostAttachment {
    let existing = host.installedProxy(ofType: Proxy.self)
    let proxy: Proxy
    let tokens: [HookToken]
    do {
      proxy = try existing ?? host.installProxy(make())
      tokens = try hooks(proxy)
    } catch {
      // HeadlessUI's proxies conform to their hosts' protocols and declare their methods correctly,
      // so neither step can fail; a failure here is a bug in HeadlessUI, not bad input.
      preconditionFailure("AutoTrack could not hook \(Proxy.self): \(error)")
    }
    let origin: ProxyOrigin
    if existing != nil {
      origin = .shared
    } else {
      // The proxy is held strongly: a weak reference would give it a side table, and every retain on
      // the forwarding path would take the slow way. The slot holds it as long anyway.
      origin = .installed { [weak host] in
        guard let host, proxy.hooks.isEmpty else { return }
        host.removeProxy(proxy)
      }
    }
    return HostAttachment(host: host, tokens: tokens, origin: origin)
  }

  /// Whether the host still exists; the hooks of a host that is gone went with its proxy.
  var isHostAlive: Bool { host != nil }

  /// Whether the hooks are on `host`.
  func isAttached(to host: AnyObject) -> Bool { self.host === host }

  /// Removes the tracker's hooks and, when the tracker installed the proxy and nobody else hooked it,
  /// the proxy.
  func detach() {
    for token in tokens {
      // A proxy that is gone took the hook with it.
      _ = try? token.remove()
    }
    if case .installed(let uninstall) = origin { uninstall() }
  }
}
