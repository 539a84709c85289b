#ifndef C_HOOK_READERS_H
#define C_HOOK_READERS_H

// Safe reclamation of DelegateProxyKit's published hook snapshots: per-thread hazard slots.
//
// A synchronous hooked call protects each snapshot it reads by storing its address in the next
// free slot of its thread's reader record (on a cache line only this thread writes), then loading
// the published pointer again: if it still names that snapshot, the call may use it; else it
// protects the new one and checks again. The call ends with a release store of 0 to each slot it
// used. Calls nested through hooks (a hook that calls another proxy) take the next slots.
//
// A writer that replaces a snapshot exchanges the published pointer first, then frees the old
// snapshot only if no slot of any record holds its address (`dpk_hook_is_protected`). Either the
// scan sees the reader's slot, or the reader's second load sees the exchange and the reader never
// uses the old snapshot. Two ways keep that order; the process takes one when it starts:
//
// - Light readers (Linux with `membarrier(2)`'s private expedited command): the slot store is a
//   plain store, ordered before the second load only for the compiler. Before it scans, a writer
//   calls `membarrier`, which makes every running thread of the process execute a full memory
//   barrier (a thread that is not running passes one when it is scheduled). A reader whose slot
//   store was still in its store buffer has that barrier either between the store and its second
//   load (the scan then sees the store) or before the store (its second load then sees the
//   exchange). The barrier, a system call, is paid on hook changes, not on calls.
// - Fenced readers (everywhere else, and under the thread sanitizer, which does not model
//   `membarrier`): the slot store is sequentially consistent (`xchg` on x86-64), as are the
//   second load, the writer's exchange and its scan; their single total order gives the same.
//
// A writer calls `membarrier` whenever the process registered for it, whichever store readers
// use, so a reader may be switched between the two (`dpk_hook_set_light_readers`) at any time.
//
// Records are allocated once per thread and never freed: a thread that exits clears its slots
// and marks its record unused (a thread-specific key's destructor), and a later thread takes it
// over, so the list is as long as the most threads that ever read hooks at once. Darwin uses the
// same C11 and POSIX code; it is unverified there (no Apple machine to test on).
//
// The hot functions are `static inline`, for DelegateProxyKit's Swift code to inline.

#include <stdint.h>
#include <stdatomic.h>

/// The slots of one record: enough for six nested hooked calls that each read two registries.
#define DPK_HOOK_SLOTS 13

/// One thread's reader record, 128 bytes aligned to a cache line. `depth` is written only by the
/// owning thread.
typedef struct __attribute__((aligned(64))) dpk_hook_reader {
  /// How many slots the thread uses now.
  uint64_t depth;
  /// The next record of the process-wide list (set once, before the record is published).
  struct dpk_hook_reader *_Nullable next;
  /// Whether a live thread owns this record.
  _Atomic(int) in_use;
  /// The addresses of the snapshots the thread reads, 0 in unused slots.
  _Atomic(uintptr_t) slots[DPK_HOOK_SLOTS];
} dpk_hook_reader;

/// The calling thread's record, created or taken over on first use.
dpk_hook_reader *_Nonnull dpk_hook_reader_register(void);

/// The calling thread's record, or NULL before its first read (and after its thread-exit
/// destructor ran). Swift does not import thread-local variables; the inline functions reach it.
extern _Thread_local dpk_hook_reader *_Nullable dpk_hook_reader_tls;

/// Reserves `count` free slots of the calling thread's record and returns the index of the
/// first, or -1 when fewer are free: the caller then protects its reads another way. (Swift
/// imports the record only as an opaque pointer, hence indices.)
static inline int64_t dpk_hook_reserve(uint64_t count) {
  dpk_hook_reader *reader = dpk_hook_reader_tls;
  if (__builtin_expect(reader == 0, 0)) reader = dpk_hook_reader_register();
  uint64_t first = reader->depth;
  if (__builtin_expect(first + count > DPK_HOOK_SLOTS, 0)) return -1;
  reader->depth = first + count;
  return (int64_t)first;
}

/// Nonzero when readers store to their slots with a plain store (light readers): only when the
/// process registered for `membarrier`'s private expedited command, before `main` ran, so that
/// writers fence every reader before they scan.
extern _Atomic(int) dpk_hook_light_readers;

/// Stores `snapshot` in reserved slot `index` of the calling thread's record: a plain store with
/// light readers, else sequentially consistent. The caller then loads the published pointer
/// again (sequentially consistent) and uses the snapshot only if it is the same.
static inline void dpk_hook_protect(uint64_t index, uintptr_t snapshot) {
  if (__builtin_expect(atomic_load_explicit(&dpk_hook_light_readers, memory_order_relaxed) != 0, 1)) {
    atomic_store_explicit(&dpk_hook_reader_tls->slots[index], snapshot, memory_order_relaxed);
    // Keeps the compiler from moving the caller's second load above the store; the processor's
    // reordering is what the writer's `membarrier` covers.
    atomic_signal_fence(memory_order_seq_cst);
  } else {
    atomic_store_explicit(&dpk_hook_reader_tls->slots[index], snapshot, memory_order_seq_cst);
  }
}

/// Clears the `count` slots last reserved by this thread and releases them.
static inline void dpk_hook_release(uint64_t count) {
  dpk_hook_reader *reader = dpk_hook_reader_tls;
  uint64_t depth = reader->depth - count;
  for (uint64_t index = depth; index < depth + count; index++) {
    atomic_store_explicit(&reader->slots[index], 0, memory_order_release);
  }
  reader->depth = depth;
}

/// Makes every slot store that readers made before this call visible to the calling writer: a
/// `membarrier` when the process registered for it, else nothing (fenced readers need none).
/// Call once after the exchange that unpublished snapshots and before scanning for them. Returns 0
/// when the kernel failed the barrier (registered before `main`, it does not): the writer must then
/// keep every snapshot it unpublished, as if a reader held it.
int dpk_hook_fence_readers(void);

/// Whether a slot of any thread holds `snapshot`. Call after `dpk_hook_fence_readers`.
int dpk_hook_is_protected(uintptr_t snapshot);

/// Switches readers to plain slot stores (`light` nonzero) or sequentially consistent ones, and
/// returns whether light readers are in use afterwards: never when the process could not register
/// for `membarrier`. For tests that cover both ways in one process.
int dpk_hook_set_light_readers(int light);

/// Whether readers use plain slot stores now.
int dpk_hook_light_readers_in_use(void);

#endif
