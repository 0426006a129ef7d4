// vectorAdd: the classic first CUDA program -- c = a + b on 2^20 floats --
// built with plain `nvcc vectorAdd.cu -o vectorAdd` and run unchanged.
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e_));     \
      return 1;                                                              \
    }                                                                        \
  } while (0)

__global__ void vectorAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(void) {
  const int n = 1 << 20;
  size_t bytes = n * sizeof(float);
  float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
  for (int i = 0; i < n; i++) {
    a[i] = sinf((float)i) * sinf((float)i);
    b[i] = cosf((float)i) * cosf((float)i);
  }
  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, bytes));
  CHECK(cudaMalloc(&db, bytes));
  CHECK(cudaMalloc(&dc, bytes));
  CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
  int threads = 256, blocks = (n + threads - 1) / threads;
  vectorAdd<<<blocks, threads>>>(da, db, dc, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
  double sum = 0, max_err = 0;
  for (int i = 0; i < n; i++) {
    sum += c[i];
    double err = fabs((double)c[i] - ((double)a[i] + (double)b[i]));
    if (err > max_err) max_err = err;
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("vectorAdd on \"%s\" (compute capability %d.%d): %d elements, %d blocks of %d threads\n",
         prop.name, prop.major, prop.minor, n, blocks, threads);
  printf("sum = %.1f (expected %d: sin^2 + cos^2 = 1), max error = %.3g\n", sum, n, max_err);
  int ok = fabs(sum - n) < 1.0 && max_err < 1e-6;
  printf("%s\n", ok ? "Test PASSED" : "Test FAILED");
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  free(a); free(b); free(c);
  return ok ? 0 : 1;
}
