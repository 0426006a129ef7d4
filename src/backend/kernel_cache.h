/* kernel_cache.h: the compile cache's files, shared by the backends that
 * keep compiled kernels on disk (the CPU's shared objects,
 * backend/cpu/jit_cache.c; OpenCL program binaries,
 * backend/opencl/program_cache.c). kernel_cache.c: the directory, its
 * private temporary fallback, and entries that prove what they are;
 * kernel_cache_stats.c: the shared counters, the size cap, eviction and the
 * report `cubridge cache stats` prints. docs/cpu-backend.md ("The JIT
 * cache") describes the directory and its rules.
 *
 * A backend decides what an entry holds and what its key is made of (a
 * configuration hash: compiler, flags, device); this layer stores and finds
 * the bytes. Every kind of entry lives in the one directory, under one
 * CUBRIDGE_CACHE_MAX, with counters of its own. */
#ifndef CB_BACKEND_KERNEL_CACHE_H
#define CB_BACKEND_KERNEL_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "platform/thread.h"

/* The trailer after an entry's bytes: "CBJIT2\0\0", size, SHA-256 of the
 * source, of the configuration, and of the bytes plus trailer head. */
#define CB_KERNEL_CACHE_TRAILER_LEN 112
/* A hit refreshes its entry's mtime (the LRU order) when older than this. */
#define CB_KERNEL_CACHE_TOUCH_AFTER 60
/* CUBRIDGE_CACHE_MAX when unset. */
#define CB_KERNEL_CACHE_DEFAULT_MAX ((uint64_t)512 << 20)

/* A kind of entry: what its files are called. */
typedef struct cb_kernel_cache_kind {
    const char *name;        /* "cpu", "opencl" */
    const char *entry_ext;   /* <key>.<entry_ext>: the bytes and trailer */
    const char *source_ext;  /* <key>.<source_ext>: the source, for people */
    const char *stats_name;  /* its counters' file */
} cb_kernel_cache_kind;

/* The kinds this build knows (every build knows them all, so `cubridge
 * cache` reports a directory that another build shares). */
extern const cb_kernel_cache_kind cb_kernel_cache_cpu;     /* .so, .c, "stats" */
extern const cb_kernel_cache_kind cb_kernel_cache_opencl;  /* .clbin, .cl, "stats-opencl" */
/* cb_kernel_cache_kinds[i] for i < CB_KERNEL_CACHE_NKINDS. */
#define CB_KERNEL_CACHE_NKINDS 2
extern const cb_kernel_cache_kind *const cb_kernel_cache_kinds[CB_KERNEL_CACHE_NKINDS];

typedef struct cb_kernel_cache {
    const cb_kernel_cache_kind *kind;
    char dir[4096];          /* the directory, as configured or made */
    int dirfd;               /* that directory, opened and checked (fs_at.h) */
    int is_temp;             /* a private temporary directory, removed at close and at exit */
    pid_t temp_pid;          /* the process that made it */
    struct cb_kernel_cache *next_temp;
    int stats_fd;            /* the kind's counters (of all processes), or -1 */
    int lock_fd;             /* "lock" (held while evicting), or -1 */
    uint64_t max_bytes;      /* CUBRIDGE_CACHE_MAX; 0: no cap */
    cb_mutex stats_lock;     /* one thread at a time on stats_fd (flock is per open file) */
} cb_kernel_cache;

/* Picks and checks the cache directory (CUBRIDGE_CACHE_DIR, else
 * $XDG_CACHE_HOME/cubridge, else ~/.cache/cubridge) for entries of kind;
 * when it or a directory above it is unsafe, warns once and uses a private
 * temporary directory (removed at close or exit). Returns 0, or -1 if not
 * even that could be made. */
int cb_kernel_cache_open(cb_kernel_cache *c, const cb_kernel_cache_kind *kind);
/* Closes it; removes a temporary directory. */
void cb_kernel_cache_close(cb_kernel_cache *c);

/* The key (64 hex digits) of a source whose SHA-256 is src under the
 * configuration whose SHA-256 is cfg. */
void cb_kernel_cache_key(const unsigned char cfg[32], const unsigned char src[32], char key[65]);
/* Reads entry key and checks that it is the entry of (src, cfg): its
 * trailer, its size and its hash. Returns 1 and the bytes (trailer removed,
 * malloc'd in *bytes) on a good entry, 0 when there is none, -1 (logged as a
 * warning: why it is refused) when it is bad. A hit refreshes the entry's
 * mtime. */
int cb_kernel_cache_lookup(cb_kernel_cache *c, const char *key, const unsigned char src[32],
                           const unsigned char cfg[32], unsigned char **bytes, size_t *len);
/* Publishes bytes as entry key (one file, one rename), then, when source is
 * not NULL, the source beside it (for people). Returns 0, or -1 with errno
 * (the entry is not stored). */
int cb_kernel_cache_store(cb_kernel_cache *c, const char *key, const unsigned char src[32],
                          const unsigned char cfg[32], const unsigned char *bytes, size_t len, const char *source,
                          size_t source_len);
/* Why the entry file's bytes are not the entry of (src, cfg), or NULL when
 * they are (what lookup checks). */
const char *cb_kernel_cache_entry_fault(const unsigned char *bytes, size_t len, const unsigned char src[32],
                                        const unsigned char cfg[32]);

/* The configured directory (as cb_kernel_cache_open picks it), or "". */
void cb_kernel_cache_configured_dir(char *out, size_t len);
/* Parses a size: digits, then K, M, G or T (binary, optionally "iB" or
 * "B"). Returns 0, or -1 when s is not one. */
int cb_kernel_cache_parse_size(const char *s, uint64_t *out);
/* CUBRIDGE_CACHE_MAX in bytes (0: no cap); the default when unset or bad
 * (warning once when warn is set). */
uint64_t cb_kernel_cache_max_bytes(int warn);

/* ---- kernel_cache_stats.c --------------------------------------------------- */

/* Opens the kind's counters and the directory's "lock" (either may fail:
 * no counters, no eviction lock). */
void cb_kernel_cache_stats_open(cb_kernel_cache *c);
void cb_kernel_cache_stats_close(cb_kernel_cache *c);
/* Adds to the kind's shared counters (under flock and stats_lock). */
void cb_kernel_cache_stats_add(cb_kernel_cache *c, uint64_t hits, uint64_t misses, uint64_t evicted,
                               uint64_t evicted_bytes, uint64_t rebuilt);
/* When the directory is over max_bytes: removes least recently used entries
 * of any kind (never keep) until it is not, unless another process is
 * evicting now. */
void cb_kernel_cache_evict(cb_kernel_cache *c, const char *keep);

/* What a cache directory holds of one kind of entry (`cubridge cache
 * stats`). The counters are those of every process that used it since the
 * kind's counters file was made (kernel_cache_stats.c says how exact). */
typedef struct cb_kernel_cache_report {
    uint64_t entries;        /* <key>.<entry_ext> files */
    uint64_t entry_bytes;    /* their files' bytes (entries and sources) */
    uint64_t bytes;          /* all the directory's regular files, of every kind */
    int64_t oldest_use;      /* last use (mtime) of the least recently used entry, Unix seconds; 0: none */
    int64_t newest_use;      /* ... of the most recently used */
    uint64_t max_bytes;      /* CUBRIDGE_CACHE_MAX of this environment (0: no cap) */
    int has_counters;        /* a counters file was found */
    int64_t since;           /* when its counting began */
    uint64_t hits, misses, evicted, evicted_bytes, rebuilt;
    char refused[512];       /* why processes would not use the directory (they fall back), or "" */
} cb_kernel_cache_report;
/* Fills out for the entries of kind in cache directory dir. Returns 0, or
 * -1 with errno (ENOENT: dir does not exist). */
int cb_kernel_cache_info(const char *dir, const cb_kernel_cache_kind *kind, cb_kernel_cache_report *out);

#endif
