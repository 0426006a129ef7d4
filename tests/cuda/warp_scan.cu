// warp_scan: a warp-level inclusive scan with __shfl_up_sync, plus an
// exclusive scan derived from it, per 32-element segment.
#include "check.h"

__global__ void warp_scan(const int *in, int *incl, int *excl, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = i < n ? in[i] : 0;
  for (int off = 1; off < 32; off <<= 1) {
    int up = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += up;
  }
  int prev = __shfl_up_sync(0xffffffffu, v, 1);
  if (i < n) {
    incl[i] = v;
    excl[i] = lane == 0 ? 0 : prev;
  }
}

int main(void) {
  const int n = 32 * 200 + 13;
  int *in = (int *)malloc(n * 4), *incl = (int *)malloc(n * 4), *excl = (int *)malloc(n * 4);
  int *wi = (int *)malloc(n * 4), *we = (int *)malloc(n * 4);
  unsigned seed = 7;
  for (int i = 0; i < n; i++) in[i] = (int)(test_rand(&seed) % 100) - 30;
  for (int i = 0; i < n; i++) {
    int lane = i % 32;
    we[i] = lane == 0 ? 0 : wi[i - 1];
    wi[i] = (lane == 0 ? 0 : wi[i - 1]) + in[i];
  }
  int *din, *dincl, *dexcl;
  CHECK(cudaMalloc(&din, n * 4));
  CHECK(cudaMalloc(&dincl, n * 4));
  CHECK(cudaMalloc(&dexcl, n * 4));
  CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice));
  warp_scan<<<(n + 127) / 128, 128>>>(din, dincl, dexcl, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(incl, dincl, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(excl, dexcl, n * 4, cudaMemcpyDeviceToHost));
  check_i32("inclusive", incl, wi, n);
  check_i32("exclusive", excl, we, n);
  CHECK(cudaFree(din)); CHECK(cudaFree(dincl)); CHECK(cudaFree(dexcl));
  free(in); free(incl); free(excl); free(wi); free(we);
  return pass("warp_scan");
}
