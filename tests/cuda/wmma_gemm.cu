// wmma_gemm: a cuda-samples-style tensor-core GEMM with the WMMA API
// (nvcuda::wmma, m16n16k16, half inputs, float accumulators):
//   D = alpha * A * B + beta * C,   A: MxK row-major, B: KxN column-major,
//   C and D: MxN row-major.
// Each warp computes one 16x16 tile of D. The A and B tiles are staged in
// shared memory (the warp loads fragments from there), C is loaded straight
// from global memory, and a second kernel does the same with f16
// accumulators into a column-major result.
//
// A and B hold integers in [-2, 2], so every product and partial sum is an
// integer of magnitude at most 4*K = 320: exact in f32 and in f16. The
// result therefore does not depend on the order in which the tensor cores
// accumulate, and the checks against the host GEMM (in double) are exact.
#include <mma.h>

#include "check.h"

using namespace nvcuda;

#define M 64
#define N 48
#define K 80
#define WARPS_PER_BLOCK 4

__global__ void gemm_f32(const half *a, const half *b, const float *c, float *d, float alpha, float beta) {
  __shared__ half sa[WARPS_PER_BLOCK][16 * 16];
  __shared__ half sb[WARPS_PER_BLOCK][16 * 16];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int tile = blockIdx.x * WARPS_PER_BLOCK + warp;
  int tiles_n = N / 16;
  if (tile >= (M / 16) * tiles_n) return;   // whole warps only
  int tm = tile / tiles_n, tn = tile % tiles_n;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, fc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    // stage the tiles through shared memory: row r of A's tile, column r of B's
    for (int i = lane; i < 256; i += 32) {
      int r = i / 16, col = i % 16;
      sa[warp][i] = a[(tm * 16 + r) * K + k0 + col];
      sb[warp][i] = b[(tn * 16 + r) * K + k0 + col];
    }
    __syncwarp();
    wmma::load_matrix_sync(fa, sa[warp], 16);
    wmma::load_matrix_sync(fb, sb[warp], 16);
    wmma::mma_sync(acc, fa, fb, acc);
    __syncwarp();
  }
  wmma::load_matrix_sync(fc, c + tm * 16 * N + tn * 16, N, wmma::mem_row_major);
  for (int i = 0; i < acc.num_elements; i++) acc.x[i] = alpha * acc.x[i] + beta * fc.x[i];
  wmma::store_matrix_sync(d + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

// f16 accumulators straight from global memory; D stored column-major.
__global__ void gemm_f16(const half *a, const half *b, half *d) {
  int warp = threadIdx.x / 32;
  int tile = blockIdx.x * WARPS_PER_BLOCK + warp;
  int tiles_n = N / 16;
  if (tile >= (M / 16) * tiles_n) return;
  int tm = tile / tiles_n, tn = tile % tiles_n;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, half> acc;
  wmma::fill_fragment(acc, __float2half(0.0f));
  for (int k0 = 0; k0 < K; k0 += 16) {
    wmma::load_matrix_sync(fa, a + tm * 16 * K + k0, K);
    wmma::load_matrix_sync(fb, b + tn * 16 * K + k0, K);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d + tn * 16 * M + tm * 16, acc, M, wmma::mem_col_major);
}

int main(void) {
  half *ha = (half *)malloc(M * K * sizeof(half)), *hb = (half *)malloc(K * N * sizeof(half));
  float *fa = (float *)malloc(M * K * sizeof(float)), *fb = (float *)malloc(K * N * sizeof(float));
  float *hc = (float *)malloc(M * N * sizeof(float));
  unsigned seed = 2024;
  for (int i = 0; i < M * K; i++) {
    fa[i] = (float)((int)(test_rand(&seed) % 5) - 2);
    ha[i] = __float2half(fa[i]);
  }
  for (int i = 0; i < K * N; i++) {   // column-major: element (k, n) at n*K + k
    fb[i] = (float)((int)(test_rand(&seed) % 5) - 2);
    hb[i] = __float2half(fb[i]);
  }
  for (int i = 0; i < M * N; i++) hc[i] = (float)((int)(test_rand(&seed) % 101) - 50) / 4.0f;
  const float alpha = 2.0f, beta = -0.5f;
  float *want = (float *)malloc(M * N * sizeof(float)), *want16 = (float *)malloc(M * N * sizeof(float));
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      double s = 0;
      for (int k = 0; k < K; k++) s += (double)fa[m * K + k] * fb[n * K + k];
      want[m * N + n] = (float)(alpha * s + beta * hc[m * N + n]);
      want16[n * M + m] = (float)s;
    }
  half *da, *db, *dd16;
  float *dc, *dd;
  CHECK(cudaMalloc(&da, M * K * sizeof(half)));
  CHECK(cudaMalloc(&db, K * N * sizeof(half)));
  CHECK(cudaMalloc(&dc, M * N * sizeof(float)));
  CHECK(cudaMalloc(&dd, M * N * sizeof(float)));
  CHECK(cudaMalloc(&dd16, M * N * sizeof(half)));
  CHECK(cudaMemcpy(da, ha, M * K * sizeof(half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb, K * N * sizeof(half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, hc, M * N * sizeof(float), cudaMemcpyHostToDevice));
  int tiles = (M / 16) * (N / 16);
  int blocks = (tiles + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
  gemm_f32<<<blocks, WARPS_PER_BLOCK * 32>>>(da, db, dc, dd, alpha, beta);
  CHECK_LAUNCH();
  gemm_f16<<<blocks, WARPS_PER_BLOCK * 32>>>(da, db, dd16);
  CHECK_LAUNCH();
  float *got = (float *)malloc(M * N * sizeof(float)), *got16 = (float *)malloc(M * N * sizeof(float));
  half *h16 = (half *)malloc(M * N * sizeof(half));
  CHECK(cudaMemcpy(got, dd, M * N * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h16, dd16, M * N * sizeof(half), cudaMemcpyDeviceToHost));
  for (int i = 0; i < M * N; i++) got16[i] = __half2float(h16[i]);
  // Exact by construction (see the header); the tolerance only covers a
  // tensor core that rounds partial sums, which these inputs never need.
  check_f32_tol("wmma f32 GEMM vs host", got, want, M * N, 0.0, 1e-6);
  check_f32_tol("wmma f16-accumulator GEMM vs host", got16, want16, M * N, 0.0, 1e-6);
  CHECK(cudaFree(da)); CHECK(cudaFree(db)); CHECK(cudaFree(dc)); CHECK(cudaFree(dd)); CHECK(cudaFree(dd16));
  free(ha); free(hb); free(fa); free(fb); free(hc); free(want); free(want16); free(got); free(got16); free(h16);
  return pass("wmma_gemm");
}
