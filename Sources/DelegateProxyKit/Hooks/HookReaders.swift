internal import CForwardingPath

/// Which synchronous calls still read a replaced hook snapshot: safe reclamation without a
/// shared counter.
///
/// Every thread that runs a hooked call has a reader record of its own (the CForwardingPath
/// target's `dpk_hook_reader`, two cache lines) with a few hazard slots. A synchronous call
/// protects each snapshot it reads by storing its address in its next slot, on memory no other
/// thread writes, and loading the published pointer again to check that the snapshot is still
/// current; it ends with a release store of 0. A registry that replaces a snapshot frees it only
/// once no thread's slot holds it. Readers therefore write no shared memory: a hooked call costs
/// no locked read-modify-write on a line that other threads calling the same proxy, or proxies of
/// the same type, also write. A replaced snapshot is kept only while a call holds that very
/// snapshot.
///
/// On Linux, where the process can register for `membarrier(2)`'s private expedited command, the
/// slot store is a plain store, and a registry that replaced a snapshot makes every thread of the
/// process pass a full memory barrier (one system call) before it looks at the slots: the barrier
/// moves from every hooked call to every hook change. Elsewhere, under the thread sanitizer (which
/// does not model `membarrier`), or when the kernel refuses the registration, the slot store is
/// sequentially consistent (an `xchg` on x86-64). `CHookReaders.h` gives the argument for both.
///
/// A thread's record is cleared when the thread exits (a thread-specific key's destructor), so an
/// exited thread never holds reclamation back; records are reused, never freed, so their number
/// is the most threads that read hooks at once. `async` calls, which may resume on another
/// thread, and synchronous calls nested deeper than a record's slots count themselves in their
/// registry's holders instead.
///
/// On Darwin the C code is the same C11 and POSIX code with sequentially consistent slot stores,
/// unverified there (no Apple machine was available).
@usableFromInline
internal enum HookReaders {
  /// Releases the `count` slots this thread's synchronous call reserved last.
  @usableFromInline
  static func endRead(_ count: Int) { dpk_hook_release(UInt64(count)) }

  /// Whether a slot of any thread holds the snapshot at `snapshot`. Call after unpublishing it and
  /// after ``fenceReaders()``.
  static func isProtected(_ snapshot: UInt) -> Bool { dpk_hook_is_protected(snapshot) != 0 }

  /// Makes the slot stores of light readers visible before a scan: `false` when the kernel failed
  /// the barrier, and then no replaced snapshot may be freed this time.
  static func fenceReaders() -> Bool { dpk_hook_fence_readers() != 0 }

  /// Whether readers store to their slots with plain stores, the writers fencing them.
  static var usesLightReaders: Bool { dpk_hook_light_readers_in_use() != 0 }

  /// Switches readers between plain and sequentially consistent slot stores, for tests that cover
  /// both in one process; returns whether light readers are in use afterwards (never where the
  /// process could not register for `membarrier`). Safe at any time: writers fence whenever the
  /// process registered.
  @discardableResult
  static func useLightReaders(_ light: Bool) -> Bool { dpk_hook_set_light_readers(light ? 1 : 0) != 0 }
}
