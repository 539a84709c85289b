internal import CForwardingPath

/// Which synchronous calls still read a replaced hook snapshot: safe reclamation without a
/// shared counter.
///
/// Every thread that runs a hooked call has a reader record of its own (the CForwardingPath
/// target's `dpk_hook_reader`, two cache lines) with a few hazard slots. A synchronous call
/// protects each snapshot it reads by storing its address in its next slot (one sequentially
/// consistent store, `xchg` on x86-64, on memory no other thread writes) and loading the
/// published pointer again to check that the snapshot is still current; it ends with a release
/// store of 0. A registry that replaces a snapshot frees it only once no thread's slot holds it.
/// Readers therefore write no shared memory: a hooked call costs no locked read-modify-write on a
/// line that other threads calling the same proxy, or proxies of the same type, also write. A
/// replaced snapshot is kept only while a call holds that very snapshot.
///
/// A thread's record is cleared when the thread exits (a thread-specific key's destructor), so an
/// exited thread never holds reclamation back; records are reused, never freed, so their number
/// is the most threads that read hooks at once. `async` calls, which may resume on another
/// thread, and synchronous calls nested deeper than a record's slots count themselves in their
/// registry's holders instead.
///
/// Under the thread sanitizer the same code runs: it uses only sequentially consistent and
/// acquire/release atomics, which the sanitizer models, no standalone fences. On Darwin the C
/// code is the same C11 and POSIX code, unverified there (no Apple machine was available).
@usableFromInline
internal enum HookReaders {
  /// Releases the `count` slots this thread's synchronous call reserved last.
  @usableFromInline
  static func endRead(_ count: Int) { dpk_hook_release(UInt64(count)) }

  /// Whether a slot of any thread holds the snapshot at `snapshot`. Call after unpublishing it.
  static func isProtected(_ snapshot: UInt) -> Bool { dpk_hook_is_protected(snapshot) != 0 }
}
