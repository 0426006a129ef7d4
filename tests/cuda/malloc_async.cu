// malloc_async: stream-ordered allocation (cudaMallocAsync / cudaFreeAsync)
// in a loop, with the memory used by kernels and copies on the same stream.
#include "check.h"

__global__ void iota(int *p, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}

__global__ void sum_into(const int *p, int n, unsigned long long *total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, (unsigned long long)p[i]);
}

int main(void) {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  unsigned long long *total;
  CHECK(cudaMallocAsync((void **)&total, sizeof(unsigned long long), s));
  CHECK(cudaMemsetAsync(total, 0, sizeof(unsigned long long), s));
  unsigned long long want = 0;
  for (int round = 0; round < 10; round++) {
    int n = 1000 + round * 777;
    int *p;
    CHECK(cudaMallocAsync((void **)&p, n * sizeof(int), s));
    iota<<<(n + 127) / 128, 128, 0, s>>>(p, n, round * 100);
    sum_into<<<(n + 127) / 128, 128, 0, s>>>(p, n, total);
    CHECK(cudaGetLastError());
    CHECK(cudaFreeAsync(p, s));
    for (int i = 0; i < n; i++) want += (unsigned long long)(round * 100 + i);
  }
  unsigned long long got = 0;
  CHECK(cudaMemcpyAsync(&got, total, sizeof(got), cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(total, s));
  CHECK(cudaStreamSynchronize(s));
  check_u64("total", &got, &want, 1);
  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  CHECK(cudaMemPoolTrimTo(pool, 0));
  CHECK(cudaStreamDestroy(s));
  return pass("malloc_async");
}
