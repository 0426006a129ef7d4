// bench_wmma: a tensor-core GEMM with the WMMA API, C = A * B, n x n
// (default 4096; `bench_wmma N`, N a multiple of 64), A and B fp16
// row-major, C f32 row-major, written the way the CUDA samples write it:
// each warp computes a 32 x 32 piece of C as 2 x 2 m16n16k16 fragments with
// f32 accumulators, loading its A and B fragments straight from global memory
// (no shared-memory staging); a block is 4 warps (64 x 64 of C).
//
// The inputs (wmma_inputs.h, shared with the plain C twin c/wmma_c.c) make
// the result exact, so it is checked exactly: every entry at n <= 512, else
// 4096 sampled entries and the four corners, against a double reference.
// stdout: one line (the same on a GPU and under cubridge); stderr: the time of
// the timed launch, `RESULT wmma_f16 <ms>`, after a warm-up launch at n = 64
// (for cubridge: the JIT compile).
#include <mma.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "wmma_inputs.h"

using namespace nvcuda;

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t e_ = (call);                                                                 \
    if (e_ != cudaSuccess) {                                                                 \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));     \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

__global__ void wmma_gemm(const half *a, const half *b, float *c, int n) {
  int warp = threadIdx.x / 32;
  int row0 = blockIdx.y * 64 + (warp / 2) * 32, col0 = blockIdx.x * 64 + (warp % 2) * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
  for (int k = 0; k < n; k += 16) {
    for (int i = 0; i < 2; i++) wmma::load_matrix_sync(fa[i], a + (size_t)(row0 + 16 * i) * n + k, n);
    for (int j = 0; j < 2; j++) wmma::load_matrix_sync(fb[j], b + (size_t)k * n + col0 + 16 * j, n);
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      wmma::store_matrix_sync(c + (size_t)(row0 + 16 * i) * n + col0 + 16 * j, acc[i][j], n, wmma::mem_row_major);
}

static double clock_ms(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
static double now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }
static double cpu_used_ms;   // CPU time of the whole process (all its threads) during the timed launch

// Runs C = A * B on the device for the inputs of size n; returns the time of the launch in ms.
static double run(int n, float **got, float **fa, float **fb) {
  size_t nn = (size_t)n * n;
  half *ha = (half *)malloc(nn * sizeof(half)), *hb = (half *)malloc(nn * sizeof(half));
  *fa = (float *)malloc(nn * sizeof(float));
  *fb = (float *)malloc(nn * sizeof(float));
  *got = (float *)malloc(nn * sizeof(float));
  for (size_t i = 0; i < nn; i++) {
    (*fa)[i] = wmma_input(0, i);
    (*fb)[i] = wmma_input(1, i);
    ha[i] = __float2half((*fa)[i]);
    hb[i] = __float2half((*fb)[i]);
  }
  half *da, *db;
  float *dc;
  CHECK(cudaMalloc(&da, nn * sizeof(half)));
  CHECK(cudaMalloc(&db, nn * sizeof(half)));
  CHECK(cudaMalloc(&dc, nn * sizeof(float)));
  CHECK(cudaMemcpy(da, ha, nn * sizeof(half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb, nn * sizeof(half), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dc, 0xff, nn * sizeof(float)));   // NaN: an entry never written fails the check
  CHECK(cudaDeviceSynchronize());
  double t0 = now_ms(), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
  wmma_gemm<<<dim3(n / 64, n / 64), 128>>>(da, db, dc, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  double ms = now_ms() - t0;
  cpu_used_ms = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
  CHECK(cudaMemcpy(*got, dc, nn * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  free(ha);
  free(hb);
  return ms;
}

// Checks entry (r, c) exactly; exits 1 on a mismatch.
static void check(const float *got, const float *fa, const float *fb, int n, int r, int c) {
  double want = wmma_reference(fa, fb, n, r, c), g = got[(size_t)r * n + c];
  if (!(g == want)) {
    printf("FAIL bench_wmma n=%d: C[%d][%d] = %.9g, expected %.9g\n", n, r, c, g, want);
    exit(1);
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4096;
  if (n < 64 || n % 64 || n > 4096) {
    printf("FAIL bench_wmma: n must be a multiple of 64 in [64, 4096]\n");
    return 1;
  }
  float *got, *fa, *fb;
  double warm = run(64, &got, &fa, &fb);   // warm-up (the JIT compile under cubridge), checked too
  for (int r = 0; r < 64; r++)
    for (int c = 0; c < 64; c++) check(got, fa, fb, 64, r, c);
  free(got), free(fa), free(fb);
  double ms = run(n, &got, &fa, &fb);
  int checked = 0;
  if (n <= 512) {
    for (int r = 0; r < n; r++)
      for (int c = 0; c < n; c++, checked++) check(got, fa, fb, n, r, c);
  } else {
    unsigned s = 12345;
    for (int i = 0; i < 4096; i++, checked++) {
      s = s * 1664525u + 1013904223u;
      int r = (int)((s >> 8) % (unsigned)n);
      s = s * 1664525u + 1013904223u;
      check(got, fa, fb, n, r, (int)((s >> 8) % (unsigned)n));
    }
    for (int i = 0; i < 4; i++, checked++) check(got, fa, fb, n, i & 1 ? n - 1 : 0, i & 2 ? n - 1 : 0);
  }
  fprintf(stderr, "bench_wmma: warm-up (n = 64) %.1f ms; n = %d: %.1f ms (%.1f ms of CPU), %.2f GFLOP/s\n", warm, n,
          ms, cpu_used_ms, 2.0 * n * n * (double)n / ms / 1e6);
  fprintf(stderr, "RESULT wmma_f16 %.3f\nRESULT wmma_f16_cpu %.3f\n", ms, cpu_used_ms);
  printf("PASS bench_wmma n=%d (%d entries checked exactly)\n", n, checked);
  return 0;
}
