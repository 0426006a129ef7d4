/* cache_hit: what a JIT cache hit costs (bench/RESULTS.md). Not part of
 * bench/run.sh.
 *   cache_hit [reps] PTX...
 * Translates each PTX file once, loads every module once into a private
 * cache (misses: compiles), then REPS times (default 200) per module:
 *   jit_build    cb_jit_build alone: key hash, open, read, verify (and,
 *                since the cache checks its entries against their key,
 *                recency bump)
 *   module_load  the backend's whole module load on a hit: cb_jit_build +
 *                loading the object from memory (memfd, dlopen) + binding
 *                its kernels + unload
 * and prints "RESULT <key> <us>" per module and, summed over all modules
 * and divided by their kernel count, per kernel: microseconds of the
 * calling thread's CPU time (user + system, so the file system calls
 * count).
 * CB_BENCH_PORTABLE_SHA=1 makes SHA-256 use the portable code even where the
 * processor's SHA extensions would be used (where cb_sha256_force_portable
 * exists).
 * Build: cmake --build build --target bench_cache_hit
 * Run:   build/bench/cache_hit 200 tests/data/ptx/NAME.ptx ... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"
#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_internal.h"
#include "codegen/translate.h"
#include "platform/fs.h"
#include "platform/sha256.h"

/* The calling thread's CPU time (user + system), not the wall clock: on a
 * shared machine other processes' load then barely moves the figures. */
static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 0;
    if (reps <= 0 || argc < 3) {
        fprintf(stderr, "usage: cache_hit REPS PTX...\n");
        return 2;
    }
    if (getenv("CB_BENCH_PORTABLE_SHA") && atoi(getenv("CB_BENCH_PORTABLE_SHA")))
        cb_sha256_force_portable(1);
    char dir[512];
    if (cb_fs_make_temp_dir("cubridge-bench-cache-", dir, sizeof dir) != 0)
        return 1;
    char cache[600];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    setenv("CUBRIDGE_CACHE_DIR", cache, 1);
    setenv("CUBRIDGE_THREADS", "1", 0);
    cb_backend *be = cb_backend_cpu_create();
    cb_jit_cache jc;
    if (!be || cb_jit_cache_open(&jc) != 0)
        return 1;
    double build_total = 0, load_total = 0;
    unsigned kernels_total = 0;
    for (int f = 2; f < argc; f++) {
        unsigned char *ptx;
        size_t len;
        char err[4096];
        cb_translation *tr = NULL;
        if (cb_fs_read_file(argv[f], &ptx, &len) != 0 ||
            cb_translate_ptx((const char *)ptx, len, argv[f], CB_DIALECT_C, &tr, err, sizeof err) != 0) {
            fprintf(stderr, "%s: cannot translate: %s\n", argv[f], tr ? "" : err);
            return 1;
        }
        free(ptx);
        uint64_t *globals = calloc(tr->nglobals + 1, sizeof *globals);
        for (uint32_t g = 0; g < tr->nglobals; g++)
            globals[g] = (uint64_t)(uintptr_t)calloc(1, tr->globals[g].size + 64);
        void *mod = NULL;
        if (be->module_load(be, tr, globals, &mod, err, sizeof err) != CUDA_SUCCESS) { /* the miss */
            fprintf(stderr, "%s: %s\n", argv[f], err);
            return 1;
        }
        be->module_unload(be, mod);
        double t0 = now_us();
        for (int r = 0; r < reps; r++) {
            unsigned char *so;
            size_t so_len;
            if (cb_jit_build(&jc, tr->source, tr->source_len, &so, &so_len, err, sizeof err) != CUDA_SUCCESS)
                return 1;
            free(so);
        }
        double t1 = now_us();
        for (int r = 0; r < reps; r++) {
            if (be->module_load(be, tr, globals, &mod, err, sizeof err) != CUDA_SUCCESS)
                return 1;
            be->module_unload(be, mod);
        }
        double t2 = now_us();
        double build = (t1 - t0) / reps, load = (t2 - t1) / reps;
        const char *base = strrchr(argv[f], '/');
        base = base ? base + 1 : argv[f];
        printf("RESULT %s kernels=%u source=%zuB jit_build_us %.1f module_load_us %.1f\n", base, tr->nkernels,
               tr->source_len, build, load);
        build_total += build;
        load_total += load;
        kernels_total += tr->nkernels;
        for (uint32_t g = 0; g < tr->nglobals; g++)
            free((void *)(uintptr_t)globals[g]);
        free(globals);
        cb_translation_free(tr);
    }
    unsigned hits, misses;
    cb_cpu_cache_stats(&hits, &misses);
    printf("RESULT per_kernel jit_build_us %.1f module_load_us %.1f (%d modules, %u kernels; %u hits %u misses)\n",
           build_total / kernels_total, load_total / kernels_total, argc - 2, kernels_total, hits, misses);
    cb_jit_cache_close(&jc);
    be->shutdown(be);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}
