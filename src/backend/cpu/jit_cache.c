/* jit_cache.c: kernel C source -> shared-object bytes, through a cache.
 *
 * Layout of the cache directory (0700, owned by the user):
 *   <key>.so       one file: the object bytes, then a 48-byte trailer:
 *                  "CBJIT1\0\0", the object size (u64, little-endian) and
 *                  the SHA-256 of the object bytes
 *   <key>.c        the source it was built from (for people, never read back)
 * key = SHA-256 of the source, the compiler command and identity (first line
 * of `cc --version`), the flags, CB_KERNEL_ABI_VERSION and the entry format.
 * An entry is written whole under a temporary name in the directory and
 * published by one rename, so concurrent processes see a whole entry or none.
 * An entry whose trailer is missing or whose size or hash does not match its
 * bytes is reported, rebuilt and never loaded; only the object bytes (trailer
 * removed) reach the loader. Entries of the older two-file format (.so plus
 * .sha256 sidecar) have other keys and are ignored.
 *
 * Process-wide state: the hit and miss counters (cb_cpu_cache_stats).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_internal.h"
#include "platform/fs.h"
#include "platform/sha256.h"
#include "platform/sysinfo.h"

static atomic_uint jit_hits, jit_misses;

static const char *const jit_flags[] = {
    "-O2", "-fPIC", "-shared", "-fno-strict-aliasing", "-ffp-contract=off", "-fwrapv",
};
#define JIT_NFLAGS (sizeof jit_flags / sizeof jit_flags[0])
#define JIT_MAX_ARGS 48
#define JIT_OUTPUT_MAX 16384

void cb_cpu_cache_stats(unsigned *hits, unsigned *misses)
{
    if (hits)
        *hits = atomic_load(&jit_hits);
    if (misses)
        *misses = atomic_load(&jit_misses);
}

/* The configured directory, or "" when no candidate exists. */
static void jit_configured_dir(char *out, size_t len)
{
    const char *dir = getenv("CUBRIDGE_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = cb_fs_home_dir();
    if (dir && *dir)
        snprintf(out, len, "%s", dir);
    else if (xdg && *xdg)
        snprintf(out, len, "%s/cubridge", xdg);
    else if (home && *home)
        snprintf(out, len, "%s/.cache/cubridge", home);
    else
        out[0] = 0;
}

int cb_jit_cache_open(cb_jit_cache *c)
{
    memset(c, 0, sizeof *c);
    cb_mutex_init(&c->lock);
    const char *cc = getenv("CUBRIDGE_HOST_CC");
    snprintf(c->cc, sizeof c->cc, "%s", cc && *cc ? cc : "cc");

    char why[256] = "no HOME, XDG_CACHE_HOME or CUBRIDGE_CACHE_DIR";
    jit_configured_dir(c->dir, sizeof c->dir);
    if (c->dir[0]) {
        if (cb_fs_mkdirs(c->dir, 0700) != 0)
            snprintf(why, sizeof why, "cannot create it: %s", strerror(errno));
        else if (cb_fs_dir_is_private(c->dir, why, sizeof why) == 0)
            return 0;
    }
    char refused[4096];
    snprintf(refused, sizeof refused, "%s", c->dir[0] ? c->dir : "(none)");
    if (cb_fs_make_temp_dir("cubridge-jit-", c->dir, sizeof c->dir) != 0) {
        cb_cpu_log(CPU_LOG_ERROR, "no usable JIT cache directory: %s: %s", refused, why);
        return -1;
    }
    c->is_temp = 1;
    cb_cpu_log(CPU_LOG_WARN, "refusing JIT cache directory %s (%s); using private temporary directory %s", refused,
               why, c->dir);
    return 0;
}

void cb_jit_cache_close(cb_jit_cache *c)
{
    if (c->is_temp && c->dir[0])
        cb_fs_remove_flat_dir(c->dir);
    cb_mutex_destroy(&c->lock);
}

/* Splits the compiler command on blanks into argv (pointing into storage).
 * Returns the number of words. */
static int jit_split_command(const char *cmd, char *storage, size_t storage_len, char **argv, int max)
{
    snprintf(storage, storage_len, "%s", cmd);
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(storage, " \t", &save); tok && n < max; tok = strtok_r(NULL, " \t", &save))
        argv[n++] = tok;
    return n;
}

/* Learns the first line of `cc --version`, once. Returns 0, or -1 when the
 * compiler cannot be run. */
static int jit_compiler_identity(cb_jit_cache *c)
{
    cb_mutex_lock(&c->lock);
    if (c->cc_state == 0) {
        char storage[1024], out[2048];
        char *argv[JIT_MAX_ARGS];
        int n = jit_split_command(c->cc, storage, sizeof storage, argv, JIT_MAX_ARGS - 2);
        argv[n++] = "--version";
        argv[n] = NULL;
        int start_errno;
        int rc = n > 1 ? cb_sys_run(argv, out, sizeof out, &start_errno) : -1;
        if (rc != 0) {
            c->cc_state = -1;
        } else {
            size_t n1 = strcspn(out, "\r\n");
            if (n1 >= sizeof c->cc_identity)
                n1 = sizeof c->cc_identity - 1;
            memcpy(c->cc_identity, out, n1);
            c->cc_identity[n1] = 0;
            c->cc_state = 1;
        }
    }
    int state = c->cc_state;
    cb_mutex_unlock(&c->lock);
    return state == 1 ? 0 : -1;
}

/* The cache key of source under this compiler, as hex. */
static void jit_key(const cb_jit_cache *c, const char *source, size_t len, char key[65])
{
    cb_sha256 s;
    char head[2048];
    int n = snprintf(head, sizeof head, "cubridge-jit 2\nabi %d\ncc %s\nidentity %s\nflags", CB_KERNEL_ABI_VERSION,
                     c->cc, c->cc_identity);
    cb_sha256_init(&s);
    cb_sha256_update(&s, head, (size_t)n);
    for (size_t i = 0; i < JIT_NFLAGS; i++) {
        cb_sha256_update(&s, " ", 1);
        cb_sha256_update(&s, jit_flags[i], strlen(jit_flags[i]));
    }
    n = snprintf(head, sizeof head, " -lm\nsource %zu\n", len);
    cb_sha256_update(&s, head, (size_t)n);
    cb_sha256_update(&s, source, len);
    unsigned char digest[32];
    cb_sha256_final(&s, digest);
    cb_sha256_hex(digest, key);
}

static void jit_path(const cb_jit_cache *c, const char *key, const char *ext, char *out, size_t len)
{
    snprintf(out, len, "%s/%s%s", c->dir, key, ext);
}

#define JIT_MAGIC "CBJIT1\0\0"
#define JIT_MAGIC_LEN 8
#define JIT_TRAILER_LEN (JIT_MAGIC_LEN + 8 + 32)

/* The trailer that follows len object bytes. */
static void jit_trailer(const unsigned char *so, size_t len, unsigned char out[JIT_TRAILER_LEN])
{
    memcpy(out, JIT_MAGIC, JIT_MAGIC_LEN);
    uint64_t n = (uint64_t)len;
    for (int i = 0; i < 8; i++)
        out[JIT_MAGIC_LEN + i] = (unsigned char)(n >> (8 * i));
    cb_sha256 s;
    cb_sha256_init(&s);
    cb_sha256_update(&s, so, len);
    cb_sha256_final(&s, out + JIT_MAGIC_LEN + 8);
}

/* Why the entry file's bytes are not a good entry, or NULL when they are. */
static const char *jit_entry_fault(const unsigned char *bytes, size_t len)
{
    if (len < JIT_TRAILER_LEN || memcmp(bytes + len - JIT_TRAILER_LEN, JIT_MAGIC, JIT_MAGIC_LEN) != 0)
        return "no entry trailer (truncated, or not written by this version)";
    const unsigned char *t = bytes + len - JIT_TRAILER_LEN;
    uint64_t n = 0;
    for (int i = 0; i < 8; i++)
        n |= (uint64_t)t[JIT_MAGIC_LEN + i] << (8 * i);
    if (n != (uint64_t)(len - JIT_TRAILER_LEN))
        return "the object size in its trailer does not match (truncated or modified)";
    unsigned char want[JIT_TRAILER_LEN];
    jit_trailer(bytes, len - JIT_TRAILER_LEN, want);
    if (memcmp(t, want, JIT_TRAILER_LEN) != 0)
        return "the object bytes do not match the SHA-256 in its trailer (modified)";
    return NULL;
}

/* Reads a cached entry and checks its trailer. Returns 1 and the object bytes
 * (trailer removed) on a good entry, 0 when there is none, -1 (logged) when it
 * is damaged. */
static int jit_lookup(const cb_jit_cache *c, const char *key, unsigned char **so, size_t *so_len)
{
    char path[4200];
    jit_path(c, key, ".so", path, sizeof path);
    unsigned char *bytes = NULL;
    size_t len;
    if (cb_fs_read_file(path, &bytes, &len) != 0)
        return 0;
    const char *why = jit_entry_fault(bytes, len);
    if (why) {
        cb_cpu_log(CPU_LOG_WARN, "JIT cache entry %s/%s is damaged: %s; rebuilding it", c->dir, key, why);
        free(bytes);
        return -1;
    }
    *so = bytes;
    *so_len = len - JIT_TRAILER_LEN;
    return 1;
}

/* Publishes the object bytes as entry key: one file, one rename. */
static int jit_store(const cb_jit_cache *c, const char *key, const unsigned char *so, size_t len)
{
    unsigned char *entry = malloc(len + JIT_TRAILER_LEN);
    if (!entry) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(entry, so, len);
    jit_trailer(so, len, entry + len);
    char path[4200];
    jit_path(c, key, ".so", path, sizeof path);
    int rc = cb_fs_write_atomic(path, entry, len + JIT_TRAILER_LEN);
    free(entry);
    return rc;
}

/* Copies the compiler's output from its first error line, at most 8 lines. */
static void jit_first_errors(const char *out, char *err, size_t errlen)
{
    const char *start = strstr(out, "error");
    if (start) {
        while (start > out && start[-1] != '\n')
            start--;
    } else {
        start = out;
    }
    size_t n = 0;
    int lines = 0;
    while (start[n] && lines < 8) {
        if (start[n] == '\n')
            lines++;
        n++;
    }
    while (n > 0 && (start[n - 1] == '\n' || start[n - 1] == ' '))
        n--;
    snprintf(err, errlen, "kernel C failed to compile:\n%.*s", (int)n, start);
}

/* Compiles source into the entry key. */
static CUresult jit_compile(cb_jit_cache *c, const char *key, const char *source, size_t len, unsigned char **so,
                            size_t *so_len, char *err, size_t errlen)
{
    char c_path[4200], so_tmp[4200], final[4200];
    if (cb_fs_make_temp_file(c->dir, "tmp-", ".c", c_path, sizeof c_path) != 0 ||
        cb_fs_write_file(c_path, source, len) != 0) {
        snprintf(err, errlen, "cannot write kernel source in %s: %s", c->dir, strerror(errno));
        cb_fs_remove(c_path);
        return CUDA_ERROR_OPERATING_SYSTEM;
    }
    snprintf(so_tmp, sizeof so_tmp, "%.*s.so", (int)(strlen(c_path) - 2), c_path);

    char storage[1024];
    char *argv[JIT_MAX_ARGS];
    int n = jit_split_command(c->cc, storage, sizeof storage, argv, JIT_MAX_ARGS - (int)JIT_NFLAGS - 6);
    for (size_t i = 0; i < JIT_NFLAGS; i++)
        argv[n++] = (char *)jit_flags[i];
    argv[n++] = "-o";
    argv[n++] = so_tmp;
    argv[n++] = c_path;
    argv[n++] = "-lm";
    argv[n] = NULL;

    char *output = malloc(JIT_OUTPUT_MAX);
    int start_errno = 0;
    int rc = output ? cb_sys_run(argv, output, JIT_OUTPUT_MAX, &start_errno) : -1;
    CUresult result = CUDA_SUCCESS;
    if (!output) {
        snprintf(err, errlen, "out of memory");
        result = CUDA_ERROR_OUT_OF_MEMORY;
    } else if (rc < 0) {
        snprintf(err, errlen, "cannot run the C compiler '%s': %s (set CUBRIDGE_HOST_CC)", c->cc,
                 strerror(start_errno));
        result = start_errno == ENOENT || start_errno == EACCES ? CUDA_ERROR_JIT_COMPILER_NOT_FOUND
                                                                : CUDA_ERROR_OPERATING_SYSTEM;
    } else if (rc != 0) {
        jit_first_errors(output, err, errlen);
        result = CUDA_ERROR_INVALID_SOURCE;
    } else if (cb_fs_read_file(so_tmp, so, so_len) != 0) {
        snprintf(err, errlen, "the C compiler left no object %s: %s", so_tmp, strerror(errno));
        result = CUDA_ERROR_OPERATING_SYSTEM;
    }
    free(output);
    if (result != CUDA_SUCCESS) {
        cb_fs_remove(c_path);
        cb_fs_remove(so_tmp);
        return result;
    }

    /* Publish: the entry (one file, one rename), then the source. */
    int ok = jit_store(c, key, *so, *so_len) == 0;
    jit_path(c, key, ".c", final, sizeof final);
    if (!ok || cb_fs_rename(c_path, final) != 0)
        cb_cpu_log(CPU_LOG_WARN, "could not store JIT cache entry %s/%s: %s", c->dir, key, strerror(errno));
    cb_fs_remove(c_path);
    cb_fs_remove(so_tmp);
    return CUDA_SUCCESS;
}

CUresult cb_jit_build(cb_jit_cache *c, const char *source, size_t len, unsigned char **so, size_t *so_len, char *err,
                      size_t errlen)
{
    *so = NULL;
    *so_len = 0;
    if (jit_compiler_identity(c) != 0) {
        snprintf(err, errlen, "the C compiler '%s' cannot be run (set CUBRIDGE_HOST_CC to a C11 compiler)", c->cc);
        return CUDA_ERROR_JIT_COMPILER_NOT_FOUND;
    }
    char key[65];
    jit_key(c, source, len, key);
    if (jit_lookup(c, key, so, so_len) == 1) {
        atomic_fetch_add(&jit_hits, 1);
        cb_cpu_log(CPU_LOG_DEBUG, "JIT cache hit %s", key);
        return CUDA_SUCCESS;
    }
    atomic_fetch_add(&jit_misses, 1);
    cb_cpu_log(CPU_LOG_DEBUG, "JIT cache miss %s: compiling with %s", key, c->cc);
    return jit_compile(c, key, source, len, so, so_len, err, errlen);
}
