// dot_product: a dot product reduced within warps by __shfl_down_sync, then
// across warps through shared memory, then across blocks with atomicAdd on a
// double.  Inputs are small integers (as floats): every partial sum is exact,
// so the result does not depend on the order of the atomics.
#include "check.h"

__global__ void dot(const float *x, const float *y, int n, double *result, float *block_sums) {
  __shared__ float warp_sums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v += x[i] * y[i];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) {
      block_sums[blockIdx.x] = v;
      atomicAdd(result, (double)v);
    }
  }
}

int main(void) {
  const int n = 1 << 20, blocks = 80, threads = 256;
  float *x = (float *)malloc(n * 4), *y = (float *)malloc(n * 4);
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 5 - 2);
    y[i] = (float)(i % 3);
  }
  double want = 0;
  float want_blocks[blocks];
  for (int b = 0; b < blocks; b++) {
    double s = 0;
    for (int t = 0; t < threads; t++)
      for (int i = b * threads + t; i < n; i += blocks * threads) s += (double)x[i] * y[i];
    want_blocks[b] = (float)s;
    want += s;
  }
  float *dx, *dy, *dblocks, got_blocks[blocks];
  double *dres, got;
  CHECK(cudaMalloc(&dx, n * 4));
  CHECK(cudaMalloc(&dy, n * 4));
  CHECK(cudaMalloc(&dblocks, sizeof(got_blocks)));
  CHECK(cudaMalloc(&dres, sizeof(double)));
  CHECK(cudaMemcpy(dx, x, n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y, n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dres, 0, sizeof(double)));
  dot<<<blocks, threads>>>(dx, dy, n, dres, dblocks);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(&got, dres, sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_blocks, dblocks, sizeof(got_blocks), cudaMemcpyDeviceToHost));
  check_f32_exact("block sums", got_blocks, want_blocks, blocks);
  check_f64_exact("dot", &got, &want, 1);
  CHECK(cudaFree(dx)); CHECK(cudaFree(dy)); CHECK(cudaFree(dblocks)); CHECK(cudaFree(dres));
  free(x); free(y);
  return pass("dot_product");
}
