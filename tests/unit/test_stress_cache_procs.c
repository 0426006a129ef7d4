/* test_stress_cache_procs.c: several processes share one cold JIT cache at
 * the same time and do not corrupt it. NPROCS children each load the same
 * NMODULES PTX modules (in different orders) through cuModuleLoadData into
 * one fresh CUBRIDGE_CACHE_DIR, run every kernel and check the results.
 * Afterwards every <key>.so is one whole entry (object bytes, then the
 * 112-byte "CBJIT2" trailer whose size field matches), no temporary file or
 * sidecar is left, and a last process finds every module in the cache (hits
 * only) and still gets the right results. */
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

enum { NPROCS = 6, NMODULES = 4, N = 257 };
#define ENTRY_TRAILER 112

static int failures;
#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s:%d [pid %d]: check failed: %s\n", __FILE__, __LINE__, (int)getpid(), #c); \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)
#define OK(call) CHECK((call) == CUDA_SUCCESS)

/* Module m: add_k(int *p, int n): p[i] += K, with K = salt + m, so that
 * each run and each module has its own source and cache key. */
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

/* Loads module m, runs it over N ints of 0 and checks they became K. */
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
    CHECK(bad == 0);
    OK(cuMemFree_v2(d));
    OK(cuModuleUnload(mod));
}

/* A child: its own order of the modules; exits 0 when all was right. */
static int child(unsigned salt, int k)
{
    OK(cuInit(0));
    CUcontext ctx;
    OK(cuDevicePrimaryCtxRetain(&ctx, 0));
    OK(cuCtxSetCurrent(ctx));
    for (int i = 0; i < NMODULES; i++)
        run_module(salt, (i + k) % NMODULES);
    OK(cuDevicePrimaryCtxRelease_v2(0));
    return failures ? 1 : 0;
}

/* 1 when the entry file at path ends in a trailer whose size matches it. */
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

/* Checks the directory: each .so is a whole entry; no temporary files or sidecars. */
static void check_cache_dir(const char *dir, int *n_so)
{
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d)
        return;
    struct dirent *e;
    *n_so = 0;
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        size_t len = strlen(name);
        if (name[0] == '.')
            continue;
        if (strncmp(name, "tmp", 3) == 0 || strstr(name, ".tmp") || strstr(name, ".sha256")) {
            fprintf(stderr, "left behind in the cache: %s\n", name);
            failures++;
        }
        if (len > 3 && strcmp(name + len - 3, ".so") == 0) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, name);
            CHECK(entry_is_whole(path));
            (*n_so)++;
        }
    }
    closedir(d);
}

int main(void)
{
    /* Exact counts of builds: no tiered rebuilds (a kernel whose launches add up to
     * CUBRIDGE_TIER_MS, as on a loaded machine or under ASan, is built again with its
     * lanes entry: one more entry and one more miss). */
    setenv("CUBRIDGE_TIER_MS", "100000000", 1);
    char dir[] = "/tmp/cubridge-cache-procs-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char cache[4200];
    snprintf(cache, sizeof cache, "%s/cache", dir); /* created by cubridge */
    setenv("CUBRIDGE_CACHE_DIR", cache, 1);
    unsigned salt = (unsigned)time(NULL) % 100000u * 7u + (unsigned)getpid() % 1000u;

    pid_t pids[NPROCS];
    for (int k = 0; k < NPROCS; k++) {
        pids[k] = fork();
        if (pids[k] == 0)
            _exit(child(salt, k));
        CHECK(pids[k] > 0);
    }
    for (int k = 0; k < NPROCS; k++) {
        int status = 0;
        CHECK(waitpid(pids[k], &status, 0) == pids[k]);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    int n_so = 0;
    check_cache_dir(cache, &n_so);
    CHECK(n_so == NMODULES);

    /* This process: every module comes from the cache now. */
    child(salt, 0);
    unsigned hits = 0, misses = 0;
    cb_cpu_cache_stats(&hits, &misses);
    CHECK(hits == NMODULES && misses == 0);
    check_cache_dir(cache, &n_so);
    CHECK(n_so == NMODULES);

    char cmd[4300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    printf("test_stress_cache_procs: %d processes, %d modules, %d failures\n", NPROCS, NMODULES, failures);
    return failures ? 1 : 0;
}
