#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The proxies on the current thread that are forwarding a call directly to another proxy.
///
/// It implements the re-entrancy guard. A proxy whose forwardee is itself a proxy pushes an
/// entry for the length of that forward. When a proxy is entered, the entries on top of the
/// stack that form an unbroken proxy-to-proxy chain ending at it (each entry's forwardee is the
/// entry above, the top entry's forwardee is the entered proxy) are the chain that led here:
/// - the entered proxy among them means the proxies form a loop: the call is stopped;
/// - a proxy of the entered proxy's type among them means the call already went through a proxy
///   of this kind: the entered proxy forwards without running its hooks (no double counting).
/// A call that reaches user code (a delegate, a hook) and comes back into a proxy does not
/// continue the chain, because no entry's forwardee is the proxy it re-enters through, so
/// legitimate re-entrant calls are never mistaken for loops.
///
/// Only proxies that forward to a proxy, or that have hooks, look at it; the plain
/// forwarding path never touches thread-local storage.
///
/// Thread-confined: one instance per thread, reached through a pthread key. Entries live in a
/// fixed buffer (``capacity`` entries, allocated once per thread) behind `let` pointers, so the
/// hot path pays no dynamic exclusivity checks and no allocation. A chain deeper than the
/// capacity is treated as a loop.
@usableFromInline
internal final class ForwardingPath {
  /// Identities as `UInt` bit patterns of `ObjectIdentifier`s.
  struct Entry {
    let proxy: UInt
    let proxyType: UInt
    let forwardee: UInt
  }

  static let capacity = 64
  private let entries: UnsafeMutablePointer<Entry>
  private let depth: UnsafeMutablePointer<Int>

  private init() {
    entries = .allocate(capacity: Self.capacity)
    depth = .allocate(capacity: 1)
    depth.initialize(to: 0)
  }

  deinit {
    entries.deinitialize(count: depth.pointee)
    entries.deallocate()
    depth.deallocate()
  }

  @usableFromInline
  static var current: ForwardingPath {
    if let raw = pthread_getspecific(forwardingPathKey) {
      return Unmanaged<ForwardingPath>.fromOpaque(raw).takeUnretainedValue()
    }
    let path = ForwardingPath()
    pthread_setspecific(forwardingPathKey, Unmanaged.passRetained(path).toOpaque())
    return path
  }

  /// What the chain that led to `proxy` contains.
  @usableFromInline
  func chain(into proxy: UInt, type: UInt) -> (loops: Bool, sameType: Bool) {
    var expected = proxy
    var sameType = false
    var index = depth.pointee - 1
    while index >= 0 {
      let entry = entries[index]
      guard entry.forwardee == expected else { break }
      if entry.proxy == proxy { return (true, sameType) }
      if entry.proxyType == type { sameType = true }
      expected = entry.proxy
      index -= 1
    }
    return (false, sameType)
  }

  /// Pushes an entry; returns `false` (pushing nothing) when the buffer is full.
  @usableFromInline
  func push(proxy: UInt, type: UInt, forwardee: UInt) -> Bool {
    let count = depth.pointee
    guard count < Self.capacity else { return false }
    (entries + count).initialize(to: Entry(proxy: proxy, proxyType: type, forwardee: forwardee))
    depth.pointee = count + 1
    return true
  }

  @usableFromInline
  func pop() {
    depth.pointee -= 1
    (entries + depth.pointee).deinitialize(count: 1)
  }
}

private let forwardingPathKey: pthread_key_t = {
  var key = pthread_key_t()
  let status = pthread_key_create(&key) { raw in
    guard let raw else { return }
    Unmanaged<ForwardingPath>.fromOpaque(raw).release()
  }
  precondition(status == 0, "DelegateProxyKit could not create its thread-local key")
  return key
}()
