/* jit_cache.h: the CPU backend's JIT cache (jit_cache.c: lookup and
 * compile; jit_cache_stats.c: the shared counters, the size cap and
 * eviction). docs/cpu-backend.md describes the directory and its rules. */
#ifndef CB_CPU_JIT_CACHE_H
#define CB_CPU_JIT_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "backend/backend.h"
#include "platform/thread.h"

/* The trailer after an entry's object bytes: "CBJIT2\0\0", size, SHA-256 of
 * the source, of the configuration, and of the object plus trailer head. */
#define CB_JIT_TRAILER_LEN 112
/* A hit refreshes its entry's mtime (the LRU order) when older than this. */
#define CB_JIT_TOUCH_AFTER 60
/* CUBRIDGE_CACHE_MAX when unset. */
#define CB_JIT_DEFAULT_MAX ((uint64_t)512 << 20)

/* The sets of compiler flags a unit can build with (jit_cache.c): chosen by
 * the marks in its source (codegen/translate.h). */
enum { JIT_SET_GENERAL, JIT_SET_QUICK, JIT_SET_LANES };

typedef struct cb_jit_cache {
    char dir[4096];          /* the directory, as configured or made */
    int dirfd;               /* that directory, opened and checked (fs_at.h) */
    int is_temp;             /* a private temporary directory, removed at close and at exit */
    pid_t temp_pid;          /* the process that made it */
    struct cb_jit_cache *next_temp;
    int stats_fd;            /* "stats" (counters of all processes), or -1 */
    int lock_fd;             /* "lock" (held while evicting), or -1 */
    uint64_t max_bytes;      /* CUBRIDGE_CACHE_MAX; 0: no cap */
    char cc[1024];           /* CUBRIDGE_HOST_CC */
    char cc_identity[512];   /* first line of `cc --version`, once known */
    /* SHA-256 of the build configuration of each set of flags (JIT_SET_*;
     * the lanes set's includes the CPU), once known */
    unsigned char config_hash[3][32];
    int cc_state;            /* 0 unknown, 1 known, -1 missing */
    cb_mutex lock;           /* guards cc_identity/config_hash/cc_state */
    cb_mutex stats_lock;     /* one thread at a time on stats_fd (flock is per open file) */
} cb_jit_cache;

/* Picks and checks the cache directory (CUBRIDGE_CACHE_DIR, else
 * $XDG_CACHE_HOME/cubridge, else ~/.cache/cubridge); when it or a directory
 * above it is unsafe, warns once and uses a private temporary directory
 * (removed at close or exit). Returns 0, or -1 if not even that could be
 * made. */
int cb_jit_cache_open(cb_jit_cache *c);
/* Closes it; removes a temporary directory. */
void cb_jit_cache_close(cb_jit_cache *c);
/* The verified bytes of the shared object built from source: from the
 * cache, or compiled (and stored) on a miss. *so is malloc'd. Returns
 * CUDA_SUCCESS, CUDA_ERROR_JIT_COMPILER_NOT_FOUND, CUDA_ERROR_INVALID_SOURCE
 * (the compiler's first error lines in err), CUDA_ERROR_OUT_OF_MEMORY (no
 * room on the disk or under the file size limit to compile: err says so) or
 * CUDA_ERROR_OPERATING_SYSTEM. */
CUresult cb_jit_build(cb_jit_cache *c, const char *source, size_t len, unsigned char **so, size_t *so_len, char *err,
                      size_t errlen);

/* The configured directory (as cb_jit_cache_open picks it), or "". */
void cb_jit_configured_dir(char *out, size_t len);
/* Parses a size: digits, then K, M, G or T (binary, optionally "iB" or
 * "B"). Returns 0, or -1 when s is not one. */
int cb_jit_parse_size(const char *s, uint64_t *out);
/* CUBRIDGE_CACHE_MAX in bytes (0: no cap); the default when unset or bad
 * (warning once when warn is set). */
uint64_t cb_jit_max_bytes(int warn);

/* ---- jit_cache_stats.c --------------------------------------------------- */

/* Opens the directory's "stats" and "lock" files (either may fail: no
 * counters, no eviction lock). */
void cb_jit_stats_open(cb_jit_cache *c);
void cb_jit_stats_close(cb_jit_cache *c);
/* Adds to the shared counters (under flock and stats_lock). */
void cb_jit_stats_add(cb_jit_cache *c, uint64_t hits, uint64_t misses, uint64_t evicted, uint64_t evicted_bytes,
                      uint64_t rebuilt);
/* When the directory is over max_bytes: removes least recently used entries
 * (never keep) until it is not, unless another process is evicting now. */
void cb_jit_evict(cb_jit_cache *c, const char *keep);

#endif
