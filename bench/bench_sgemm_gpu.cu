/* bench_sgemm_gpu.cu: cublasSgemm of n x n (default 2048) on device memory,
 * for a GPU: natively against NVIDIA's cuBLAS, or through `cubridge run`
 * with CUBRIDGE_BACKEND=opencl against cubridge's facade on CLBlast (the
 * same binary; bench/RESULTS.md). One warm-up product, then the median of
 * REPS timed ones (host clock around each product and a synchronize).
 *   bench_sgemm_gpu [n] [reps]   prints "RESULT sgemm_ms <ms>" and a checksum
 * Build: nvcc -O3 bench/bench_sgemm_gpu.cu -o bench_sgemm_gpu -lcublas */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

static double now_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2048, reps = argc > 2 ? atoi(argv[2]) : 5;
  size_t count = (size_t)n * n;
  std::vector<float> h(count);
  for (size_t i = 0; i < count; i++) h[i] = (float)((i * 37) % 17) / 16.0f - 0.5f;
  float *a, *b, *c;
  if (cudaMalloc(&a, count * 4) || cudaMalloc(&b, count * 4) || cudaMalloc(&c, count * 4)) {
    printf("FAIL cudaMalloc\n");
    return 1;
  }
  cudaMemcpy(a, h.data(), count * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(b, h.data(), count * 4, cudaMemcpyHostToDevice);
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    printf("FAIL cublasCreate\n");
    return 1;
  }
  const float one = 1, zero = 0;
  std::vector<double> t;
  for (int r = 0; r <= reps; r++) {
    double t0 = now_ms();
    cublasStatus_t s = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n);
    cudaError_t e = cudaDeviceSynchronize();
    if (s != CUBLAS_STATUS_SUCCESS || e != cudaSuccess) {
      printf("FAIL cublasSgemm: status %d, %s\n", (int)s, cudaGetErrorString(e));
      return 1;
    }
    if (r) t.push_back(now_ms() - t0);   /* the first is the warm-up */
  }
  std::sort(t.begin(), t.end());
  cudaMemcpy(h.data(), c, count * 4, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (size_t i = 0; i < count; i += 997) sum += h[i];
  printf("RESULT sgemm_ms %.3f\nchecksum %.6g (n %d)\n", t[t.size() / 2], sum, n);
  return 0;
}
