internal import CForwardingPath

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
/// Thread-confined: each thread has its own block, a C11 `_Thread_local` variable (the
/// CForwardingPath target), reached with no lock, no lazy initialisation and no allocation. The
/// path is a pointer to it, so passing the path around costs no reference counting and no dynamic
/// exclusivity check. A chain deeper than ``capacity`` is treated as a loop.
///
/// The block also holds the objects a forward still uses that the chain let go of while the
/// forward ran (``keepUntilUnwound(_:)``): they are released when the thread's outermost forward
/// returns.
@usableFromInline
internal struct ForwardingPath {
  /// Identities as `UInt` bit patterns of `ObjectIdentifier`s.
  struct Entry {
    let proxy: UInt
    let proxyType: UInt
    let forwardee: UInt
  }

  /// The most entries a path holds. Computed, not stored: a stored static costs a once-check on
  /// every read.
  @inlinable static var capacity: Int { 64 }

  /// The block's layout: the depth, the parked objects, then ``capacity`` entries.
  @inlinable static var parkedOffset: Int { MemoryLayout<Int>.stride }
  static var entriesOffset: Int { 2 * MemoryLayout<Int>.stride }

  /// The thread's block. Read and written with raw loads and stores, so it is never bound to a type.
  @usableFromInline let base: UnsafeMutableRawPointer

  @inlinable
  init(base: UnsafeMutableRawPointer) {
    self.base = base
  }

  /// The size of one thread's block; zeroed, it is an empty path.
  static var byteCount: Int { entriesOffset + MemoryLayout<Entry>.stride * capacity }

  /// The current thread's path.
  @usableFromInline
  static var current: ForwardingPath {
    assert(byteCount == Int(DPK_FORWARDING_PATH_BYTES), "the C block and the Swift layout disagree")
    return ForwardingPath(base: dpk_forwarding_path())
  }

  /// The number of entries on the path.
  @inlinable var depth: Int { base.load(as: Int.self) }

  private func entry(_ index: Int) -> Entry {
    base.load(fromByteOffset: Self.entriesOffset + index * MemoryLayout<Entry>.stride, as: Entry.self)
  }

  /// What the chain that led to `proxy` contains.
  @usableFromInline @inline(__always)
  func chain(into proxy: UInt, type: UInt) -> (loops: Bool, sameType: Bool) {
    var expected = proxy
    var sameType = false
    var index = depth - 1
    while index >= 0 {
      let entry = entry(index)
      guard entry.forwardee == expected else { break }
      if entry.proxy == proxy { return (true, sameType) }
      if entry.proxyType == type { sameType = true }
      expected = entry.proxy
      index -= 1
    }
    return (false, sameType)
  }

  /// Pushes an entry; returns `false` (pushing nothing) when the path is full.
  @usableFromInline @inline(__always)
  func push(proxy: UInt, type: UInt, forwardee: UInt) -> Bool {
    let count = depth
    guard count < Self.capacity else { return false }
    base.storeBytes(
      of: Entry(proxy: proxy, proxyType: type, forwardee: forwardee),
      toByteOffset: Self.entriesOffset + count * MemoryLayout<Entry>.stride, as: Entry.self)
    base.storeBytes(of: count + 1, as: Int.self)
    return true
  }

  /// Pops the top entry; when that was the last one, releases the objects parked while it ran.
  @inlinable @inline(__always)
  func pop() {
    let depth = self.depth &- 1
    base.storeBytes(of: depth, as: Int.self)
    if depth == 0, base.load(fromByteOffset: Self.parkedOffset, as: UInt.self) != 0 { releaseParked() }
  }

  /// Keeps `object` alive until the thread's outermost forward returns, when a forward is running
  /// on this thread; otherwise does nothing, and `object` goes when its last reference does.
  ///
  /// A forward borrows the proxy it forwards to from its ``ProxyLink`` without retaining it; a
  /// proxy that lets go of its link while a forward runs on its thread parks the link here, so
  /// the forward that borrowed it (this one or an outer one) never calls a freed proxy.
  func keepUntilUnwound(_ object: ParkableObject) {
    guard depth > 0 else { return }
    let parked = base.load(fromByteOffset: Self.parkedOffset, as: UnsafeMutableRawPointer?.self)
    object.nextParked = parked.map { Unmanaged<ParkableObject>.fromOpaque($0).takeRetainedValue() }
    base.storeBytes(
      of: Unmanaged.passRetained(object).toOpaque(), toByteOffset: Self.parkedOffset, as: UnsafeMutableRawPointer.self)
  }

  /// Releases the parked objects. The list is detached first: a deinitializer may forward a call.
  @usableFromInline
  func releaseParked() {
    guard let parked = base.load(fromByteOffset: Self.parkedOffset, as: UnsafeMutableRawPointer?.self) else { return }
    base.storeBytes(of: nil, toByteOffset: Self.parkedOffset, as: UnsafeMutableRawPointer?.self)
    // Each parked object holds the one parked before it: releasing the newest releases them all.
    Unmanaged<ParkableObject>.fromOpaque(parked).release()
  }
}

/// An object ``ForwardingPath/keepUntilUnwound(_:)`` can park: it links to the one parked before it.
@usableFromInline
internal class ParkableObject {
  fileprivate final var nextParked: ParkableObject?

  @usableFromInline
  init() {}
}

/// The forwardee of a proxy when it is itself a proxy, in a box of its own: the forwarding path
/// reads ``value``, a `let`, through an unretained reference to the box, so it calls the next
/// link of a chain without retaining it.
@usableFromInline
internal final class ProxyLink<Delegate>: ParkableObject {
  @usableFromInline let value: Delegate

  @usableFromInline
  init(_ value: Delegate) {
    self.value = value
    super.init()
  }
}
