/* jit_cache.c: kernel C source -> shared-object bytes, through a cache.
 *
 * Layout of the cache directory (owned by the user, writable by nobody else,
 * and so is every directory above it up to "/", sticky ones excepted):
 *   <key>.so       one file: the object bytes, then a 112-byte trailer:
 *                  "CBJIT2\0\0", the object size (u64, little-endian), the
 *                  SHA-256 of the kernel source, the SHA-256 of the build
 *                  configuration, and the SHA-256 of the object bytes and
 *                  the 80 trailer bytes before it
 *   <key>.c        the source it was built from (for people, never read back)
 *   stats          hits, misses and evictions of every process (56 bytes,
 *                  updated under flock; jit_cache_stats.c)
 *   lock           taken (flock) by the process that evicts
 * configuration = SHA-256 of the entry format, CB_KERNEL_ABI_VERSION, the
 * compiler command and identity (first line of `cc --version`) and the flags
 * (two sets, chosen by the source: jit_flags below), and for the set with
 * -march=native the CPU's identity; key = SHA-256 of the configuration's and
 * the source's hashes.
 * An entry proves what it is: the loader checks that its trailer names the
 * source and configuration of the key it looked up (a valid entry copied
 * over another key is refused), that its size and hash match its bytes, and
 * only then hands the object bytes (trailer removed) to the loader, which
 * loads them from memory (platform/dl.c: memfd), never by a path.
 * Every file is opened relative to the directory's descriptor, checked once
 * from "/" (platform/fs_at.c), without following symbolic links.
 * An entry is written whole under a temporary name in the directory and
 * published by one rename, so concurrent processes see a whole entry or none.
 * A bad entry is reported, rebuilt and never loaded.
 * CUBRIDGE_CACHE_MAX caps the directory's size (least recently used entries
 * go first; a hit sets its entry's mtime when older than a minute).
 *
 * Process-wide state: the hit and miss counters (cb_cpu_cache_stats) and the
 * list of private temporary directories to remove at exit (jit_temps). */
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
/* Temporary folders of killed processes are removed after this long. */
#define JIT_TEMP_SWEEP_AGE 600

void cb_cpu_cache_stats(unsigned *hits, unsigned *misses)
{
    if (hits)
        *hits = atomic_load(&jit_hits);
    if (misses)
        *misses = atomic_load(&jit_misses);
}

/* ---- private temporary directories, removed at exit ---------------------- */

static cb_mutex jit_temps_lock = CB_MUTEX_INIT;
static cb_jit_cache *jit_temps;
static int jit_temps_hooked;

/* At exit: removes the temporary directories this process made (a forked
 * child that exits leaves its parent's alone). */
static void jit_temps_at_exit(void)
{
    cb_mutex_lock(&jit_temps_lock);
    for (cb_jit_cache *c = jit_temps; c; c = c->next_temp) {
        if (c->temp_pid == getpid() && c->dirfd >= 0) {
            cb_fs_temp_dir_remove(c->dirfd, c->dir);
            c->dirfd = -1;
        }
    }
    jit_temps = NULL;
    cb_mutex_unlock(&jit_temps_lock);
}

static void jit_temps_add(cb_jit_cache *c)
{
    cb_mutex_lock(&jit_temps_lock);
    c->temp_pid = getpid();
    c->next_temp = jit_temps;
    jit_temps = c;
    if (!jit_temps_hooked)
        jit_temps_hooked = atexit(jit_temps_at_exit) == 0;
    cb_mutex_unlock(&jit_temps_lock);
}

/* Takes c off the list. */
static void jit_temps_remove(cb_jit_cache *c)
{
    cb_mutex_lock(&jit_temps_lock);
    for (cb_jit_cache **p = &jit_temps; *p; p = &(*p)->next_temp) {
        if (*p == c) {
            *p = c->next_temp;
            break;
        }
    }
    cb_mutex_unlock(&jit_temps_lock);
}

/* ---- opening ------------------------------------------------------------- */

/* The configured directory, or "" when no candidate exists. XDG_CACHE_HOME
 * counts only when absolute, as the XDG base directory specification says. */
void cb_jit_configured_dir(char *out, size_t len)
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

int cb_jit_parse_size(const char *s, uint64_t *out)
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

uint64_t cb_jit_max_bytes(int warn)
{
    const char *s = getenv("CUBRIDGE_CACHE_MAX");
    uint64_t v;
    if (!s || !*s)
        return CB_JIT_DEFAULT_MAX;
    if (cb_jit_parse_size(s, &v) != 0) {
        if (warn)
            cb_log(CB_LOG_WARN, "ignoring CUBRIDGE_CACHE_MAX=%s (not a size such as 512M; 0 for no limit)", s);
        return CB_JIT_DEFAULT_MAX;
    }
    return v;
}

int cb_jit_cache_open(cb_jit_cache *c)
{
    memset(c, 0, sizeof *c);
    c->dirfd = c->stats_fd = c->lock_fd = -1;
    cb_mutex_init(&c->lock);
    cb_mutex_init(&c->stats_lock);
    const char *cc = getenv("CUBRIDGE_HOST_CC");
    snprintf(c->cc, sizeof c->cc, "%s", cc && *cc ? cc : "cc");
    c->max_bytes = cb_jit_max_bytes(1);

    char why[1024] = "no HOME, XDG_CACHE_HOME or CUBRIDGE_CACHE_DIR";
    cb_jit_configured_dir(c->dir, sizeof c->dir);
    if (c->dir[0] && c->dir[0] != '/') {
        /* The compiler gets paths in it: absolute, in case the program
         * changes its working directory. */
        char cwd[4096], abs[8200];
        if (getcwd(cwd, sizeof cwd) &&
            (size_t)snprintf(abs, sizeof abs, "%s/%s", cwd, c->dir) < sizeof c->dir)
            memcpy(c->dir, abs, strlen(abs) + 1);
    }
    if (c->dir[0]) {
        c->dirfd = cb_fs_dir_open_checked(c->dir, CB_FS_CREATE, why, sizeof why);
        if (c->dirfd >= 0) {
            cb_jit_stats_open(c);
            return 0;
        }
    }
    char refused[4096];
    snprintf(refused, sizeof refused, "%s", c->dir[0] ? c->dir : "(none)");
    char twhy[1024];
    c->dirfd = cb_fs_temp_dir_open("cubridge-jit-", JIT_TEMP_SWEEP_AGE, c->dir, sizeof c->dir, twhy, sizeof twhy);
    if (c->dirfd < 0) {
        cb_log(CB_LOG_ERROR, "no usable JIT cache directory: %s: %s; and no private temporary one: %s", refused,
                   why, twhy);
        return -1;
    }
    c->is_temp = 1;
    jit_temps_add(c);
    cb_jit_stats_open(c);
    cb_log(CB_LOG_WARN, "refusing JIT cache directory %s (%s); using private temporary directory %s (removed at exit)",
               refused, why, c->dir);
    return 0;
}

void cb_jit_cache_close(cb_jit_cache *c)
{
    cb_jit_stats_close(c);
    if (c->is_temp) {
        jit_temps_remove(c);
        if (c->dirfd >= 0) /* not already removed at exit */
            cb_fs_temp_dir_remove(c->dirfd, c->dir);
    } else {
        cb_fs_close(c->dirfd);
    }
    c->dirfd = -1;
    cb_mutex_destroy(&c->stats_lock);
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

/* The key (hex) of a source whose SHA-256 is src under configuration cfg. */
static void jit_key(const unsigned char cfg[32], const unsigned char src[32], char key[65])
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

/* ---- entries ------------------------------------------------------------- */

#define JIT_MAGIC "CBJIT2\0\0"
#define JIT_MAGIC_V1 "CBJIT1\0\0"
#define JIT_MAGIC_LEN 8

/* The trailer that follows len object bytes built from src under cfg. */
static void jit_trailer(const unsigned char *so, size_t len, const unsigned char src[32], const unsigned char cfg[32],
                        unsigned char out[CB_JIT_TRAILER_LEN])
{
    memcpy(out, JIT_MAGIC, JIT_MAGIC_LEN);
    uint64_t n = (uint64_t)len;
    for (int i = 0; i < 8; i++)
        out[JIT_MAGIC_LEN + i] = (unsigned char)(n >> (8 * i));
    memcpy(out + 16, src, 32);
    memcpy(out + 48, cfg, 32);
    cb_sha256 s;
    cb_sha256_init(&s);
    cb_sha256_update(&s, so, len);
    cb_sha256_update(&s, out, 80);
    cb_sha256_final(&s, out + 80);
}

/* Why the entry file's bytes are not the entry of (src, cfg), or NULL when
 * they are. */
static const char *jit_entry_fault(const unsigned char *bytes, size_t len, const unsigned char src[32],
                                   const unsigned char cfg[32])
{
    if (len >= 48 && memcmp(bytes + len - 48, JIT_MAGIC_V1, JIT_MAGIC_LEN) == 0)
        return "an entry of an older format (CBJIT1, without source and configuration hashes)";
    if (len < CB_JIT_TRAILER_LEN || memcmp(bytes + len - CB_JIT_TRAILER_LEN, JIT_MAGIC, JIT_MAGIC_LEN) != 0)
        return "no entry trailer (truncated, or not written by this version)";
    const unsigned char *t = bytes + len - CB_JIT_TRAILER_LEN;
    uint64_t n = 0;
    for (int i = 0; i < 8; i++)
        n |= (uint64_t)t[JIT_MAGIC_LEN + i] << (8 * i);
    if (n != (uint64_t)(len - CB_JIT_TRAILER_LEN))
        return "the object size in its trailer does not match (truncated or modified)";
    if (memcmp(t + 16, src, 32) != 0)
        return "it was built from another kernel source (another entry copied or renamed over it?)";
    if (memcmp(t + 48, cfg, 32) != 0)
        return "it was built by another compiler, other flags or another kernel ABI";
    unsigned char want[CB_JIT_TRAILER_LEN];
    jit_trailer(bytes, len - CB_JIT_TRAILER_LEN, src, cfg, want);
    if (memcmp(t + 80, want + 80, 32) != 0)
        return "its bytes do not match the SHA-256 in its trailer (modified)";
    return NULL;
}

/* Reads the entry key and checks that it is the entry of (src, cfg).
 * Returns 1 and the object bytes (trailer removed) on a good entry, 0 when
 * there is none, -1 (logged) when it is bad. */
static int jit_lookup(cb_jit_cache *c, const char *key, const unsigned char src[32], const unsigned char cfg[32],
                      unsigned char **so, size_t *so_len)
{
    char name[80];
    snprintf(name, sizeof name, "%s.so", key);
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
    const char *why = jit_entry_fault(bytes, len, src, cfg);
    if (why) {
        cb_log(CB_LOG_WARN, "JIT cache entry %s/%s is refused: %s; rebuilding it", c->dir, name, why);
        free(bytes);
        return -1;
    }
    /* Least recently used order for eviction: the mtime, a minute fine. */
    if ((int64_t)time(NULL) - mtime >= CB_JIT_TOUCH_AFTER)
        cb_fs_at_touch(c->dirfd, name);
    *so = bytes;
    *so_len = len - CB_JIT_TRAILER_LEN;
    return 1;
}

/* Publishes the object bytes as entry key: one file, one rename. */
static int jit_store(const cb_jit_cache *c, const char *key, const unsigned char src[32], const unsigned char cfg[32],
                     const unsigned char *so, size_t len)
{
    unsigned char *entry = malloc(len + CB_JIT_TRAILER_LEN);
    if (!entry) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(entry, so, len);
    jit_trailer(so, len, src, cfg, entry + len);
    char name[80];
    snprintf(name, sizeof name, "%s.so", key);
    int rc = cb_fs_at_write_atomic(c->dirfd, name, entry, len + CB_JIT_TRAILER_LEN);
    int saved = errno;
    free(entry);
    errno = saved;
    return rc;
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
    int64_t free_bytes = cb_fs_at_free_bytes(c->dirfd);
    return free_bytes >= 0 && free_bytes < 64 * 1024;
}

/* The message of a compile that ran out of room. */
static void jit_full_message(const cb_jit_cache *c, const char *detail, char *err, size_t errlen)
{
    snprintf(err, errlen,
             "no room to compile a kernel in %s (or in the compiler's temporary directory): %s (a disk or "
             "a quota is full, or the file size limit RLIMIT_FSIZE is too low; free space, or set "
             "CUBRIDGE_CACHE_DIR or TMPDIR to another file system)",
             c->dir, detail);
}

/* Compiles source with the flags of set (JIT_SET_*) into the entry key of
 * configuration cfg. */
static CUresult jit_compile(cb_jit_cache *c, int set, const unsigned char cfg[32], const char *key,
                            const unsigned char src[32], const char *source, size_t len, unsigned char **so,
                            size_t *so_len, char *err, size_t errlen)
{
    char c_name[64], so_name[64], final[80], c_path[4200], so_path[4200];
    int fd = cb_fs_at_create_temp(c->dirfd, "tmp-", ".c", c_name, sizeof c_name);
    if (fd < 0 || cb_fs_write_fd(fd, source, len) != 0) {
        int e = errno;
        cb_fs_close(fd);
        if (fd >= 0)
            cb_fs_at_remove(c->dirfd, c_name);
        if (cb_fs_err_is_full(e)) {
            char detail[128];
            snprintf(detail, sizeof detail, "writing the kernel source: %s", strerror(e));
            jit_full_message(c, detail, err, errlen);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        snprintf(err, errlen, "cannot write kernel source in %s: %s", c->dir, strerror(e));
        return CUDA_ERROR_OPERATING_SYSTEM;
    }
    cb_fs_close(fd);
    snprintf(so_name, sizeof so_name, "%.*s.so", (int)(strlen(c_name) - 2), c_name);
    snprintf(c_path, sizeof c_path, "%s/%s", c->dir, c_name);
    snprintf(so_path, sizeof so_path, "%s/%s", c->dir, so_name);

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
    } else if (cb_fs_at_read(c->dirfd, so_name, so, so_len, NULL) != 0) {
        snprintf(err, errlen, "the C compiler left no object %s: %s", so_path, strerror(errno));
        result = CUDA_ERROR_OPERATING_SYSTEM;
    }
    free(output);
    if (result != CUDA_SUCCESS) {
        cb_fs_at_remove(c->dirfd, c_name);
        cb_fs_at_remove(c->dirfd, so_name);
        return result;
    }

    /* Publish: the entry (one file, one rename), then the source. */
    int ok = jit_store(c, key, src, cfg, *so, *so_len) == 0;
    snprintf(final, sizeof final, "%s.c", key);
    if (!ok || cb_fs_at_rename(c->dirfd, c_name, final) != 0)
        cb_log(CB_LOG_WARN, "could not store JIT cache entry %s/%s: %s%s", c->dir, key, strerror(errno),
                   cb_fs_err_is_full(errno) ? " (the kernel runs; it will be compiled again next time)" : "");
    cb_fs_at_remove(c->dirfd, c_name);
    cb_fs_at_remove(c->dirfd, so_name);
    if (ok)
        cb_jit_evict(c, key);
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
    jit_key(cfg, src, key);
    int found = jit_lookup(c, key, src, cfg, so, so_len);
    if (found == 1) {
        atomic_fetch_add(&jit_hits, 1);
        cb_jit_stats_add(c, 1, 0, 0, 0, 0);
        cb_log(CB_LOG_DEBUG, "JIT cache hit %s", key);
        return CUDA_SUCCESS;
    }
    atomic_fetch_add(&jit_misses, 1);
    cb_jit_stats_add(c, 0, 1, 0, 0, found < 0);
    static const char *const set_names[] = {"general", "first-tier", "lanes"};
    cb_log(CB_LOG_DEBUG, "JIT cache miss %s: compiling with %s (%s flags)", key, c->cc, set_names[set]);
    return jit_compile(c, set, cfg, key, src, source, len, so, so_len, err, errlen);
}
