/* cpu_backend.h: what the CPU backend offers beyond the cb_backend vtable
 * (the driver's exit summary, `cubridge cache`). */
#ifndef CB_CPU_BACKEND_H
#define CB_CPU_BACKEND_H

#include "backend/backend.h"

/* JIT cache hits and misses of this process so far (every CPU backend
 * instance together). A miss is a compiler run. Either pointer may be NULL. */
void cb_cpu_cache_stats(unsigned *hits, unsigned *misses);

/* The cache directory a CPU backend uses (a private temporary one when the
 * configured directory was refused). self must come from cb_backend_cpu_create. */
const char *cb_cpu_cache_dir(const cb_backend *self);

/* The number of worker threads (= reported multiprocessors). */
int cb_cpu_worker_count(const cb_backend *self);

#endif
