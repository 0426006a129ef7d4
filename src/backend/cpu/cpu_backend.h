/* cpu_backend.h: what the CPU backend offers beyond the cb_backend vtable
 * (the driver's exit summary, `cubridge cache`). */
#ifndef CB_CPU_BACKEND_H
#define CB_CPU_BACKEND_H

#include <stdint.h>

#include "backend/backend.h"
#include "backend/kernel_cache.h"

/* A CPU backend (registered as "cpu"). Returns NULL if it cannot start. */
cb_backend *cb_backend_cpu_create(void);

/* Makes self (from cb_backend_cpu_create, before any module is loaded) run
 * warps of `lanes` lanes: 32 (the default) or 64, as AMD's GCN and CDNA do
 * (CUBRIDGE_WARP_SIZE; docs/cpu-backend.md, "64-lane warps"). 64 reports
 * warpSize 64, translates for it (cb_backend.warp_size) and runs every
 * kernel on its general entries. Returns 0, or -1 for other values. */
int cb_cpu_set_warp_size(cb_backend *self, int lanes);

/* JIT cache hits and misses of this process so far (every CPU backend
 * instance together). A miss is a compiler run. Either pointer may be NULL. */
void cb_cpu_cache_stats(unsigned *hits, unsigned *misses);

/* The cache directory a CPU backend uses (a private temporary one when the
 * configured directory was refused). self must come from cb_backend_cpu_create. */
const char *cb_cpu_cache_dir(const cb_backend *self);

/* What a JIT cache directory holds of the CPU's entries (`cubridge cache
 * stats`): cb_kernel_cache_info for kind cb_kernel_cache_cpu
 * (backend/kernel_cache.h). Returns 0, or -1 with errno (ENOENT: dir does
 * not exist). */
typedef cb_kernel_cache_report cb_cpu_cache_report;
int cb_cpu_cache_info(const char *dir, cb_cpu_cache_report *out);

/* The number of worker threads (= reported multiprocessors). */
int cb_cpu_worker_count(const cb_backend *self);

#endif
