// block_vote: __syncthreads_count, __syncthreads_and and __syncthreads_or.
#include "check.h"

__global__ void block_vote(const int *pred, int *out) {
  int p = pred[blockIdx.x * blockDim.x + threadIdx.x];
  int c = __syncthreads_count(p);
  int a = __syncthreads_and(p);
  int o = __syncthreads_or(p);
  if (threadIdx.x == 0) {
    out[blockIdx.x * 3 + 0] = c;
    out[blockIdx.x * 3 + 1] = a != 0;
    out[blockIdx.x * 3 + 2] = o != 0;
  }
}

int main(void) {
  const int blocks = 4, threads = 160, n = blocks * threads;
  int pred[n], want[blocks * 3], got[blocks * 3];
  for (int i = 0; i < n; i++) {
    int b = i / threads, t = i % threads;
    pred[i] = b == 0 ? 1 : b == 1 ? 0 : b == 2 ? (t % 7 == 0) * 5 : (t == threads - 1);
  }
  for (int b = 0; b < blocks; b++) {
    int c = 0;
    for (int t = 0; t < threads; t++) c += pred[b * threads + t] != 0;
    want[b * 3] = c; want[b * 3 + 1] = c == threads; want[b * 3 + 2] = c > 0;
  }
  int *dp, *dout;
  CHECK(cudaMalloc(&dp, sizeof(pred)));
  CHECK(cudaMalloc(&dout, sizeof(got)));
  CHECK(cudaMemcpy(dp, pred, sizeof(pred), cudaMemcpyHostToDevice));
  block_vote<<<blocks, threads>>>(dp, dout);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
  check_i32("count/and/or per block", got, want, blocks * 3);
  CHECK(cudaFree(dp)); CHECK(cudaFree(dout));
  return pass("block_vote");
}
