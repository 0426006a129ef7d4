/* kernel_cache.c: the compile cache's directory and its entries
 * (kernel_cache.h), for every backend that keeps compiled kernels.
 *
 * Layout of the cache directory (owned by the user, writable by nobody else,
 * and so is every directory above it up to "/", sticky ones excepted):
 *   <key>.<entry>  one file: the compiled bytes (a CPU shared object .so, an
 *                  OpenCL program binary .clbin), then a 112-byte trailer:
 *                  "CBJIT2\0\0", the size of the bytes (u64, little-endian),
 *                  the SHA-256 of the source, the SHA-256 of the build
 *                  configuration, and the SHA-256 of the bytes and the 80
 *                  trailer bytes before it
 *   <key>.<source> the source it was built from (.c, .cl; for people, never
 *                  read back)
 *   stats, stats-opencl  each kind's hits, misses and evictions of every
 *                  process (kernel_cache_stats.c)
 *   lock           taken (flock) by the process that evicts
 * key = SHA-256 of the configuration's and the source's hashes; what the
 * configuration holds is the backend's (the compiler and its flags, the
 * device and its driver).
 * An entry proves what it is: lookup checks that its trailer names the
 * source and configuration of the key it looked up (a valid entry copied
 * over another key is refused), that its size and hash match its bytes, and
 * only then hands the bytes (trailer removed) to the backend.
 * Every file is opened relative to the directory's descriptor, checked once
 * from "/" (platform/fs_at.c), without following symbolic links.
 * An entry is written whole under a temporary name in the directory and
 * published by one rename, so concurrent processes see a whole entry or none.
 * A bad entry is reported and never handed out: the backend rebuilds it.
 *
 * Process-wide state: the list of private temporary directories to remove
 * at exit (kernel_cache_temps). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/kernel_cache.h"
#include "platform/fs.h"
#include "platform/fs_at.h"
#include "platform/log.h"
#include "platform/sha256.h"

/* Temporary folders of killed processes are removed after this long. */
#define TEMP_SWEEP_AGE 600

const cb_kernel_cache_kind cb_kernel_cache_cpu = {"cpu", "so", "c", "stats"};
const cb_kernel_cache_kind cb_kernel_cache_opencl = {"opencl", "clbin", "cl", "stats-opencl"};
const cb_kernel_cache_kind *const cb_kernel_cache_kinds[CB_KERNEL_CACHE_NKINDS] = {&cb_kernel_cache_cpu,
                                                                                   &cb_kernel_cache_opencl};

/* ---- private temporary directories, removed at exit ---------------------- */

static struct {
    cb_mutex lock;
    cb_kernel_cache *list;
    int hooked;
} kernel_cache_temps = {.lock = CB_MUTEX_INIT};

/* At exit: removes the temporary directories this process made (a forked
 * child that exits leaves its parent's alone). */
static void temps_at_exit(void)
{
    cb_mutex_lock(&kernel_cache_temps.lock);
    for (cb_kernel_cache *c = kernel_cache_temps.list; c; c = c->next_temp) {
        if (c->temp_pid == getpid() && c->dirfd >= 0) {
            cb_fs_temp_dir_remove(c->dirfd, c->dir);
            c->dirfd = -1;
        }
    }
    kernel_cache_temps.list = NULL;
    cb_mutex_unlock(&kernel_cache_temps.lock);
}

static void temps_add(cb_kernel_cache *c)
{
    cb_mutex_lock(&kernel_cache_temps.lock);
    c->temp_pid = getpid();
    c->next_temp = kernel_cache_temps.list;
    kernel_cache_temps.list = c;
    if (!kernel_cache_temps.hooked)
        kernel_cache_temps.hooked = atexit(temps_at_exit) == 0;
    cb_mutex_unlock(&kernel_cache_temps.lock);
}

/* Takes c off the list. */
static void temps_remove(cb_kernel_cache *c)
{
    cb_mutex_lock(&kernel_cache_temps.lock);
    for (cb_kernel_cache **p = &kernel_cache_temps.list; *p; p = &(*p)->next_temp) {
        if (*p == c) {
            *p = c->next_temp;
            break;
        }
    }
    cb_mutex_unlock(&kernel_cache_temps.lock);
}

/* ---- opening ------------------------------------------------------------- */

/* The configured directory, or "" when no candidate exists. XDG_CACHE_HOME
 * counts only when absolute, as the XDG base directory specification says. */
void cb_kernel_cache_configured_dir(char *out, size_t len)
{
    const char *dir = getenv("CUBRIDGE_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = cb_fs_home_dir();
    if (dir && *dir)
        snprintf(out, len, "%s", dir);
    else if (xdg && xdg[0] == '/')
        snprintf(out, len, "%s/cubridge", xdg);
    else if (home && *home)
        snprintf(out, len, "%s/.cache/cubridge", home);
    else
        out[0] = 0;
}

int cb_kernel_cache_parse_size(const char *s, uint64_t *out)
{
    char *end;
    if (!s || !*s || *s == '-')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    int shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: break;
    }
    if (shift && (*end == 'i' || *end == 'I'))
        end++;
    if (*end == 'b' || *end == 'B')
        end++;
    if (*end || (shift && v > (~0ull >> shift)))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

uint64_t cb_kernel_cache_max_bytes(int warn)
{
    const char *s = getenv("CUBRIDGE_CACHE_MAX");
    uint64_t v;
    if (!s || !*s)
        return CB_KERNEL_CACHE_DEFAULT_MAX;
    if (cb_kernel_cache_parse_size(s, &v) != 0) {
        if (warn)
            cb_log(CB_LOG_WARN, "ignoring CUBRIDGE_CACHE_MAX=%s (not a size such as 512M; 0 for no limit)", s);
        return CB_KERNEL_CACHE_DEFAULT_MAX;
    }
    return v;
}

int cb_kernel_cache_open(cb_kernel_cache *c, const cb_kernel_cache_kind *kind)
{
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->dirfd = c->stats_fd = c->lock_fd = -1;
    cb_mutex_init(&c->stats_lock);
    c->max_bytes = cb_kernel_cache_max_bytes(1);

    char why[1024] = "no HOME, XDG_CACHE_HOME or CUBRIDGE_CACHE_DIR";
    cb_kernel_cache_configured_dir(c->dir, sizeof c->dir);
    if (c->dir[0] && c->dir[0] != '/') {
        /* Compilers get paths in it: absolute, in case the program changes
         * its working directory. */
        char cwd[4096], abs[8200];
        if (getcwd(cwd, sizeof cwd) &&
            (size_t)snprintf(abs, sizeof abs, "%s/%s", cwd, c->dir) < sizeof c->dir)
            memcpy(c->dir, abs, strlen(abs) + 1);
    }
    if (c->dir[0]) {
        c->dirfd = cb_fs_dir_open_checked(c->dir, CB_FS_CREATE, why, sizeof why);
        if (c->dirfd >= 0) {
            cb_kernel_cache_stats_open(c);
            return 0;
        }
    }
    char refused[4096];
    snprintf(refused, sizeof refused, "%s", c->dir[0] ? c->dir : "(none)");
    char twhy[1024];
    c->dirfd = cb_fs_temp_dir_open("cubridge-jit-", TEMP_SWEEP_AGE, c->dir, sizeof c->dir, twhy, sizeof twhy);
    if (c->dirfd < 0) {
        cb_log(CB_LOG_ERROR, "no usable JIT cache directory: %s: %s; and no private temporary one: %s", refused,
                   why, twhy);
        cb_mutex_destroy(&c->stats_lock);
        return -1;
    }
    c->is_temp = 1;
    temps_add(c);
    cb_kernel_cache_stats_open(c);
    cb_log(CB_LOG_WARN, "refusing JIT cache directory %s (%s); using private temporary directory %s (removed at exit)",
               refused, why, c->dir);
    return 0;
}

void cb_kernel_cache_close(cb_kernel_cache *c)
{
    cb_kernel_cache_stats_close(c);
    if (c->is_temp) {
        temps_remove(c);
        if (c->dirfd >= 0) /* not already removed at exit */
            cb_fs_temp_dir_remove(c->dirfd, c->dir);
    } else {
        cb_fs_close(c->dirfd);
    }
    c->dirfd = -1;
    cb_mutex_destroy(&c->stats_lock);
}

/* ---- keys and entries ------------------------------------------------------ */

void cb_kernel_cache_key(const unsigned char cfg[32], const unsigned char src[32], char key[65])
{
    cb_sha256 s;
    unsigned char digest[32];
    cb_sha256_init(&s);
    cb_sha256_update(&s, "cubridge-jit-key\n", 17);
    cb_sha256_update(&s, cfg, 32);
    cb_sha256_update(&s, src, 32);
    cb_sha256_final(&s, digest);
    cb_sha256_hex(digest, key);
}

#define MAGIC "CBJIT2\0\0"
#define MAGIC_V1 "CBJIT1\0\0"
#define MAGIC_LEN 8

/* The trailer that follows len bytes built from src under cfg. */
static void entry_trailer(const unsigned char *bytes, size_t len, const unsigned char src[32],
                          const unsigned char cfg[32], unsigned char out[CB_KERNEL_CACHE_TRAILER_LEN])
{
    memcpy(out, MAGIC, MAGIC_LEN);
    uint64_t n = (uint64_t)len;
    for (int i = 0; i < 8; i++)
        out[MAGIC_LEN + i] = (unsigned char)(n >> (8 * i));
    memcpy(out + 16, src, 32);
    memcpy(out + 48, cfg, 32);
    cb_sha256 s;
    cb_sha256_init(&s);
    cb_sha256_update(&s, bytes, len);
    cb_sha256_update(&s, out, 80);
    cb_sha256_final(&s, out + 80);
}

const char *cb_kernel_cache_entry_fault(const unsigned char *bytes, size_t len, const unsigned char src[32],
                                        const unsigned char cfg[32])
{
    if (len >= 48 && memcmp(bytes + len - 48, MAGIC_V1, MAGIC_LEN) == 0)
        return "an entry of an older format (CBJIT1, without source and configuration hashes)";
    if (len < CB_KERNEL_CACHE_TRAILER_LEN || memcmp(bytes + len - CB_KERNEL_CACHE_TRAILER_LEN, MAGIC, MAGIC_LEN) != 0)
        return "no entry trailer (truncated, or not written by this version)";
    const unsigned char *t = bytes + len - CB_KERNEL_CACHE_TRAILER_LEN;
    uint64_t n = 0;
    for (int i = 0; i < 8; i++)
        n |= (uint64_t)t[MAGIC_LEN + i] << (8 * i);
    if (n != (uint64_t)(len - CB_KERNEL_CACHE_TRAILER_LEN))
        return "the object size in its trailer does not match (truncated or modified)";
    if (memcmp(t + 16, src, 32) != 0)
        return "it was built from another kernel source (another entry copied or renamed over it?)";
    if (memcmp(t + 48, cfg, 32) != 0)
        return "it was built by another compiler, other flags or another kernel ABI";
    unsigned char want[CB_KERNEL_CACHE_TRAILER_LEN];
    entry_trailer(bytes, len - CB_KERNEL_CACHE_TRAILER_LEN, src, cfg, want);
    if (memcmp(t + 80, want + 80, 32) != 0)
        return "its bytes do not match the SHA-256 in its trailer (modified)";
    return NULL;
}

int cb_kernel_cache_lookup(cb_kernel_cache *c, const char *key, const unsigned char src[32],
                           const unsigned char cfg[32], unsigned char **out, size_t *out_len)
{
    char name[96];
    snprintf(name, sizeof name, "%s.%s", key, c->kind->entry_ext);
    unsigned char *bytes = NULL;
    size_t len;
    int64_t mtime = 0;
    if (cb_fs_at_read(c->dirfd, name, &bytes, &len, &mtime) != 0) {
        if (errno == ENOENT)
            return 0;
        cb_log(CB_LOG_WARN, "JIT cache entry %s/%s cannot be read: %s; rebuilding it", c->dir, name,
                   errno == ELOOP    ? "a symbolic link (never followed)"
                   : errno == EINVAL ? "not a regular file"
                                     : strerror(errno));
        return -1;
    }
    const char *why = cb_kernel_cache_entry_fault(bytes, len, src, cfg);
    if (why) {
        cb_log(CB_LOG_WARN, "JIT cache entry %s/%s is refused: %s; rebuilding it", c->dir, name, why);
        free(bytes);
        return -1;
    }
    /* Least recently used order for eviction: the mtime, a minute fine. */
    if ((int64_t)time(NULL) - mtime >= CB_KERNEL_CACHE_TOUCH_AFTER)
        cb_fs_at_touch(c->dirfd, name);
    *out = bytes;
    *out_len = len - CB_KERNEL_CACHE_TRAILER_LEN;
    return 1;
}

int cb_kernel_cache_store(cb_kernel_cache *c, const char *key, const unsigned char src[32],
                          const unsigned char cfg[32], const unsigned char *bytes, size_t len, const char *source,
                          size_t source_len)
{
    unsigned char *entry = malloc(len + CB_KERNEL_CACHE_TRAILER_LEN);
    if (!entry) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(entry, bytes, len);
    entry_trailer(bytes, len, src, cfg, entry + len);
    char name[96];
    snprintf(name, sizeof name, "%s.%s", key, c->kind->entry_ext);
    int rc = cb_fs_at_write_atomic(c->dirfd, name, entry, len + CB_KERNEL_CACHE_TRAILER_LEN);
    int saved = errno;
    free(entry);
    if (rc == 0 && source) {
        snprintf(name, sizeof name, "%s.%s", key, c->kind->source_ext);
        cb_fs_at_write_atomic(c->dirfd, name, source, source_len);   /* for people only: best effort */
    }
    errno = saved;
    return rc;
}
