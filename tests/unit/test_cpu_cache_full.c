/* test_cpu_cache_full.c: a JIT compile that runs out of room fails with
 * CUDA_ERROR_OUT_OF_MEMORY and a message saying so, never with
 * CUDA_ERROR_INVALID_SOURCE, and the process lives; with room again the same
 * kernel compiles and runs. Room runs out four ways, each in a child
 * process:
 *   - RLIMIT_FSIZE below the size of the kernel source: our own write of it
 *     fails (refused before SIGXFSZ could kill the process);
 *   - RLIMIT_FSIZE between the source and the object, SIGXFSZ ignored: the
 *     compiler's writes fail with EFBIG; and with SIGXFSZ at its default,
 *     the assembler or linker dies of it;
 *   - a 1 MiB tmpfs as the cache directory (needs root and a private mount
 *     namespace; skipped with a note where it cannot be mounted).
 * Exits 77 (skipped) when none of them can be set up. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "test_cpu_util.h"

/* A kernel whose object holds 2 MiB of initialised data, from a source of
 * a few KiB (the kernel ABI text). */
static const char *body =
    "const unsigned char cb_test_ballast[2u << 20] = {1};\n"
    "void cbk_0(cb_thread *t) {\n"
    "  unsigned long long *g = (unsigned long long *)cb_module_globals[0];\n"
    "  __atomic_fetch_add(g, (unsigned long long)PARAM(uint32_t, 0) + cb_test_ballast[0], __ATOMIC_RELAXED);\n"
    "  (void)t;\n"
    "}\n";
static const tu_kernel info = {"ballast", 0, 0, 4};

enum { CASE_SOURCE_LIMIT, CASE_OBJECT_LIMIT_IGNORED, CASE_OBJECT_LIMIT_DEFAULT, CASE_TMPFS };
static const char *const case_names[] = {
    "RLIMIT_FSIZE below the source",
    "RLIMIT_FSIZE below the object, SIGXFSZ ignored",
    "RLIMIT_FSIZE below the object, SIGXFSZ default",
    "full 1 MiB tmpfs",
};

/* In a child: sets up the case, loads tr into a fresh cache under dir and
 * checks the outcome. Exits 0 passed, 1 failed, 77 could not set up. */
static void run_case(int which, const char *dir, const cb_translation *tr)
{
    char cache[1200];
    snprintf(cache, sizeof cache, "%s/case%d", dir, which);
    if (which == CASE_TMPFS) {
        mkdir(cache, 0700);
        if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
            mount("cubridge-test", cache, "tmpfs", 0, "size=1m,mode=0700") != 0) {
            fprintf(stderr, "SKIP %s: cannot mount a tmpfs here: %s\n", case_names[which], strerror(errno));
            _exit(77);
        }
    }
    setenv("CUBRIDGE_CACHE_DIR", cache, 1);
    cb_backend *be = cb_backend_cpu_create();
    if (!be || strcmp(cb_cpu_cache_dir(be), cache) != 0) {
        fprintf(stderr, "FAIL %s: the cache directory %s was not used\n", case_names[which], cache);
        _exit(1);
    }
    if (which != CASE_TMPFS) {
        struct rlimit rl = {0, 0};
        getrlimit(RLIMIT_FSIZE, &rl);
        rl.rlim_cur = which == CASE_SOURCE_LIMIT ? 1024 : 1 << 20;
        if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < rl.rlim_cur)
            rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0) {
            fprintf(stderr, "SKIP %s: setrlimit: %s\n", case_names[which], strerror(errno));
            _exit(77);
        }
        signal(SIGXFSZ, which == CASE_OBJECT_LIMIT_IGNORED ? SIG_IGN : SIG_DFL);
    }
    uint64_t g = 0;
    void *mod = NULL;
    char err[2048] = "";
    CUresult r = be->module_load(be, tr, &g, &mod, err, sizeof err);
    int ok = 1;
    if (r != CUDA_ERROR_OUT_OF_MEMORY) {
        fprintf(stderr, "FAIL %s: module_load returned %d, want CUDA_ERROR_OUT_OF_MEMORY (%d): %s\n",
                case_names[which], (int)r, (int)CUDA_ERROR_OUT_OF_MEMORY, err);
        ok = 0;
    } else if (!strstr(err, "no room to compile a kernel in") || !strstr(err, cache)) {
        fprintf(stderr, "FAIL %s: unclear message: %s\n", case_names[which], err);
        ok = 0;
    } else if (which == CASE_SOURCE_LIMIT && !strstr(err, "writing the kernel source")) {
        fprintf(stderr, "FAIL %s: the message does not name the source write: %s\n", case_names[which], err);
        ok = 0;
    }
    fprintf(stderr, "%s: %s\n", case_names[which], err);
    if (mod)
        be->module_unload(be, mod);
    be->shutdown(be);
    _exit(ok ? 0 : 1);
}

int main(void)
{
    char dir[512];
    setenv("CUBRIDGE_THREADS", "1", 1);
    if (cb_fs_make_temp_dir("cubridge-test-full-", dir, sizeof dir) != 0)
        return 1;
    cb_translation *tr = tu_make(body, 1, &info, 1);
    int passed = 0, skipped = 0;
    for (int which = 0; which <= CASE_TMPFS; which++) {
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid == 0)
            run_case(which, dir, tr);
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
            skipped++;
        } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            passed++;
        } else {
            fprintf(stderr, "FAIL %s: the child ended with status 0x%x\n", case_names[which], status);
            tu_failures++;
        }
    }
    /* With room, the same kernel compiles and runs: the failures above were
     * the disk's, not the kernel's. */
    char cache[1200];
    snprintf(cache, sizeof cache, "%s/room", dir);
    setenv("CUBRIDGE_CACHE_DIR", cache, 1);
    cb_backend *be = cb_backend_cpu_create();
    uint64_t counter = 0, g = (uint64_t)(uintptr_t)&counter;
    void *mod = tu_load(be, tr, &g);
    uint32_t add = 5;
    cb_launch_error lerr;
    TU_CHECK(mod && tu_launch(be, mod, 0, 1, 1, &add, 4, &lerr) == CUDA_SUCCESS && counter == 6,
             "with room: the kernel did not run (counter %llu)", (unsigned long long)counter);
    if (mod)
        be->module_unload(be, mod);
    be->shutdown(be);
    tu_free(tr);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    if (tu_failures)
        return 1;
    if (passed == 0) {
        fprintf(stderr, "SKIP: no way to fill a file system here (%d cases skipped)\n", skipped);
        return 77;
    }
    printf("ok (%d cases, %d skipped)\n", passed, skipped);
    return 0;
}
