/* test_cli_cache.c: `cubridge cache stats` on a real JIT cache. This
 * process fills a cache through the CPU backend (one miss, then two hits);
 * the command must then show the entry, the hits and misses of every
 * process (a second process adds a hit), the cap from CUBRIDGE_CACHE_MAX,
 * how long ago entries were used, evictions, and a warning when processes
 * would refuse the directory. Runs build/bin/cubridge (../../bin/cubridge
 * next to this test, or $CUBRIDGE_CLI). */
#include <errno.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "test_cpu_util.h"

static char cli_path[4096];

static int find_cli(void)
{
    const char *env = getenv("CUBRIDGE_CLI");
    if (env && env[0]) {
        snprintf(cli_path, sizeof cli_path, "%s", env);
    } else {
        char self[2048];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0)
            return -1;
        self[n] = 0;
        *strrchr(self, '/') = 0;
        snprintf(cli_path, sizeof cli_path, "%s/../../bin/cubridge", self);
    }
    return access(cli_path, X_OK);
}

/* Runs `cubridge cache stats` with CUBRIDGE_CACHE_DIR=dir and
 * CUBRIDGE_CACHE_MAX=max (unset when NULL); its stdout into out. Returns
 * the exit status. */
static int cache_stats(const char *dir, const char *max, char *out, size_t outlen)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("CUBRIDGE_CACHE_DIR", dir, 1);
        if (max)
            setenv("CUBRIDGE_CACHE_MAX", max, 1);
        else
            unsetenv("CUBRIDGE_CACHE_MAX");
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execl(cli_path, cli_path, "cache", "stats", (char *)NULL);
        _exit(99);
    }
    close(fds[1]);
    size_t used = 0;
    ssize_t got;
    while ((got = read(fds[0], out + used, outlen - 1 - used)) > 0 || (got < 0 && errno == EINTR))
        if (got > 0)
            used += (size_t)got;
    out[used] = 0;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const char *body = "void cbk_0(cb_thread *t) { (void)t; }\n";
static const tu_kernel info = {"empty", 0, 0, 0};

static void load_twice(const cb_translation *tr)
{
    cb_backend *be = cb_backend_cpu_create();
    for (int i = 0; i < 2; i++) {
        void *mod = tu_load(be, tr, NULL);
        if (mod)
            be->module_unload(be, mod);
    }
    be->shutdown(be);
}

#define EXPECT(out, text) TU_CHECK(strstr(out, text) != NULL, "`cache stats` lacks \"%s\":\n%s", text, out)

int main(void)
{
    if (find_cli() != 0) {
        fprintf(stderr, "no cubridge at %s\n", cli_path);
        return 1;
    }
    char base[512], dir[700], out[8192];
    setenv("CUBRIDGE_THREADS", "1", 1);
    if (cb_fs_make_temp_dir("cubridge-test-cli-cache-", base, sizeof base) != 0)
        return 1;
    snprintf(dir, sizeof dir, "%s/cache", base);
    setenv("CUBRIDGE_CACHE_DIR", dir, 1);
    unsetenv("CUBRIDGE_CACHE_MAX");
    cb_translation *tr = tu_make(body, 1, &info, 0);
    load_twice(tr); /* one miss, one hit */
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) { /* another process: one more hit */
        cb_backend *be = cb_backend_cpu_create();
        void *mod = tu_load(be, tr, NULL);
        if (mod)
            be->module_unload(be, mod);
        be->shutdown(be);
        _exit(mod ? 0 : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    TU_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the second process failed");

    TU_CHECK(cache_stats(dir, "1M", out, sizeof out) == 0, "cache stats failed");
    EXPECT(out, "compiled modules  1");
    EXPECT(out, "entries           1\n");
    EXPECT(out, "limit             1048576 bytes (1.0 MiB, CUBRIDGE_CACHE_MAX)");
    EXPECT(out, "last used         newest ");
    EXPECT(out, "hits              2 (66.7% of 3 loads since 20");
    EXPECT(out, "misses            1 (compiler runs)");
    EXPECT(out, "evicted           0 entries");
    EXPECT(out, "rebuilt           0");
    TU_CHECK(strstr(out, "warning") == NULL, "unexpected warning:\n%s", out);

    TU_CHECK(cache_stats(dir, "0", out, sizeof out) == 0, "cache stats failed");
    EXPECT(out, "limit             none (CUBRIDGE_CACHE_MAX=0)");
    TU_CHECK(cache_stats(dir, NULL, out, sizeof out) == 0, "cache stats failed");
    EXPECT(out, "limit             536870912 bytes (512.0 MiB, CUBRIDGE_CACHE_MAX)");

    /* A cap under what the directory holds: the next store evicts. */
    setenv("CUBRIDGE_CACHE_MAX", "1", 1);
    cb_translation *other = tu_make("void cbk_0(cb_thread *t) { (void)t; (void)0; }\n", 1, &info, 0);
    load_twice(other);
    unsetenv("CUBRIDGE_CACHE_MAX");
    TU_CHECK(cache_stats(dir, NULL, out, sizeof out) == 0, "cache stats failed");
    EXPECT(out, "entries           1\n");
    EXPECT(out, "evicted           1 entries");
    EXPECT(out, "hits              3 (60.0% of 5 loads");

    /* A directory others may write: processes would refuse it. */
    chmod(dir, 0777);
    TU_CHECK(cache_stats(dir, NULL, out, sizeof out) == 0, "cache stats failed");
    EXPECT(out, "warning           processes will not use this directory");
    EXPECT(out, "writable by others");
    chmod(dir, 0700);

    tu_free(tr);
    tu_free(other);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", base);
    if (tu_failures)
        return 1;
    printf("ok\n");
    return 0;
}
