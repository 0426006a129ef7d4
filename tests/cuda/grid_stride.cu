// grid_stride: a grid-stride loop with far fewer threads than elements.
#include "check.h"

__global__ void square_all(const int *in, long long *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = (long long)in[i] * in[i] + i;
}

int main(void) {
  const int n = 1000001;
  int *in = (int *)malloc(n * sizeof(int));
  long long *out = (long long *)malloc(n * sizeof(long long));
  long long *want = (long long *)malloc(n * sizeof(long long));
  unsigned seed = 12345;
  for (int i = 0; i < n; i++) {
    in[i] = (int)(test_rand(&seed) % 200001) - 100000;
    want[i] = (long long)in[i] * in[i] + i;
  }
  int *din;
  long long *dout;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * sizeof(long long)));
  CHECK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
  square_all<<<7, 96>>>(din, dout, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out, dout, n * sizeof(long long), cudaMemcpyDeviceToHost));
  check_i64("out", out, want, n);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  free(in); free(out); free(want);
  return pass("grid_stride");
}
