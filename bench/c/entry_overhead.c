/* entry_overhead: how much of a plain kernel's time is the per-thread entry
 * call (bench/NOTES.md, item 2). Single-threaded on purpose: it times the
 * per-element work, not the pool.
 *   entry_overhead KERNEL.so [reps]
 * KERNEL.so is the JIT cache's object for bench_vectoradd.cu (the one whose
 * .c next to it defines the vector_add entry as cbk_0). It times c = a + b on
 * 2^24 floats four ways and prints "RESULT <key> <ns per element>":
 *   entry_call   cbk_0 once per CUDA thread, as block_exec.c's plain loop
 *                without block entries (CUBRIDGE_BLOCK_ENTRY=0)
 *   block_call   cbk_0_block once per 256 threads, as block_exec.c's plain
 *                loop with them (kernel ABI 7; skipped, printing nothing,
 *                when the object has no cbk_0_block)
 *   scalar_loop  the same sum as a plain C loop, auto-vectorisation off
 *   vector_loop  the same loop as the compiler vectorises it (-O2/-O3)
 * Build: cc -O2 -std=c11 -I src bench/c/entry_overhead.c -ldl -o entry_overhead */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codegen/c/kernel_abi.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline, optimize("no-tree-vectorize"))) static void scalar_add(const float *a, const float *b,
                                                                                float *c, int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

__attribute__((noinline)) static void vector_add(const float *restrict a, const float *restrict b,
                                                 float *restrict c, int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: entry_overhead KERNEL.so [reps]\n");
        return 2;
    }
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    void *dl = dlopen(argv[1], RTLD_NOW);
    cb_kernel_entry entry = dl ? (cb_kernel_entry)dlsym(dl, "cbk_0") : NULL;
    if (!entry) {
        fprintf(stderr, "entry_overhead: %s\n", dlerror());
        return 1;
    }
    cb_kernel_block_entry block = (cb_kernel_block_entry)dlsym(dl, "cbk_0_block");
    const int n = 1 << 24, threads = 256;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    for (int i = 0; i < n; i++) {
        a[i] = (float)(i % 1000);
        b[i] = (float)(i % 777) * 0.5f;
    }
    _Alignas(16) unsigned char params[32];
    memcpy(params + 0, &a, 8);
    memcpy(params + 8, &b, 8);
    memcpy(params + 16, &c, 8);
    memcpy(params + 24, &n, 4);
    cb_block blk;
    memset(&blk, 0, sizeof blk);
    blk.ntid = (cb_dim3){threads, 1, 1};
    blk.nctaid = (cb_dim3){n / threads, 1, 1};
    blk.params = params;
    cb_thread t;
    memset(&t, 0, sizeof t);
    t.blk = &blk;
    double best[4] = {1e9, 1e9, 1e9, 1e9};
    for (int r = 0; r < reps; r++) {
        memset(c, 0, n * sizeof *c);
        double t0 = now_s();
        for (uint32_t bx = 0; bx < (uint32_t)(n / threads); bx++) {
            blk.ctaid.x = bx;
            for (uint32_t x = 0; x < (uint32_t)threads; x++) {
                t.tid.x = x;
                t.flat = x;
                t.lane = x & 31;
                t.warp = x >> 5;
                entry(&t);
            }
        }
        double t1 = now_s();
        for (int i = 0; i < n; i += 4099)
            if (c[i] != a[i] + b[i]) {
                fprintf(stderr, "entry_overhead: wrong result at %d\n", i);
                return 1;
            }
        scalar_add(a, b, c, n);
        double t2 = now_s();
        vector_add(a, b, c, n);
        double t3 = now_s();
        double t4 = t3, t5 = t3;
        if (block) {
            memset(c, 0, n * sizeof *c);
            t4 = now_s();
            for (uint32_t bx = 0; bx < (uint32_t)(n / threads); bx++) {
                blk.ctaid.x = bx;
                block(&t, 0, threads);
            }
            t5 = now_s();
            for (int i = 0; i < n; i += 4099)
                if (c[i] != a[i] + b[i]) {
                    fprintf(stderr, "entry_overhead: block entry: wrong result at %d\n", i);
                    return 1;
                }
        }
        double v[4] = {t1 - t0, t2 - t1, t3 - t2, t5 - t4};
        for (int k = 0; k < 4; k++)
            if (v[k] < best[k])
                best[k] = v[k];
    }
    printf("RESULT entry_call %.3f\nRESULT scalar_loop %.3f\nRESULT vector_loop %.3f\n", best[0] / n * 1e9,
           best[1] / n * 1e9, best[2] / n * 1e9);
    if (block)
        printf("RESULT block_call %.3f\n", best[3] / n * 1e9);
    return 0;
}
