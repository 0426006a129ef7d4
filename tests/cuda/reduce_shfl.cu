// reduce_shfl: block sums with __shfl_down_sync (tree) and __shfl_xor_sync
// (butterfly), warp sums combined through shared memory, and __shfl_sync
// broadcasting lane 0's value.  Integer sums: exact in any order.
#include "check.h"

__device__ int warp_sum_down(int v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

__device__ int warp_sum_xor(int v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

__global__ void block_sum(const int *in, int *sums, int *xor_ok, int n) {
  __shared__ int warp_sums[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = i < n ? in[i] : 0;
  int down = warp_sum_down(v);
  int bfly = warp_sum_xor(v);                       // every lane holds the sum
  int lane0 = __shfl_sync(0xffffffffu, down, 0);    // broadcast lane 0's total
  xor_ok[i] = (bfly == lane0);
  if (lane == 0) warp_sums[warp] = down;
  __syncthreads();
  if (warp == 0) {
    int nwarps = blockDim.x / 32;
    int s = lane < nwarps ? warp_sums[lane] : 0;
    s = warp_sum_down(s);
    if (lane == 0) sums[blockIdx.x] = s;
  }
}

int main(void) {
  const int threads = 256, blocks = 391, n = threads * blocks - 77;
  int *in = (int *)malloc(threads * blocks * sizeof(int));
  unsigned seed = 99;
  for (int i = 0; i < n; i++) in[i] = (int)(test_rand(&seed) % 2001) - 1000;
  int *want = (int *)calloc(blocks, sizeof(int));
  for (int i = 0; i < n; i++) want[i / threads] += in[i];
  int *din, *dsums, *dok;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dsums, blocks * sizeof(int)));
  CHECK(cudaMalloc(&dok, threads * blocks * sizeof(int)));
  CHECK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
  block_sum<<<blocks, threads>>>(din, dsums, dok, n);
  CHECK_LAUNCH();
  int *got = (int *)malloc(blocks * sizeof(int)), *ok = (int *)malloc(threads * blocks * sizeof(int));
  CHECK(cudaMemcpy(got, dsums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ok, dok, threads * blocks * sizeof(int), cudaMemcpyDeviceToHost));
  check_i32("block sums", got, want, blocks);
  int *ones = (int *)malloc(threads * blocks * sizeof(int));
  for (int i = 0; i < threads * blocks; i++) ones[i] = 1;
  check_i32("xor butterfly == down-tree lane 0", ok, ones, threads * blocks);
  CHECK(cudaFree(din)); CHECK(cudaFree(dsums)); CHECK(cudaFree(dok));
  free(in); free(want); free(got); free(ok); free(ones);
  return pass("reduce_shfl");
}
