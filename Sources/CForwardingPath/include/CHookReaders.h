#ifndef C_HOOK_READERS_H
#define C_HOOK_READERS_H

// Safe reclamation of DelegateProxyKit's published hook snapshots: per-thread hazard slots.
//
// A synchronous hooked call protects each snapshot it reads by storing its address in the next
// free slot of its thread's reader record (a sequentially consistent store: one `xchg` on x86-64,
// on a cache line only this thread writes), then loading the published pointer again: if it
// still names that snapshot, the call may use it; else it protects the new one and checks again.
// The call ends with a release store of 0 to each slot it used. Calls nested through hooks (a
// hook that calls another proxy) take the next slots.
//
// A writer that replaces a snapshot exchanges the published pointer first, then frees the old
// snapshot only if no slot of any record holds its address (`dpk_hook_is_protected`). By the
// sequentially consistent order of a reader's slot store, its second load of the published
// pointer, the writer's exchange and the writer's scan, either the scan sees the slot or the
// reader's second load sees the exchange and the reader never uses the old snapshot.
//
// Only sequentially consistent and acquire/release atomics are used, no standalone fences and no
// membarrier: the thread sanitizer models every edge the argument relies on (a reader's release
// store of 0, or a later store, synchronises with the scan that reads it).
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

/// Stores `snapshot` in reserved slot `index` of the calling thread's record (sequentially
/// consistent). The caller then loads the published pointer again (sequentially consistent) and
/// uses the snapshot only if it is the same.
static inline void dpk_hook_protect(uint64_t index, uintptr_t snapshot) {
  atomic_store_explicit(&dpk_hook_reader_tls->slots[index], snapshot, memory_order_seq_cst);
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

/// Whether a slot of any thread holds `snapshot`. Call after the exchange that unpublished it.
int dpk_hook_is_protected(uintptr_t snapshot);

#endif
