/* kernel_cache_stats.c: the compile cache's shared counters, its size cap
 * and the eviction of least recently used entries; what `cubridge cache
 * stats` reads (kernel_cache.h).
 *
 * Each kind of entry has its counters' file ("stats" for the CPU's,
 * "stats-opencl" for OpenCL's), of 56 bytes: "CBSTAT1\0", then as u64 little-endian the time of
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
 * CUBRIDGE_CACHE_MAX removes whole entries of any kind (every <key>.* file:
 * the entry first, then its source and an old <key>.sha256) in order of
 * their last use: the mtime of their entry file, which a hit refreshes.
 * The evictions are counted in the counters of the kind that evicted.
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

#include "backend/kernel_cache.h"
#include "platform/fs_at.h"
#include "platform/log.h"

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

void cb_kernel_cache_stats_open(cb_kernel_cache *c)
{
    c->stats_fd = cb_fs_at_open_rw(c->dirfd, c->kind->stats_name);
    c->lock_fd = cb_fs_at_open_rw(c->dirfd, "lock");
}

void cb_kernel_cache_stats_close(cb_kernel_cache *c)
{
    cb_fs_close(c->stats_fd);
    cb_fs_close(c->lock_fd);
    c->stats_fd = c->lock_fd = -1;
}

void cb_kernel_cache_stats_add(cb_kernel_cache *c, uint64_t hits, uint64_t misses, uint64_t evicted,
                               uint64_t evicted_bytes, uint64_t rebuilt)
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

/* The kind whose entry file has extension ext, or -1; *known: ext is a
 * file of some kind's entry (its bytes, its source, or the old .sha256). */
static int kind_of_ext(const char *ext, int *known)
{
    *known = strcmp(ext, "sha256") == 0;
    for (int k = 0; k < CB_KERNEL_CACHE_NKINDS; k++) {
        if (strcmp(ext, cb_kernel_cache_kinds[k]->entry_ext) == 0) {
            *known = 1;
            return k;
        }
        *known |= strcmp(ext, cb_kernel_cache_kinds[k]->source_ext) == 0;
    }
    return -1;
}

/* 1 when name is <64 lower-case hex digits>.<ext of an entry's file>. */
static int entry_key_of(const char *name, char key[65], int *kind)
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
    int known;
    *kind = kind_of_ext(name + 65, &known);
    return known;
}

static int is_temp_name(const char *name) { return strncmp(name, "tmp-", 4) == 0 || strstr(name, ".tmp") != NULL; }

/* One entry: its files and its last use. */
typedef struct cache_group {
    char key[65];
    uint64_t bytes;
    int64_t used;        /* its entry file's mtime (a hit touches it), else the newest file's */
    int kind;            /* the kind of its entry file, or -1 (a source alone, an old .sha256) */
    size_t first, nfiles; /* its files: scan.files[first .. first + nfiles) */
} cache_group;

typedef struct cache_scan {
    cb_fs_entry *files;
    size_t nfiles;
    cache_group *groups;
    size_t ngroups;
    uint64_t bytes;      /* every regular file */
} cache_scan;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const cb_fs_entry *)a)->name, ((const cb_fs_entry *)b)->name);
}

static int by_use(const void *a, const void *b)
{
    const cache_group *x = a, *y = b;
    return x->used < y->used ? -1 : x->used > y->used ? 1 : strcmp(x->key, y->key);
}

/* Lists dirfd and groups the entries' files (sorted by name, so one key's
 * files are consecutive); when stale_remove is set, removes temporary files
 * older than an hour on the way. */
static int scan_dir(int dirfd, int stale_remove, cache_scan *s)
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
        int kind;
        if (is_temp_name(f->name) || !entry_key_of(f->name, key, &kind))
            continue;
        cache_group *g = s->ngroups ? &s->groups[s->ngroups - 1] : NULL;
        if (!g || strcmp(g->key, key) != 0) {
            g = &s->groups[s->ngroups++];
            memcpy(g->key, key, sizeof g->key);
            g->kind = -1;
            g->first = i;
        }
        g->nfiles = i + 1 - g->first;
        g->bytes += f->size;
        if (kind >= 0) {
            g->kind = kind;
            g->used = f->mtime;
        } else if (g->kind < 0 && f->mtime > g->used) {
            g->used = f->mtime;
        }
    }
    return 0;
}

static void scan_free(cache_scan *s)
{
    free(s->files);
    free(s->groups);
}

/* Removes group g's files: its entry first (so nobody finds a source
 * without it and takes it for an entry), then the others. */
static void remove_group(int dirfd, const cache_scan *s, const cache_group *g)
{
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = g->first; i < g->first + g->nfiles; i++) {
            const cb_fs_entry *f = &s->files[i];
            char key[65];
            int kind;
            if (!f->is_file || is_temp_name(f->name) || !entry_key_of(f->name, key, &kind) || strcmp(key, g->key))
                continue;
            if ((kind >= 0) == (pass == 0))
                cb_fs_at_remove(dirfd, f->name);
        }
    }
}

void cb_kernel_cache_evict(cb_kernel_cache *c, const char *keep)
{
    if (c->max_bytes == 0 || c->lock_fd < 0 || cb_fs_lock(c->lock_fd, 1, 0) != 0)
        return;
    cache_scan s;
    if (scan_dir(c->dirfd, 1, &s) == 0) {
        uint64_t evicted = 0, evicted_bytes = 0;
        if (s.bytes > c->max_bytes) {
            /* sorting the groups leaves the files where they are: remove_group reads them by index */
            qsort(s.groups, s.ngroups, sizeof *s.groups, by_use);
            for (size_t i = 0; i < s.ngroups && s.bytes > c->max_bytes; i++) {
                cache_group *g = &s.groups[i];
                if (keep && strcmp(g->key, keep) == 0)
                    continue;
                remove_group(c->dirfd, &s, g);
                s.bytes -= g->bytes < s.bytes ? g->bytes : s.bytes;
                evicted++;
                evicted_bytes += g->bytes;
            }
        }
        scan_free(&s);
        if (evicted) {
            cb_log(CB_LOG_DEBUG, "JIT cache %s: evicted %llu entries (%llu bytes) to stay under %llu bytes", c->dir,
                       (unsigned long long)evicted, (unsigned long long)evicted_bytes,
                       (unsigned long long)c->max_bytes);
            cb_kernel_cache_stats_add(c, 0, 0, evicted, evicted_bytes, 0);
        }
    }
    cb_fs_unlock(c->lock_fd);
}

/* ---- the report ------------------------------------------------------------ */

int cb_kernel_cache_info(const char *dir, const cb_kernel_cache_kind *kind, cb_kernel_cache_report *out)
{
    memset(out, 0, sizeof *out);
    out->max_bytes = cb_kernel_cache_max_bytes(0);
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
    cache_scan s;
    if (scan_dir(fd, 0, &s) != 0) {
        int e = errno;
        cb_fs_close(fd);
        errno = e;
        return -1;
    }
    out->bytes = s.bytes;
    for (size_t i = 0; i < s.ngroups; i++) {
        cache_group *g = &s.groups[i];
        if (g->kind < 0 || cb_kernel_cache_kinds[g->kind] != kind)
            continue;
        out->entries++;
        out->entry_bytes += g->bytes;
        if (out->oldest_use == 0 || g->used < out->oldest_use)
            out->oldest_use = g->used;
        if (g->used > out->newest_use)
            out->newest_use = g->used;
    }
    scan_free(&s);
    int sfd = cb_fs_at_open_read(fd, kind->stats_name);
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
