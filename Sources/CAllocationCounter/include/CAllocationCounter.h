#ifndef C_ALLOCATION_COUNTER_H
#define C_ALLOCATION_COUNTER_H
#include <stdint.h>
/// Number of heap allocations (malloc, calloc, realloc, aligned allocations) since the process started.
uint64_t dpk_allocation_count(void);
#endif
