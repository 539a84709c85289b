/// Identifies one installed hook; removes it.
///
/// ```swift
/// let token = proxy.hookBefore(\.didSelectRow) { list, indexPath in }
/// try token.remove()   // true
/// try token.remove()   // false: already removed
/// ```
///
/// A hook stays installed until it is removed or its proxy goes away: releasing the token does not
/// remove it. To remove hooks with an owner of yours, store their tokens in a ``HookBag``
/// (``store(in:)``), which removes them when it is deinitialised.
///
/// The install methods keep `@discardableResult`: a hook meant to live as long as its proxy (the
/// common case: a proxy's hooks go with it) needs no token, and a warning on every such install
/// would teach callers to silence it. A token dropped by mistake costs no leak beyond the proxy's
/// lifetime, except for type-wide hooks, which live as long as the process: keep their tokens.
public final class HookToken: Sendable, Hashable {
  /// The method the hook is installed on.
  public let method: ProxyMethod
  /// Where the hook runs.
  public let position: HookPosition
  private let id: UInt64
  private let proxyTypeName: String
  private weak let registry: HookRegistry?

  internal init(id: UInt64, method: ProxyMethod, position: HookPosition, registry: HookRegistry) {
    self.id = id
    self.method = method
    self.position = position
    self.proxyTypeName = registry.proxyTypeName
    self.registry = registry
  }

  /// The selector of the method the hook is installed on.
  public var selector: String { method.selector }

  /// Removes the hook.
  ///
  /// Idempotent: the first call removes the hook and returns `true`, later calls return `false`.
  /// A run-once hook that already ran counts as removed.
  ///
  /// - Returns: Whether this call removed the hook.
  /// - Throws: ``DelegateProxyError/proxyDeallocated(proxyType:)`` when the proxy the hook was
  ///   installed on no longer exists; nothing changes.
  @discardableResult
  public func remove() throws(DelegateProxyError) -> Bool {
    guard let registry, let removed = registry.remove(id: id) else {
      throw .proxyDeallocated(proxyType: proxyTypeName)
    }
    return removed
  }

  /// Whether the hook is still installed.
  public var isInstalled: Bool { registry?.contains(id: id) ?? false }

  /// Tokens are equal when they identify the same hook.
  public static func == (lhs: HookToken, rhs: HookToken) -> Bool { lhs === rhs }

  /// Hashes the token's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
