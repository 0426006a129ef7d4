/* The JIT cache: a second load is a hit (same backend, a new backend, a new
 * process) and the shared counters of the directory say so; two modules from
 * one source have their own globals; a tampered, truncated or unsigned .so
 * entry (object bytes + "CBJIT2" trailer with size, source and configuration
 * hashes and SHA-256, one file) is detected, rebuilt and never loaded, and so
 * is another valid entry copied over it and a symbolic link in its place
 * (never followed); the cache directory is created 0700 and refused (private
 * fallback, removed at exit, or by a later process when its own was killed)
 * when others may write it, another user owns it, or a directory above it
 * is writable by others and not sticky; CUBRIDGE_CACHE_MAX evicts least
 * recently used entries; concurrent processes building the same entry all
 * succeed; a unit's marks choose its compiler flags. */
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <dirent.h>
#include <time.h>

#include "backend/cpu/jit_cache.h"
#include "test_cpu_util.h"

static const char *source =
    "void cbk_0(cb_thread *t) {\n"
    "  unsigned long long *g = (unsigned long long *)cb_module_globals[0];\n"
    "  __atomic_fetch_add(g, (unsigned long long)PARAM(uint32_t, 0), __ATOMIC_RELAXED); (void)t;\n"
    "}\n";
static const tu_kernel info = {"add_to_global", 0, 0, 4};

/* A kernel that adds k times its parameter: each k its own source and key. */
static cb_translation *make_scaled(unsigned k)
{
    char body[512];
    snprintf(body, sizeof body,
             "void cbk_0(cb_thread *t) {\n"
             "  unsigned long long *g = (unsigned long long *)cb_module_globals[0];\n"
             "  __atomic_fetch_add(g, %uull * PARAM(uint32_t, 0), __ATOMIC_RELAXED); (void)t;\n"
             "}\n",
             k);
    return tu_make(body, 1, &info, 1);
}

static unsigned hits(void)
{
    unsigned h;
    cb_cpu_cache_stats(&h, NULL);
    return h;
}
static unsigned misses(void)
{
    unsigned m;
    cb_cpu_cache_stats(NULL, &m);
    return m;
}

/* Loads tr, runs one thread adding `add` to *counter, unloads. Returns 0 when it worked. */
static int load_and_run(cb_backend *be, const cb_translation *tr, unsigned long long *counter, uint32_t add)
{
    uint64_t g = (uint64_t)(uintptr_t)counter;
    void *mod = tu_load(be, tr, &g);
    if (!mod)
        return -1;
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 0, 1, 1, &add, 4, &err);
    be->module_unload(be, mod);
    return r == CUDA_SUCCESS ? 0 : -1;
}

/* The path of the one file ending in ext in dir. */
static int find_entry(const char *dir, const char *ext, char *out, size_t len)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name), m = strlen(ext);
        if (n > m && strcmp(e->d_name + n - m, ext) == 0 && strncmp(e->d_name, "tmp-", 4) != 0) {
            snprintf(out, len, "%s/%s", dir, e->d_name);
            found++;
        }
    }
    if (d)
        closedir(d);
    return found == 1 ? 0 : -1;
}

static void test_hits(const char *dir, const cb_translation *tr)
{
    unsigned h0 = hits(), m0 = misses();
    cb_backend *be = cb_backend_cpu_create();
    TU_CHECK(strcmp(cb_cpu_cache_dir(be), dir) == 0, "cache dir %s, want %s", cb_cpu_cache_dir(be), dir);
    unsigned long long a = 0, b = 0;
    TU_CHECK(load_and_run(be, tr, &a, 5) == 0 && a == 5, "first load: a=%llu", a);
    TU_CHECK(misses() == m0 + 1 && hits() == h0, "first load: %u hits %u misses", hits() - h0, misses() - m0);
    /* Two live modules of the same source: separate globals. */
    uint64_t ga = (uint64_t)(uintptr_t)&a, gb = (uint64_t)(uintptr_t)&b;
    void *ma = tu_load(be, tr, &ga), *mb = tu_load(be, tr, &gb);
    uint32_t one = 1, two = 2;
    cb_launch_error err;
    if (ma && mb) {
        tu_launch(be, ma, 0, 1, 1, &one, 4, &err);
        tu_launch(be, mb, 0, 1, 1, &two, 4, &err);
        be->module_unload(be, ma);
        be->module_unload(be, mb);
    }
    TU_CHECK(a == 6 && b == 2, "two modules of one source share globals: a=%llu b=%llu", a, b);
    TU_CHECK(hits() == h0 + 2 && misses() == m0 + 1, "second loads: %u hits %u misses", hits() - h0, misses() - m0);
    be->shutdown(be);

    /* A new backend over the same directory. */
    be = cb_backend_cpu_create();
    TU_CHECK(load_and_run(be, tr, &a, 1) == 0 && hits() == h0 + 3 && misses() == m0 + 1, "new backend: %u/%u",
             hits() - h0, misses() - m0);
    be->shutdown(be);

    /* A new process. */
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        unsigned ch0 = hits(), cm0 = misses();
        cb_backend *cbe = cb_backend_cpu_create();
        unsigned long long c = 0;
        int ok = load_and_run(cbe, tr, &c, 3) == 0 && c == 3 && hits() == ch0 + 1 && misses() == cm0;
        cbe->shutdown(cbe);
        _exit(ok ? 0 : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    TU_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a second process did not hit the cache (0x%x)", status);

    struct stat st;
    stat(dir, &st);
    TU_CHECK((st.st_mode & 0777) == 0700, "cache dir mode %03o", (unsigned)(st.st_mode & 0777));

    /* The directory's counters add up both processes: 1 miss, 4 hits. */
    cb_cpu_cache_report rep;
    TU_CHECK(cb_cpu_cache_info(dir, &rep) == 0 && rep.has_counters, "no cache report for %s", dir);
    TU_CHECK(rep.hits == 4 && rep.misses == 1 && rep.entries == 1 && rep.rebuilt == 0,
             "shared counters: %llu hits %llu misses %llu entries", (unsigned long long)rep.hits,
             (unsigned long long)rep.misses, (unsigned long long)rep.entries);
    TU_CHECK(rep.bytes > 0 && rep.newest_use >= rep.oldest_use && rep.oldest_use > 0 && rep.since > 0 &&
                 rep.refused[0] == 0,
             "cache report: %llu bytes, uses %lld..%lld, refused '%s'", (unsigned long long)rep.bytes,
             (long long)rep.oldest_use, (long long)rep.newest_use, rep.refused);
}

/* Damages the entry with `damage`, then checks the next load rebuilds it. */
static void expect_rebuild(const char *dir, const cb_translation *tr, const char *what, void (*damage)(const char *so))
{
    char so[1024];
    if (find_entry(dir, ".so", so, sizeof so) != 0) {
        TU_CHECK(0, "%s: no single cache entry in %s", what, dir);
        return;
    }
    damage(so);
    unsigned h0 = hits(), m0 = misses();
    cb_backend *be = cb_backend_cpu_create();
    unsigned long long a = 0;
    fprintf(stderr, "(a warning about a damaged cache entry is expected here)\n");
    TU_CHECK(load_and_run(be, tr, &a, 7) == 0 && a == 7, "%s: load after damage failed", what);
    TU_CHECK(misses() == m0 + 1 && hits() == h0, "%s: %u hits %u misses, want a rebuild", what, hits() - h0,
             misses() - m0);
    TU_CHECK(load_and_run(be, tr, &a, 1) == 0 && hits() == h0 + 1, "%s: the rebuilt entry is not a hit", what);
    be->shutdown(be);
}

static void flip_byte(const char *so)
{
    unsigned char *data;
    size_t len;
    cb_fs_read_file(so, &data, &len);
    data[len / 2] ^= 0x40;
    cb_fs_write_file(so, data, len);
    free(data);
}

static void truncate_so(const char *so)
{
    unsigned char *data;
    size_t len;
    cb_fs_read_file(so, &data, &len);
    cb_fs_write_file(so, data, len / 3);
    free(data);
}

/* The entry trailer is 112 bytes: "CBJIT2\0\0", u64 size, the source's
 * SHA-256, the configuration's, and the SHA-256 of object and trailer head. */
#define ENTRY_TRAILER 112

/* Leaves only the object bytes: a plain .so with no trailer (also what an
 * entry of the old two-file format looks like). */
static void remove_trailer(const char *so)
{
    unsigned char *data;
    size_t len;
    cb_fs_read_file(so, &data, &len);
    cb_fs_write_file(so, data, len > ENTRY_TRAILER ? len - ENTRY_TRAILER : 0);
    free(data);
}

/* Flips a bit of the source hash in the trailer. */
static void corrupt_source_hash(const char *so)
{
    unsigned char *data;
    size_t len;
    cb_fs_read_file(so, &data, &len);
    data[len - ENTRY_TRAILER + 20] ^= 0x01;
    cb_fs_write_file(so, data, len);
    free(data);
}

/* Flips a bit of the SHA-256 stored in the trailer. */
static void corrupt_hash(const char *so)
{
    unsigned char *data;
    size_t len;
    cb_fs_read_file(so, &data, &len);
    data[len - 1] ^= 0x01;
    cb_fs_write_file(so, data, len);
    free(data);
}

/* Makes the trailer's size field disagree with the file. */
static void corrupt_size(const char *so)
{
    unsigned char *data;
    size_t len;
    cb_fs_read_file(so, &data, &len);
    data[len - ENTRY_TRAILER + 8] ^= 0x01;
    cb_fs_write_file(so, data, len);
    free(data);
}

/* A FIFO in the entry's place: never opened for reading (it would block). */
static void make_fifo(const char *so)
{
    unlink(so);
    mkfifo(so, 0600);
}

/* A directory that must be refused falls back to a private one and is left untouched. */
static void expect_refused(const char *dir, const cb_translation *tr, const char *what)
{
    setenv("CUBRIDGE_CACHE_DIR", dir, 1);
    fprintf(stderr, "(a warning refusing %s is expected here)\n", dir);
    cb_backend *be = cb_backend_cpu_create();
    TU_CHECK(be && strcmp(cb_cpu_cache_dir(be), dir) != 0, "%s: directory %s was accepted", what, dir);
    char used[4096];
    snprintf(used, sizeof used, "%s", cb_cpu_cache_dir(be));
    struct stat st;
    stat(used, &st);
    TU_CHECK((st.st_mode & 0777) == 0700 && st.st_uid == geteuid(), "%s: fallback %s mode %03o", what, used,
             (unsigned)(st.st_mode & 0777));
    unsigned long long a = 0;
    TU_CHECK(load_and_run(be, tr, &a, 2) == 0 && a == 2, "%s: fallback cache does not work", what);
    char so[1024];
    TU_CHECK(find_entry(dir, ".so", so, sizeof so) != 0, "%s: an entry was written to the refused directory", what);
    be->shutdown(be);
    TU_CHECK(access(used, F_OK) != 0, "%s: fallback directory %s left behind", what, used);
}

static void test_permissions(const char *base, const cb_translation *tr)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/shared", base);
    mkdir(dir, 0700);
    chmod(dir, 0777);
    expect_refused(dir, tr, "world-writable");
    chmod(dir, 0770);
    expect_refused(dir, tr, "group-writable");
    chmod(dir, 0700);
    if (geteuid() == 0) {
        chown(dir, 65534, 65534);
        expect_refused(dir, tr, "owned by another user");
    }
    /* Missing parents are created, the leaf 0700. */
    snprintf(dir, sizeof dir, "%s/new/a/b", base);
    setenv("CUBRIDGE_CACHE_DIR", dir, 1);
    cb_backend *be = cb_backend_cpu_create();
    struct stat st;
    TU_CHECK(be && stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700 && strcmp(cb_cpu_cache_dir(be), dir) == 0,
             "created cache dir %s", dir);
    be->shutdown(be);
}

/* Several processes build the same new entry at once; all succeed. */
static void test_concurrent_processes(const char *base, const cb_translation *tr)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/race", base);
    setenv("CUBRIDGE_CACHE_DIR", dir, 1);
    fflush(stdout);
    pid_t pids[4];
    for (int i = 0; i < 4; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            cb_backend *be = cb_backend_cpu_create();
            unsigned long long c = 0;
            int ok = be && load_and_run(be, tr, &c, 9) == 0 && c == 9;
            be->shutdown(be);
            _exit(ok ? 0 : 1);
        }
    }
    for (int i = 0; i < 4; i++) {
        int status;
        waitpid(pids[i], &status, 0);
        TU_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "racing process %d failed (0x%x)", i, status);
    }
    char so[1024];
    TU_CHECK(find_entry(dir, ".so", so, sizeof so) == 0, "racing processes left no single entry");
}

/* The name of the one .so in dir that is not in before (a listing). */
static int new_entry(const char *dir, char before[][128], int nbefore, char *out, size_t len)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".so") != 0 || strncmp(e->d_name, "tmp-", 4) == 0)
            continue;
        int old = 0;
        for (int i = 0; i < nbefore; i++)
            old |= strcmp(before[i], e->d_name) == 0;
        if (!old) {
            snprintf(out, len, "%s", e->d_name);
            found++;
        }
    }
    if (d)
        closedir(d);
    return found == 1 ? 0 : -1;
}

static int copy_file(const char *from, const char *to)
{
    unsigned char *data;
    size_t len;
    if (cb_fs_read_file(from, &data, &len) != 0)
        return -1;
    int rc = cb_fs_write_file(to, data, len);
    free(data);
    return rc;
}

/* A valid entry of another kernel copied over an entry's file is not a hit:
 * it is refused, rebuilt, and the right kernel runs. */
static void test_copied_entry(const char *base)
{
    char dir[1024], a_name[128], b_name[128], a_path[1200], b_path[1200];
    snprintf(dir, sizeof dir, "%s/copied", base);
    setenv("CUBRIDGE_CACHE_DIR", dir, 1);
    cb_translation *ta = make_scaled(1), *tb = make_scaled(1000);
    cb_backend *be = cb_backend_cpu_create();
    unsigned long long a = 0, b = 0;
    TU_CHECK(load_and_run(be, ta, &a, 3) == 0 && a == 3, "copied: first load of A: %llu", a);
    char names[1][128];
    TU_CHECK(new_entry(dir, names, 0, a_name, sizeof a_name) == 0, "copied: no entry for A");
    snprintf(names[0], sizeof names[0], "%s", a_name);
    TU_CHECK(load_and_run(be, tb, &b, 3) == 0 && b == 3000, "copied: first load of B: %llu", b);
    TU_CHECK(new_entry(dir, names, 1, b_name, sizeof b_name) == 0, "copied: no entry for B");
    snprintf(a_path, sizeof a_path, "%s/%s", dir, a_name);
    snprintf(b_path, sizeof b_path, "%s/%s", dir, b_name);
    TU_CHECK(copy_file(b_path, a_path) == 0, "copied: cannot copy %s over %s", b_path, a_path);
    unsigned h0 = hits(), m0 = misses();
    a = 0;
    fprintf(stderr, "(a warning refusing an entry built from another source is expected here)\n");
    TU_CHECK(load_and_run(be, ta, &a, 5) == 0, "copied: load of A after the copy failed");
    TU_CHECK(a == 5, "copied: A ran B's kernel: got %llu, want 5", a);
    TU_CHECK(hits() == h0 && misses() == m0 + 1, "copied: %u hits %u misses, want a miss", hits() - h0,
             misses() - m0);
    /* Rebuilt: A's file is A's entry again, and a hit. */
    a = 0;
    TU_CHECK(load_and_run(be, ta, &a, 2) == 0 && a == 2 && hits() == h0 + 1, "copied: rebuilt A is not a hit");
    b = 0;
    TU_CHECK(load_and_run(be, tb, &b, 1) == 0 && b == 1000 && hits() == h0 + 2, "copied: B is no longer a hit");
    cb_cpu_cache_report rep;
    TU_CHECK(cb_cpu_cache_info(dir, &rep) == 0 && rep.rebuilt == 1, "copied: rebuilt count %llu",
             (unsigned long long)rep.rebuilt);
    be->shutdown(be);
    tu_free(ta);
    tu_free(tb);
}

/* A symbolic link in place of an entry, pointing at a valid entry outside
 * the cache, is never followed: a miss, and the link is replaced. */
static void test_symlinked_entry(const char *base, const cb_translation *tr)
{
    char dir[1024], name[128], path[1200], outside[1200];
    snprintf(dir, sizeof dir, "%s/linked", base);
    setenv("CUBRIDGE_CACHE_DIR", dir, 1);
    cb_backend *be = cb_backend_cpu_create();
    unsigned long long a = 0;
    TU_CHECK(load_and_run(be, tr, &a, 1) == 0, "symlink: first load");
    char none[1][128];
    TU_CHECK(new_entry(dir, none, 0, name, sizeof name) == 0, "symlink: no entry");
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(outside, sizeof outside, "%s/outside.so", base);
    TU_CHECK(copy_file(path, outside) == 0 && unlink(path) == 0 && symlink(outside, path) == 0,
             "symlink: cannot plant the link");
    unsigned h0 = hits(), m0 = misses();
    a = 0;
    fprintf(stderr, "(a warning about a symbolic link in the cache is expected here)\n");
    TU_CHECK(load_and_run(be, tr, &a, 4) == 0 && a == 4, "symlink: load failed");
    TU_CHECK(hits() == h0 && misses() == m0 + 1, "symlink: %u hits %u misses: the link was followed", hits() - h0,
             misses() - m0);
    struct stat st;
    TU_CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode), "symlink: the entry is not a regular file again");
    TU_CHECK(lstat(outside, &st) == 0 && S_ISREG(st.st_mode), "symlink: the outside file was touched");
    be->shutdown(be);

    /* A link to the cache directory itself, in a private directory, is fine:
     * it is followed once, when the directory is opened. */
    char real[1024], link[1024];
    snprintf(real, sizeof real, "%s/real-cache", base);
    snprintf(link, sizeof link, "%s/link-cache", base);
    mkdir(real, 0700);
    TU_CHECK(symlink(real, link) == 0, "symlink: cannot link %s", link);
    setenv("CUBRIDGE_CACHE_DIR", link, 1);
    be = cb_backend_cpu_create();
    TU_CHECK(be && strcmp(cb_cpu_cache_dir(be), link) == 0, "symlink: a private link to the cache was refused");
    a = 0;
    TU_CHECK(load_and_run(be, tr, &a, 1) == 0 && a == 1 && find_entry(real, ".so", name, sizeof name) == 0,
             "symlink: no entry through the linked directory");
    be->shutdown(be);
}

/* The directories above the cache count too: one writable by others (not
 * sticky) or by the group makes the cache refused; a sticky one (like /tmp)
 * is fine; a link in an unsafe directory is refused. */
static void test_parents(const char *base, const cb_translation *tr)
{
    char open_dir[1024], dir[1100];
    snprintf(open_dir, sizeof open_dir, "%s/open", base);
    mkdir(open_dir, 0700);
    snprintf(dir, sizeof dir, "%s/cache", open_dir);
    mkdir(dir, 0700);
    chmod(open_dir, 0777);
    expect_refused(dir, tr, "world-writable parent");
    chmod(open_dir, 0770);
    expect_refused(dir, tr, "group-writable parent");
    chmod(open_dir, 01777);
    setenv("CUBRIDGE_CACHE_DIR", dir, 1);
    cb_backend *be = cb_backend_cpu_create();
    TU_CHECK(be && strcmp(cb_cpu_cache_dir(be), dir) == 0, "sticky world-writable parent refused");
    be->shutdown(be);
    /* A link planted in a directory others may write. */
    chmod(open_dir, 0777);
    char link[1200], real[1024];
    snprintf(real, sizeof real, "%s/parents-real", base);
    mkdir(real, 0700);
    snprintf(link, sizeof link, "%s/link", open_dir);
    TU_CHECK(symlink(real, link) == 0, "cannot link %s", link);
    expect_refused(link, tr, "link in a world-writable directory");
    if (geteuid() == 0) {
        char foreign[1024], inner[1100];
        snprintf(foreign, sizeof foreign, "%s/foreign", base);
        mkdir(foreign, 0755);
        snprintf(inner, sizeof inner, "%s/cache", foreign);
        mkdir(inner, 0700);
        TU_CHECK(chown(foreign, 65534, 65534) == 0, "chown");
        expect_refused(inner, tr, "parent owned by another user");
    }
    chmod(open_dir, 0700);
}

/* The path of a fallback directory a child process made, read from fd. */
static int read_line(int fd, char *out, size_t len)
{
    size_t n = 0;
    char ch;
    while (n + 1 < len && read(fd, &ch, 1) == 1 && ch != '\n')
        out[n++] = ch;
    out[n] = 0;
    return n > 0 ? 0 : -1;
}

/* A child: a backend on a refused directory (so a private fallback), one
 * load, its fallback path on fd; then how it ends: 0 exit() without
 * shutdown, 1 SIGKILL, 2 wait for a byte on hold first, then exit. */
static void fallback_child(const char *refused, const cb_translation *tr, int fd, int how, int hold)
{
    setenv("CUBRIDGE_CACHE_DIR", refused, 1);
    setenv("CUBRIDGE_LOG", "0", 1);
    cb_backend *be = cb_backend_cpu_create();
    unsigned long long a = 0;
    int ok = be && load_and_run(be, tr, &a, 1) == 0 && a == 1;
    dprintf(fd, "%s\n", be ? cb_cpu_cache_dir(be) : "");
    if (how == 1)
        kill(getpid(), SIGKILL);
    if (how == 2) {
        char ch;
        if (read(hold, &ch, 1) != 1)
            ok = 0;
    }
    exit(ok ? 0 : 1);
}

static pid_t start_fallback_child(const char *refused, const cb_translation *tr, int how, int *path_fd, int *hold_fd)
{
    int p[2], h[2];
    if (pipe(p) != 0 || pipe(h) != 0)
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        close(h[1]);
        fallback_child(refused, tr, p[1], how, h[0]);
    }
    close(p[1]);
    close(h[0]);
    *path_fd = p[0];
    *hold_fd = h[1];
    return pid;
}

/* Makes path look unchanged for seconds. */
static void backdate_by(const char *path, long seconds)
{
    struct timeval tv[2];
    gettimeofday(&tv[0], NULL);
    tv[0].tv_sec -= seconds;
    tv[1] = tv[0];
    utimes(path, tv);
}

static void backdate(const char *path) { backdate_by(path, 3600); }

/* The private fallback directory goes at exit, even without a shutdown; one
 * left by a killed process goes when a later process makes its own, unless
 * its process still lives. */
static void test_temp_dirs(const char *base, const cb_translation *tr)
{
    char refused[1024], tmp[1024], path[4096], killed[4096], alive[4096];
    snprintf(refused, sizeof refused, "%s/refused", base);
    mkdir(refused, 0700);
    chmod(refused, 0777);
    int status, pfd, hfd;

    pid_t pid = start_fallback_child(refused, tr, 0, &pfd, &hfd);
    TU_CHECK(read_line(pfd, path, sizeof path) == 0 && strncmp(path, base, strlen(base)) == 0,
             "temp: no fallback path from the child (%s)", path);
    waitpid(pid, &status, 0);
    close(pfd);
    close(hfd);
    TU_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "temp: child failed (0x%x)", status);
    TU_CHECK(access(path, F_OK) != 0, "temp: %s left behind after exit", path);

    /* Killed: left behind, then swept by the next process. */
    pid = start_fallback_child(refused, tr, 1, &pfd, &hfd);
    TU_CHECK(read_line(pfd, killed, sizeof killed) == 0, "temp: no path from the killed child");
    waitpid(pid, &status, 0);
    close(pfd);
    close(hfd);
    TU_CHECK(WIFSIGNALED(status) && access(killed, F_OK) == 0, "temp: the killed child's %s is not there", killed);
    /* One that is alive (its process holds its lock), old as well. */
    pid_t live = start_fallback_child(refused, tr, 2, &pfd, &hfd);
    int live_path_fd = pfd, live_hold = hfd;
    TU_CHECK(read_line(live_path_fd, alive, sizeof alive) == 0, "temp: no path from the live child");
    backdate(killed);
    backdate(alive);
    pid = start_fallback_child(refused, tr, 0, &pfd, &hfd);
    TU_CHECK(read_line(pfd, path, sizeof path) == 0, "temp: no path from the sweeping child");
    waitpid(pid, &status, 0);
    close(pfd);
    close(hfd);
    TU_CHECK(access(killed, F_OK) != 0, "temp: the killed process's %s was not swept", killed);
    TU_CHECK(access(alive, F_OK) == 0, "temp: the live process's %s was swept", alive);
    TU_CHECK(write(live_hold, "x", 1) == 1, "temp: cannot release the live child");
    waitpid(live, &status, 0);
    close(live_path_fd);
    close(live_hold);
    TU_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0 && access(alive, F_OK) != 0,
             "temp: the live child failed or left %s (0x%x)", alive, status);
    snprintf(tmp, sizeof tmp, "%s", getenv("TMPDIR"));
    DIR *d = opendir(tmp);
    struct dirent *e;
    int left = 0;
    while (d && (e = readdir(d)))
        left += strncmp(e->d_name, "cubridge-jit-", 13) == 0;
    if (d)
        closedir(d);
    TU_CHECK(left == 0, "temp: %d fallback directories left in %s", left, tmp);
    chmod(refused, 0700);
}

/* The sum of the sizes of the regular files in dir, and the largest .so+.c. */
static unsigned long long dir_bytes(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    unsigned long long sum = 0;
    while (d && (e = readdir(d))) {
        char p[1400];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (lstat(p, &st) == 0 && S_ISREG(st.st_mode))
            sum += (unsigned long long)st.st_size;
    }
    if (d)
        closedir(d);
    return sum;
}

/* Sets the mtime of every .so in dir an hour back. */
static void backdate_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 3 && strcmp(e->d_name + n - 3, ".so") == 0) {
            char p[1400];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            backdate(p);
        }
    }
    if (d)
        closedir(d);
}

/* CUBRIDGE_CACHE_MAX: the directory stays under it, least recently used
 * entries go first, a hit counts as a use, and 0 means no cap. */
static void test_eviction(const char *base)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/capped", base);
    setenv("CUBRIDGE_CACHE_DIR", dir, 1);
    cb_translation *tr[6];
    for (unsigned i = 0; i < 6; i++)
        tr[i] = make_scaled(i + 2);
    /* The size of one entry (with its .c) sets the cap: three of them. */
    setenv("CUBRIDGE_CACHE_MAX", "0", 1);
    cb_backend *be = cb_backend_cpu_create();
    unsigned long long a = 0;
    char name0[128], none[1][128], path0[1200];
    TU_CHECK(load_and_run(be, tr[0], &a, 1) == 0 && new_entry(dir, none, 0, name0, sizeof name0) == 0,
             "evict: first load");
    snprintf(path0, sizeof path0, "%s/%s", dir, name0);
    unsigned long long one = dir_bytes(dir) + 512;
    be->shutdown(be);
    char cap[64];
    snprintf(cap, sizeof cap, "%llu", one * 3);
    setenv("CUBRIDGE_CACHE_MAX", cap, 1);
    be = cb_backend_cpu_create();
    TU_CHECK(load_and_run(be, tr[1], &a, 1) == 0, "evict: load 1");
    /* Entry 1 last used an hour ago, entry 0 two hours ago, 2 now. */
    backdate_entries(dir);
    backdate_by(path0, 7200);
    TU_CHECK(load_and_run(be, tr[2], &a, 1) == 0, "evict: load 2");
    TU_CHECK(dir_bytes(dir) <= one * 3, "evict: %llu bytes over the cap %llu", dir_bytes(dir), one * 3);
    /* A hit on 0 makes it recent: 1 is now the least recently used. */
    unsigned h0 = hits(), m0 = misses();
    TU_CHECK(load_and_run(be, tr[0], &a, 1) == 0 && hits() == h0 + 1, "evict: entry 0 is not a hit");
    TU_CHECK(load_and_run(be, tr[3], &a, 1) == 0 && misses() == m0 + 1, "evict: entry 3 is not a miss");
    TU_CHECK(dir_bytes(dir) <= one * 3, "evict: %llu bytes over the cap %llu", dir_bytes(dir), one * 3);
    h0 = hits();
    m0 = misses();
    TU_CHECK(load_and_run(be, tr[0], &a, 1) == 0 && hits() == h0 + 1, "evict: the recently used entry 0 was evicted");
    TU_CHECK(load_and_run(be, tr[2], &a, 1) == 0 && hits() == h0 + 2, "evict: entry 2 was evicted before entry 1");
    TU_CHECK(load_and_run(be, tr[1], &a, 1) == 0 && misses() == m0 + 1,
             "evict: the least recently used entry 1 is still there");
    cb_cpu_cache_report rep;
    TU_CHECK(cb_cpu_cache_info(dir, &rep) == 0 && rep.evicted >= 2 && rep.evicted_bytes > 0 && rep.entries <= 3 &&
                 rep.max_bytes == one * 3,
             "evict: report says %llu evicted, %llu entries, cap %llu", (unsigned long long)rep.evicted,
             (unsigned long long)rep.entries, (unsigned long long)rep.max_bytes);
    be->shutdown(be);
    /* No cap: everything stays. */
    setenv("CUBRIDGE_CACHE_MAX", "0", 1);
    be = cb_backend_cpu_create();
    for (int i = 0; i < 6; i++)
        TU_CHECK(load_and_run(be, tr[i], &a, 1) == 0, "evict: uncapped load %d", i);
    TU_CHECK(cb_cpu_cache_info(dir, &rep) == 0 && rep.entries == 6, "evict: uncapped, %llu entries",
             (unsigned long long)rep.entries);
    be->shutdown(be);
    unsetenv("CUBRIDGE_CACHE_MAX");
    for (int i = 0; i < 6; i++)
        tu_free(tr[i]);
}

static void test_parse_size(void)
{
    uint64_t v = 1;
    TU_CHECK(cb_kernel_cache_parse_size("0", &v) == 0 && v == 0, "size 0");
    TU_CHECK(cb_kernel_cache_parse_size("512M", &v) == 0 && v == (uint64_t)512 << 20, "512M");
    TU_CHECK(cb_kernel_cache_parse_size("2GiB", &v) == 0 && v == (uint64_t)2 << 30, "2GiB");
    TU_CHECK(cb_kernel_cache_parse_size("64k", &v) == 0 && v == 65536, "64k");
    TU_CHECK(cb_kernel_cache_parse_size("1000", &v) == 0 && v == 1000, "1000");
    TU_CHECK(cb_kernel_cache_parse_size("12Q", &v) != 0 && cb_kernel_cache_parse_size("", &v) != 0 &&
                 cb_kernel_cache_parse_size("-1", &v) != 0 && cb_kernel_cache_parse_size("99999999999T", &v) != 0,
             "bad sizes accepted");
    unsetenv("CUBRIDGE_CACHE_MAX");
    TU_CHECK(cb_kernel_cache_max_bytes(0) == CB_KERNEL_CACHE_DEFAULT_MAX, "default cap");
}

/* The flags a unit builds with follow from its marks (codegen/translate.h):
 * a first-tier unit -O1, a lanes unit -O3 -march=native, any other -O2;
 * each set its own entry. A compiler wrapper writes each command line. */
static void test_flag_sets(const char *base)
{
    char dir[1024], cc[1100], log[1100];
    snprintf(dir, sizeof dir, "%s/flags", base);
    snprintf(cc, sizeof cc, "%s/cc-wrapper.sh", base);
    snprintf(log, sizeof log, "%s/cc.log", base);
    FILE *w = fopen(cc, "w");
    if (!w) {
        TU_CHECK(0, "cannot write %s", cc);
        return;
    }
    fprintf(w, "#!/bin/sh\necho \"$*\" >> '%s'\nexec cc \"$@\"\n", log);
    fclose(w);
    chmod(cc, 0700);
    setenv("CUBRIDGE_CACHE_DIR", dir, 1);
    setenv("CUBRIDGE_HOST_CC", cc, 1);
    cb_backend *be = cb_backend_cpu_create();
    unsetenv("CUBRIDGE_HOST_CC");
    static const char *const marks[3] = {"", CB_C_QUICK_MARK, CB_C_LANES_MARK};
    static const char *const want[3] = {"-O2 ", "-O1 ", "-O3 -march=native "};
    for (int i = 0; i < 3; i++) {
        char body[1024];
        snprintf(body, sizeof body, "%s%s", source, marks[i]);
        cb_translation *tr = tu_make(body, 1, &info, 1);
        unsigned long long a = 0;
        remove(log);
        TU_CHECK(load_and_run(be, tr, &a, 2) == 0 && a == 2, "set %d: a=%llu", i, a);
        char line[4096] = "";
        FILE *f = fopen(log, "r");
        size_t n = f ? fread(line, 1, sizeof line - 1, f) : 0;
        line[n] = 0;
        if (f)
            fclose(f);
        /* the wrapper also runs for the compiler's identity (--version, once): look for the compile */
        TU_CHECK(strstr(line, want[i]) && strstr(line, "-shared"), "set %d: flags %s, want %s", i, line, want[i]);
        for (int j = 0; j < 3; j++)
            TU_CHECK(j == i || !strstr(line, want[j]) || strstr(want[i], want[j]), "set %d also had %s", i, want[j]);
        tu_free(tr);
    }
    be->shutdown(be);
}

int main(void)
{
    char base[512], dir[1024];
    setenv("CUBRIDGE_THREADS", "2", 1);
    unsetenv("CUBRIDGE_CACHE_MAX");
    if (cb_fs_make_temp_dir("cubridge-test-cache-", base, sizeof base) != 0)
        return 1;
    /* Fallback directories go to a TMPDIR of this test alone. */
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s/tmp", base);
    mkdir(tmp, 0700);
    setenv("TMPDIR", tmp, 1);
    snprintf(dir, sizeof dir, "%s/cache", base);
    setenv("CUBRIDGE_CACHE_DIR", dir, 1);
    cb_translation *tr = tu_make(source, 1, &info, 1);
    test_hits(dir, tr);
    expect_rebuild(dir, tr, "flipped byte", flip_byte);
    expect_rebuild(dir, tr, "truncated .so", truncate_so);
    expect_rebuild(dir, tr, "trailer removed", remove_trailer);
    expect_rebuild(dir, tr, "hash field corrupted", corrupt_hash);
    expect_rebuild(dir, tr, "size field corrupted", corrupt_size);
    expect_rebuild(dir, tr, "source hash corrupted", corrupt_source_hash);
    expect_rebuild(dir, tr, "a FIFO in its place", make_fifo);
    test_permissions(base, tr);
    test_concurrent_processes(base, tr);
    test_copied_entry(base);
    test_symlinked_entry(base, tr);
    test_parents(base, tr);
    test_temp_dirs(base, tr);
    test_eviction(base);
    test_parse_size();
    test_flag_sets(base);
    tu_free(tr);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", base);
    if (tu_failures)
        return 1;
    printf("ok\n");
    return 0;
}
