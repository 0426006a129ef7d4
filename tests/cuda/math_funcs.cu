// math_funcs: single-precision math against a double-precision host reference.
//
// Tolerances are the maximum ULP errors from the CUDA C++ Programming Guide,
// "Mathematical Functions" appendix (single-precision table; intrinsics table
// for __fdividef), with the default flags (-prec-div=true, -prec-sqrt=true,
// no -use_fast_math):
//   sqrtf 0 ulp (IEEE round to nearest)   x / y   0 ulp (IEEE)
//   fmaf  0 ulp (IEEE, single rounding)   expf    2 ulp (full range)
//   sinf  2 ulp (full range)              cosf    2 ulp (full range)
//   logf  1 ulp (full range)              rsqrtf  2 ulp (full range)
//   __fdividef(x, y) 2 ulp for 2^-126 <= |y| <= 2^126
// The reference is computed in double and rounded to float, which can itself
// be half an ulp off the true value; so the check allows the table's bound
// plus 1 ulp for the approximate functions, and 0 for the IEEE ones (their
// double results round to the correctly rounded float).
#include "check.h"

enum { F_SQRT, F_DIV, F_FMA, F_EXP, F_SIN, F_COS, F_LOG, F_RSQRT, F_FDIVIDE, NFUNC };
static const char *names[NFUNC] = {"sqrtf", "x/y", "fmaf", "expf", "sinf",
                                   "cosf", "logf", "rsqrtf", "__fdividef"};
static const int guide_ulp[NFUNC] = {0, 0, 0, 2, 2, 2, 1, 2, 2};

__global__ void eval(const float *x, const float *y, const float *z, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[i], b = y[i], c = z[i];
  out[F_SQRT * n + i] = sqrtf(fabsf(a));
  out[F_DIV * n + i] = a / b;
  out[F_FMA * n + i] = fmaf(a, b, c);
  out[F_EXP * n + i] = expf(a * 0.002f);
  out[F_SIN * n + i] = sinf(a * 0.01f);
  out[F_COS * n + i] = cosf(a * 0.01f);
  out[F_LOG * n + i] = logf(fabsf(a) + 1e-3f);
  out[F_RSQRT * n + i] = rsqrtf(fabsf(a) + 1e-3f);
  out[F_FDIVIDE * n + i] = __fdividef(a, b);
}

int main(void) {
  const int n = 1 << 16;
  float *x = (float *)malloc(n * 4), *y = (float *)malloc(n * 4), *z = (float *)malloc(n * 4);
  float *out = (float *)malloc(NFUNC * n * 4);
  unsigned seed = 4242;
  for (int i = 0; i < n; i++) {
    // x in [-10000, 10000]; y in +-[1, 1000]; z in [-1e6, 1e6]
    x[i] = ((float)(test_rand(&seed) & 0xffffff) / 16777216.0f - 0.5f) * 20000.0f;
    y[i] = (1.0f + (float)(test_rand(&seed) % 999000) / 1000.0f) * (i & 1 ? -1.0f : 1.0f);
    z[i] = ((float)(test_rand(&seed) & 0xffffff) / 16777216.0f - 0.5f) * 2e6f;
  }
  float *dx, *dy, *dz, *dout;
  CHECK(cudaMalloc(&dx, n * 4));
  CHECK(cudaMalloc(&dy, n * 4));
  CHECK(cudaMalloc(&dz, n * 4));
  CHECK(cudaMalloc(&dout, NFUNC * n * 4));
  CHECK(cudaMemcpy(dx, x, n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y, n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dz, z, n * 4, cudaMemcpyHostToDevice));
  eval<<<n / 256, 256>>>(dx, dy, dz, dout, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out, dout, NFUNC * n * 4, cudaMemcpyDeviceToHost));
  for (int f = 0; f < NFUNC; f++) {
    int tol = guide_ulp[f] == 0 ? 0 : guide_ulp[f] + 1;
    for (int i = 0; i < n; i++) {
      double a = x[i], b = y[i], c = z[i];
      float ea = (float)(a * 0.002f), sa = (float)(a * 0.01f);  // as the kernel rounds them
      float la = fabsf(x[i]) + 1e-3f;
      double ref;
      switch (f) {
        case F_SQRT: ref = sqrt(fabs(a)); break;
        case F_DIV: ref = a / b; break;
        case F_FMA: ref = fmaf(x[i], y[i], z[i]); break;
        case F_EXP: ref = exp((double)ea); break;
        case F_SIN: ref = sin((double)sa); break;
        case F_COS: ref = cos((double)sa); break;
        case F_LOG: ref = log((double)la); break;
        case F_RSQRT: ref = 1.0 / sqrt((double)la); break;
        default: ref = a / b; break;
      }
      (void)c;
      float want = (float)ref, got = out[f * n + i];
      long long d = ulp_distance(got, want);
      if (d > tol) {
        printf("FAIL %s: index %d (x=%.9g y=%.9g z=%.9g): got %.9g, expected %.9g (%lld ulp > %d)\n",
               names[f], i, x[i], y[i], z[i], got, want, d, tol);
        return 1;
      }
    }
  }
  CHECK(cudaFree(dx)); CHECK(cudaFree(dy)); CHECK(cudaFree(dz)); CHECK(cudaFree(dout));
  free(x); free(y); free(z); free(out);
  return pass("math_funcs");
}
