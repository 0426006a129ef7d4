// prefix_sum_blocks: an exclusive prefix sum over many blocks in three
// kernels -- scan each block in shared memory (Blelloch up/down sweep) and
// record its total; scan the totals; add each block's offset.
#include "check.h"

#define B 512   // elements per block (two per thread)

__global__ void scan_blocks(const int *in, int *out, int *totals, int n) {
  __shared__ int s[B];
  int t = threadIdx.x, base = blockIdx.x * B;
  s[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
  s[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
  int off = 1;
  for (int d = B >> 1; d > 0; d >>= 1) {        // up-sweep
    __syncthreads();
    if (t < d) s[off * (2 * t + 2) - 1] += s[off * (2 * t + 1) - 1];
    off <<= 1;
  }
  if (t == 0) {
    if (totals) totals[blockIdx.x] = s[B - 1];
    s[B - 1] = 0;
  }
  for (int d = 1; d < B; d <<= 1) {             // down-sweep
    off >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
      int tmp = s[ai];
      s[ai] = s[bi];
      s[bi] += tmp;
    }
  }
  __syncthreads();
  if (base + 2 * t < n) out[base + 2 * t] = s[2 * t];
  if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = s[2 * t + 1];
}

__global__ void add_offsets(int *out, const int *offsets, int n) {
  int i = blockIdx.x * B + threadIdx.x;
  int off = offsets[blockIdx.x];
  if (i < n) out[i] += off;
  if (i + B / 2 < n) out[i + B / 2] += off;
}

int main(void) {
  const int n = 200000, blocks = (n + B - 1) / B;   // 391 blocks: one scan of totals
  int *in = (int *)malloc(n * 4), *out = (int *)malloc(n * 4), *want = (int *)malloc(n * 4);
  unsigned seed = 8;
  for (int i = 0; i < n; i++) in[i] = (int)(test_rand(&seed) % 21) - 5;
  int run = 0;
  for (int i = 0; i < n; i++) { want[i] = run; run += in[i]; }
  int *din, *dout, *dtot, *doff;
  CHECK(cudaMalloc(&din, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMalloc(&dtot, B * 4));
  CHECK(cudaMalloc(&doff, B * 4));
  CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice));
  scan_blocks<<<blocks, B / 2>>>(din, dout, dtot, n);
  scan_blocks<<<1, B / 2>>>(dtot, doff, NULL, blocks);
  add_offsets<<<blocks, B / 2>>>(dout, doff, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out, dout, n * 4, cudaMemcpyDeviceToHost));
  check_i32("exclusive scan", out, want, n);
  CHECK(cudaFree(din)); CHECK(cudaFree(dout)); CHECK(cudaFree(dtot)); CHECK(cudaFree(doff));
  free(in); free(out); free(want);
  return pass("prefix_sum_blocks");
}
