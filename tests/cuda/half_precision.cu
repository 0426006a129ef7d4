// half_precision: __half and __half2 arithmetic from cuda_fp16.h --
// conversions, add, mul, fma, comparisons and half2 lane-wise math.  Inputs
// are small multiples of 1/8 so every result is exactly representable in
// half precision and the host can compute it in float.
#include <cuda_fp16.h>
#include "check.h"

__global__ void halves(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = __float2half(a[i]), y = __float2half(b[i]);
  out[i * 8 + 0] = __half2float(__hadd(x, y));
  out[i * 8 + 1] = __half2float(__hsub(x, y));
  out[i * 8 + 2] = __half2float(__hmul(x, y));
  out[i * 8 + 3] = __half2float(__hfma(x, y, __float2half(1.0f)));
  out[i * 8 + 4] = __hlt(x, y) ? 1.0f : 0.0f;
  __half2 p = __halves2half2(x, y), q = __halves2half2(y, x);
  __half2 r = __hmul2(__hadd2(p, q), __float2half2_rn(0.5f));
  out[i * 8 + 5] = __low2float(r);
  out[i * 8 + 6] = __high2float(r);
  out[i * 8 + 7] = __half2float(__hneg(__habs(x)));
}

int main(void) {
  const int n = 4096;
  float *a = (float *)malloc(n * 4), *b = (float *)malloc(n * 4);
  float *got = (float *)malloc(n * 32), *want = (float *)malloc(n * 32);
  for (int i = 0; i < n; i++) {
    a[i] = (float)(i % 33 - 16) * 0.125f;   // |a| <= 2, |b| <= 3.75: |a*b| < 8 in 1/64 steps
    b[i] = (float)(i % 61 - 30) * 0.125f;
    float x = a[i], y = b[i];
    want[i * 8 + 0] = x + y;
    want[i * 8 + 1] = x - y;
    want[i * 8 + 2] = x * y;
    want[i * 8 + 3] = x * y + 1.0f;
    want[i * 8 + 4] = x < y ? 1.0f : 0.0f;
    want[i * 8 + 5] = (x + y) * 0.5f;
    want[i * 8 + 6] = (y + x) * 0.5f;
    want[i * 8 + 7] = -fabsf(x);
  }
  float *da, *db, *dout;
  CHECK(cudaMalloc(&da, n * 4));
  CHECK(cudaMalloc(&db, n * 4));
  CHECK(cudaMalloc(&dout, n * 32));
  CHECK(cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b, n * 4, cudaMemcpyHostToDevice));
  halves<<<n / 128, 128>>>(da, db, dout, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, dout, n * 32, cudaMemcpyDeviceToHost));
  check_f32_exact("half results (element*8 + op)", got, want, n * 8);
  CHECK(cudaFree(da)); CHECK(cudaFree(db)); CHECK(cudaFree(dout));
  free(a); free(b); free(got); free(want);
  return pass("half_precision");
}
