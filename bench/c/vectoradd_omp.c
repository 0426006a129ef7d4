/* vectoradd_omp: the benchmarks' work written directly in C with OpenMP, as
 * the baseline that cubridge's numbers are divided by.
 *   vectoradd_omp launch [iterations]      an empty parallel region per
 *       iteration, the analogue of an empty kernel launch plus synchronize:
 *       prints "RESULT launch_sync_us <microseconds>"
 *   vectoradd_omp vectoradd [repetitions]  c = a + b on 2^24 floats with a
 *       parallel for: prints "RESULT vectoradd_ms <ms>" and "..._gbps" */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile int sink;

static int bench_launch(int iters) {
    for (int i = 0; i < 20; i++) {
#pragma omp parallel
        sink = 0;
    }
    double t0 = now_s();
    for (int i = 0; i < iters; i++) {
#pragma omp parallel
        sink = 0;
    }
    double t1 = now_s();
    printf("RESULT launch_sync_us %.3f\n", (t1 - t0) / iters * 1e6);
    return 0;
}

static void add(const float *a, const float *b, float *c, int n) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
}

static int bench_vectoradd(int reps) {
    const int n = 1 << 24;
    size_t bytes = (size_t)n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    if (!a || !b || !c) return 1;
    for (int i = 0; i < n; i++) {
        a[i] = (float)(i % 1000);
        b[i] = (float)(i % 777) * 0.5f;
    }
    add(a, b, c, n);   /* warm-up: first touch of c, thread pool start */
    double t0 = now_s();
    for (int r = 0; r < reps; r++) add(a, b, c, n);
    double t1 = now_s();
    for (int i = 0; i < n; i++)
        if (c[i] != a[i] + b[i]) {
            fprintf(stderr, "vectoradd_omp: wrong result at %d\n", i);
            return 1;
        }
    double ms = (t1 - t0) / reps * 1e3;
    printf("RESULT vectoradd_ms %.3f\n", ms);
    printf("RESULT vectoradd_gbps %.2f\n", 3.0 * bytes / (ms * 1e-3) / 1e9);
    free(a);
    free(b);
    free(c);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s launch|vectoradd [count]\n", argv[0]);
        return 2;
    }
    int count = argc > 2 ? atoi(argv[2]) : 0;
    if (strcmp(argv[1], "launch") == 0) return bench_launch(count > 0 ? count : 2000);
    if (strcmp(argv[1], "vectoradd") == 0) return bench_vectoradd(count > 0 ? count : 20);
    fprintf(stderr, "usage: %s launch|vectoradd [count]\n", argv[0]);
    return 2;
}
