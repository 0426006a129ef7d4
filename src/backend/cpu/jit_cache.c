/* jit_cache.c: kernel C source -> shared-object bytes, through the compile
 * cache (backend/kernel_cache.c: the directory, entries that prove what they
 * are, atomic publication; kernel_cache_stats.c: counters, cap, eviction).
 *
 * What is the CPU's here: entries are <key>.so (the object bytes) beside
 * <key>.c (the source the compiler read, kept for people); configuration =
 * SHA-256 of the entry format, CB_KERNEL_ABI_VERSION, the compiler command
 * and identity (first line of `cc --version`) and the flags (two sets,
 * chosen by the source: jit_flags below), and for the set with
 * -march=native the CPU's identity; key = cb_kernel_cache_key of the
 * configuration's and the source's hashes. A verified entry's bytes go to
 * the loader, which loads them from memory (platform/dl.c: memfd), never by
 * a path. A bad entry is reported, rebuilt and never loaded.
 *
 * Process-wide state: the hit and miss counters (cb_cpu_cache_stats). */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_internal.h"
#include "platform/fs.h"
#include "platform/fs_at.h"
#include "platform/sha256.h"
#include "platform/sysinfo.h"

static atomic_uint jit_hits, jit_misses;

/* Two sets of flags, chosen per unit. Most units (every kernel's general
 * entries: fibers, the per-thread block entry) build with -O2: big modules
 * (thrust, CUB, thousands of kernels) must compile fast. A unit that holds a
 * lanes entry (CB_C_LANES_MARK, codegen/translate.h; src/codegen/c/lanes.c)
 * builds with -O3 -march=native: its lane loops are written for the C
 * compiler to vectorise, with this CPU's vector units; for such units the
 * CPU's identity is part of the configuration (the cache key). (gcc's
 * optimize("O3") attribute on the lanes entries alone, in a unit built at
 * -O2, left sgemm 10x and saxpy 5.6x slower than the whole unit at -O3.)
 * -fno-math-errno: nothing reads errno, and with it sqrtf and friends
 * vectorise. Both sets keep IEEE semantics (-ffp-contract=off, no fast-math),
 * so a kernel gives the same bits whichever set built it. */
static const char *const jit_flags[] = {
    "-O2", "-fPIC", "-shared", "-fno-strict-aliasing", "-ffp-contract=off", "-fwrapv",
};
/* The first tier of a tiered build (CB_C_QUICK_MARK: units the core may
 * build again when their kernels turn hot) builds at -O1: thrust's and CUB's
 * units took 0.6 of their -O2 compile time (57 units of thrust_algorithms:
 * 30.1 s against 50.4 s of CPU), and most of their kernels run once. */
static const char *const jit_flags_quick[] = {
    "-O1", "-fPIC", "-shared", "-fno-strict-aliasing", "-ffp-contract=off", "-fwrapv",
};
static const char *const jit_flags_lanes[] = {
    "-O3", "-march=native", "-fno-math-errno", "-fPIC", "-shared", "-fno-strict-aliasing", "-ffp-contract=off",
    "-fwrapv",
};
/* Units of more C than this build with the general flags even when they hold
 * lanes entries: -O3 -march=native costs big units (thrust's, CUB's: 1 to 15
 * MB) 1.7x the compile time of -O2 (a 7 MB unit of thrust: 57.6 s against
 * 34.3 s of CPU); their lanes entries still run without fibers, less well
 * vectorised. The one-kernel units of lazy loading stay far below it. */
#define JIT_LANES_UNIT_MAX ((size_t)1 << 20)
#define JIT_NFLAGS (sizeof jit_flags / sizeof jit_flags[0])
#define JIT_NFLAGS_QUICK (sizeof jit_flags_quick / sizeof jit_flags_quick[0])
#define JIT_NFLAGS_LANES (sizeof jit_flags_lanes / sizeof jit_flags_lanes[0])
#define JIT_NFLAGS_MAX (JIT_NFLAGS > JIT_NFLAGS_LANES ? JIT_NFLAGS : JIT_NFLAGS_LANES)
#define JIT_MAX_ARGS 48
#define JIT_OUTPUT_MAX 16384

void cb_cpu_cache_stats(unsigned *hits, unsigned *misses)
{
    if (hits)
        *hits = atomic_load(&jit_hits);
    if (misses)
        *misses = atomic_load(&jit_misses);
}

/* ---- opening ------------------------------------------------------------- */

int cb_jit_cache_open(cb_jit_cache *c)
{
    memset(c, 0, sizeof *c);
    if (cb_kernel_cache_open(&c->files, &cb_kernel_cache_cpu) != 0)
        return -1;
    cb_mutex_init(&c->lock);
    const char *cc = getenv("CUBRIDGE_HOST_CC");
    snprintf(c->cc, sizeof c->cc, "%s", cc && *cc ? cc : "cc");
    return 0;
}

void cb_jit_cache_close(cb_jit_cache *c)
{
    cb_kernel_cache_close(&c->files);
    cb_mutex_destroy(&c->lock);
}

/* ---- the compiler and the key ------------------------------------------- */

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

/* The SHA-256 of everything besides the source that decides the object,
 * for one set of flags; cpu: the CPU's identity (-march=native), or NULL. */
static void jit_config_hash_of(const cb_jit_cache *c, const char *const *flags, size_t nflags, const char *cpu,
                               unsigned char out[32])
{
    cb_sha256 s;
    char head[2048];
    int n = snprintf(head, sizeof head, "cubridge-jit 3\nabi %d\ncc %s\nidentity %s\nflags", CB_KERNEL_ABI_VERSION,
                     c->cc, c->cc_identity);
    cb_sha256_init(&s);
    cb_sha256_update(&s, head, (size_t)n);
    if (cpu) {
        cb_sha256_update(&s, "\ncpu ", 5);
        cb_sha256_update(&s, cpu, strlen(cpu));
    }
    for (size_t i = 0; i < nflags; i++) {
        cb_sha256_update(&s, " ", 1);
        cb_sha256_update(&s, flags[i], strlen(flags[i]));
    }
    cb_sha256_update(&s, " -lm\n", 5);
    cb_sha256_final(&s, out);
}

/* The three configurations: the general units', the first tier's and the
 * lanes units'. */
static void jit_config_hash(cb_jit_cache *c)
{
    char cpu[4096];
    cb_sys_cpu_identity(cpu, sizeof cpu);
    jit_config_hash_of(c, jit_flags, JIT_NFLAGS, NULL, c->config_hash[JIT_SET_GENERAL]);
    jit_config_hash_of(c, jit_flags_quick, JIT_NFLAGS_QUICK, NULL, c->config_hash[JIT_SET_QUICK]);
    jit_config_hash_of(c, jit_flags_lanes, JIT_NFLAGS_LANES, cpu, c->config_hash[JIT_SET_LANES]);
}

/* Which set of flags builds source: the source says (translate.h's marks). */
static int jit_flag_set(const char *source, size_t len)
{
    if (len <= JIT_LANES_UNIT_MAX && memmem(source, len, CB_C_LANES_MARK, sizeof CB_C_LANES_MARK - 1))
        return JIT_SET_LANES;
    if (memmem(source, len, CB_C_QUICK_MARK, sizeof CB_C_QUICK_MARK - 1))
        return JIT_SET_QUICK;
    return JIT_SET_GENERAL;
}

/* Learns the first line of `cc --version` and the configuration hash, once.
 * Returns 0, or -1 when the compiler cannot be run. */
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
            jit_config_hash(c);
            c->cc_state = 1;
        }
    }
    int state = c->cc_state;
    cb_mutex_unlock(&c->lock);
    return state == 1 ? 0 : -1;
}

/* ---- compiling ----------------------------------------------------------- */

/* Copies the compiler's output from its first error line, at most 8 lines. */
static void jit_first_errors(const char *out, const char *intro, char *err, size_t errlen)
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
    snprintf(err, errlen, "%s:\n%.*s", intro, (int)n, start);
}

/* The compiler's words for running out of room (strerror of ENOSPC,
 * EDQUOT, EFBIG; strsignal of SIGXFSZ). */
static const char *const jit_room_words[] = {
    "No space left on device", "Disk quota exceeded", "File too large", "File size limit exceeded",
};

/* 1 when a failed compile ran out of room rather than met bad C: the
 * compiler or the assembler or linker it ran says so, or it died of
 * SIGXFSZ, or the disk is full. *line gets the line of its output that
 * says so ("" if none). */
static int jit_compile_ran_out_of_room(const cb_jit_cache *c, const char *output, int rc, char *line, size_t linelen)
{
    line[0] = 0;
    for (size_t i = 0; i < sizeof jit_room_words / sizeof jit_room_words[0]; i++) {
        const char *hit = strstr(output, jit_room_words[i]);
        if (hit) {
            const char *start = hit;
            while (start > output && start[-1] != '\n')
                start--;
            snprintf(line, linelen, "%.*s", (int)strcspn(start, "\n"), start);
            return 1;
        }
    }
    if (rc == 128 + SIGXFSZ)
        return 1;
    int64_t free_bytes = cb_fs_at_free_bytes(c->files.dirfd);
    return free_bytes >= 0 && free_bytes < 64 * 1024;
}

/* The message of a compile that ran out of room. */
static void jit_full_message(const cb_jit_cache *c, const char *detail, char *err, size_t errlen)
{
    snprintf(err, errlen,
             "no room to compile a kernel in %s (or in the compiler's temporary directory): %s (a disk or "
             "a quota is full, or the file size limit RLIMIT_FSIZE is too low; free space, or set "
             "CUBRIDGE_CACHE_DIR or TMPDIR to another file system)",
             c->files.dir, detail);
}

/* Compiles source with the flags of set (JIT_SET_*) into the entry key of
 * configuration cfg. */
static CUresult jit_compile(cb_jit_cache *c, int set, const unsigned char cfg[32], const char *key,
                            const unsigned char src[32], const char *source, size_t len, unsigned char **so,
                            size_t *so_len, char *err, size_t errlen)
{
    char c_name[64], so_name[64], final[80], c_path[4200], so_path[4200];
    int fd = cb_fs_at_create_temp(c->files.dirfd, "tmp-", ".c", c_name, sizeof c_name);
    if (fd < 0 || cb_fs_write_fd(fd, source, len) != 0) {
        int e = errno;
        cb_fs_close(fd);
        if (fd >= 0)
            cb_fs_at_remove(c->files.dirfd, c_name);
        if (cb_fs_err_is_full(e)) {
            char detail[128];
            snprintf(detail, sizeof detail, "writing the kernel source: %s", strerror(e));
            jit_full_message(c, detail, err, errlen);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        snprintf(err, errlen, "cannot write kernel source in %s: %s", c->files.dir, strerror(e));
        return CUDA_ERROR_OPERATING_SYSTEM;
    }
    cb_fs_close(fd);
    snprintf(so_name, sizeof so_name, "%.*s.so", (int)(strlen(c_name) - 2), c_name);
    snprintf(c_path, sizeof c_path, "%s/%s", c->files.dir, c_name);
    snprintf(so_path, sizeof so_path, "%s/%s", c->files.dir, so_name);

    char storage[1024];
    char *argv[JIT_MAX_ARGS];
    int n = jit_split_command(c->cc, storage, sizeof storage, argv, JIT_MAX_ARGS - (int)JIT_NFLAGS_MAX - 6);
    const char *const *flags = set == JIT_SET_LANES ? jit_flags_lanes : set == JIT_SET_QUICK ? jit_flags_quick : jit_flags;
    size_t nflags = set == JIT_SET_LANES ? JIT_NFLAGS_LANES : set == JIT_SET_QUICK ? JIT_NFLAGS_QUICK : JIT_NFLAGS;
    for (size_t i = 0; i < nflags; i++)
        argv[n++] = (char *)flags[i];
    argv[n++] = "-o";
    argv[n++] = so_path;
    argv[n++] = c_path;
    argv[n++] = "-lm";
    argv[n] = NULL;

    char *output = malloc(JIT_OUTPUT_MAX), line[512];
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
    } else if (rc != 0 && jit_compile_ran_out_of_room(c, output, rc, line, sizeof line)) {
        char said[700];
        if (line[0])
            snprintf(said, sizeof said, "the compiler said: %s", line);
        else
            jit_first_errors(output, "the compiler said", said, sizeof said);
        jit_full_message(c, said, err, errlen);
        result = CUDA_ERROR_OUT_OF_MEMORY;
    } else if (rc != 0) {
        jit_first_errors(output, "kernel C failed to compile", err, errlen);
        result = CUDA_ERROR_INVALID_SOURCE;
    } else if (cb_fs_at_read(c->files.dirfd, so_name, so, so_len, NULL) != 0) {
        snprintf(err, errlen, "the C compiler left no object %s: %s", so_path, strerror(errno));
        result = CUDA_ERROR_OPERATING_SYSTEM;
    }
    free(output);
    if (result != CUDA_SUCCESS) {
        cb_fs_at_remove(c->files.dirfd, c_name);
        cb_fs_at_remove(c->files.dirfd, so_name);
        return result;
    }

    /* Publish: the entry (one file, one rename), then the source. */
    int ok = cb_kernel_cache_store(&c->files, key, src, cfg, *so, *so_len, NULL, 0) == 0;
    snprintf(final, sizeof final, "%s.c", key);
    if (!ok || cb_fs_at_rename(c->files.dirfd, c_name, final) != 0)
        cb_log(CB_LOG_WARN, "could not store JIT cache entry %s/%s: %s%s", c->files.dir, key, strerror(errno),
                   cb_fs_err_is_full(errno) ? " (the kernel runs; it will be compiled again next time)" : "");
    cb_fs_at_remove(c->files.dirfd, c_name);
    cb_fs_at_remove(c->files.dirfd, so_name);
    if (ok)
        cb_kernel_cache_evict(&c->files, key);
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
    unsigned char src[32];
    char key[65];
    cb_sha256 s;
    cb_sha256_init(&s);
    cb_sha256_update(&s, source, len);
    cb_sha256_final(&s, src);
    /* the flags follow from the source, so the key (configuration and
     * source) still names one object */
    int set = jit_flag_set(source, len);
    const unsigned char *cfg = c->config_hash[set];
    cb_kernel_cache_key(cfg, src, key);
    int found = cb_kernel_cache_lookup(&c->files, key, src, cfg, so, so_len);
    if (found == 1) {
        atomic_fetch_add(&jit_hits, 1);
        cb_kernel_cache_stats_add(&c->files, 1, 0, 0, 0, 0);
        cb_log(CB_LOG_DEBUG, "JIT cache hit %s", key);
        return CUDA_SUCCESS;
    }
    atomic_fetch_add(&jit_misses, 1);
    cb_kernel_cache_stats_add(&c->files, 0, 1, 0, 0, found < 0);
    static const char *const set_names[] = {"general", "first-tier", "lanes"};
    cb_log(CB_LOG_DEBUG, "JIT cache miss %s: compiling with %s (%s flags)", key, c->cc, set_names[set]);
    return jit_compile(c, set, cfg, key, src, source, len, so, so_len, err, errlen);
}
