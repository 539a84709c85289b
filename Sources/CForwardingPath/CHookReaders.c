#include "CHookReaders.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define DPK_UNDER_THREAD_SANITIZER 1
#endif
#endif

_Thread_local dpk_hook_reader *dpk_hook_reader_tls;

/// Nonzero when the process registered for `membarrier`'s private expedited command: writers
/// then fence every reader before they scan. Set before `main` runs, never changed.
static int dpk_hook_heavy_fence;
_Atomic(int) dpk_hook_light_readers;

/// Chooses how readers protect snapshots, before `main` and so before any thread reads a hook:
/// light readers when the kernel lets the process register for private expedited `membarrier`
/// (Linux 4.14 and later, unless a sandbox forbids the call), fenced readers otherwise. The thread
/// sanitizer does not see the order `membarrier` gives, so under it readers stay fenced.
__attribute__((constructor)) static void choose_reader_stores(void) {
#if defined(__linux__) && !defined(DPK_UNDER_THREAD_SANITIZER)
  if (dlsym(RTLD_DEFAULT, "__tsan_init") != 0) return;
  long commands = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (commands < 0 || (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) return;
  if (syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0) return;
  dpk_hook_heavy_fence = 1;
  atomic_store_explicit(&dpk_hook_light_readers, 1, memory_order_seq_cst);
#endif
}

int dpk_hook_fence_readers(void) {
#if defined(__linux__)
  if (dpk_hook_heavy_fence) return syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0;
#endif
  return 1;
}

int dpk_hook_light_readers_in_use(void) {
  return atomic_load_explicit(&dpk_hook_light_readers, memory_order_relaxed);
}

int dpk_hook_set_light_readers(int light) {
  int value = light != 0 && dpk_hook_heavy_fence != 0;
  atomic_store_explicit(&dpk_hook_light_readers, value, memory_order_seq_cst);
  return value;
}

/// The head of the list of every record ever allocated; records are pushed, never removed.
static _Atomic(dpk_hook_reader *) readers_head;
/// Serialises registration and thread exit (both rare).
static pthread_mutex_t readers_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

/// Runs when a thread that read hooks exits: its record goes idle and becomes free for another
/// thread, so an exited thread never holds back reclamation.
static void reader_thread_exit(void *record) {
  dpk_hook_reader *reader = record;
  pthread_mutex_lock(&readers_lock);
  for (int index = 0; index < DPK_HOOK_SLOTS; index++) {
    atomic_store_explicit(&reader->slots[index], 0, memory_order_release);
  }
  reader->depth = 0;
  atomic_store_explicit(&reader->in_use, 0, memory_order_release);
  pthread_mutex_unlock(&readers_lock);
  // A destructor that runs later on this thread and forwards a call registers again.
  dpk_hook_reader_tls = 0;
}

static void make_exit_key(void) {
  if (pthread_key_create(&exit_key, reader_thread_exit) != 0) abort();
}

dpk_hook_reader *dpk_hook_reader_register(void) {
  pthread_once(&exit_key_once, make_exit_key);
  pthread_mutex_lock(&readers_lock);
  dpk_hook_reader *reader = atomic_load_explicit(&readers_head, memory_order_acquire);
  while (reader != 0 && atomic_load_explicit(&reader->in_use, memory_order_relaxed)) reader = reader->next;
  if (reader == 0) {
    reader = aligned_alloc(64, sizeof(dpk_hook_reader));
    if (reader == 0) abort();
    memset(reader, 0, sizeof(dpk_hook_reader));
    reader->next = atomic_load_explicit(&readers_head, memory_order_relaxed);
    atomic_store_explicit(&reader->in_use, 1, memory_order_relaxed);
    // Sequentially consistent, like the scan's load of the head: a thread that registers, then
    // reads a snapshot before a writer's exchange, is on the list that writer's scan walks.
    atomic_store_explicit(&readers_head, reader, memory_order_seq_cst);
  } else {
    atomic_store_explicit(&reader->in_use, 1, memory_order_relaxed);
  }
  pthread_mutex_unlock(&readers_lock);
  if (pthread_setspecific(exit_key, reader) != 0) abort();
  dpk_hook_reader_tls = reader;
  return reader;
}

int dpk_hook_is_protected(uintptr_t snapshot) {
  for (dpk_hook_reader *reader = atomic_load_explicit(&readers_head, memory_order_seq_cst); reader != 0;
       reader = reader->next) {
    for (int index = 0; index < DPK_HOOK_SLOTS; index++) {
      if (atomic_load_explicit(&reader->slots[index], memory_order_seq_cst) == snapshot) return 1;
    }
  }
  return 0;
}
