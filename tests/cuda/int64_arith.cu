// int64_arith: 64-bit integer arithmetic -- signed and unsigned multiply,
// divide, remainder, shifts, high halves of products, bit counts and
// reversal, and mixed 32/64-bit conversions.
#include "check.h"

#define NOPS 16

__host__ __device__ static unsigned long long brev64(unsigned long long v) {
  unsigned long long r = 0;
  for (int k = 0; k < 64; k++) r |= ((v >> k) & 1ull) << (63 - k);
  return r;
}

static unsigned long long host_umulhi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
static long long host_mulhi(long long a, long long b) {
  return (long long)(((__int128)a * b) >> 64);
}
static int host_clz(unsigned long long v) { return v ? __builtin_clzll(v) : 64; }

__global__ void ops(const unsigned long long *a, const unsigned long long *b,
                    unsigned long long *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long x = a[i], y = b[i] | 1;
  long long sx = (long long)x, sy = (long long)y;
  unsigned long long *o = out + (size_t)i * NOPS;
  o[0] = x * y;
  o[1] = x / y;
  o[2] = x % y;
  o[3] = (unsigned long long)(sx / sy);
  o[4] = (unsigned long long)(sx % sy);
  o[5] = x << (y & 63);
  o[6] = x >> (y & 63);
  o[7] = (unsigned long long)(sx >> (y & 63));
  o[8] = __umul64hi(x, y);
  o[9] = (unsigned long long)__mul64hi(sx, sy);
  o[10] = (unsigned long long)__clzll((long long)(x >> (y & 63)));
  o[11] = (unsigned long long)__popcll(x);
  o[12] = (unsigned long long)__ffsll((long long)(x & (x << 7)));
  o[13] = __brevll(x);
  o[14] = (unsigned long long)(long long)(int)(x ^ y) + (unsigned long long)(unsigned)(x >> 32);
  o[15] = (x > y) + 2 * (sx < sy) + 4 * (x == y);
}

int main(void) {
  const int n = 5000;
  unsigned long long *a = (unsigned long long *)malloc(n * 8), *b = (unsigned long long *)malloc(n * 8);
  unsigned long long *got = (unsigned long long *)malloc(n * NOPS * 8);
  unsigned long long *want = (unsigned long long *)malloc(n * NOPS * 8);
  unsigned seed = 555;
  for (int i = 0; i < n; i++) {
    a[i] = ((unsigned long long)test_rand(&seed) << 32) | test_rand(&seed);
    b[i] = i % 3 == 0 ? (unsigned long long)(test_rand(&seed) % 1000)
                      : ((unsigned long long)test_rand(&seed) << (i % 32)) | test_rand(&seed);
    if (i % 11 == 0) b[i] = (unsigned long long)-(long long)(test_rand(&seed) % 100);  // negative
    if (i == 1) { a[i] = 0x8000000000000000ull; b[i] = 0xffffffffffffffffull; }       // INT64_MIN / -1 region
  }
  for (int i = 0; i < n; i++) {
    unsigned long long x = a[i], y = b[i] | 1;
    long long sx = (long long)x, sy = (long long)y;
    unsigned long long *o = want + (size_t)i * NOPS;
    o[0] = x * y;
    o[1] = x / y;
    o[2] = x % y;
    // INT64_MIN / -1 overflows in C; PTX div.s64 defines the result as the
    // dividend (and rem 0), which is what we expect here.
    o[3] = (sx == (long long)0x8000000000000000ull && sy == -1) ? x : (unsigned long long)(sx / sy);
    o[4] = (sx == (long long)0x8000000000000000ull && sy == -1) ? 0 : (unsigned long long)(sx % sy);
    o[5] = x << (y & 63);
    o[6] = x >> (y & 63);
    o[7] = (unsigned long long)(sx >> (y & 63));
    o[8] = host_umulhi(x, y);
    o[9] = (unsigned long long)host_mulhi(sx, sy);
    o[10] = (unsigned long long)host_clz(x >> (y & 63));
    o[11] = (unsigned long long)__builtin_popcountll(x);
    o[12] = (unsigned long long)__builtin_ffsll((long long)(x & (x << 7)));
    o[13] = brev64(x);
    o[14] = (unsigned long long)(long long)(int)(x ^ y) + (unsigned long long)(unsigned)(x >> 32);
    o[15] = (x > y) + 2 * (sx < sy) + 4 * (x == y);
  }
  unsigned long long *da, *db, *dout;
  CHECK(cudaMalloc(&da, n * 8));
  CHECK(cudaMalloc(&db, n * 8));
  CHECK(cudaMalloc(&dout, n * NOPS * 8));
  CHECK(cudaMemcpy(da, a, n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b, n * 8, cudaMemcpyHostToDevice));
  ops<<<(n + 255) / 256, 256>>>(da, db, dout, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, dout, n * NOPS * 8, cudaMemcpyDeviceToHost));
  check_u64("ops (element*16 + op)", got, want, n * NOPS);
  CHECK(cudaFree(da)); CHECK(cudaFree(db)); CHECK(cudaFree(dout));
  free(a); free(b); free(got); free(want);
  return pass("int64_arith");
}
