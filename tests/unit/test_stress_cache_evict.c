/* test_stress_cache_evict.c: eviction under CUBRIDGE_CACHE_MAX while two
 * processes share one JIT cache. The cap holds about three entries; both
 * processes load NMODULES PTX modules (the same ones, in different orders,
 * each twice in a row so that one process hits entries the other is
 * evicting) through cuModuleLoadData, run every kernel and check its result,
 * so a wrong or partial entry would show as a wrong sum. After every load
 * each process measures the directory; it never grows past the cap by more
 * than what two processes can have in flight (a just-stored entry each,
 * with its compiler's temporary files). At the end the directory is within
 * the cap plus one entry per process, every <key>.so is one whole entry (a
 * "CBJIT2" trailer whose size matches), no temporary file is left, the
 * shared counters add up to the loads, and a last process still gets the
 * right results. */
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend/cpu/cpu_backend.h"

enum { NPROCS = 2, NMODULES = 8, ROUNDS = 2, N = 257, CAP_ENTRIES = 3 };
#define ENTRY_TRAILER 112

static int failures;
#define CHECK(c)                                                                                               \
    do {                                                                                                       \
        if (!(c)) {                                                                                            \
            fprintf(stderr, "%s:%d [pid %d]: check failed: %s\n", __FILE__, __LINE__, (int)getpid(), #c);     \
            failures++;                                                                                        \
        }                                                                                                      \
    } while (0)
#define OK(call) CHECK((call) == CUDA_SUCCESS)

/* Module m: add_k(int *p, int n): p[i] += K, with K = salt + m. */
static void module_ptx(char *out, size_t cap, unsigned salt, int m)
{
    snprintf(out, cap,
             ".version 8.0\n.target sm_75\n.address_size 64\n"
             ".visible .entry add_k(.param .u64 p0, .param .u32 p1)\n{\n"
             ".reg .pred %%p<2>;\n.reg .b32 %%r<8>;\n.reg .b64 %%rd<5>;\n"
             "ld.param.u64 %%rd1, [p0];\nld.param.u32 %%r2, [p1];\n"
             "mov.u32 %%r3, %%ctaid.x;\nmov.u32 %%r4, %%ntid.x;\nmov.u32 %%r5, %%tid.x;\n"
             "mad.lo.s32 %%r1, %%r3, %%r4, %%r5;\nsetp.ge.s32 %%p1, %%r1, %%r2;\n@%%p1 bra DONE;\n"
             "cvta.to.global.u64 %%rd2, %%rd1;\nmul.wide.s32 %%rd3, %%r1, 4;\nadd.s64 %%rd4, %%rd2, %%rd3;\n"
             "ld.global.u32 %%r6, [%%rd4];\nadd.s32 %%r7, %%r6, %u;\nst.global.u32 [%%rd4], %%r7;\n"
             "DONE:\nret;\n}\n",
             salt + (unsigned)m);
}

static void run_module(unsigned salt, int m)
{
    char ptx[2048];
    module_ptx(ptx, sizeof ptx, salt, m);
    CUmodule mod = NULL;
    CUfunction f = NULL;
    OK(cuModuleLoadData(&mod, ptx));
    OK(cuModuleGetFunction(&f, mod, "add_k"));
    CUdeviceptr d = 0;
    OK(cuMemAlloc_v2(&d, N * sizeof(int)));
    OK(cuMemsetD32_v2(d, 0, N));
    int n = N;
    void *args[] = {&d, &n};
    OK(cuLaunchKernel(f, 3, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    int host[N];
    OK(cuMemcpyDtoH_v2(host, d, sizeof host));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += host[i] != (int)(salt + (unsigned)m);
    if (bad)
        fprintf(stderr, "module %d: %d of %d results wrong (first %d, want %u)\n", m, bad, N, host[0], salt + m);
    CHECK(bad == 0);
    OK(cuMemFree_v2(d));
    OK(cuModuleUnload(mod));
}

/* Regular files in dir: their bytes, the number of <key>.so and of
 * temporary files, and whether every .so is a whole entry. */
typedef struct dir_state {
    unsigned long long bytes;
    int entries, temps, broken;
} dir_state;

static int entry_is_whole(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char t[ENTRY_TRAILER];
    long size = -1;
    int ok = f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= ENTRY_TRAILER &&
             fseek(f, size - ENTRY_TRAILER, SEEK_SET) == 0 && fread(t, 1, ENTRY_TRAILER, f) == ENTRY_TRAILER &&
             memcmp(t, "CBJIT2\0\0", 8) == 0;
    if (f)
        fclose(f);
    unsigned long long n = 0;
    for (int i = 0; ok && i < 8; i++)
        n |= (unsigned long long)t[8 + i] << (8 * i);
    return ok && n == (unsigned long long)(size - ENTRY_TRAILER);
}

static dir_state measure(const char *dir, int check_entries)
{
    dir_state s = {0, 0, 0, 0};
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        char path[4400];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        s.bytes += (unsigned long long)st.st_size;
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "tmp", 3) == 0 || strstr(e->d_name, ".tmp"))
            s.temps++;
        else if (len > 3 && strcmp(e->d_name + len - 3, ".so") == 0) {
            s.entries++;
            if (check_entries && !entry_is_whole(path)) {
                fprintf(stderr, "not a whole entry: %s\n", e->d_name);
                s.broken++;
            }
        }
    }
    if (d)
        closedir(d);
    return s;
}

/* Loads every module (in an order of its own, each twice in a row) ROUNDS
 * times, watching the directory; returns the largest size it saw. */
static unsigned long long child(unsigned salt, int k, const char *cache)
{
    OK(cuInit(0));
    CUcontext ctx;
    OK(cuDevicePrimaryCtxRetain(&ctx, 0));
    OK(cuCtxSetCurrent(ctx));
    unsigned long long largest = 0;
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < NMODULES; i++) {
            int m = k % 2 ? NMODULES - 1 - i : i;
            for (int twice = 0; twice < 2; twice++) {
                run_module(salt, m);
                dir_state s = measure(cache, 0);
                if (s.bytes > largest)
                    largest = s.bytes;
            }
        }
    }
    OK(cuDevicePrimaryCtxRelease_v2(0));
    return largest;
}

int main(void)
{
    /* Exact counts of builds: no tiered rebuilds (a kernel whose launches add up to
     * CUBRIDGE_TIER_MS, as on a loaded machine or under ASan, is built again with its
     * lanes entry: one more entry and one more miss). */
    setenv("CUBRIDGE_TIER_MS", "100000000", 1);
    char dir[] = "/tmp/cubridge-cache-evict-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char probe[4200], cache[4200];
    snprintf(probe, sizeof probe, "%s/probe", dir);
    snprintf(cache, sizeof cache, "%s/cache", dir);
    unsigned salt = (unsigned)time(NULL) % 100000u * 7u + (unsigned)getpid() % 1000u;

    /* The size of one entry, from a process of its own (this one may not
     * touch CUDA before forking). */
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("CUBRIDGE_CACHE_DIR", probe, 1);
        OK(cuInit(0));
        CUcontext ctx;
        OK(cuDevicePrimaryCtxRetain(&ctx, 0));
        OK(cuCtxSetCurrent(ctx));
        run_module(salt + 1000, 0);
        _exit(failures ? 1 : 0);
    }
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    unsigned long long one = measure(probe, 1).bytes;
    CHECK(one > 0);
    unsigned long long cap = one * CAP_ENTRIES;
    char capstr[64];
    snprintf(capstr, sizeof capstr, "%llu", cap);
    setenv("CUBRIDGE_CACHE_MAX", capstr, 1);
    setenv("CUBRIDGE_CACHE_DIR", cache, 1);

    int pipes[NPROCS][2];
    pid_t pids[NPROCS];
    for (int k = 0; k < NPROCS; k++) {
        CHECK(pipe(pipes[k]) == 0);
        pids[k] = fork();
        if (pids[k] == 0) {
            unsigned long long largest = child(salt, k, cache);
            CHECK(write(pipes[k][1], &largest, sizeof largest) == (ssize_t)sizeof largest);
            _exit(failures ? 1 : 0);
        }
        CHECK(pids[k] > 0);
        close(pipes[k][1]);
    }
    unsigned long long largest = 0;
    for (int k = 0; k < NPROCS; k++) {
        unsigned long long l = 0;
        CHECK(read(pipes[k][0], &l, sizeof l) == (ssize_t)sizeof l);
        close(pipes[k][0]);
        if (l > largest)
            largest = l;
        CHECK(waitpid(pids[k], &status, 0) == pids[k]);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    /* In flight, per process: its just-stored entry, and a compile (source,
     * object, entry under a temporary name). */
    fprintf(stderr, "entry %llu bytes, cap %llu, largest seen %llu\n", one, cap, largest);
    CHECK(largest <= cap + NPROCS * 3 * one);
    dir_state end = measure(cache, 1);
    fprintf(stderr, "at the end: %llu bytes, %d entries\n", end.bytes, end.entries);
    CHECK(end.bytes <= cap + NPROCS * one);
    CHECK(end.broken == 0 && end.temps == 0 && end.entries >= 1);

    cb_cpu_cache_report rep;
    CHECK(cb_cpu_cache_info(cache, &rep) == 0);
    CHECK(rep.hits + rep.misses == (unsigned long long)NPROCS * ROUNDS * NMODULES * 2);
    CHECK(rep.evicted > 0 && rep.rebuilt == 0 && rep.max_bytes == cap);
    fprintf(stderr, "counters: %llu hits, %llu misses, %llu evicted\n", (unsigned long long)rep.hits,
            (unsigned long long)rep.misses, (unsigned long long)rep.evicted);

    /* This process: every module right, from whatever is left. */
    OK(cuInit(0));
    CUcontext ctx;
    OK(cuDevicePrimaryCtxRetain(&ctx, 0));
    OK(cuCtxSetCurrent(ctx));
    for (int m = 0; m < NMODULES; m++)
        run_module(salt, m);
    OK(cuDevicePrimaryCtxRelease_v2(0));
    CHECK(measure(cache, 1).bytes <= cap + one);

    char cmd[4300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    printf("test_stress_cache_evict: %d processes, %d modules, %d failures\n", NPROCS, NMODULES, failures);
    return failures ? 1 : 0;
}
