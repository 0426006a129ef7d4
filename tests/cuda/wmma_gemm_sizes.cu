// wmma_gemm_sizes: tensor-core GEMMs with the WMMA API (m16n16k16, half
// inputs) at sizes 64 to 512, every entry checked against a host GEMM in
// double. The small-size twin of bench/bench_wmma.cu.
//
//   gemm_f32: C = A * B, A (M x K) and B (K x N) row-major, C f32 row-major;
//     each warp computes 32 x 32 of C as 2 x 2 fragments with f32
//     accumulators, fragments loaded straight from global memory, 4 warps a
//     block (64 x 64 of C). Run on two inputs each:
//     - eighths in [-1, 1]: every product and partial sum is exact in f32, so
//       the check is exact;
//     - random fp16 values in [-1, 1): checked to 1e-4 of sum |a||b| per
//       entry (tensor cores and cubridge accumulate in different orders).
//   gemm_f16acc: D = A * B with f16 accumulators, A and B column-major, D
//     column-major, one 16 x 16 tile per warp staged through shared memory
//     with __syncwarp; integers in [-2, 2] (exact in f16: |sums| <= 4K <= 2048).
#include <mma.h>

#include "check.h"

using namespace nvcuda;

__global__ void gemm_f32(const half *a, const half *b, float *c, int M, int N, int K) {
  int warp = threadIdx.x / 32;
  int row0 = blockIdx.y * 64 + (warp / 2) * 32, col0 = blockIdx.x * 64 + (warp % 2) * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
  for (int k = 0; k < K; k += 16) {
    for (int i = 0; i < 2; i++) wmma::load_matrix_sync(fa[i], a + (size_t)(row0 + 16 * i) * K + k, K);
    for (int j = 0; j < 2; j++) wmma::load_matrix_sync(fb[j], b + (size_t)k * N + col0 + 16 * j, N);
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      wmma::store_matrix_sync(c + (size_t)(row0 + 16 * i) * N + col0 + 16 * j, acc[i][j], N, wmma::mem_row_major);
}

#define F16_WARPS 4
__global__ void gemm_f16acc(const half *a, const half *b, half *d, int M, int N, int K) {
  __shared__ half sa[F16_WARPS][256], sb[F16_WARPS][256];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int tile = blockIdx.x * F16_WARPS + warp, tiles_m = M / 16;
  if (tile >= tiles_m * (N / 16)) return;   // whole warps only
  int tm = tile % tiles_m, tn = tile / tiles_m;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, half> acc;
  wmma::fill_fragment(acc, __float2half(0.0f));
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = lane; i < 256; i += 32) {   // column i / 16 of each tile
      int col = i / 16, r = i % 16;
      sa[warp][i] = a[(size_t)(k0 + col) * M + tm * 16 + r];
      sb[warp][i] = b[(size_t)(tn * 16 + col) * K + k0 + r];
    }
    __syncwarp();
    wmma::load_matrix_sync(fa, sa[warp], 16);
    wmma::load_matrix_sync(fb, sb[warp], 16);
    wmma::mma_sync(acc, fa, fb, acc);
    __syncwarp();
  }
  wmma::store_matrix_sync(d + (size_t)tn * 16 * M + tm * 16, acc, M, wmma::mem_col_major);
}

// Host GEMM in double: want[r * N + c] and sum |a||b| in absw (row-major A and B).
static void host_gemm(const float *a, const float *b, double *want, double *absw, int M, int N, int K) {
  for (int r = 0; r < M; r++)
    for (int c = 0; c < N; c++) {
      double s = 0, t = 0;
      for (int k = 0; k < K; k++) {
        double p = (double)a[(size_t)r * K + k] * b[(size_t)k * N + c];
        s += p;
        t += fabs(p);
      }
      want[(size_t)r * N + c] = s;
      absw[(size_t)r * N + c] = t;
    }
}

static void run_f32(int M, int N, int K, int random) {
  size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
  half *ha = (half *)malloc(na * sizeof(half)), *hb = (half *)malloc(nb * sizeof(half));
  float *fa = (float *)malloc(na * sizeof(float)), *fb = (float *)malloc(nb * sizeof(float));
  float *got = (float *)malloc(nc * sizeof(float));
  double *want = (double *)malloc(nc * sizeof(double)), *absw = (double *)malloc(nc * sizeof(double));
  unsigned seed = 7u + (unsigned)(M * 131 + N * 17 + K) + (random ? 1000u : 0u);
  for (size_t i = 0; i < na + nb; i++) {
    float v = random ? (float)((int)(test_rand(&seed) % 2048u) - 1024) / 1024.0f
                     : (float)((int)(test_rand(&seed) % 17u) - 8) / 8.0f;
    half h = __float2half(v);
    if (i < na) ha[i] = h, fa[i] = __half2float(h);
    else hb[i - na] = h, fb[i - na] = __half2float(h);
  }
  host_gemm(fa, fb, want, absw, M, N, K);
  half *da, *db;
  float *dc;
  CHECK(cudaMalloc(&da, na * sizeof(half)));
  CHECK(cudaMalloc(&db, nb * sizeof(half)));
  CHECK(cudaMalloc(&dc, nc * sizeof(float)));
  CHECK(cudaMemcpy(da, ha, na * sizeof(half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb, nb * sizeof(half), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dc, 0xff, nc * sizeof(float)));   // NaN: an entry never written fails
  gemm_f32<<<dim3(N / 64, M / 64), 128>>>(da, db, dc, M, N, K);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, dc, nc * sizeof(float), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < nc; i++) {
    double d = fabs((double)got[i] - want[i]), tol = random ? 1e-4 * absw[i] + 1e-6 : 0.0;
    if (!(d <= tol)) {
      printf("FAIL wmma f32 %dx%dx%d %s: C[%zu][%zu] = %.9g, expected %.9g\n", M, N, K, random ? "random" : "exact",
             i / N, i % N, got[i], want[i]);
      exit(1);
    }
  }
  printf("wmma f32 %dx%dx%d %s: ok\n", M, N, K, random ? "random" : "exact");
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  free(ha), free(hb), free(fa), free(fb), free(got), free(want), free(absw);
}

static void run_f16acc(int M, int N, int K) {
  size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
  half *ha = (half *)malloc(na * sizeof(half)), *hb = (half *)malloc(nb * sizeof(half)), *hd = (half *)malloc(nc * sizeof(half));
  float *fa = (float *)malloc(na * sizeof(float)), *fb = (float *)malloc(nb * sizeof(float));
  unsigned seed = 99u + (unsigned)(M + N + K);
  // fa, fb row-major for host_gemm; ha, hb column-major for the kernel
  for (int r = 0; r < M; r++)
    for (int k = 0; k < K; k++) fa[(size_t)r * K + k] = (float)((int)(test_rand(&seed) % 5u) - 2);
  for (int k = 0; k < K; k++)
    for (int c = 0; c < N; c++) fb[(size_t)k * N + c] = (float)((int)(test_rand(&seed) % 5u) - 2);
  for (int r = 0; r < M; r++)
    for (int k = 0; k < K; k++) ha[(size_t)k * M + r] = __float2half(fa[(size_t)r * K + k]);
  for (int k = 0; k < K; k++)
    for (int c = 0; c < N; c++) hb[(size_t)c * K + k] = __float2half(fb[(size_t)k * N + c]);
  double *want = (double *)malloc(nc * sizeof(double)), *absw = (double *)malloc(nc * sizeof(double));
  host_gemm(fa, fb, want, absw, M, N, K);
  half *da, *db, *dd;
  CHECK(cudaMalloc(&da, na * sizeof(half)));
  CHECK(cudaMalloc(&db, nb * sizeof(half)));
  CHECK(cudaMalloc(&dd, nc * sizeof(half)));
  CHECK(cudaMemcpy(da, ha, na * sizeof(half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb, nb * sizeof(half), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dd, 0xff, nc * sizeof(half)));
  int tiles = (M / 16) * (N / 16);
  gemm_f16acc<<<(tiles + F16_WARPS - 1) / F16_WARPS, F16_WARPS * 32>>>(da, db, dd, M, N, K);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hd, dd, nc * sizeof(half), cudaMemcpyDeviceToHost));
  for (int r = 0; r < M; r++)
    for (int c = 0; c < N; c++) {
      double g = __half2float(hd[(size_t)c * M + r]), w = want[(size_t)r * N + c];
      if (!(g == w)) {
        printf("FAIL wmma f16acc %dx%dx%d: D[%d][%d] = %.9g, expected %.9g\n", M, N, K, r, c, g, w);
        exit(1);
      }
    }
  printf("wmma f16acc %dx%dx%d: ok\n", M, N, K);
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dd));
  free(ha), free(hb), free(hd), free(fa), free(fb), free(want), free(absw);
}

int main(void) {
  static const int shapes[][3] = {{64, 64, 64}, {128, 128, 128}, {64, 192, 320}, {256, 256, 256}, {512, 512, 512}};
  for (unsigned s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    run_f32(shapes[s][0], shapes[s][1], shapes[s][2], 0);
    run_f32(shapes[s][0], shapes[s][1], shapes[s][2], 1);
  }
  run_f16acc(64, 64, 64);
  run_f16acc(128, 80, 512);
  return pass("wmma_gemm_sizes");
}
