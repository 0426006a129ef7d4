// dynamic_shared: extern __shared__ sized at launch; each block reverses its
// segment, using two arrays carved out of the one dynamic allocation.
#include "check.h"

__global__ void reverse_segments(const int *in, int *out, int *sums) {
  extern __shared__ int smem[];
  int *vals = smem;                     // blockDim.x ints
  int *partial = smem + blockDim.x;     // blockDim.x more
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  vals[t] = in[base + t];
  partial[t] = in[base + t];
  __syncthreads();
  out[base + t] = vals[blockDim.x - 1 - t];
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {   // blockDim.x is a power of 2
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
}

int main(void) {
  const int threads = 512, blocks = 37, n = threads * blocks;
  int *in = (int *)malloc(n * 4), *out = (int *)malloc(n * 4), *want = (int *)malloc(n * 4);
  int sums[blocks], want_sums[blocks];
  for (int i = 0; i < n; i++) in[i] = i * 3 - 7;
  for (int b = 0; b < blocks; b++) {
    want_sums[b] = 0;
    for (int t = 0; t < threads; t++) {
      want[b * threads + t] = in[b * threads + threads - 1 - t];
      want_sums[b] += in[b * threads + t];
    }
  }
  int *din, *dout, *dsums;
  CHECK(cudaMalloc(&din, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMalloc(&dsums, sizeof(sums)));
  CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice));
  reverse_segments<<<blocks, threads, 2 * threads * sizeof(int)>>>(din, dout, dsums);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out, dout, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sums, dsums, sizeof(sums), cudaMemcpyDeviceToHost));
  check_i32("reversed", out, want, n);
  check_i32("segment sums", sums, want_sums, blocks);
  CHECK(cudaFree(din)); CHECK(cudaFree(dout)); CHECK(cudaFree(dsums));
  free(in); free(out); free(want);
  return pass("dynamic_shared");
}
