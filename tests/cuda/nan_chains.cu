// nan_chains: NaNs made and carried through float arithmetic the way real
// kernels do (a dot product with one bad element, a loop accumulator, a
// product of inf and 0 fed to fma, sqrt and add), then seen in ways that show
// their bits: stored, negated, made absolute, reinterpreted as an integer,
// shuffled, and in ways that do not (compared, min/max). The H200's rule: every
// f32 arithmetic result that is NaN is 0x7fffffff, whatever the operands'
// NaNs were (quiet with a payload, negative, signalling), neg.f32 and abs.f32
// included (docs/ptx-conformance.md). Checked bit for bit against that rule.
#include "check.h"

#define N 256

__device__ __forceinline__ float ld(const float *p, int i) { return p[i]; }

// out[0..7][t]: the ways a NaN made by arithmetic is seen.
__global__ void seen(const float *a, const float *b, const float *c, unsigned *out) {
  int t = threadIdx.x;
  float x = ld(a, t) * ld(b, t);                  // NaN where a is inf and b is 0, or either is NaN
  float y = fmaf(x, ld(c, t), 1.0f);              // through fma
  float z = sqrtf(y + 2.0f) - 0.5f;               // add, sqrt, sub
  out[0 * N + t] = __float_as_uint(z);            // stored
  out[1 * N + t] = __float_as_uint(-sqrtf(x * 3.0f));  // negated (a negated product nvcc folds into mul)
  out[2 * N + t] = __float_as_uint(fabsf(x + 1.0f));
  out[3 * N + t] = __float_as_uint(x * 2.0f) ^ 0x12345678u;   // reinterpreted
  out[4 * N + t] = __float_as_uint(fmaxf(y, 0.25f));          // max: the other operand
  out[5 * N + t] = z != z;                                     // compared
  out[6 * N + t] = __float_as_uint(__shfl_xor_sync(0xffffffffu, y * 1.5f, 1));
  out[7 * N + t] = __float_as_uint(-fabsf(z));                 // abs then neg of a carried NaN
}

// A dot product per thread with a NaN somewhere in its inputs, and a loop accumulator.
__global__ void dots(const float *a, const float *b, unsigned *out, int n) {
  int t = threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < n; k++) s = fmaf(a[(t + k) % N], b[(t * 7 + k) % N], s);
  out[t] = __float_as_uint(s);
  float acc = 1.0f;
  for (int k = 0; k < 8; k++) acc = fmaf(acc, 0.5f, a[(t + k) % N]);
  out[N + t] = __float_as_uint(-acc);
}

static float f_of(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
static unsigned u_of(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
// An arithmetic result as CUDA gives it: NaN is 0x7fffffff.
static unsigned cn(float f) { return f != f ? 0x7fffffffu : u_of(f); }
static float cf(float f) { return f_of(cn(f)); }

int main(void) {
  float ha[N], hb[N], hc[N];
  const unsigned nans[4] = {0x7fc12345u, 0xffc00000u, 0x7f800001u, 0xff912345u};
  for (int i = 0; i < N; i++) {
    ha[i] = (float)(i % 13) * 0.25f - 1.0f;
    hb[i] = (float)(i % 7) * 0.5f + 0.125f;
    hc[i] = (float)(i % 5) - 2.0f;
    if (i % 9 == 0) ha[i] = INFINITY, hb[i] = 0.0f;   // inf * 0
    if (i % 11 == 3) ha[i] = f_of(nans[i % 4]);        // NaNs with payloads and signs
    if (i % 17 == 5) hc[i] = -INFINITY;
  }
  float *da, *db, *dc;
  unsigned *dout, hout[8 * N];
  CHECK(cudaMalloc(&da, sizeof ha));
  CHECK(cudaMalloc(&db, sizeof hb));
  CHECK(cudaMalloc(&dc, sizeof hc));
  CHECK(cudaMalloc(&dout, sizeof hout));
  CHECK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, hc, sizeof hc, cudaMemcpyHostToDevice));

  seen<<<1, N>>>(da, db, dc, dout);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
  int nan_seen = 0;
  for (int t = 0; t < N; t++) {
    float x = cf(ha[t] * hb[t]);
    float y = cf(fmaf(x, hc[t], 1.0f));
    float z = cf(cf(sqrtf(cf(y + 2.0f))) - 0.5f);
    float y2 = cf(y * 1.5f), y2p = cf(cf(fmaf(cf(ha[t ^ 1] * hb[t ^ 1]), hc[t ^ 1], 1.0f)) * 1.5f);
    (void)y2;
    unsigned want[8] = {
        cn(z),
        cn(-cf(sqrtf(cf(x * 3.0f)))),
        cn(fabsf(cf(x + 1.0f))),
        cn(x * 2.0f) ^ 0x12345678u,
        y != y ? u_of(0.25f) : u_of(y > 0.25f ? y : 0.25f),
        z != z,
        u_of(y2p),
        cn(-cf(fabsf(z))),
    };
    nan_seen += z != z;
    for (int k = 0; k < 8; k++)
      if (hout[k * N + t] != want[k]) {
        printf("FAIL seen[%d] thread %d: %08x, expected %08x\n", k, t, hout[k * N + t], want[k]);
        return 1;
      }
  }

  const int n = 3;
  dots<<<1, N>>>(da, db, dout, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hout, dout, 2 * N * sizeof(unsigned), cudaMemcpyDeviceToHost));
  int nan_dots = 0;
  for (int t = 0; t < N; t++) {
    float s = 0.0f, acc = 1.0f;
    for (int k = 0; k < n; k++) s = cf(fmaf(ha[(t + k) % N], hb[(t * 7 + k) % N], s));
    for (int k = 0; k < 8; k++) acc = cf(fmaf(acc, 0.5f, ha[(t + k) % N]));
    nan_dots += s != s;
    if (hout[t] != u_of(s) || hout[N + t] != cn(-acc)) {
      printf("FAIL dots thread %d: %08x %08x, expected %08x %08x\n", t, hout[t], hout[N + t], u_of(s),
             cn(-acc));
      return 1;
    }
  }
  if (nan_seen == 0 || nan_seen == N || nan_dots == 0 || nan_dots == N) {
    printf("FAIL the inputs made NaNs in %d and %d of %d threads: not a test of both\n", nan_seen, nan_dots, N);
    return 1;
  }
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  CHECK(cudaFree(dout));
  printf("PASS nan_chains\n");
  return 0;
}
