// double_precision: IEEE double operations are bit-exact against the host
// (+, -, *, /, sqrt, fma, conversions, rounding); exp/log/sin are within the
// CUDA Programming Guide's double-precision bounds (exp 1 ulp, log 1 ulp,
// sin 2 ulp), checked here as a relative error of 1e-15.
// Each exact result is a single operation stored to memory, so nvcc's fma
// contraction cannot change it.
#include "check.h"

#define NEXACT 10
#define NAPPROX 3

__global__ void eval(const double *x, const double *y, const double *z, double *ex,
                     double *ap, long long *conv, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double a = x[i], b = y[i], c = z[i];
  ex[0 * n + i] = a + b;
  ex[1 * n + i] = a - b;
  ex[2 * n + i] = a * b;
  ex[3 * n + i] = a / b;
  ex[4 * n + i] = sqrt(fabs(a));
  ex[5 * n + i] = fma(a, b, c);
  ex[6 * n + i] = (double)(float)a;
  ex[7 * n + i] = floor(a);
  ex[8 * n + i] = rint(a * 0.5);
  ex[9 * n + i] = fmin(a, b) + fmax(b, c);
  ap[0 * n + i] = exp(a * 1e-3);
  ap[1 * n + i] = log(fabs(a) + 1.0);
  ap[2 * n + i] = sin(a);
  conv[0 * n + i] = (long long)(a * 1e9);
  conv[1 * n + i] = llrint(b * 1e10);
  conv[2 * n + i] = (long long)(double)((long long)c * 3 + 1);
}

int main(void) {
  const int n = 20000;
  size_t bytes = n * sizeof(double);
  double *x = (double *)malloc(bytes), *y = (double *)malloc(bytes), *z = (double *)malloc(bytes);
  double *ex = (double *)malloc(NEXACT * bytes), *wex = (double *)malloc(NEXACT * bytes);
  double *ap = (double *)malloc(NAPPROX * bytes), *wap = (double *)malloc(NAPPROX * bytes);
  long long *conv = (long long *)malloc(3 * n * 8), *wconv = (long long *)malloc(3 * n * 8);
  unsigned seed = 77;
  for (int i = 0; i < n; i++) {
    unsigned long long r1 = ((unsigned long long)test_rand(&seed) << 21) ^ test_rand(&seed);
    x[i] = ((double)(r1 & ((1ull << 52) - 1)) / (double)(1ull << 52) - 0.5) * 2000.0;
    y[i] = 0.001 + (double)test_rand(&seed) / 4294967296.0 * 50.0;
    z[i] = ((double)test_rand(&seed) / 4294967296.0 - 0.5) * 1e7;
  }
  for (int i = 0; i < n; i++) {
    double a = x[i], b = y[i], c = z[i];
    wex[0 * n + i] = a + b;
    wex[1 * n + i] = a - b;
    wex[2 * n + i] = a * b;
    wex[3 * n + i] = a / b;
    wex[4 * n + i] = sqrt(fabs(a));
    wex[5 * n + i] = fma(a, b, c);
    wex[6 * n + i] = (double)(float)a;
    wex[7 * n + i] = floor(a);
    wex[8 * n + i] = rint(a * 0.5);
    wex[9 * n + i] = fmin(a, b) + fmax(b, c);
    wap[0 * n + i] = exp(a * 1e-3);
    wap[1 * n + i] = log(fabs(a) + 1.0);
    wap[2 * n + i] = sin(a);
    wconv[0 * n + i] = (long long)(a * 1e9);
    wconv[1 * n + i] = llrint(b * 1e10);
    wconv[2 * n + i] = (long long)(double)((long long)c * 3 + 1);
  }
  double *dx, *dy, *dz, *dex, *dap;
  long long *dconv;
  CHECK(cudaMalloc(&dx, bytes));
  CHECK(cudaMalloc(&dy, bytes));
  CHECK(cudaMalloc(&dz, bytes));
  CHECK(cudaMalloc(&dex, NEXACT * bytes));
  CHECK(cudaMalloc(&dap, NAPPROX * bytes));
  CHECK(cudaMalloc(&dconv, 3 * n * 8));
  CHECK(cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dz, z, bytes, cudaMemcpyHostToDevice));
  eval<<<(n + 127) / 128, 128>>>(dx, dy, dz, dex, dap, dconv, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(ex, dex, NEXACT * bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ap, dap, NAPPROX * bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(conv, dconv, 3 * n * 8, cudaMemcpyDeviceToHost));
  static const char *exact_names[NEXACT] = {"add", "sub", "mul", "div", "sqrt", "fma",
                                            "to float and back", "floor", "rint", "fmin+fmax"};
  for (int k = 0; k < NEXACT; k++) check_f64_exact(exact_names[k], ex + k * n, wex + k * n, n);
  check_f64_tol("exp", ap, wap, n, 1e-15, 0);
  check_f64_tol("log", ap + n, wap + n, n, 1e-15, 0);
  check_f64_tol("sin", ap + 2 * n, wap + 2 * n, n, 1e-15, 1e-300);
  check_i64("conversions", conv, wconv, 3 * n);
  CHECK(cudaFree(dx)); CHECK(cudaFree(dy)); CHECK(cudaFree(dz));
  CHECK(cudaFree(dex)); CHECK(cudaFree(dap)); CHECK(cudaFree(dconv));
  free(x); free(y); free(z); free(ex); free(wex); free(ap); free(wap); free(conv); free(wconv);
  return pass("double_precision");
}
