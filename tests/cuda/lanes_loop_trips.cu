// lanes_loop_trips: loops whose trips the CPU backend may run back to back
// without its dispatcher (a grid-stride body that is one run of per-lane
// instructions and branches back to itself), written the ways people write
// them: for, while and do-while; trip counts that end together, that end one
// trip apart inside a block, that differ from block to block and that are
// zero for some threads; 1-D and 2-D blocks and grids; shared-memory atomics
// inside the loop (bins at data-dependent and at per-thread addresses). Every
// result is order-sensitive within a thread (float sums, a hash chain) or
// order-free across threads (the atomics' integers) and is checked exactly
// against the host, as is each thread's trip count.
#include "check.h"

// A thread's float sum and its trip count: for.
__global__ void sum_trips(const float *x, float *sums, int *trips, int n) {
  int g = (blockIdx.y * gridDim.x + blockIdx.x) * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x;
  int stride = gridDim.x * gridDim.y * blockDim.x * blockDim.y;
  float s = 0.0f;
  int t = 0;
  for (int i = g; i < n; i += stride, t++) s += x[i];
  sums[g] = s;
  trips[g] = t;
}

// An integer hash chain: while.
__global__ void hash_while(const int *x, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int g = i;
  unsigned h = 2166136261u;
  while (i < n) {
    h = (h ^ (unsigned)x[i]) * 16777619u;
    i += blockDim.x * gridDim.x;
  }
  out[g] = h;
}

// do-while, the test at the bottom and inverted (it runs once even past n: the host keeps x
// long enough).
__global__ void scale_do(const float *x, float *y, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 1.0f;
  do {
    s = fmaf(s, a, x[i]);
    i += blockDim.x * gridDim.x;
  } while (!(i >= n));
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// A block-stride loop whose length depends on the block: the blocks of one run of lanes end
// on different trips, and the last block's threads do not loop at all.
__global__ void per_block(const float *x, float *out, int per) {
  int len = per - (int)blockIdx.x * 37;
  float s = 0.0f;
  for (int i = threadIdx.x; i < len; i += blockDim.x) s = fmaf(x[blockIdx.x * per + i], (float)(i & 7), s);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// Two streams walked in step and a store in the loop: y[i] = x[i] * x[i + k] + y[i].
__global__ void two_streams(const float *x, float *y, int n, int k) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = fmaf(x[i], x[i + k], y[i]);
}

// Shared-memory atomics in a grid-stride loop: 32- and 64-bit add, min, max, or, xor and a CAS
// loop (a max by compare-and-swap) at bins the data picks, and an add at the thread's own bin;
// float adds of small integers (exact in any order). Then each block's bins go to global memory.
#define NBINS 64
__global__ void shared_bins(const int *x, int n, unsigned *out32, unsigned long long *out64, float *outf) {
  __shared__ unsigned add[NBINS], mn[NBINS], mx[NBINS], orr[NBINS], xr[NBINS], cas[NBINS], own[256];
  __shared__ unsigned long long add64[NBINS];
  __shared__ float fadd[NBINS];
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) {
    add[b] = 0; mn[b] = 0xffffffffu; mx[b] = 0; orr[b] = 0; xr[b] = 0; cas[b] = 0; add64[b] = 0; fadd[b] = 0.0f;
  }
  own[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    unsigned v = (unsigned)x[i], b = v % NBINS;
    atomicAdd(&add[b], v >> 20);
    atomicMin(&mn[b], v);
    atomicMax(&mx[(b * 7) % NBINS], v);
    atomicOr(&orr[v >> 26], 1u << (v & 31));
    atomicXor(&xr[(v >> 8) % NBINS], v);
    atomicAdd(&add64[b], (unsigned long long)v * 3u);
    atomicAdd(&fadd[(v >> 4) % NBINS], (float)(v & 15));
    unsigned old = cas[b], seen;
    while (old < (v >> 1) && (seen = atomicCAS(&cas[b], old, v >> 1)) != old) old = seen;
    atomicAdd(&own[threadIdx.x], v & 0xff);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) {
    unsigned *o = out32 + ((size_t)blockIdx.x * 6 * NBINS);
    o[b] = add[b]; o[NBINS + b] = mn[b]; o[2 * NBINS + b] = mx[b]; o[3 * NBINS + b] = orr[b];
    o[4 * NBINS + b] = xr[b]; o[5 * NBINS + b] = cas[b];
    out64[(size_t)blockIdx.x * NBINS + b] = add64[b];
    outf[(size_t)blockIdx.x * NBINS + b] = fadd[b];
  }
  out32[(size_t)gridDim.x * 6 * NBINS + blockIdx.x * blockDim.x + threadIdx.x] = own[threadIdx.x];
}

static int check_shared_bins(const int *hi, const int *di, int n, int blocks, int threads) {
  size_t n32 = (size_t)blocks * 6 * NBINS + (size_t)blocks * threads, n64 = (size_t)blocks * NBINS;
  unsigned *d32, *h32 = (unsigned *)malloc(n32 * 4), *w32 = (unsigned *)calloc(n32, 4);
  unsigned long long *d64, *h64 = (unsigned long long *)malloc(n64 * 8), *w64 = (unsigned long long *)calloc(n64, 8);
  float *dfl, *hfl = (float *)malloc(n64 * 4), *wfl = (float *)calloc(n64, 4);
  CHECK(cudaMalloc(&d32, n32 * 4));
  CHECK(cudaMalloc(&d64, n64 * 8));
  CHECK(cudaMalloc(&dfl, n64 * 4));
  shared_bins<<<blocks, threads>>>(di, n, d32, d64, dfl);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h32, d32, n32 * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h64, d64, n64 * 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hfl, dfl, n64 * 4, cudaMemcpyDeviceToHost));
  for (int k = 0; k < blocks; k++) {
    unsigned *o = w32 + (size_t)k * 6 * NBINS;
    for (int b = 0; b < NBINS; b++) o[NBINS + b] = 0xffffffffu;
  }
  for (int i = 0; i < n; i++) {
    int g = i % (blocks * threads), k = g / threads, t = g % threads;
    unsigned v = (unsigned)hi[i], b = v % NBINS, *o = w32 + (size_t)k * 6 * NBINS;
    o[b] += v >> 20;
    if (v < o[NBINS + b]) o[NBINS + b] = v;
    if (v > o[2 * NBINS + (b * 7) % NBINS]) o[2 * NBINS + (b * 7) % NBINS] = v;
    o[3 * NBINS + (v >> 26)] |= 1u << (v & 31);
    o[4 * NBINS + (v >> 8) % NBINS] ^= v;
    if ((v >> 1) > o[5 * NBINS + b]) o[5 * NBINS + b] = v >> 1;
    w64[(size_t)k * NBINS + b] += (unsigned long long)v * 3u;
    wfl[(size_t)k * NBINS + (v >> 4) % NBINS] += (float)(v & 15);
    w32[(size_t)blocks * 6 * NBINS + (size_t)k * threads + t] += v & 0xff;
  }
  int bad = memcmp(h32, w32, n32 * 4) || memcmp(h64, w64, n64 * 8) || memcmp(hfl, wfl, n64 * 4);
  if (bad) {
    for (size_t i = 0; i < n32; i++)
      if (h32[i] != w32[i]) { printf("FAIL shared_bins (%d x %d) word %zu: %08x, expected %08x\n", blocks, threads, i, h32[i], w32[i]); break; }
    for (size_t i = 0; i < n64; i++)
      if (h64[i] != w64[i] || hfl[i] != wfl[i]) {
        printf("FAIL shared_bins (%d x %d) bin %zu: %llu %a, expected %llu %a\n", blocks, threads, i, h64[i], hfl[i], w64[i], wfl[i]);
        break;
      }
  }
  CHECK(cudaFree(d32));
  CHECK(cudaFree(d64));
  CHECK(cudaFree(dfl));
  free(h32); free(w32); free(h64); free(w64); free(hfl); free(wfl);
  return bad;
}

static float *to_device(const void *h, size_t bytes) {
  float *d;
  CHECK(cudaMalloc(&d, bytes));
  CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
  return d;
}

static int check_sum_trips(const float *hx, const float *dx, int n, dim3 grid, dim3 block) {
  int threads = (int)(grid.x * grid.y * block.x * block.y);
  float *ds, *hs = (float *)malloc(threads * sizeof(float));
  int *dt, *ht = (int *)malloc(threads * sizeof(int));
  CHECK(cudaMalloc(&ds, threads * sizeof(float)));
  CHECK(cudaMalloc(&dt, threads * sizeof(int)));
  sum_trips<<<grid, block>>>(dx, ds, dt, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hs, ds, threads * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ht, dt, threads * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int g = 0; g < threads && !bad; g++) {
    float s = 0.0f;
    int t = 0;
    for (int i = g; i < n; i += threads, t++) s += hx[i];
    if (hs[g] != s || ht[g] != t) {
      printf("FAIL sum_trips n=%d grid %ux%u block %ux%u thread %d: %a in %d trips, expected %a in %d\n", n, grid.x,
             grid.y, block.x, block.y, g, hs[g], ht[g], s, t);
      bad = 1;
    }
  }
  CHECK(cudaFree(ds));
  CHECK(cudaFree(dt));
  free(hs);
  free(ht);
  return bad;
}

int main(void) {
  const int n = 1 << 20, pad = 1 << 16;
  float *hx = (float *)malloc((n + pad) * sizeof(float));
  int *hi = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n + pad; i++) hx[i] = (float)((i * 2654435761u) >> 20) * 0.0078125f - 2.0f;
  for (int i = 0; i < n; i++) hi[i] = (int)(i * 2246822519u);
  float *dx = to_device(hx, (n + pad) * sizeof(float));
  int *di = (int *)to_device(hi, n * sizeof(int));

  // for: trips that end together (n a multiple of the grid), one trip apart, and a thread
  // count above n (threads that never loop). The first shape is the one a tiered build makes
  // the kernel hot with (its lanes entry then has a copy for 32 x 4 blocks), the rest differ.
  struct { int n; dim3 grid, block; } cases[] = {
      {n / 3, dim3(13, 3), dim3(32, 4)},   {n, dim3(64), dim3(256)},
      {n - 1000, dim3(64), dim3(256)},     {n - 3, dim3(37), dim3(96)},
      {5000, dim3(8), dim3(1024)},         {300, dim3(2), dim3(192)},
      {n / 2 + 77, dim3(1), dim3(64)},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    if (check_sum_trips(hx, dx, cases[c].n, cases[c].grid, cases[c].block)) return 1;

  // while: a hash chain per thread
  {
    const int blocks = 48, threads = 128, m = n - 12345;
    unsigned *dout, *hout = (unsigned *)malloc(blocks * threads * sizeof(unsigned));
    CHECK(cudaMalloc(&dout, blocks * threads * sizeof(unsigned)));
    hash_while<<<blocks, threads>>>(di, dout, m);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hout, dout, blocks * threads * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int g = 0; g < blocks * threads; g++) {
      unsigned h = 2166136261u;
      for (int i = g; i < m; i += blocks * threads) h = (h ^ (unsigned)hi[i]) * 16777619u;
      if (hout[g] != h) {
        printf("FAIL hash_while thread %d: %08x, expected %08x\n", g, hout[g], h);
        return 1;
      }
    }
    CHECK(cudaFree(dout));
    free(hout);
  }

  // do-while, inverted test: runs once past n for threads beyond it
  {
    const int blocks = 40, threads = 256, m = n / 4 + 999;
    const float a = 0.75f;
    float *dy, *hy = (float *)malloc(blocks * threads * sizeof(float));
    CHECK(cudaMalloc(&dy, blocks * threads * sizeof(float)));
    scale_do<<<blocks, threads>>>(dx, dy, m, a);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hy, dy, blocks * threads * sizeof(float), cudaMemcpyDeviceToHost));
    for (int g = 0; g < blocks * threads; g++) {
      float s = 1.0f;
      int i = g;
      do {
        s = fmaf(s, a, hx[i]);
        i += blocks * threads;
      } while (!(i >= m));
      if (hy[g] != s) {
        printf("FAIL scale_do thread %d: %a, expected %a\n", g, hy[g], s);
        return 1;
      }
    }
    CHECK(cudaFree(dy));
    free(hy);
  }

  // block-stride loops of per-block length
  {
    const int blocks = 24, threads = 128, per = 900;
    float *dout, *hout = (float *)malloc(blocks * threads * sizeof(float));
    CHECK(cudaMalloc(&dout, blocks * threads * sizeof(float)));
    per_block<<<blocks, threads>>>(dx, dout, per);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hout, dout, blocks * threads * sizeof(float), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
      for (int t = 0; t < threads; t++) {
        float s = 0.0f;
        for (int i = t; i < per - b * 37; i += threads) s = fmaf(hx[b * per + i], (float)(i & 7), s);
        if (hout[b * threads + t] != s) {
          printf("FAIL per_block block %d thread %d: %a, expected %a\n", b, t, hout[b * threads + t], s);
          return 1;
        }
      }
    CHECK(cudaFree(dout));
    free(hout);
  }

  // two streams in step, a store each trip
  {
    const int m = n - 513, k = 4099;
    float *hy = (float *)malloc(m * sizeof(float)), *want = (float *)malloc(m * sizeof(float));
    for (int i = 0; i < m; i++) want[i] = hy[i] = (float)(i % 101) * 0.25f;
    float *dy = to_device(hy, m * sizeof(float));
    two_streams<<<96, 256>>>(dx, dy, m, k);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hy, dy, m * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++) {
      want[i] = fmaf(hx[i], hx[i + k], want[i]);
      if (hy[i] != want[i]) {
        printf("FAIL two_streams %d: %a, expected %a\n", i, hy[i], want[i]);
        return 1;
      }
    }
    CHECK(cudaFree(dy));
    free(hy);
    free(want);
  }

  // shared-memory atomics in the loop: trips ending together, one apart, and not at all
  if (check_shared_bins(hi, di, n, 32, 256) || check_shared_bins(hi, di, n - 77, 24, 128) ||
      check_shared_bins(hi, di, 3000, 16, 256))
    return 1;

  CHECK(cudaFree(dx));
  CHECK(cudaFree(di));
  free(hx);
  free(hi);
  printf("PASS lanes_loop_trips\n");
  return 0;
}
