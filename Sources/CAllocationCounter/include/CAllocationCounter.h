#ifndef C_ALLOCATION_COUNTER_H
#define C_ALLOCATION_COUNTER_H

#include <stdint.h>

// Heap activity counters for the proxy-bench executable.
//
// On Linux with glibc the target defines malloc, calloc, realloc, reallocarray,
// posix_memalign, aligned_alloc, memalign, valloc, pvalloc and free itself. Because the
// definitions live in the executable, the dynamic linker binds every caller in
// the process to them (the Swift runtime, Foundation and libc included); each
// one counts and then calls glibc's own implementation (__libc_malloc and
// friends). Only the benchmark executable links this target, never a library
// or a test bundle. Under a sanitizer, or on other platforms, nothing is
// interposed and dpk_allocation_counting_available() returns 0.
//
// All counters use relaxed atomics: they are exact when read on the thread
// that allocates, and a close snapshot otherwise.

/// Returns 1 when allocations are being counted in this process, 0 otherwise.
int dpk_allocation_counting_available(void);

/// Number of allocations since the process started: every successful malloc,
/// calloc, posix_memalign, aligned_alloc and memalign, and every realloc that
/// returns memory (a realloc that moves or resizes a block counts as one).
uint64_t dpk_allocation_count(void);

/// Number of non-null pointers passed to free (and reallocs to size 0).
uint64_t dpk_free_count(void);

/// Total bytes requested by the counted allocations.
uint64_t dpk_allocated_bytes(void);

/// Bytes currently live on the heap, measured with malloc_usable_size:
/// added on allocation, subtracted on free. Differences between two readings
/// give the memory retained by the work done in between.
int64_t dpk_live_bytes(void);

#endif
