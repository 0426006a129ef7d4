/* wmma_c.c: the plain C twin of bench/bench_wmma.cu -- the same n x n GEMM
 * C = A * B over the same fp16 inputs (../wmma_inputs.h), written as a plain C
 * loop with OpenMP:
 *
 *   1. A and B are held as _Float16 arrays (row-major) and converted to float
 *      (with -march=native on an F16C CPU, gcc converts with vcvtph2ps);
 *   2. C[i][j] += A[i][k] * B[k][j] in f32, k ascending for every entry, as an
 *      i-k-j loop blocked for the cache: panels of 512 columns of C (one
 *      OpenMP thread each, `#pragma omp parallel for`), 128 rows of B at a
 *      time (256 KiB: the L2), the j loop `#pragma omp simd`.
 *
 * Both steps are timed (the conversion is a small part), in wall time and in CPU time of the
 * process. Build:
 *   gcc -O3 -march=native -fopenmp -std=c11 bench/c/wmma_c.c -o build/bench/wmma_c
 * Run: wmma_c [N] (default 4096, a multiple of 64). It checks its result as
 * bench_wmma does (exactly: the inputs make it exact), prints one line to
 * stdout and `RESULT wmma_c <ms>` to stderr, after one untimed warm-up run
 * at n = 64. OMP_NUM_THREADS sets the threads. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../wmma_inputs.h"

#define PANEL_COLS 512
#define PANEL_ROWS 128

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }

static double cpu_used_ms; /* CPU time of the process (all its threads) in the timed GEMM */

static void gemm(const _Float16 *ha, const _Float16 *hb, float *a, float *b, float *c, int n)
{
    size_t nn = (size_t)n * n;
#pragma omp parallel for simd schedule(static)
    for (size_t i = 0; i < nn; i++) {
        a[i] = (float)ha[i];
        b[i] = (float)hb[i];
    }
    memset(c, 0, nn * sizeof *c);
    int cols = n < PANEL_COLS ? n : PANEL_COLS;
#pragma omp parallel for schedule(static)
    for (int j0 = 0; j0 < n; j0 += cols)
        for (int k0 = 0; k0 < n; k0 += PANEL_ROWS)
            for (int i = 0; i < n; i++) {
                float *ci = c + (size_t)i * n;
                for (int k = k0; k < k0 + PANEL_ROWS && k < n; k++) {
                    float aik = a[(size_t)i * n + k];
                    const float *bk = b + (size_t)k * n;
#pragma omp simd
                    for (int j = j0; j < j0 + cols; j++)
                        ci[j] += aik * bk[j];
                }
            }
}

/* Runs the GEMM at size n; returns its time in ms; *out: the result, *fa, *fb: the inputs as float. */
static double run(int n, float **out, float **fa, float **fb)
{
    size_t nn = (size_t)n * n;
    _Float16 *ha = malloc(nn * sizeof *ha), *hb = malloc(nn * sizeof *hb);
    *fa = malloc(nn * sizeof(float));
    *fb = malloc(nn * sizeof(float));
    *out = malloc(nn * sizeof(float));
    if (!ha || !hb || !*fa || !*fb || !*out) {
        printf("FAIL wmma_c: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < nn; i++) {
        ha[i] = (_Float16)wmma_input(0, i);
        hb[i] = (_Float16)wmma_input(1, i);
    }
    double t0 = now_ms(), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    gemm(ha, hb, *fa, *fb, *out, n);
    double ms = now_ms() - t0;
    cpu_used_ms = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    free(ha);
    free(hb);
    return ms;
}

static void check(const float *got, const float *fa, const float *fb, int n, int r, int c)
{
    double want = wmma_reference(fa, fb, n, r, c), g = got[(size_t)r * n + c];
    if (!(g == want)) {
        printf("FAIL wmma_c n=%d: C[%d][%d] = %.9g, expected %.9g\n", n, r, c, g, want);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    if (n < 64 || n % 64 || n > 4096) {
        printf("FAIL wmma_c: n must be a multiple of 64 in [64, 4096]\n");
        return 1;
    }
    float *got, *fa, *fb;
    run(64, &got, &fa, &fb);
    free(got), free(fa), free(fb);
    double ms = run(n, &got, &fa, &fb);
    int checked = 0;
    if (n <= 512) {
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++, checked++)
                check(got, fa, fb, n, r, c);
    } else {   /* the same samples as bench_wmma */
        unsigned s = 12345;
        for (int i = 0; i < 4096; i++, checked++) {
            s = s * 1664525u + 1013904223u;
            int r = (int)((s >> 8) % (unsigned)n);
            s = s * 1664525u + 1013904223u;
            check(got, fa, fb, n, r, (int)((s >> 8) % (unsigned)n));
        }
        for (int i = 0; i < 4; i++, checked++)
            check(got, fa, fb, n, i & 1 ? n - 1 : 0, i & 2 ? n - 1 : 0);
    }
    fprintf(stderr, "wmma_c: n = %d, %d threads: %.1f ms (%.1f ms of CPU), %.2f GFLOP/s\n", n, omp_get_max_threads(), ms,
            cpu_used_ms, 2.0 * n * n * (double)n / ms / 1e6);
    fprintf(stderr, "RESULT wmma_c %.3f\nRESULT wmma_c_cpu %.3f\n", ms, cpu_used_ms);
    printf("PASS wmma_c n=%d (%d entries checked exactly)\n", n, checked);
    return 0;
}
