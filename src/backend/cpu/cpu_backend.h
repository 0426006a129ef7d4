/* cpu_backend.h: what the CPU backend offers beyond the cb_backend vtable
 * (the driver's exit summary, `cubridge cache`). */
#ifndef CB_CPU_BACKEND_H
#define CB_CPU_BACKEND_H

#include <stdint.h>

#include "backend/backend.h"

/* A CPU backend (registered as "cpu"). Returns NULL if it cannot start. */
cb_backend *cb_backend_cpu_create(void);

/* JIT cache hits and misses of this process so far (every CPU backend
 * instance together). A miss is a compiler run. Either pointer may be NULL. */
void cb_cpu_cache_stats(unsigned *hits, unsigned *misses);

/* The cache directory a CPU backend uses (a private temporary one when the
 * configured directory was refused). self must come from cb_backend_cpu_create. */
const char *cb_cpu_cache_dir(const cb_backend *self);

/* What a JIT cache directory holds (`cubridge cache stats`). The counters
 * are those of every process that used it since its "stats" file was made
 * (see jit_cache_stats.c for how exact they are). */
typedef struct cb_cpu_cache_report {
    uint64_t entries;        /* <key>.so files */
    uint64_t bytes;          /* all its regular files */
    int64_t oldest_use;      /* last use (mtime) of the least recently used entry, Unix seconds; 0: none */
    int64_t newest_use;      /* ... of the most recently used */
    uint64_t max_bytes;      /* CUBRIDGE_CACHE_MAX of this environment (0: no cap) */
    int has_counters;        /* a "stats" file was found */
    int64_t since;           /* when its counting began */
    uint64_t hits, misses, evicted, evicted_bytes, rebuilt;
    char refused[512];       /* why processes would not use the directory (they fall back), or "" */
} cb_cpu_cache_report;
/* Fills out for the cache directory dir. Returns 0, or -1 with errno
 * (ENOENT: dir does not exist). */
int cb_cpu_cache_info(const char *dir, cb_cpu_cache_report *out);

/* The number of worker threads (= reported multiprocessors). */
int cb_cpu_worker_count(const cb_backend *self);

#endif
