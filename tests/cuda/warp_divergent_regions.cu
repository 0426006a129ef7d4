// warp_divergent_regions: warp collectives behind branches that split the
// block but not (or not only) the warp, written the way users write them:
//   - a block reduction whose second stage runs in the first `nwarps` warps
//     only (`if (warp < nwarps)`), its shuffle tree a loop (not unrolled);
//   - a grid-stride loop that threads leave at different trips, with a
//     __shfl_xor_sync over the lanes still in it (__activemask()), and one
//     with a full-mask __shfl_down_sync whose lanes past n have returned;
//   - early returns before __syncwarp() and a shared-memory exchange;
//   - an if/else with a __ballot_sync over each side's lanes (__activemask())
//     and a __match_any_sync in a loop with a per-lane trip count;
//   - a do-while loop with a per-lane trip count and no branch before it;
//   - block barriers on both sides of a branch on the block size, a shuffle
//     on one, and a store after the join.
// stdout: one line per part, then PASS.
#include "check.h"

#define FULL 0xffffffffu

// Stage 1: each warp sums its 32 values; stage 2: the first nwarps warps
// (a warp-uniform, block-divergent branch) each sum the per-warp partials of
// a quarter of the block, and warp 0 adds those.
__global__ void block_sums(const int *in, int *out, int n, int nwarps) {
  __shared__ int partial[32], quarter[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = i < n ? in[i] : 0;
#pragma unroll 1
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(FULL, v, off);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  int per = (blockDim.x / 32 + nwarps - 1) / nwarps;   // partials each stage-2 warp sums
  if (warp < nwarps) {
    int w = warp * per + lane;
    int s = lane < per && w < (int)(blockDim.x / 32) ? partial[w] : 0;
#pragma unroll 1
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(FULL, s, off);
    if (lane == 0) quarter[warp] = s;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int q = 0; q < nwarps; q++) t += quarter[q];
    out[blockIdx.x] = t;
  }
}

// Pairs of neighbouring elements, over the lanes still in the loop: a lane
// whose partner has left adds nothing.
__global__ void stride_pairs(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    unsigned m = __activemask();
    int lane = threadIdx.x & 31, v = in[i];
    int u = __shfl_xor_sync(m, v, 1);
    out[i] = (m >> (lane ^ 1) & 1u) ? v + u : v;
  }
}

// A warp sum per trip of a grid-stride loop; lanes past n have returned.
__global__ void stride_warp_sums(const int *in, int *out, int n) {
  int lane = threadIdx.x & 31, stride = blockDim.x * gridDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (; i < n; i += stride) {
    int live = n - (i - lane) < 32 ? n - (i - lane) : 32;   // lanes of this warp in this trip
    int v = in[i];
#pragma unroll 1
    for (int off = 16; off > 0; off >>= 1) {
      int t = __shfl_down_sync(FULL, v, off);
      if (lane + off < live) v += t;
    }
    if (lane == 0) out[i / 32] = v;
    if (i + stride >= n) return;   // the lanes that have no next trip leave
  }
}

// Early returns, then __syncwarp() orders a shared-memory exchange among the
// lanes left: each reads its neighbour's value if that lane is still there.
__global__ void exchange_after_return(const int *in, int *out, int n) {
  __shared__ int s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = in[i] * 3;
  __syncwarp();
  int j = i ^ 1;
  out[i] = j < n ? s[threadIdx.x ^ 1] : -1;
}

// If/else: a ballot over each side's lanes; then a loop whose trip count is
// lane % 4 + 1, with a match over the lanes in each trip.
__global__ void sides_and_trips(const int *pred, unsigned *out) {
  int lane = threadIdx.x & 31, t = threadIdx.x;
  unsigned *o = out + t * 6;
  int p = pred[t];
  if (lane < 20) {
    o[0] = __ballot_sync(__activemask(), p);
  } else {
    o[1] = __ballot_sync(__activemask(), !p);
  }
  int trips = lane % 4 + 1;
#pragma unroll 1
  for (int k = 0; k < trips; k++) {
    unsigned m = __activemask();
    o[2 + k] = __match_any_sync(m, (lane + k) / 8);
  }
}

// A do-while loop with a per-lane trip count ((lane & 3) + 1) and no branch
// before it: trip k runs in the lanes whose count exceeds k.
__global__ void dowhile_trips(unsigned *out) {
  int lane = threadIdx.x & 31, trips = (lane & 3) + 1, k = 0;
  unsigned *o = out + threadIdx.x * 4;
  do {
    o[k] = __activemask();
    k++;
  } while (k < trips);
}

// Block barriers on both sides of a branch on the block size (as in Numba's
// reduction), a warp reduction on one side, then thread 0 adds to what it
// stored before the join.
__global__ void uniform_sides(const int *in, int *out, int add) {
  __shared__ int s[128];
  int tid = threadIdx.x, lane = tid & 31;
  if (blockDim.x == 128) {
    s[tid] = in[tid];
    __syncthreads();
    if (tid < 32) {
      int v = s[tid] + s[tid + 32] + s[tid + 64] + s[tid + 96];
#pragma unroll 1
      for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(FULL, v, off);
      if (lane == 0) s[0] = v;
    }
    __syncthreads();
    if (tid == 0) out[blockIdx.x] = s[0];
  } else {
    s[tid] = in[tid] * 2;
    __syncthreads();
    if (tid == 0) {
      int t = 0;
      for (int k = 0; k < (int)blockDim.x; k++) t += s[k];
      out[blockIdx.x] = t;
    }
  }
  if (add && tid == 0 && blockIdx.x == 0) out[0] = out[0] + add;
}

int main(void) {
  unsigned seed = 2026;

  // block sums: 256 threads, nwarps 1, 2, 4 and 3 (the last: uneven quarters)
  {
    const int threads = 256, blocks = 37, n = threads * blocks - 77;
    int *in = (int *)malloc(n * sizeof(int)), want[blocks], got[blocks];
    for (int k = 0; k < n; k++) in[k] = (int)(test_rand(&seed) % 2001) - 1000;
    for (int b = 0; b < blocks; b++) {
      want[b] = 0;
      for (int k = b * threads; k < n && k < (b + 1) * threads; k++) want[b] += in[k];
    }
    int *din, *dout;
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMalloc(&dout, blocks * sizeof(int)));
    CHECK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
    const int nw[4] = {1, 2, 4, 3};
    for (int c = 0; c < 4; c++) {
      CHECK(cudaMemset(dout, 0, blocks * sizeof(int)));
      block_sums<<<blocks, threads>>>(din, dout, n, nw[c]);
      CHECK_LAUNCH();
      CHECK(cudaMemcpy(got, dout, blocks * sizeof(int), cudaMemcpyDeviceToHost));
      check_i32("block_sums", got, want, blocks);
    }
    long total = 0;
    for (int b = 0; b < blocks; b++) total += want[b];
    printf("block_sums: %d blocks, total %ld\n", blocks, total);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    free(in);
  }

  // grid-stride loops: n not a multiple of the grid, so the last trip is ragged
  {
    const int n = 5 * 3 * 96 + 61, blocks = 3, threads = 96;
    int *in = (int *)malloc(n * sizeof(int)), *got = (int *)malloc(n * sizeof(int));
    int *want = (int *)malloc(n * sizeof(int));
    for (int k = 0; k < n; k++) in[k] = (int)(test_rand(&seed) % 1000);
    for (int k = 0; k < n; k++) want[k] = (k ^ 1) < n ? in[k] + in[k ^ 1] : in[k];
    int *din, *dout;
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMalloc(&dout, n * sizeof(int)));
    CHECK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
    stride_pairs<<<blocks, threads>>>(din, dout, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    check_i32("stride_pairs", got, want, n);
    int nwarps = (n + 31) / 32;
    for (int w = 0; w < nwarps; w++) {
      want[w] = 0;
      for (int k = w * 32; k < n && k < w * 32 + 32; k++) want[w] += in[k];
    }
    CHECK(cudaMemset(dout, 0, n * sizeof(int)));
    stride_warp_sums<<<blocks, threads>>>(din, dout, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dout, nwarps * sizeof(int), cudaMemcpyDeviceToHost));
    check_i32("stride_warp_sums", got, want, nwarps);
    printf("grid-stride loops: n=%d, %d warp sums\n", n, nwarps);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    free(in);
    free(got);
    free(want);
  }

  // early returns: n = 200 in blocks of 64 (the last block has 8 live threads)
  {
    const int n = 200, blocks = 4, threads = 64;
    int in[n], got[n], want[n];
    for (int k = 0; k < n; k++) in[k] = k * 7 - 300;
    for (int k = 0; k < n; k++) want[k] = (k ^ 1) < n ? in[k ^ 1] * 3 : -1;
    int *din, *dout;
    CHECK(cudaMalloc(&din, sizeof in));
    CHECK(cudaMalloc(&dout, sizeof got));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    exchange_after_return<<<blocks, threads>>>(din, dout, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
    check_i32("exchange_after_return", got, want, n);
    printf("exchange_after_return: %d threads live of %d\n", n, blocks * threads);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
  }

  // if/else sides and per-lane trips: a block of 80 (a partial third warp)
  {
    const int n = 80;
    int pred[n];
    unsigned got[n * 6], want[n * 6];
    for (int k = 0; k < n; k++) pred[k] = (k * 5 + k / 32) % 3 == 0;
    for (int k = 0; k < n * 6; k++) want[k] = 0xdeadbeefu;
    for (int t = 0; t < n; t++) {
      int base = t / 32 * 32, lane = t % 32, live = n - base < 32 ? n - base : 32;
      unsigned *o = want + t * 6;
      unsigned b = 0;
      for (int l = 0; l < live; l++)
        if (lane < 20 ? (l < 20 && pred[base + l]) : (l >= 20 && !pred[base + l])) b |= 1u << l;
      o[lane < 20 ? 0 : 1] = b;
      for (int k = 0; k < lane % 4 + 1; k++) {
        unsigned m = 0;
        for (int l = 0; l < live; l++)
          if (l % 4 + 1 > k && (l + k) / 8 == (lane + k) / 8) m |= 1u << l;
        o[2 + k] = m;
      }
    }
    int *dp;
    unsigned *dout;
    CHECK(cudaMalloc(&dp, sizeof pred));
    CHECK(cudaMalloc(&dout, sizeof got));
    CHECK(cudaMemcpy(dp, pred, sizeof pred, cudaMemcpyHostToDevice));
    for (int k = 0; k < n * 6; k++) got[k] = 0xdeadbeefu;   // the slots a thread does not write keep it
    CHECK(cudaMemcpy(dout, got, sizeof got, cudaMemcpyHostToDevice));
    sides_and_trips<<<1, n>>>(dp, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
    check_u32("sides_and_trips (thread * 6 + slot)", got, want, n * 6);
    printf("sides_and_trips: warp 2 lane 0: ballot 0x%08x, trip 0 match 0x%08x\n", got[64 * 6], got[64 * 6 + 2]);
    CHECK(cudaFree(dp));
    CHECK(cudaFree(dout));
  }
  // a do-while loop with per-lane trips: a block of 48 (16 lanes in warp 1)
  {
    const int n = 48;
    unsigned got[n * 4], want[n * 4], *dout;
    for (int k = 0; k < n * 4; k++) want[k] = got[k] = 0xdeadbeefu;
    for (int t = 0; t < n; t++) {
      int base = t / 32 * 32, live = n - base < 32 ? n - base : 32;
      for (int k = 0; k < (t % 32 & 3) + 1; k++) {
        unsigned m = 0;
        for (int l = 0; l < live; l++)
          if ((l & 3) + 1 > k) m |= 1u << l;
        want[t * 4 + k] = m;
      }
    }
    CHECK(cudaMalloc(&dout, sizeof got));
    CHECK(cudaMemcpy(dout, got, sizeof got, cudaMemcpyHostToDevice));
    dowhile_trips<<<1, n>>>(dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
    check_u32("dowhile_trips (thread * 4 + trip)", got, want, n * 4);
    printf("dowhile_trips: warp 1 lane 3, trip 3: 0x%08x\n", got[35 * 4 + 3]);
    CHECK(cudaFree(dout));
  }

  // barriers on both sides of a branch on the block size, then a store after the join
  {
    int in[128], got = 0, *din, *dout;
    for (int k = 0; k < 128; k++) in[k] = k * 3 - 100;
    CHECK(cudaMalloc(&din, sizeof in));
    CHECK(cudaMalloc(&dout, sizeof(int)));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    const int shapes[2] = {128, 64};
    for (int c = 0; c < 4; c++) {
      int threads = shapes[c & 1], add = c >> 1 ? 7 : 0, want = add;
      for (int k = 0; k < threads; k++) want += threads == 128 ? in[k] : 2 * in[k];
      uniform_sides<<<1, threads>>>(din, dout, add);
      CHECK_LAUNCH();
      CHECK(cudaMemcpy(&got, dout, sizeof(int), cudaMemcpyDeviceToHost));
      check_i32("uniform_sides", &got, &want, 1);
    }
    printf("uniform_sides: 4 launches\n");
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
  }
  return pass("warp_divergent_regions");
}
