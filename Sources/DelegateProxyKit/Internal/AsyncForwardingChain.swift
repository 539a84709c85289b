import Synchronization

/// The re-entrancy guard of `async` forwarding: the proxies that are forwarding the current task's
/// call to another proxy, as a task-local list.
///
/// ``ForwardingPath`` is per thread, which cannot follow a call across a suspension; a task-local
/// value can. Only proxies whose forwardee is itself a proxy push a link (one small allocation
/// per link of a chain); the plain async path never touches it. The rules are those of
/// ``ForwardingPath``: the entered proxy in the chain that led to it is a loop; a proxy of its
/// type there means the call already ran that type's hooks.
@usableFromInline
internal final class AsyncChainLink: Sendable {
  let proxy: UInt
  let proxyType: UInt
  let forwardee: UInt
  let next: AsyncChainLink?
  @usableFromInline let depth: Int

  @usableFromInline
  init(proxy: UInt, proxyType: UInt, forwardee: UInt, next: AsyncChainLink?) {
    self.proxy = proxy
    self.proxyType = proxyType
    self.forwardee = forwardee
    self.next = next
    self.depth = (next?.depth ?? 0) + 1
  }
}

@usableFromInline
internal enum AsyncForwardingChain {
  @TaskLocal static var top: AsyncChainLink?

  /// The longest chain followed; a deeper one is treated as a loop.
  @usableFromInline static let capacity = 64

  /// The current task's chain.
  @usableFromInline static var current: AsyncChainLink? { top }

  /// Runs `operation` with `link` pushed on the current task's chain.
  @usableFromInline
  nonisolated(nonsending) static func with<Outcome>(
    _ link: AsyncChainLink, _ operation: nonisolated(nonsending) () async -> Outcome
  ) async -> Outcome {
    await $top.withValue(link, operation: operation)
  }

  /// What the chain that led to `proxy` contains.
  @usableFromInline
  static func chain(into proxy: UInt, type: UInt) -> (loops: Bool, sameType: Bool, depth: Int) {
    let top = Self.top
    var expected = proxy
    var sameType = false
    var link = top
    while let current = link, current.forwardee == expected {
      if current.proxy == proxy { return (true, sameType, top?.depth ?? 0) }
      if current.proxyType == type { sameType = true }
      expected = current.proxy
      link = current.next
    }
    return (false, sameType, top?.depth ?? 0)
  }
}

extension DelegateProxyBase {
  /// What the current task's chain says about a call entering this proxy: whether it went round a
  /// loop, and whether a proxy of this type already ran its hooks further out.
  ///
  /// Only a proxy that forwards to a proxy pushes a link, so for a proxy that no proxy has ever had
  /// as its forwardee (``isLinkTarget``) the answer is known without reading the task-local value,
  /// which costs a call into the runtime on every hooked `async` call.
  @inlinable @inline(__always)
  internal final func asyncChain() -> (loops: Bool, sameType: Bool) {
    guard isLinkTarget.load(ordering: .relaxed) else { return (false, false) }
    let chain = AsyncForwardingChain.chain(into: identityBits, type: typeIdentityBits)
    return (chain.loops, chain.sameType)
  }
}
