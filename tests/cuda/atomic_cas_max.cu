// atomic_cas_max: float atomic max (per bucket) built from an atomicCAS loop
// on the float's bits; also a double atomic add built the same way.
#include "check.h"

__device__ float atomic_max_float(float *addr, float v) {
  int *iaddr = (int *)addr;
  int old = *iaddr, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= v) break;
    old = atomicCAS(iaddr, assumed, __float_as_int(v));
  } while (old != assumed);
  return __int_as_float(old);
}

__device__ double atomic_add_double_cas(double *addr, double v) {
  unsigned long long *u = (unsigned long long *)addr;
  unsigned long long old = *u, assumed;
  do {
    assumed = old;
    old = atomicCAS(u, assumed, __double_as_longlong(__longlong_as_double(assumed) + v));
  } while (old != assumed);
  return __longlong_as_double(old);
}

__global__ void bucket_max(const float *x, int n, float *maxes, double *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomic_max_float(&maxes[i % 8], x[i]);
    atomic_add_double_cas(sum, (double)(i % 16));   // integers: exact in any order
  }
}

int main(void) {
  const int n = 50000;
  float *x = (float *)malloc(n * 4), want[8], got[8];
  unsigned seed = 31337;
  for (int b = 0; b < 8; b++) want[b] = -1e30f;
  double want_sum = 0;
  for (int i = 0; i < n; i++) {
    x[i] = (float)((int)(test_rand(&seed) % 2000001) - 1000000) / 1024.0f;
    if (x[i] > want[i % 8]) want[i % 8] = x[i];
    want_sum += i % 16;
  }
  float *dx, *dmax;
  double *dsum, got_sum;
  CHECK(cudaMalloc(&dx, n * 4));
  CHECK(cudaMalloc(&dmax, sizeof(got)));
  CHECK(cudaMalloc(&dsum, sizeof(double)));
  CHECK(cudaMemcpy(dx, x, n * 4, cudaMemcpyHostToDevice));
  float init[8];
  for (int b = 0; b < 8; b++) init[b] = -1e30f;
  CHECK(cudaMemcpy(dmax, init, sizeof(init), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dsum, 0, sizeof(double)));
  bucket_max<<<(n + 255) / 256, 256>>>(dx, n, dmax, dsum);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, dmax, sizeof(got), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&got_sum, dsum, sizeof(double), cudaMemcpyDeviceToHost));
  check_f32_exact("bucket max", got, want, 8);
  check_f64_exact("CAS double sum", &got_sum, &want_sum, 1);
  CHECK(cudaFree(dx)); CHECK(cudaFree(dmax)); CHECK(cudaFree(dsum));
  free(x);
  return pass("atomic_cas_max");
}
