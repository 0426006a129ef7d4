/* jit_cache_stats.c: the JIT cache's shared counters, its size cap and the
 * eviction of least recently used entries; what `cubridge cache stats`
 * reads.
 *
 * "stats" holds 56 bytes: "CBSTAT1\0", then as u64 little-endian the time of
 * the first count (Unix seconds), hits, misses, evicted entries, evicted
 * bytes and entries found bad and rebuilt. Every process adds to it under an
 * exclusive flock (read, add, write back), so concurrent processes never
 * lose each other's counts; a process killed between its lookup and the
 * update loses that one count, and a full disk stops counting (the counters
 * are a report, not a proof).
 *
 * Eviction runs after a process stored a new entry, under a non-blocking
 * flock on "lock" (one evicting process at a time; the others skip). It
 * adds up the regular files of the directory, and while they are more than
 * CUBRIDGE_CACHE_MAX removes whole entries (<key>.so, then <key>.c and an
 * old <key>.sha256) in order of their .so's mtime, which a hit refreshes.
 * Temporary files older than an hour (a writer that died) go too. A process
 * that has an entry open keeps reading it after it is removed (the loader
 * reads it whole into memory), and one that finds it gone compiles it
 * again: eviction never makes anyone load a wrong or partial entry. The cap
 * can be passed by the entries being written at that moment.
 *
 * Process-wide state: none. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_internal.h"
#include "platform/fs_at.h"

#define STATS_MAGIC "CBSTAT1\0"
#define STATS_LEN 56
enum { STAT_SINCE, STAT_HITS, STAT_MISSES, STAT_EVICTED, STAT_EVICTED_BYTES, STAT_REBUILT, STAT_N };
/* Temporary files are a dead writer's after this many seconds. */
#define STALE_TEMP_AGE 3600

static void stats_decode(const unsigned char *b, int n, uint64_t v[STAT_N])
{
    memset(v, 0, STAT_N * sizeof v[0]);
    if (n < STATS_LEN || memcmp(b, STATS_MAGIC, 8) != 0)
        return;
    for (int f = 0; f < STAT_N; f++)
        for (int i = 0; i < 8; i++)
            v[f] |= (uint64_t)b[8 + 8 * f + i] << (8 * i);
}

static void stats_encode(const uint64_t v[STAT_N], unsigned char *b)
{
    memcpy(b, STATS_MAGIC, 8);
    for (int f = 0; f < STAT_N; f++)
        for (int i = 0; i < 8; i++)
            b[8 + 8 * f + i] = (unsigned char)(v[f] >> (8 * i));
}

void cb_jit_stats_open(cb_jit_cache *c)
{
    c->stats_fd = cb_fs_at_open_rw(c->dirfd, "stats");
    c->lock_fd = cb_fs_at_open_rw(c->dirfd, "lock");
}

void cb_jit_stats_close(cb_jit_cache *c)
{
    cb_fs_close(c->stats_fd);
    cb_fs_close(c->lock_fd);
    c->stats_fd = c->lock_fd = -1;
}

void cb_jit_stats_add(cb_jit_cache *c, uint64_t hits, uint64_t misses, uint64_t evicted, uint64_t evicted_bytes,
                      uint64_t rebuilt)
{
    if (c->stats_fd < 0)
        return;
    cb_mutex_lock(&c->stats_lock);
    if (cb_fs_lock(c->stats_fd, 1, 1) == 0) {
        unsigned char b[STATS_LEN] = {0};
        uint64_t v[STAT_N];
        stats_decode(b, cb_fs_pread(c->stats_fd, b, sizeof b, 0), v);
        if (v[STAT_SINCE] == 0)
            v[STAT_SINCE] = (uint64_t)time(NULL);
        v[STAT_HITS] += hits;
        v[STAT_MISSES] += misses;
        v[STAT_EVICTED] += evicted;
        v[STAT_EVICTED_BYTES] += evicted_bytes;
        v[STAT_REBUILT] += rebuilt;
        stats_encode(v, b);
        cb_fs_pwrite(c->stats_fd, b, sizeof b, 0);
        cb_fs_unlock(c->stats_fd);
    }
    cb_mutex_unlock(&c->stats_lock);
}

/* ---- the directory's files ------------------------------------------------ */

/* 1 when name is <64 lower-case hex digits>.<ext>. */
static int entry_key_of(const char *name, char key[65], const char **ext)
{
    for (int i = 0; i < 64; i++) {
        char ch = name[i];
        if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')))
            return 0;
    }
    if (name[64] != '.')
        return 0;
    memcpy(key, name, 64);
    key[64] = 0;
    *ext = name + 65;
    return strcmp(*ext, "so") == 0 || strcmp(*ext, "c") == 0 || strcmp(*ext, "sha256") == 0;
}

static int is_temp_name(const char *name) { return strncmp(name, "tmp-", 4) == 0 || strstr(name, ".tmp") != NULL; }

/* One entry: its files and its last use. */
typedef struct jit_group {
    char key[65];
    uint64_t bytes;
    int64_t used;        /* the .so's mtime, else the newest file's */
    int has_so;
} jit_group;

typedef struct jit_scan {
    cb_fs_entry *files;
    size_t nfiles;
    jit_group *groups;
    size_t ngroups;
    uint64_t bytes;      /* every regular file */
} jit_scan;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const cb_fs_entry *)a)->name, ((const cb_fs_entry *)b)->name);
}

static int by_use(const void *a, const void *b)
{
    const jit_group *x = a, *y = b;
    return x->used < y->used ? -1 : x->used > y->used ? 1 : strcmp(x->key, y->key);
}

/* Lists dirfd and groups the entries' files; when stale_remove is set,
 * removes temporary files older than an hour on the way. */
static int jit_scan_dir(int dirfd, int stale_remove, jit_scan *s)
{
    memset(s, 0, sizeof *s);
    if (cb_fs_at_list(dirfd, &s->files, &s->nfiles) != 0)
        return -1;
    if (s->nfiles)
        qsort(s->files, s->nfiles, sizeof *s->files, by_name);
    s->groups = calloc(s->nfiles ? s->nfiles : 1, sizeof *s->groups);
    if (!s->groups) {
        free(s->files);
        return -1;
    }
    int64_t now = (int64_t)time(NULL);
    for (size_t i = 0; i < s->nfiles; i++) {
        cb_fs_entry *f = &s->files[i];
        if (!f->is_file)
            continue;
        if (stale_remove && is_temp_name(f->name) && now - f->mtime > STALE_TEMP_AGE &&
            cb_fs_at_remove(dirfd, f->name) == 0)
            continue;
        s->bytes += f->size;
        char key[65];
        const char *ext;
        if (is_temp_name(f->name) || !entry_key_of(f->name, key, &ext))
            continue;
        jit_group *g = s->ngroups ? &s->groups[s->ngroups - 1] : NULL;
        if (!g || strcmp(g->key, key) != 0) {
            g = &s->groups[s->ngroups++];
            memcpy(g->key, key, sizeof g->key);
        }
        g->bytes += f->size;
        if (strcmp(ext, "so") == 0) {
            g->has_so = 1;
            g->used = f->mtime;
        } else if (!g->has_so && f->mtime > g->used) {
            g->used = f->mtime;
        }
    }
    return 0;
}

static void jit_scan_free(jit_scan *s)
{
    free(s->files);
    free(s->groups);
}

void cb_jit_evict(cb_jit_cache *c, const char *keep)
{
    if (c->max_bytes == 0 || c->lock_fd < 0 || cb_fs_lock(c->lock_fd, 1, 0) != 0)
        return;
    jit_scan s;
    if (jit_scan_dir(c->dirfd, 1, &s) == 0) {
        uint64_t evicted = 0, evicted_bytes = 0;
        if (s.bytes > c->max_bytes) {
            qsort(s.groups, s.ngroups, sizeof *s.groups, by_use);
            for (size_t i = 0; i < s.ngroups && s.bytes > c->max_bytes; i++) {
                jit_group *g = &s.groups[i];
                if (keep && strcmp(g->key, keep) == 0)
                    continue;
                static const char *const exts[] = {"so", "c", "sha256"};
                for (size_t e = 0; e < sizeof exts / sizeof exts[0]; e++) {
                    char name[80];
                    snprintf(name, sizeof name, "%s.%s", g->key, exts[e]);
                    cb_fs_at_remove(c->dirfd, name);
                }
                s.bytes -= g->bytes < s.bytes ? g->bytes : s.bytes;
                evicted++;
                evicted_bytes += g->bytes;
            }
        }
        jit_scan_free(&s);
        if (evicted) {
            cb_log(CB_LOG_DEBUG, "JIT cache %s: evicted %llu entries (%llu bytes) to stay under %llu bytes", c->dir,
                       (unsigned long long)evicted, (unsigned long long)evicted_bytes,
                       (unsigned long long)c->max_bytes);
            cb_jit_stats_add(c, 0, 0, evicted, evicted_bytes, 0);
        }
    }
    cb_fs_unlock(c->lock_fd);
}

/* ---- the report ------------------------------------------------------------ */

int cb_cpu_cache_info(const char *dir, cb_cpu_cache_report *out)
{
    memset(out, 0, sizeof *out);
    out->max_bytes = cb_jit_max_bytes(0);
    int fd = cb_fs_dir_open_checked(dir, 0, out->refused, sizeof out->refused);
    if (fd < 0) {
        int e = errno;
        if (e == ENOENT)
            return -1;
        /* Report it anyway, saying why processes will not use it. */
        fd = cb_fs_dir_open_unchecked(dir);
        if (fd < 0) {
            errno = e;
            return -1;
        }
    }
    jit_scan s;
    if (jit_scan_dir(fd, 0, &s) != 0) {
        int e = errno;
        cb_fs_close(fd);
        errno = e;
        return -1;
    }
    out->bytes = s.bytes;
    for (size_t i = 0; i < s.ngroups; i++) {
        jit_group *g = &s.groups[i];
        if (!g->has_so)
            continue;
        out->entries++;
        if (out->oldest_use == 0 || g->used < out->oldest_use)
            out->oldest_use = g->used;
        if (g->used > out->newest_use)
            out->newest_use = g->used;
    }
    jit_scan_free(&s);
    int sfd = cb_fs_at_open_read(fd, "stats");
    if (sfd >= 0) {
        unsigned char b[STATS_LEN] = {0};
        uint64_t v[STAT_N];
        stats_decode(b, cb_fs_pread(sfd, b, sizeof b, 0), v);
        out->has_counters = memcmp(b, STATS_MAGIC, 8) == 0;
        out->since = (int64_t)v[STAT_SINCE];
        out->hits = v[STAT_HITS];
        out->misses = v[STAT_MISSES];
        out->evicted = v[STAT_EVICTED];
        out->evicted_bytes = v[STAT_EVICTED_BYTES];
        out->rebuilt = v[STAT_REBUILT];
        cb_fs_close(sfd);
    }
    cb_fs_close(fd);
    return 0;
}
