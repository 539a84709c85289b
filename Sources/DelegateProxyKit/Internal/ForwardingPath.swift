import DelegateProxyKitSupport

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
/// Thread-confined: one buffer per thread, a `ThreadLocalBuffer` (DelegateProxyKitSupport).
/// Entries (plain integers) live in a fixed buffer of ``capacity`` entries allocated once per
/// thread; the path is a pointer, so the hot path pays no reference counting, no dynamic
/// exclusivity check and no allocation. A chain deeper than the capacity is treated as a loop.
@usableFromInline
internal struct ForwardingPath {
  /// Identities as `UInt` bit patterns of `ObjectIdentifier`s.
  struct Entry {
    let proxy: UInt
    let proxyType: UInt
    let forwardee: UInt
  }

  @usableFromInline static let capacity = 64

  /// The thread's storage: a depth count followed by `capacity` entries. A plain pointer, so
  /// passing the path around costs no reference counting.
  private let depth: UnsafeMutablePointer<Int>
  private let entries: UnsafeMutablePointer<Entry>

  private init(raw: UnsafeMutableRawPointer) {
    // Binding costs nothing at run time; it tells the compiler which types live there.
    depth = raw.bindMemory(to: Int.self, capacity: 1)
    entries = (raw + MemoryLayout<Int>.stride).bindMemory(to: Entry.self, capacity: Self.capacity)
  }

  /// The size of one thread's storage; zeroed, it is an empty path.
  fileprivate static var byteCount: Int { MemoryLayout<Int>.stride + MemoryLayout<Entry>.stride * capacity }

  /// The current thread's path, created on first use and freed when the thread ends.
  @usableFromInline
  static var current: ForwardingPath {
    ForwardingPath(raw: forwardingPathBuffers.current)
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
    entries[count] = Entry(proxy: proxy, proxyType: type, forwardee: forwardee)
    depth.pointee = count + 1
    return true
  }

  @usableFromInline
  func pop() {
    depth.pointee -= 1
  }
}

/// Each thread's path storage: a depth count, then ``ForwardingPath/capacity`` entries.
private let forwardingPathBuffers = ThreadLocalBuffer(byteCount: ForwardingPath.byteCount)
