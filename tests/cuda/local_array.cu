// local_array: a per-thread array indexed with run-time values (so it lives in
// local memory), used as a small stack-based insertion sort per thread.
#include "check.h"

#define K 24

__global__ void sort_local(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int a[K];
  for (int k = 0; k < K; k++) a[k] = in[i * K + k];
  for (int k = 1; k < K; k++) {
    int v = a[k], j = k - 1;
    while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
    a[j + 1] = v;
  }
  int pick = in[i * K] & (K - 1 - 7);                // a data-dependent index
  for (int k = 0; k < K; k++) out[i * (K + 1) + k] = a[k];
  out[i * (K + 1) + K] = a[pick];
}

int main(void) {
  const int n = 3000;
  int *in = (int *)malloc(n * K * 4), *out = (int *)malloc(n * (K + 1) * 4);
  int *want = (int *)malloc(n * (K + 1) * 4);
  unsigned seed = 11;
  for (int i = 0; i < n * K; i++) in[i] = (int)(test_rand(&seed) % 1000) - 500;
  for (int i = 0; i < n; i++) {
    int a[K];
    memcpy(a, in + i * K, sizeof(a));
    for (int k = 1; k < K; k++) {
      int v = a[k], j = k - 1;
      while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
      a[j + 1] = v;
    }
    memcpy(want + i * (K + 1), a, sizeof(a));
    want[i * (K + 1) + K] = a[in[i * K] & (K - 1 - 7)];
  }
  int *din, *dout;
  CHECK(cudaMalloc(&din, n * K * 4));
  CHECK(cudaMalloc(&dout, n * (K + 1) * 4));
  CHECK(cudaMemcpy(din, in, n * K * 4, cudaMemcpyHostToDevice));
  sort_local<<<(n + 63) / 64, 64>>>(din, dout, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out, dout, n * (K + 1) * 4, cudaMemcpyDeviceToHost));
  check_i32("sorted per thread", out, want, n * (K + 1));
  CHECK(cudaFree(din)); CHECK(cudaFree(dout));
  free(in); free(out); free(want);
  return pass("local_array");
}
