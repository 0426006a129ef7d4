// bench_launch: the cost of launching an empty kernel and waiting for it
// (<<<1, 1>>> then cudaDeviceSynchronize), averaged over a loop.
//   bench_launch [iterations]        prints "RESULT launch_sync_us <microseconds>"
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__global__ void empty_kernel(void) {}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 2000;
  for (int i = 0; i < 20; i++) empty_kernel<<<1, 1>>>();   // warm-up (and JIT)
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    fprintf(stderr, "bench_launch: %s\n", cudaGetErrorString(err));
    return 1;
  }
  double t0 = now_s();
  for (int i = 0; i < iters; i++) {
    empty_kernel<<<1, 1>>>();
    cudaDeviceSynchronize();
  }
  double t1 = now_s();
  err = cudaGetLastError();
  if (err != cudaSuccess) {
    fprintf(stderr, "bench_launch: %s\n", cudaGetErrorString(err));
    return 1;
  }
  printf("RESULT launch_sync_us %.3f\n", (t1 - t0) / iters * 1e6);
  return 0;
}
