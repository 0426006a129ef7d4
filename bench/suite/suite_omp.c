/* suite_omp.c: the benchmark suite's OpenMP form, the strongest plain C of
 * the same work (bench/suite.sh builds it with gcc -O3 -march=native -fopenmp).
 *   suite_omp KERNEL [UNITS]   as suite.cu: one checked warm-up unit, then
 *                              UNITS timed units; "RESULT KERNEL <ms per unit>"
 * Loops are `parallel for` over rows or chunks and `simd` inside where it
 * applies; the arithmetic (fmaf, the order of sums) is the CUDA form's, so
 * most results are compared exactly (suite.h). */
#define _POSIX_C_SOURCE 200809L
#include "suite.h"

#include <omp.h>

static void vectoradd(const float *restrict a, const float *restrict b, float *restrict c, int n)
{
#pragma omp parallel for simd schedule(static)
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

static void saxpy(float a, const float *restrict x, float *restrict y, int n)
{
#pragma omp parallel for simd schedule(static)
    for (int i = 0; i < n; i++)
        y[i] = fmaf(a, x[i], y[i]);
}

/* i-k-j order: each row of C is updated by a scaled row of B, vectorised over j. */
static void sgemm(const float *restrict A, const float *restrict B, float *restrict C, int n)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        float *restrict c = C + (size_t)i * n;
        for (int j = 0; j < n; j++)
            c[j] = 0.0f;
        for (int k = 0; k < n; k++) {
            float a = A[(size_t)i * n + k];
            const float *restrict b = B + (size_t)k * n;
#pragma omp simd
            for (int j = 0; j < n; j++)
                c[j] = fmaf(a, b[j], c[j]);
        }
    }
}

static float reduction(const float *restrict x, int n)
{
    float s = 0.0f;
#pragma omp parallel for simd reduction(+ : s) schedule(static)
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

static void stencil(const float *restrict in, float *restrict out, int n)
{
#pragma omp parallel for schedule(static)
    for (int y = 0; y < n; y++) {
        size_t r = (size_t)y * n;
        if (y == 0 || y == n - 1) {
            memcpy(out + r, in + r, (size_t)n * sizeof *out);
            continue;
        }
        out[r] = in[r];
#pragma omp simd
        for (int x = 1; x < n - 1; x++)
            out[r + x] = fmaf(SUITE_STENCIL_C1, (in[r + x - n] + in[r + x + n]) + (in[r + x - 1] + in[r + x + 1]),
                              SUITE_STENCIL_C0 * in[r + x]);
        out[r + n - 1] = in[r + n - 1];
    }
}

/* Per-thread histograms (4 of them, so consecutive bytes rarely hit the same
 * counter), merged at the end. */
static void histogram(const uint32_t *restrict w, uint32_t *restrict hist, int n)
{
#pragma omp parallel
    {
        uint32_t h[4][256];
        memset(h, 0, sizeof h);
#pragma omp for schedule(static)
        for (int i = 0; i < n; i++) {
            uint32_t v = w[i];
            h[0][v & 255u]++;
            h[1][(v >> 8) & 255u]++;
            h[2][(v >> 16) & 255u]++;
            h[3][v >> 24]++;
        }
        for (int b = 0; b < 256; b++) {
            uint32_t t = h[0][b] + h[1][b] + h[2][b] + h[3][b];
#pragma omp atomic
            hist[b] += t;
        }
    }
}

static void transpose(const float *restrict in, float *restrict out, int n)
{
    const int T = SUITE_TR_TILE;
#pragma omp parallel for schedule(static)
    for (int by = 0; by < n; by += T)
        for (int bx = 0; bx < n; bx += T)
            for (int y = by; y < by + T; y++)
#pragma omp simd
                for (int x = bx; x < bx + T; x++)
                    out[(size_t)x * n + y] = in[(size_t)y * n + x];
}

static void nbody(const float *restrict pos, float *restrict acc, int n)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        float px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
        float ax = 0.0f, ay = 0.0f, az = 0.0f;
#pragma omp simd reduction(+ : ax, ay, az)
        for (int j = 0; j < n; j++) {
            float dx = pos[4 * j] - px, dy = pos[4 * j + 1] - py, dz = pos[4 * j + 2] - pz;
            float d2 = dx * dx + dy * dy + dz * dz + SUITE_NBODY_EPS2;
            float inv = 1.0f / sqrtf(d2);
            float s = pos[4 * j + 3] * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        acc[4 * i] = ax;
        acc[4 * i + 1] = ay;
        acc[4 * i + 2] = az;
        acc[4 * i + 3] = 0.0f;
    }
}

typedef struct state {
    float *a, *b, *c, *a0, *b0;
    uint32_t *w, hist[256];
    float red[SUITE_RED_LAUNCHES];
} state;

static float *floats(size_t n, uint32_t seed)
{
    float *p = malloc(n * sizeof *p);
    if (!p)
        exit(1);
    suite_fill(p, n, seed);
    return p;
}

static float *copy_of(const float *p, size_t n)
{
    float *q = malloc(n * sizeof *q);
    if (!q)
        exit(1);
    memcpy(q, p, n * sizeof *q);
    return q;
}

static void setup(const char *k, state *s)
{
    memset(s, 0, sizeof *s);
    if (!strcmp(k, "vectoradd") || !strcmp(k, "saxpy")) {
        s->a = floats(SUITE_VEC_N, 1);
        s->b = floats(SUITE_VEC_N, 2);
        s->b0 = copy_of(s->b, SUITE_VEC_N);
        s->c = copy_of(s->b, SUITE_VEC_N);
    } else if (!strcmp(k, "sgemm")) {
        size_t n = (size_t)SUITE_GEMM_N * SUITE_GEMM_N;
        s->a = floats(n, 3);
        s->b = floats(n, 4);
        s->c = copy_of(s->b, n);
    } else if (!strcmp(k, "reduction")) {
        s->a = floats(SUITE_RED_N, 5);
    } else if (!strcmp(k, "stencil") || !strcmp(k, "transpose")) {
        size_t n = (size_t)SUITE_STENCIL_N * SUITE_STENCIL_N;
        s->a0 = floats(n, 6);
        s->a = copy_of(s->a0, n);
        s->b = copy_of(s->a0, n);
    } else if (!strcmp(k, "histogram")) {
        s->w = malloc((size_t)SUITE_HIST_WORDS * 4);
        if (!s->w)
            exit(1);
        for (size_t i = 0; i < SUITE_HIST_WORDS; i++)
            s->w[i] = suite_hash((uint32_t)i * 3u + 1u) & 0x3f7f1fffu;
    } else if (!strcmp(k, "nbody")) {
        s->a = malloc((size_t)SUITE_NBODY_N * 16);
        s->c = malloc((size_t)SUITE_NBODY_N * 16);
        if (!s->a || !s->c)
            exit(1);
        suite_nbody_init(s->a, SUITE_NBODY_N);
        memset(s->c, 0, (size_t)SUITE_NBODY_N * 16);
    } else {
        fprintf(stderr, "suite_omp: unknown kernel %s\n", k);
        exit(2);
    }
}

static void unit(const char *k, state *s)
{
    if (!strcmp(k, "vectoradd")) {
        for (int r = 0; r < SUITE_VEC_LAUNCHES; r++)
            vectoradd(s->a, s->b, s->c, SUITE_VEC_N);
    } else if (!strcmp(k, "saxpy")) {
        for (int r = 0; r < SUITE_VEC_LAUNCHES; r++)
            saxpy(SUITE_SAXPY_A, s->a, s->c, SUITE_VEC_N);
    } else if (!strcmp(k, "sgemm")) {
        sgemm(s->a, s->b, s->c, SUITE_GEMM_N);
    } else if (!strcmp(k, "reduction")) {
        for (int r = 0; r < SUITE_RED_LAUNCHES; r++)
            s->red[r] = reduction(s->a, SUITE_RED_N);
    } else if (!strcmp(k, "stencil")) {
        for (int r = 0; r < SUITE_STENCIL_SWEEPS; r++) {
            stencil(s->a, s->b, SUITE_STENCIL_N);
            float *t = s->a;
            s->a = s->b;
            s->b = t;
        }
    } else if (!strcmp(k, "histogram")) {
        for (int r = 0; r < SUITE_HIST_PASSES; r++)
            histogram(s->w, s->hist, SUITE_HIST_WORDS);
    } else if (!strcmp(k, "transpose")) {
        for (int r = 0; r < SUITE_TR_REPS; r++)
            transpose(s->a, s->b, SUITE_TR_N);
    } else if (!strcmp(k, "nbody")) {
        nbody(s->a, s->c, SUITE_NBODY_N);
    }
}

static int check(const char *k, state *s)
{
    if (!strcmp(k, "vectoradd"))
        return suite_check_vectoradd(s->a, s->b, s->c, SUITE_VEC_N);
    if (!strcmp(k, "saxpy"))
        return suite_check_saxpy(s->a, s->b0, s->c, SUITE_VEC_N, SUITE_VEC_LAUNCHES);
    if (!strcmp(k, "sgemm"))
        return suite_check_sgemm(s->a, s->b, s->c, SUITE_GEMM_N);
    if (!strcmp(k, "reduction")) {
        for (int i = 0; i < SUITE_RED_LAUNCHES; i++)
            if (suite_check_reduction(s->a, SUITE_RED_N, s->red[i]))
                return 1;
        return 0;
    }
    if (!strcmp(k, "stencil"))
        return suite_check_stencil(s->a0, s->a, SUITE_STENCIL_N, SUITE_STENCIL_SWEEPS);
    if (!strcmp(k, "histogram"))
        return suite_check_histogram(s->w, SUITE_HIST_WORDS, s->hist, SUITE_HIST_PASSES);
    if (!strcmp(k, "transpose"))
        return suite_check_transpose(s->a0, s->b, SUITE_TR_N);
    return suite_check_nbody(s->a, s->c, SUITE_NBODY_N);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: suite_omp KERNEL [UNITS]\n");
        return 2;
    }
    const char *k = argv[1];
    int units = argc > 2 ? atoi(argv[2]) : 3;
    if (units < 1 || units > 64)
        units = 3;
    state s;
    setup(k, &s);
    unit(k, &s);   /* warm-up: thread pool, first touch; then checked */
    if (check(k, &s))
        return 1;
    double ms[64];
    for (int u = 0; u < units; u++) {
        double t0 = suite_now();
        unit(k, &s);
        ms[u] = suite_now() - t0;
    }
    suite_report(k, ms, units);
    return 0;
}
