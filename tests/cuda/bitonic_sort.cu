// bitonic_sort: each block sorts 1024 keys (with their original indices as
// payload, ties broken by index) in shared memory with a bitonic network;
// checked against qsort of each segment.
#include "check.h"

#define N 1024

struct item { unsigned key; unsigned idx; };

__device__ __host__ static bool less_item(item a, item b) {
  return a.key < b.key || (a.key == b.key && a.idx < b.idx);
}

__global__ void bitonic(item *data) {
  __shared__ item s[N];
  item *seg = data + blockIdx.x * N;
  for (int i = threadIdx.x; i < N; i += blockDim.x) s[i] = seg[i];
  __syncthreads();
  for (int k = 2; k <= N; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = threadIdx.x; i < N; i += blockDim.x) {
        int p = i ^ j;
        if (p > i) {
          bool up = (i & k) == 0;
          if (less_item(s[p], s[i]) == up) { item t = s[i]; s[i] = s[p]; s[p] = t; }
        }
      }
      __syncthreads();
    }
  for (int i = threadIdx.x; i < N; i += blockDim.x) seg[i] = s[i];
}

static int cmp_item(const void *a, const void *b) {
  item x = *(const item *)a, y = *(const item *)b;
  return less_item(x, y) ? -1 : less_item(y, x) ? 1 : 0;
}

int main(void) {
  const int segs = 24, n = segs * N;
  item *h = (item *)malloc(n * sizeof(item)), *want = (item *)malloc(n * sizeof(item));
  unsigned seed = 1;
  for (int i = 0; i < n; i++) {
    h[i].key = test_rand(&seed) % (i < N ? 50u : 100000u);   // segment 0: many ties
    h[i].idx = (unsigned)i;
  }
  memcpy(want, h, n * sizeof(item));
  for (int s = 0; s < segs; s++) qsort(want + s * N, N, sizeof(item), cmp_item);
  item *d;
  CHECK(cudaMalloc(&d, n * sizeof(item)));
  CHECK(cudaMemcpy(d, h, n * sizeof(item), cudaMemcpyHostToDevice));
  bitonic<<<segs, 256>>>(d);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h, d, n * sizeof(item), cudaMemcpyDeviceToHost));
  check_u32("sorted (key, idx) pairs", (unsigned *)h, (unsigned *)want, 2 * n);
  CHECK(cudaFree(d));
  free(h); free(want);
  return pass("bitonic_sort");
}
