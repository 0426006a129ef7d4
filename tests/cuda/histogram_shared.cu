// histogram_shared: 256-bin histogram, per-block bins in shared memory with
// atomicAdd, merged into global bins with atomicAdd.  Counts are integers:
// the result does not depend on the order of the atomics.
#include "check.h"

#define BINS 256

__global__ void histogram(const unsigned char *data, int n, unsigned *bins) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b]) atomicAdd(&bins[b], local[b]);
}

int main(void) {
  const int n = 3 << 20;
  unsigned char *data = (unsigned char *)malloc(n);
  unsigned want[BINS] = {0}, got[BINS];
  unsigned seed = 2024;
  for (int i = 0; i < n; i++) {
    unsigned r = test_rand(&seed);
    data[i] = (unsigned char)((r & 0xff) < 200 ? (r >> 8) & 0x3f : (r >> 16));  // skewed
    want[data[i]]++;
  }
  unsigned char *dd;
  unsigned *dbins;
  CHECK(cudaMalloc(&dd, n));
  CHECK(cudaMalloc(&dbins, sizeof(got)));
  CHECK(cudaMemcpy(dd, data, n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dbins, 0, sizeof(got)));
  histogram<<<64, 256>>>(dd, n, dbins);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, dbins, sizeof(got), cudaMemcpyDeviceToHost));
  check_u32("bins", got, want, BINS);
  CHECK(cudaFree(dd)); CHECK(cudaFree(dbins));
  free(data);
  return pass("histogram_shared");
}
