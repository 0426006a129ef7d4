// bench_vectoradd: c = a + b on 2^24 floats, timed per launch (kernel plus
// synchronize; the copies are outside the timed loop), with the result checked.
//   bench_vectoradd [repetitions]    prints "RESULT vectoradd_ms <milliseconds>"
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      fprintf(stderr, "bench_vectoradd: %s: %s\n", #call, cudaGetErrorString(e_));    \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

int main(int argc, char **argv) {
  const int n = 1 << 24;
  int reps = argc > 1 ? atoi(argv[1]) : 20;
  size_t bytes = (size_t)n * sizeof(float);
  float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
  for (int i = 0; i < n; i++) {
    a[i] = (float)(i % 1000);
    b[i] = (float)(i % 777) * 0.5f;
  }
  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, bytes));
  CHECK(cudaMalloc(&db, bytes));
  CHECK(cudaMalloc(&dc, bytes));
  CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
  int threads = 256, blocks = (n + threads - 1) / threads;
  vector_add<<<blocks, threads>>>(da, db, dc, n);            // warm-up (and JIT)
  CHECK(cudaDeviceSynchronize());
  double t0 = now_s();
  for (int r = 0; r < reps; r++) vector_add<<<blocks, threads>>>(da, db, dc, n);
  CHECK(cudaDeviceSynchronize());
  double t1 = now_s();
  CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (c[i] != a[i] + b[i]) {
      fprintf(stderr, "bench_vectoradd: wrong result at %d: %g\n", i, c[i]);
      return 1;
    }
  double ms = (t1 - t0) / reps * 1e3;
  printf("RESULT vectoradd_ms %.3f\n", ms);
  printf("RESULT vectoradd_gbps %.2f\n", 3.0 * bytes / (ms * 1e-3) / 1e9);
  return 0;
}
