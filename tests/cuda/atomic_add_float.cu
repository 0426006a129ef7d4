// atomic_add_float: float (and double) atomicAdd from many threads into a few
// addresses.  Every addend is a multiple of 1/4 and every partial sum stays
// below 2^22, so each sum is exact whatever order the atomics run in.
#include "check.h"

__global__ void accumulate(float *fsum, double *dsum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&fsum[i % 4], (float)(i % 9) * 0.25f);
    atomicAdd(&dsum[i % 3], (double)(i % 5) * 0.5);
  }
}

__global__ void returns_old(float *counter, float *olds) {
  // Each thread adds 1; the old values returned are a permutation of 0..n-1.
  olds[blockIdx.x * blockDim.x + threadIdx.x] = atomicAdd(counter, 1.0f);
}

int main(void) {
  const int n = 1 << 18, m = 4096;
  float want_f[4] = {0}, got_f[4];
  double want_d[3] = {0}, got_d[3];
  for (int i = 0; i < n; i++) {
    want_f[i % 4] += (float)(i % 9) * 0.25f;
    want_d[i % 3] += (double)(i % 5) * 0.5;
  }
  float *df, *dc, *dolds;
  double *dd;
  CHECK(cudaMalloc(&df, sizeof(got_f)));
  CHECK(cudaMalloc(&dd, sizeof(got_d)));
  CHECK(cudaMalloc(&dc, sizeof(float)));
  CHECK(cudaMalloc(&dolds, m * sizeof(float)));
  CHECK(cudaMemset(df, 0, sizeof(got_f)));
  CHECK(cudaMemset(dd, 0, sizeof(got_d)));
  CHECK(cudaMemset(dc, 0, sizeof(float)));
  accumulate<<<n / 256, 256>>>(df, dd, n);
  CHECK_LAUNCH();
  returns_old<<<m / 128, 128>>>(dc, dolds);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got_f, df, sizeof(got_f), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_d, dd, sizeof(got_d), cudaMemcpyDeviceToHost));
  check_f32_exact("float sums", got_f, want_f, 4);
  check_f64_exact("double sums", got_d, want_d, 3);
  float counter, *olds = (float *)malloc(m * sizeof(float));
  CHECK(cudaMemcpy(&counter, dc, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(olds, dolds, m * sizeof(float), cudaMemcpyDeviceToHost));
  float want_counter = (float)m;
  check_f32_exact("counter", &counter, &want_counter, 1);
  char *seen = (char *)calloc(m, 1);
  for (int i = 0; i < m; i++) {
    int v = (int)olds[i];
    if ((float)v != olds[i] || v < 0 || v >= m || seen[v]) {
      printf("FAIL old values: index %d: got %g, a duplicate or out of 0..%d\n", i, olds[i], m - 1);
      return 1;
    }
    seen[v] = 1;
  }
  CHECK(cudaFree(df)); CHECK(cudaFree(dd)); CHECK(cudaFree(dc)); CHECK(cudaFree(dolds));
  free(olds); free(seen);
  return pass("atomic_add_float");
}
