// noinline_calls: __noinline__ device functions taking scalars, pointers and
// structs by value, returning structs, and calling each other.
#include "check.h"

struct vec3 { float x, y, z; };
struct pair64 { long long lo; long long hi; };

__device__ __noinline__ vec3 cross(vec3 a, vec3 b) {
  vec3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
  return r;
}

__device__ __noinline__ int clamp_add(int a, int b, int lo, int hi) {
  int s = a + b;
  return s < lo ? lo : s > hi ? hi : s;
}

__device__ __noinline__ void accumulate(int *dst, const int *src, int n) {
  for (int k = 0; k < n; k++) dst[k] += clamp_add(src[k], k, -10, 10);
}

__device__ __noinline__ pair64 split(long long v, int shift) {
  pair64 p = {v & ((1ll << shift) - 1), v >> shift};
  return p;
}

__global__ void run(const vec3 *a, const vec3 *b, vec3 *c, int *acc, pair64 *pairs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  c[i] = cross(a[i], b[i]);
  int local[4] = {i % 5, -(i % 13), i % 3, 20 - i % 40};
  acc[i * 4 + 0] = acc[i * 4 + 1] = acc[i * 4 + 2] = acc[i * 4 + 3] = 0;
  accumulate(&acc[i * 4], local, 4);
  pairs[i] = split((long long)i * 1000003ll - 7, 13 + i % 9);
}

int main(void) {
  const int n = 1000;
  vec3 *a = (vec3 *)malloc(n * sizeof(vec3)), *b = (vec3 *)malloc(n * sizeof(vec3));
  vec3 *c = (vec3 *)malloc(n * sizeof(vec3)), *wc = (vec3 *)malloc(n * sizeof(vec3));
  int *acc = (int *)malloc(n * 16), *wacc = (int *)malloc(n * 16);
  pair64 *pairs = (pair64 *)malloc(n * sizeof(pair64)), *wp = (pair64 *)malloc(n * sizeof(pair64));
  for (int i = 0; i < n; i++) {
    a[i] = (vec3){(float)(i % 7), (float)(i % 5 - 2), (float)(i % 3)};
    b[i] = (vec3){(float)(i % 4 - 1), (float)(i % 6), (float)(2 - i % 9)};
    wc[i] = (vec3){a[i].y * b[i].z - a[i].z * b[i].y, a[i].z * b[i].x - a[i].x * b[i].z,
                   a[i].x * b[i].y - a[i].y * b[i].x};
    int local[4] = {i % 5, -(i % 13), i % 3, 20 - i % 40};
    for (int k = 0; k < 4; k++) {
      int s = local[k] + k;
      wacc[i * 4 + k] = s < -10 ? -10 : s > 10 ? 10 : s;
    }
    long long v = (long long)i * 1000003ll - 7;
    int shift = 13 + i % 9;
    wp[i].lo = v & ((1ll << shift) - 1);
    wp[i].hi = v >> shift;
  }
  vec3 *da, *db, *dc;
  int *dacc;
  pair64 *dp;
  CHECK(cudaMalloc(&da, n * sizeof(vec3)));
  CHECK(cudaMalloc(&db, n * sizeof(vec3)));
  CHECK(cudaMalloc(&dc, n * sizeof(vec3)));
  CHECK(cudaMalloc(&dacc, n * 16));
  CHECK(cudaMalloc(&dp, n * sizeof(pair64)));
  CHECK(cudaMemcpy(da, a, n * sizeof(vec3), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b, n * sizeof(vec3), cudaMemcpyHostToDevice));
  run<<<(n + 127) / 128, 128>>>(da, db, dc, dacc, dp, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(c, dc, n * sizeof(vec3), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(acc, dacc, n * 16, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(pairs, dp, n * sizeof(pair64), cudaMemcpyDeviceToHost));
  check_f32_exact("cross", (float *)c, (float *)wc, n * 3);
  check_i32("accumulate", acc, wacc, n * 4);
  check_i64("split", (long long *)pairs, (long long *)wp, n * 2);
  CHECK(cudaFree(da)); CHECK(cudaFree(db)); CHECK(cudaFree(dc));
  CHECK(cudaFree(dacc)); CHECK(cudaFree(dp));
  free(a); free(b); free(c); free(wc); free(acc); free(wacc); free(pairs); free(wp);
  return pass("noinline_calls");
}
