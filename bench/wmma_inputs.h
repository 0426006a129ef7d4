/* wmma_inputs.h: the inputs of the wmma f16 GEMM benchmark (bench_wmma.cu),
 * shared with its plain C twin (c/wmma_c.c) so that both multiply the same
 * fp16 matrices.
 *
 * Element i of matrix `which` (0: A, 1: B) is an integer in [-8, 8] divided
 * by 8: exact in fp16, and every product (a multiple of 1/64) and every
 * partial sum of an n <= 4096 GEMM (magnitude <= 4096, 2^18 steps of 1/64) is
 * exact in f32. The result is therefore the same whatever the order of the
 * accumulation (tensor cores, cubridge's emulation, the C loop), and each
 * side checks its result exactly against a double reference. */
#ifndef CB_BENCH_WMMA_INPUTS_H
#define CB_BENCH_WMMA_INPUTS_H

#include <stdint.h>

static inline float wmma_input(int which, uint64_t i)
{
    uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull + (uint64_t)which * 0xD1B54A32D192ED03ull;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return (float)((int)(h % 17) - 8) / 8.0f;
}

/* The exact result of entry (r, c) of the n x n product A * B (row-major). */
static inline double wmma_reference(const float *a, const float *b, int n, int r, int c)
{
    double s = 0;
    for (int k = 0; k < n; k++)
        s += (double)a[(size_t)r * n + k] * b[(size_t)k * n + c];
    return s;
}

#endif
