import DelegateProxyKit
import HeadlessUI

/// AutoTrack's typed hooks on one host, kept on whatever proxy of their type the host's slot holds.
///
/// The hooks sit on the host's standard HeadlessUI proxy (`ListViewDelegateProxy` & co.), so one
/// call passes one proxy of the type and runs every hook once. When the app or another library
/// installed that proxy, AutoTrack shares it; otherwise AutoTrack installs it as the slot's *guest*:
/// an install of the type by anyone else replaces the guest proxy, and the host behaves as it would
/// without AutoTrack.
///
/// The attachment watches the slot. Whenever the proxy carrying the hooks leaves the chain (the app
/// removed or replaced it, emptied the slot, or took the guest's place), the hooks come off that
/// proxy, so a proxy the app installs again later does not bring them back, and go onto the proxy of
/// the type now installed, or onto a new guest proxy. Each call is therefore captured once, whatever
/// the app does with the slot. ``detach()`` stops the watching, removes the hooks, and takes off a
/// guest proxy nobody else hooked, so the slot is as the app has it.
@MainActor
final class HostAttachment {
  /// The host the hooks are on.
  private weak var host: AnyObject?
  /// Puts the hooks on the host's current proxy of the type; runs whenever they are off it.
  private let reattach: @MainActor (HostAttachment) -> Void
  /// Stops watching the slot and takes a guest proxy nobody else hooked off it.
  private var release: @MainActor (HostAttachment) -> Void = { _ in }
  /// The proxy carrying the hooks, and the hooks.
  private var proxy: DelegateProxyBase?
  private var tokens: [HookToken] = []

  private init(host: AnyObject, reattach: @escaping @MainActor (HostAttachment) -> Void) {
    self.host = host
    self.reattach = reattach
  }

  /// Attaches hooks to a host's proxy of type `Proxy`, installing it as a guest when the host has none,
  /// and keeps them there until ``detach()``.
  ///
  /// - Parameters:
  ///   - host: The host.
  ///   - make: Creates the proxy when one must be installed.
  ///   - hooks: Installs the hooks on the proxy and returns their tokens.
  static func attach<
    Host: DelegateHosting, Proxy: DelegateProxy<Host.Delegate> & TypedDelegateProxy & DelegateConvertible
  >(
    to host: Host, installing make: @escaping @MainActor () -> Proxy,
    hooks: @escaping @MainActor (Proxy) -> [HookToken]
  ) -> HostAttachment where Proxy.ProxiedDelegate == Host.Delegate {
    let attachment = HostAttachment(
      host: host,
      reattach: { [weak host] attachment in
        guard let host else { return }
        if let current = attachment.proxy, host.delegateSlot.contains(current) { return }
        attachment.removeHooks()
        // As `installProxy(_:)` does: the slot ends the chain at the host's delegate of now.
        host.delegateSlot.delegateDidChange(to: host.hostedDelegate)
        let proxy = host.delegateSlot.install(Proxy.self, asGuest: true, make: make)
        attachment.proxy = proxy
        attachment.tokens = hooks(proxy)
      })
    attachment.reattach(attachment)
    let observer = host.delegateSlot.addObserver { [weak attachment] in
      guard let attachment else { return }
      attachment.reattach(attachment)
    }
    attachment.release = { [weak host] attachment in
      guard let host else { return }
      host.delegateSlot.removeObserver(observer)
      // A guest proxy is AutoTrack's own; it goes when no one else hooked it. One the app installed
      // (the slot returned it to a guest install) stays with the app's hooks.
      if let proxy = attachment.proxy as? Proxy, proxy.hooks.isEmpty, host.delegateSlot.contains(proxy),
        host.delegateSlot.isGuest(proxy)
      {
        host.removeProxy(proxy)
      }
    }
    return attachment
  }

  /// Whether the host still exists; the hooks of a host that is gone went with its proxy.
  var isHostAlive: Bool { host != nil }

  /// Whether the hooks are on `host`.
  func isAttached(to host: AnyObject) -> Bool { self.host === host }

  /// Removes the tracker's hooks, stops watching the slot and, when the proxy is AutoTrack's guest
  /// and nobody else hooked it, takes it off the host.
  func detach() {
    removeHooks()
    release(self)
    release = { _ in }
    proxy = nil
  }

  private func removeHooks() {
    for token in tokens {
      // A proxy that is gone took the hook with it.
      _ = try? token.remove()
    }
    tokens = []
  }
}
