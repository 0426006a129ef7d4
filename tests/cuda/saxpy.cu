// saxpy: y = a*x + y.  The inputs are small integers and halves, so a*x + y is
// exact whether or not nvcc contracts it into an fma.
#include "check.h"

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main(void) {
  const int n = 1 << 20;
  const float a = 2.5f;
  float *x = (float *)malloc(n * sizeof(float)), *y = (float *)malloc(n * sizeof(float));
  float *want = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 1000);
    y[i] = (float)(i % 77) * 0.5f;
    want[i] = a * x[i] + y[i];
  }
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice));
  saxpy<<<(n + 511) / 512, 512>>>(n, a, dx, dy);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  check_f32_exact("y", y, want, n);
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  free(x); free(y); free(want);
  return pass("saxpy");
}
