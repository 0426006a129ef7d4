/* suite.h: what the three forms of the benchmark suite share (bench/suite/:
 * suite.cu through cubridge, suite_omp.c with OpenMP, suite_ocl.c + suite.cl
 * on an OpenCL device such as PoCL). Plain C99, also included by the CUDA file.
 *
 * Each kernel has a size, a "unit" (the work one timed measurement does, at
 * least ~100 ms for the OpenMP form on a 2-core machine) and an input made by
 * the same functions here, so every form computes the same thing and checks
 * its own result against the host code below. Every form prints
 *   RESULT <kernel> <milliseconds per unit, median of the timed units>
 * on stdout; bench/suite.sh runs them side by side.
 */
#ifndef CB_BENCH_SUITE_H
#define CB_BENCH_SUITE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- sizes ---------------------------------------------------------------- */

#define SUITE_VEC_N (1 << 24)          /* vectoradd, saxpy, reduction: floats */
#define SUITE_VEC_LAUNCHES 8           /* launches per unit (vectoradd, saxpy) */
#define SUITE_SAXPY_BLOCKS 256         /* grid-stride: 256 x 256 threads */
#define SUITE_SAXPY_A 0.5f
#define SUITE_RED_N (1 << 25)
#define SUITE_RED_BLOCKS 256
#define SUITE_RED_LAUNCHES 8
#define SUITE_GEMM_N 1024              /* SGEMM: n x n, 16 x 16 tiles */
#define SUITE_GEMM_TILE 16
#define SUITE_STENCIL_N 4096           /* stencil: n x n floats, 32 x 8 blocks */
#define SUITE_STENCIL_SWEEPS 4
#define SUITE_STENCIL_C0 0.5f
#define SUITE_STENCIL_C1 0.125f
#define SUITE_HIST_WORDS (1 << 24)     /* histogram: 64 MiB of bytes, read as uint32 words */
#define SUITE_HIST_BLOCKS 256
#define SUITE_HIST_PASSES 2
#define SUITE_TR_N 4096                /* transpose: n x n floats, 32 x 32 tiles, 32 x 8 blocks */
#define SUITE_TR_TILE 32
#define SUITE_TR_ROWS 8
#define SUITE_TR_REPS 4
#define SUITE_NBODY_N 8192             /* n-body: bodies, 256 per tile */
#define SUITE_NBODY_TILE 256
#define SUITE_NBODY_EPS2 0.01f

static const char *const suite_kernels[] = {"vectoradd", "saxpy", "sgemm", "reduction",
                                            "stencil", "histogram", "transpose", "nbody"};
#define SUITE_NKERNELS 8

/* ---- timing ------------------------------------------------------------------ */

static double suite_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int suite_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Prints RESULT and the separate times (stderr); returns the median. */
static double suite_report(const char *kernel, double *ms, int n)
{
    fprintf(stderr, "%s:", kernel);
    for (int i = 0; i < n; i++)
        fprintf(stderr, " %.2f", ms[i]);
    fprintf(stderr, " ms\n");
    qsort(ms, (size_t)n, sizeof *ms, suite_cmp_double);
    double med = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    printf("RESULT %s %.3f\n", kernel, med);
    return med;
}

/* ---- inputs ------------------------------------------------------------------ */

static uint32_t suite_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* A float in [-1, 1) on a 1/1024 grid: sums of a few thousand stay exact. */
static float suite_value(uint32_t i, uint32_t seed)
{
    return (float)((int)(suite_hash(i * 2654435761U + seed) % 2048u) - 1024) / 1024.0f;
}

static void suite_fill(float *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = suite_value((uint32_t)i, seed);
}

/* ---- checks ------------------------------------------------------------------ */

static int suite_fail(const char *kernel, size_t i, double got, double want)
{
    fprintf(stderr, "%s: wrong result at %zu: %.9g, expected %.9g\n", kernel, i, got, want);
    return 1;
}

/* vectoradd: c = a + b. */
static int suite_check_vectoradd(const float *a, const float *b, const float *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (c[i] != a[i] + b[i])
            return suite_fail("vectoradd", i, c[i], a[i] + b[i]);
    return 0;
}

/* saxpy: y0 after `times` applications of y = fmaf(a, x, y). */
static int suite_check_saxpy(const float *x, const float *y0, const float *y, size_t n, int times)
{
    for (size_t i = 0; i < n; i++) {
        float w = y0[i];
        for (int t = 0; t < times; t++)
            w = fmaf(SUITE_SAXPY_A, x[i], w);
        if (y[i] != w)
            return suite_fail("saxpy", i, y[i], w);
    }
    return 0;
}

/* sgemm: rows of C = A * B, accumulated with fmaf in k order (as every form does). */
static int suite_check_sgemm(const float *A, const float *B, const float *C, int n)
{
    for (int i = 0; i < n; i += 61)
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            for (int k = 0; k < n; k++)
                s = fmaf(A[(size_t)i * n + k], B[(size_t)k * n + j], s);
            if (C[(size_t)i * n + j] != s)
                return suite_fail("sgemm", (size_t)i * n + j, C[(size_t)i * n + j], s);
        }
    return 0;
}

/* reduction: the sum in double, within a relative 1e-5 (the forms add in different orders). */
static int suite_check_reduction(const float *x, size_t n, float got)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    if (fabs(got - s) > 1e-5 * fabs(s) + 1e-3)
        return suite_fail("reduction", 0, got, s);
    return 0;
}

/* stencil: one sweep of the 5-point stencil; the border is copied. */
static void suite_stencil_ref(const float *in, float *out, int n)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            size_t i = (size_t)y * n + x;
            if (x == 0 || y == 0 || x == n - 1 || y == n - 1)
                out[i] = in[i];
            else
                out[i] = fmaf(SUITE_STENCIL_C1, (in[i - n] + in[i + n]) + (in[i - 1] + in[i + 1]),
                              SUITE_STENCIL_C0 * in[i]);
        }
}

static int suite_check_stencil(const float *in, const float *got, int n, int sweeps)
{
    size_t nn = (size_t)n * n;
    float *a = (float *)malloc(nn * sizeof *a), *b = (float *)malloc(nn * sizeof *b);
    memcpy(a, in, nn * sizeof *a);
    for (int s = 0; s < sweeps; s++) {
        suite_stencil_ref(a, b, n);
        float *t = a;
        a = b;
        b = t;
    }
    int bad = 0;
    for (size_t i = 0; i < nn && !bad; i++)
        if (got[i] != a[i])
            bad = suite_fail("stencil", i, got[i], a[i]);
    free(a);
    free(b);
    return bad;
}

/* histogram: bytes of the input words, counted `passes` times. */
static int suite_check_histogram(const uint32_t *words, size_t n, const uint32_t *hist, int passes)
{
    uint32_t ref[256] = {0};
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 4; b++)
            ref[(words[i] >> (8 * b)) & 255u]++;
    for (int i = 0; i < 256; i++)
        if (hist[i] != ref[i] * (uint32_t)passes)
            return suite_fail("histogram", (size_t)i, hist[i], ref[i] * (double)passes);
    return 0;
}

/* transpose: out = in^T. */
static int suite_check_transpose(const float *in, const float *out, int n)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            if (out[(size_t)x * n + y] != in[(size_t)y * n + x])
                return suite_fail("transpose", (size_t)x * n + y, out[(size_t)x * n + y], in[(size_t)y * n + x]);
    return 0;
}

/* nbody: accelerations (x, y, z) of some bodies in double, within a relative 1e-3. */
static int suite_check_nbody(const float *pos, const float *acc, int n)
{
    for (int i = 0; i < n; i += 509) {
        double a[3] = {0, 0, 0};
        for (int j = 0; j < n; j++) {
            double d[3], d2 = SUITE_NBODY_EPS2;
            for (int c = 0; c < 3; c++) {
                d[c] = (double)pos[4 * j + c] - pos[4 * i + c];
                d2 += d[c] * d[c];
            }
            double inv = 1.0 / sqrt(d2);
            double s = pos[4 * j + 3] * inv * inv * inv;
            for (int c = 0; c < 3; c++)
                a[c] += d[c] * s;
        }
        double mag = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        for (int c = 0; c < 3; c++)
            if (fabs(acc[4 * i + c] - a[c]) > 1e-3 * mag + 1e-3)
                return suite_fail("nbody", (size_t)(4 * i + c), acc[4 * i + c], a[c]);
    }
    return 0;
}

/* nbody's input: positions in [-1, 1)^3 and masses in [0.5, 1.5). */
static void suite_nbody_init(float *pos, int n)
{
    for (int i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++)
            pos[4 * i + c] = suite_value((uint32_t)(4 * i + c), 7);
        pos[4 * i + 3] = 1.0f + 0.5f * suite_value((uint32_t)i, 11);
    }
}

#endif
