// transpose_padded: matrix transpose through a 32x33 shared-memory tile (the
// padding column avoids bank conflicts), 32x8 threads per tile, on a
// non-square matrix whose sides are not multiples of 32.
#include "check.h"

#define TILE 32
#define ROWS 8

__global__ void transpose(const float *in, float *out, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;   // transposed block offset
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(void) {
  const int w = 1000, h = 517, n = w * h;
  float *in = (float *)malloc(n * 4), *out = (float *)malloc(n * 4), *want = (float *)malloc(n * 4);
  for (int i = 0; i < n; i++) in[i] = (float)i * 0.5f - 1000.0f;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) want[x * h + y] = in[y * w + x];
  float *din, *dout;
  CHECK(cudaMalloc(&din, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice));
  dim3 block(TILE, ROWS), grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE);
  transpose<<<grid, block>>>(din, dout, w, h);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out, dout, n * 4, cudaMemcpyDeviceToHost));
  check_f32_exact("transposed", out, want, n);
  CHECK(cudaFree(din)); CHECK(cudaFree(dout));
  free(in); free(out); free(want);
  return pass("transpose_padded");
}
