// kernel_refusal: one module whose kernels a backend may run only in part.
// scale and offset are plain; block_total sums each block with
// __shfl_xor_sync in uniform control flow and __syncthreads_count; lane_sums
// calls a non-inlined device function that shuffles in a .func, which the
// OpenCL dialect refuses (docs/opencl.md). Every backend that runs a kernel
// must give the right answer; a refused kernel answers cudaErrorNotSupported
// at its launch, and the module's other kernels still run, before and after.
// KERNEL_REFUSAL_EXPECT=refused (the OpenCL ctest) or =ran asserts which.
// stdout is the same everywhere; what ran goes to stderr.
#include "check.h"

#include <string.h>

__global__ void scale(const int *in, int *out, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * k;
}

__global__ void offset(int *io, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  io[i] += d;
}

__global__ void block_total(const int *in, int *sums, int *counts) {
  __shared__ int warp_sums[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  if (lane == 0) warp_sums[warp] = v;
  int positive = __syncthreads_count(in[blockIdx.x * blockDim.x + threadIdx.x] > 0);
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < (int)blockDim.x / 32; w++) s += warp_sums[w];
    sums[blockIdx.x] = s;
    counts[blockIdx.x] = positive;
  }
}

__device__ __noinline__ int warp_sum(int v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

__global__ void lane_sums(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = warp_sum(in[i]);
}

int main(void) {
  const int threads = 128, blocks = 4, n = threads * blocks;
  int *h_in = (int *)malloc(n * 4), *h_out = (int *)malloc(n * 4), *want = (int *)malloc(n * 4);
  int h_sums[blocks], h_counts[blocks], want_sums[blocks], want_counts[blocks];
  unsigned seed = 7;
  for (int i = 0; i < n; i++) h_in[i] = (int)(test_rand(&seed) % 201) - 100;
  int *d_in, *d_out, *d_sums, *d_counts;
  CHECK(cudaMalloc(&d_in, n * 4));
  CHECK(cudaMalloc(&d_out, n * 4));
  CHECK(cudaMalloc(&d_sums, blocks * 4));
  CHECK(cudaMalloc(&d_counts, blocks * 4));
  CHECK(cudaMemcpy(d_in, h_in, n * 4, cudaMemcpyHostToDevice));

  scale<<<blocks, threads>>>(d_in, d_out, 3);   // before the refused kernel
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h_out, d_out, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) want[i] = h_in[i] * 3;
  check_i32("scale", h_out, want, n);

  CHECK(cudaMemset(d_out, 0, n * 4));
  lane_sums<<<blocks, threads>>>(d_in, d_out);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  int ran = e == cudaSuccess;
  if (!ran && e != cudaErrorNotSupported) {
    printf("FAIL lane_sums: %s\n", cudaGetErrorString(e));
    return 1;
  }
  fprintf(stderr, "kernel_refusal: lane_sums %s\n", ran ? "ran" : "was refused (cudaErrorNotSupported)");
  if (ran) {
    CHECK(cudaMemcpy(h_out, d_out, n * 4, cudaMemcpyDeviceToHost));
    for (int w = 0; w < n / 32; w++) {
      int s = 0;
      for (int l = 0; l < 32; l++) s += h_in[w * 32 + l];
      for (int l = 0; l < 32; l++) want[w * 32 + l] = s;
    }
    check_i32("lane_sums", h_out, want, n);
  }
  const char *expect = getenv("KERNEL_REFUSAL_EXPECT");
  if (expect && strcmp(expect, ran ? "ran" : "refused") != 0) {
    printf("FAIL lane_sums: expected it to be %s\n", expect);
    return 1;
  }

  offset<<<blocks, threads>>>(d_out, 5);   // after it: the module still runs
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h_out, d_out, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) want[i] = (ran ? want[i] : 0) + 5;
  check_i32("offset", h_out, want, n);

  block_total<<<blocks, threads>>>(d_in, d_sums, d_counts);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h_sums, d_sums, sizeof h_sums, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_counts, d_counts, sizeof h_counts, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    want_sums[b] = want_counts[b] = 0;
    for (int t = 0; t < threads; t++) {
      want_sums[b] += h_in[b * threads + t];
      want_counts[b] += h_in[b * threads + t] > 0;
    }
  }
  check_i32("block_total sums", h_sums, want_sums, blocks);
  check_i32("block_total counts", h_counts, want_counts, blocks);
  printf("scale, offset and block_total: %d blocks of %d threads checked\n", blocks, threads);
  return pass("kernel_refusal");
}
