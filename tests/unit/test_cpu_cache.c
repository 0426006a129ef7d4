/* The JIT cache: a second load is a hit (same backend, a new backend, a new
 * process); two modules from one source have their own globals; a tampered,
 * truncated or unsigned .so entry (object bytes + "CBJIT1" trailer with size
 * and SHA-256, one file) is detected, rebuilt and never loaded; the
 * cache directory is created 0700 and refused (private fallback) when others
 * may write it or another user owns it; concurrent processes building the
 * same entry all succeed. */
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>

#include "test_cpu_util.h"

static const char *source =
    "void cbk_0(cb_thread *t) {\n"
    "  unsigned long long *g = (unsigned long long *)cb_module_globals[0];\n"
    "  __atomic_fetch_add(g, (unsigned long long)PARAM(uint32_t, 0), __ATOMIC_RELAXED); (void)t;\n"
    "}\n";
static const tu_kernel info = {"add_to_global", 0, 0, 4};

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

/* The entry trailer is 48 bytes: "CBJIT1\0\0", u64 size, SHA-256. */
#define ENTRY_TRAILER 48

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

int main(void)
{
    char base[512], dir[1024];
    setenv("CUBRIDGE_THREADS", "2", 1);
    if (cb_fs_make_temp_dir("cubridge-test-cache-", base, sizeof base) != 0)
        return 1;
    snprintf(dir, sizeof dir, "%s/cache", base);
    setenv("CUBRIDGE_CACHE_DIR", dir, 1);
    cb_translation *tr = tu_make(source, 1, &info, 1);
    test_hits(dir, tr);
    expect_rebuild(dir, tr, "flipped byte", flip_byte);
    expect_rebuild(dir, tr, "truncated .so", truncate_so);
    expect_rebuild(dir, tr, "trailer removed", remove_trailer);
    expect_rebuild(dir, tr, "hash field corrupted", corrupt_hash);
    expect_rebuild(dir, tr, "size field corrupted", corrupt_size);
    test_permissions(base, tr);
    test_concurrent_processes(base, tr);
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
