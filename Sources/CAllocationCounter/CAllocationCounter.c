#include "CAllocationCounter.h"

// Interposition is only sound where glibc exports its allocator under the
// __libc_ names and no sanitizer runtime wants to intercept malloc itself.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define DPK_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DPK_SANITIZED 1
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(DPK_SANITIZED)
#define DPK_INTERPOSE 1
#endif

#if defined(DPK_INTERPOSE)

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

// glibc's real allocator, exported for exactly this purpose.
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);
extern void __libc_free(void *pointer);
extern size_t malloc_usable_size(void *pointer);

static _Atomic uint64_t allocation_count;
static _Atomic uint64_t free_count;
static _Atomic uint64_t allocated_bytes;
static _Atomic int64_t live_bytes;

static inline void record_allocation(void *pointer, size_t requested) {
  if (pointer == NULL) {
    return;
  }
  atomic_fetch_add_explicit(&allocation_count, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&allocated_bytes, (uint64_t)requested, memory_order_relaxed);
  atomic_fetch_add_explicit(&live_bytes, (int64_t)malloc_usable_size(pointer), memory_order_relaxed);
}

static inline void record_release(void *pointer) {
  if (pointer == NULL) {
    return;
  }
  atomic_fetch_add_explicit(&free_count, 1, memory_order_relaxed);
  atomic_fetch_sub_explicit(&live_bytes, (int64_t)malloc_usable_size(pointer), memory_order_relaxed);
}

void *malloc(size_t size) {
  void *pointer = __libc_malloc(size);
  record_allocation(pointer, size);
  return pointer;
}

void *calloc(size_t count, size_t size) {
  void *pointer = __libc_calloc(count, size);
  // __libc_calloc has already rejected an overflowing product.
  record_allocation(pointer, count * size);
  return pointer;
}

void *realloc(void *pointer, size_t size) {
  if (pointer == NULL) {
    return malloc(size);
  }
  size_t old_usable = malloc_usable_size(pointer);
  void *result = __libc_realloc(pointer, size);
  if (size == 0) {
    // glibc frees the block and returns NULL.
    atomic_fetch_add_explicit(&free_count, 1, memory_order_relaxed);
    atomic_fetch_sub_explicit(&live_bytes, (int64_t)old_usable, memory_order_relaxed);
    return result;
  }
  if (result != NULL) {
    atomic_fetch_add_explicit(&allocation_count, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&allocated_bytes, (uint64_t)size, memory_order_relaxed);
    int64_t delta = (int64_t)malloc_usable_size(result) - (int64_t)old_usable;
    atomic_fetch_add_explicit(&live_bytes, delta, memory_order_relaxed);
  }
  return result;
}

static int is_power_of_two(size_t value) { return value != 0 && (value & (value - 1)) == 0; }

int posix_memalign(void **result, size_t alignment, size_t size) {
  if (!is_power_of_two(alignment) || alignment % sizeof(void *) != 0) {
    return EINVAL;
  }
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) {
    return ENOMEM;
  }
  record_allocation(pointer, size);
  *result = pointer;
  return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
  if (!is_power_of_two(alignment)) {
    errno = EINVAL;
    return NULL;
  }
  void *pointer = __libc_memalign(alignment, size);
  record_allocation(pointer, size);
  return pointer;
}

void *memalign(size_t alignment, size_t size) {
  void *pointer = __libc_memalign(alignment, size);
  record_allocation(pointer, size);
  return pointer;
}

// valloc, pvalloc and reallocarray are replaced too, so that every block the
// process frees through free() was counted when it was allocated.
void *valloc(size_t size) {
  void *pointer = __libc_valloc(size);
  record_allocation(pointer, size);
  return pointer;
}

void *pvalloc(size_t size) {
  void *pointer = __libc_pvalloc(size);
  record_allocation(pointer, size);
  return pointer;
}

void *reallocarray(void *pointer, size_t count, size_t size) {
  size_t total;
  if (__builtin_mul_overflow(count, size, &total)) {
    errno = ENOMEM;
    return NULL;
  }
  return realloc(pointer, total);
}

void free(void *pointer) {
  record_release(pointer);
  __libc_free(pointer);
}

int dpk_allocation_counting_available(void) { return 1; }
uint64_t dpk_allocation_count(void) { return atomic_load_explicit(&allocation_count, memory_order_relaxed); }
uint64_t dpk_free_count(void) { return atomic_load_explicit(&free_count, memory_order_relaxed); }
uint64_t dpk_allocated_bytes(void) { return atomic_load_explicit(&allocated_bytes, memory_order_relaxed); }
int64_t dpk_live_bytes(void) { return atomic_load_explicit(&live_bytes, memory_order_relaxed); }

#else

int dpk_allocation_counting_available(void) { return 0; }
uint64_t dpk_allocation_count(void) { return 0; }
uint64_t dpk_free_count(void) { return 0; }
uint64_t dpk_allocated_bytes(void) { return 0; }
int64_t dpk_live_bytes(void) { return 0; }

#endif
