// matmul_tiled: C = A*B with 16x16 shared-memory tiles and __syncthreads.
// Sizes are not multiples of the tile; entries are small integers, so every
// partial sum is exact in float and the result is the same in any order.
#include "check.h"

#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; t++) {
    int ak = t * TILE + threadIdx.x, bk = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

int main(void) {
  const int M = 75, N = 61, K = 53;
  float *A = (float *)malloc(M * K * 4), *B = (float *)malloc(K * N * 4);
  float *C = (float *)malloc(M * N * 4), *want = (float *)malloc(M * N * 4);
  for (int i = 0; i < M * K; i++) A[i] = (float)((i * 7) % 11 - 5);
  for (int i = 0; i < K * N; i++) B[i] = (float)((i * 5) % 13 - 6);
  for (int r = 0; r < M; r++)
    for (int c = 0; c < N; c++) {
      float s = 0;
      for (int k = 0; k < K; k++) s += A[r * K + k] * B[k * N + c];
      want[r * N + c] = s;
    }
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, M * K * 4));
  CHECK(cudaMalloc(&dB, K * N * 4));
  CHECK(cudaMalloc(&dC, M * N * 4));
  CHECK(cudaMemcpy(dA, A, M * K * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B, K * N * 4, cudaMemcpyHostToDevice));
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul<<<grid, block>>>(dA, dB, dC, M, N, K);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(C, dC, M * N * 4, cudaMemcpyDeviceToHost));
  check_f32_exact("C", C, want, M * N);
  CHECK(cudaFree(dA)); CHECK(cudaFree(dB)); CHECK(cudaFree(dC));
  free(A); free(B); free(C); free(want);
  return pass("matmul_tiled");
}
