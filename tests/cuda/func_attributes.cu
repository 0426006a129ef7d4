// func_attributes: cudaFuncGetAttributes, opting a kernel into 64 KiB of
// dynamic shared memory with cudaFuncSetAttribute and launching it with that
// much, cudaOccupancyMaxActiveBlocksPerMultiprocessor, and the launch error
// for asking more shared memory than allowed.
#include "check.h"

#define STATIC_INTS 300

__global__ void big_shared(int *out, int n) {
  extern __shared__ int dyn[];            // n ints
  __shared__ int fixed[STATIC_INTS];
  for (int i = threadIdx.x; i < n; i += blockDim.x) dyn[i] = i * 3;
  for (int i = threadIdx.x; i < STATIC_INTS; i += blockDim.x) fixed[i] = i;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[blockIdx.x * n + i] = dyn[n - 1 - i] + fixed[i % STATIC_INTS] + blockIdx.x;
}

int main(void) {
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, big_shared));
  if (attr.sharedSizeBytes != STATIC_INTS * sizeof(int)) {
    printf("FAIL sharedSizeBytes: got %zu, expected %zu\n", attr.sharedSizeBytes,
           STATIC_INTS * sizeof(int));
    return 1;
  }
  if (attr.maxThreadsPerBlock < 256) {
    printf("FAIL maxThreadsPerBlock: got %d, expected >= 256\n", attr.maxThreadsPerBlock);
    return 1;
  }
  const int n = 16 * 1024;                  // 64 KiB of dynamic shared memory
  const size_t dyn_bytes = n * sizeof(int);
  int *d;
  CHECK(cudaMalloc(&d, 4 * dyn_bytes));
  // Above 48 KiB without opting in: the launch is refused.
  big_shared<<<4, 256, dyn_bytes>>>(d, n);
  EXPECT_ERROR(cudaGetLastError(), cudaErrorInvalidValue);
  CHECK(cudaFuncSetAttribute(big_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn_bytes));
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, big_shared, 256, dyn_bytes));
  if (per_sm < 1) {
    printf("FAIL occupancy: got %d blocks per SM, expected >= 1\n", per_sm);
    return 1;
  }
  big_shared<<<4, 256, dyn_bytes>>>(d, n);
  CHECK_LAUNCH();
  int *got = (int *)malloc(4 * dyn_bytes), *want = (int *)malloc(4 * dyn_bytes);
  CHECK(cudaMemcpy(got, d, 4 * dyn_bytes, cudaMemcpyDeviceToHost));
  for (int b = 0; b < 4; b++)
    for (int i = 0; i < n; i++) want[b * n + i] = (n - 1 - i) * 3 + i % STATIC_INTS + b;
  check_i32("output", got, want, 4 * n);
  CHECK(cudaFree(d));
  free(got); free(want);
  return pass("func_attributes");
}
