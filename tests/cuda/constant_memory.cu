// constant_memory: __constant__ coefficients set with cudaMemcpyToSymbol (whole
// and at an offset), used to evaluate a polynomial by Horner's rule.  The
// coefficients and inputs are small integers: exact with or without fma.
#include "check.h"

#define DEG 8
__constant__ float coeffs[DEG + 1];
__constant__ int scale[2];

__global__ void horner(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = coeffs[DEG];
  for (int k = DEG - 1; k >= 0; k--) acc = acc * x[i] + coeffs[k];
  y[i] = acc * (float)scale[0] + (float)scale[1];
}

int main(void) {
  const int n = 4096;
  float c[DEG + 1] = {1, -2, 0, 3, 1, 0, -1, 0, 1};
  int sc[2] = {3, 0};
  int second = -5;
  CHECK(cudaMemcpyToSymbol(coeffs, c, sizeof(c)));
  CHECK(cudaMemcpyToSymbol(scale, sc, sizeof(sc)));
  CHECK(cudaMemcpyToSymbol(scale, &second, sizeof(int), sizeof(int)));  // scale[1] = -5
  float *x = (float *)malloc(n * 4), *y = (float *)malloc(n * 4), *want = (float *)malloc(n * 4);
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 7 - 3);
    float acc = c[DEG];
    for (int k = DEG - 1; k >= 0; k--) acc = acc * x[i] + c[k];
    want[i] = acc * 3.0f - 5.0f;
  }
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * 4));
  CHECK(cudaMalloc(&dy, n * 4));
  CHECK(cudaMemcpy(dx, x, n * 4, cudaMemcpyHostToDevice));
  horner<<<n / 128, 128>>>(dx, dy, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(y, dy, n * 4, cudaMemcpyDeviceToHost));
  check_f32_exact("polynomial", y, want, n);
  float back[DEG + 1];
  CHECK(cudaMemcpyFromSymbol(back, coeffs, sizeof(back)));
  check_f32_exact("coeffs read back", back, c, DEG + 1);
  CHECK(cudaFree(dx)); CHECK(cudaFree(dy));
  free(x); free(y); free(want);
  return pass("constant_memory");
}
