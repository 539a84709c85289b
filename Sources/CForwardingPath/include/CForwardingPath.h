#ifndef C_FORWARDING_PATH_H
#define C_FORWARDING_PATH_H

// The per-thread storage of DelegateProxyKit's re-entrancy guard (its ForwardingPath): one block
// of DPK_FORWARDING_PATH_BYTES bytes per thread, zeroed when the thread starts and freed with it.
//
// A C11 `_Thread_local` variable, because Swift has no thread-local storage of its own: reaching
// the block is an offset from the thread pointer, with no key, no lazy initialisation and no
// allocation (a POSIX thread-specific key costs a once-check and a pthread_getspecific call). Swift
// does not import thread-local variables, so the block is reached through the function below.
// DelegateProxyKit owns the layout (it binds the memory to it); only the size is fixed here.

/// The size of one thread's block: a depth and a parked-object pointer (8 bytes each), then 64
/// entries of three 8-byte words.
#define DPK_FORWARDING_PATH_BYTES 1552

/// The calling thread's block: the same 16-byte aligned address on every call from one thread.
void *_Nonnull dpk_forwarding_path(void);

// The reader records of the hook snapshots' safe reclamation.
#include "CHookReaders.h"

#endif
