#include "CForwardingPath.h"

// One definition for the whole process, so every module that forwards a call (each inlines the
// forwarding path into its proxies) reaches the same block on a thread.
static _Thread_local _Alignas(16) unsigned char forwarding_path[DPK_FORWARDING_PATH_BYTES];

void *dpk_forwarding_path(void) { return forwarding_path; }
