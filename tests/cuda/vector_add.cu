// vector_add: c[i] = a[i] + b[i] over a length that is not a multiple of the block.
#include "check.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(void) {
  const int n = 100003;
  size_t bytes = n * sizeof(float);
  float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes);
  float *c = (float *)malloc(bytes), *want = (float *)malloc(bytes);
  for (int i = 0; i < n; i++) {
    a[i] = (float)i * 0.5f;
    b[i] = (float)(n - i) * 0.25f;
    want[i] = a[i] + b[i];
  }
  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, bytes));
  CHECK(cudaMalloc(&db, bytes));
  CHECK(cudaMalloc(&dc, bytes));
  CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
  vector_add<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
  check_f32_exact("c", c, want, n);
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  free(a); free(b); free(c); free(want);
  return pass("vector_add");
}
