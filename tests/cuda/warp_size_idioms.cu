// warp_size_idioms.cu: warp code as people write it, in two kinds.
//
// W kernels are written with warpSize (lane = threadIdx.x % warpSize, shared
// memory sized blockDim.x / warpSize, reductions starting at warpSize / 2,
// shuffles within the warp or within 16-lane segments): their results are
// the same for 32- and 64-lane warps, and are checked against the host at
// any width.
//
// H kernels hard-code 32 the classic way (ballot popcounts, a warp-aggregated
// atomic whose leader is __ffs(__activemask()) - 1, __shfl_sync(~0u, v, 0)
// broadcasts, tid / 32 warp ids): on NVIDIA's 32-lane warps they are
// correct, and checked; under cubridge's 64-lane warps (CUBRIDGE_WARP_SIZE=64,
// docs/cpu-backend.md "64-lane warps") they print what such code gives there,
// which warp_size_idioms.w64.expected pins (derivations in that section of
// the docs).
//
// stdout: "warpSize N", one line per kernel, "PASS warp_size_idioms"; exit 0
// when every checked result is right.
#include "check.h"

#define N 512        // elements: 2 blocks of 256 threads
#define BLOCK 256

__device__ __forceinline__ unsigned lane_id() {
  unsigned l;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}

// ---- written with warpSize ------------------------------------------------

// W1: block sums: a warp reduction from warpSize / 2, partial sums in shared
// memory sized by the launch (blockDim.x / warpSize ints), then warp 0.
__global__ void ws_block_sum(const int *x, int *sums) {
  extern __shared__ int part[];
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  int v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (lane == 0) part[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int nwarps = blockDim.x / warpSize;
    v = lane < nwarps ? part[lane] : 0;
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) sums[blockIdx.x] = v;
  }
}

// W2: shuffles within the warp: a broadcast of the warp's number from lane
// 0, a rotation by one lane, and %laneid against threadIdx.x % warpSize.
__global__ void ws_shuffles(const int *x, int *bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  int b = __shfl_sync(0xffffffffu, warp, 0);
  int r = __shfl_sync(0xffffffffu, x[i], (lane + 1) % warpSize);
  int want_r = x[i - lane + (lane + 1) % warpSize];
  int wrong = (b != warp) + (r != want_r) + (lane_id() != (unsigned)lane);
  if (wrong) atomicAdd(bad, wrong);
}

// W3: sums over 16-lane segments (width 16): the same groups at any warp size.
__global__ void ws_segment16(const int *x, int *seg) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = x[i];
  for (int o = 8; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o, 16);
  seg[i] = v;
}

// W4: a whole-warp vote: every lane is in range, so __all_sync holds everywhere.
__global__ void ws_vote_all(const int *x, int *bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (!__all_sync(0xffffffffu, x[i] >= -6 && x[i] <= 12)) atomicAdd(bad, 1);
}

// ---- written for 32 lanes -----------------------------------------------------

// H1: count the positive elements: each warp's lane 0 adds its ballot's popcount.
__global__ void h_ballot_count(const int *x, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned m = __ballot_sync(0xffffffffu, x[i] > 0);
  if ((threadIdx.x & 31) == 0) atomicAdd(count, __popc(m));
}

// H2: each lane takes its warp's number (tid / 32) from lane 0.
__global__ void h_broadcast_tid32(int *out) {
  int w = threadIdx.x / 32;
  out[blockIdx.x * blockDim.x + threadIdx.x] = __shfl_sync(0xffffffffu, w, 0);
}

// H3: stream compaction with a warp-aggregated atomic: the lanes whose flag is
// set elect a leader, __ffs(__activemask()) - 1, which reserves room for all of
// them; each writes its slot from the leader's base and its rank (lanes below it).
__global__ void h_aggregated_atomic(const int *flag, int *counter, int *slots) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (flag[i]) {
    unsigned m = __activemask();
    int lane = threadIdx.x & 31, leader = __ffs(m) - 1, base = 0;
    if (lane == leader) base = atomicAdd(counter, __popc(m));
    base = __shfl_sync(m, base, leader);
    slots[base + __popc(m & ((1u << lane) - 1))] = 1;
  }
}

// H4: block sums the classic way: a shfl_down reduction from 16, lane 0 of each
// tid / 32 warp adds its partial.
__global__ void h_sum_from16(const int *x, int *sum) {
  int v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, v);
}

// H5: every lane gets its warp's sum: a shfl_down reduction from 16, then lane 0's
// total broadcast with __shfl_sync(~0u, v, 0) (as in a warp-per-row softmax).
__global__ void h_warp_sum_broadcast(const int *x, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = x[i];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  out[i] = __shfl_sync(0xffffffffu, v, 0);
}

static int failures = 0;

static void verdict(const char *what, int ok, int checked) {
  if (checked && !ok) {
    printf("FAIL %s\n", what);
    failures++;
  }
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int ws = prop.warpSize;
  const int h_checked = ws == 32;   // the H kernels are right on 32-lane warps only
  printf("warpSize %d\n", ws);
  fprintf(stderr, "device: %s\n", prop.name);

  int hx[N], hflag[N];
  for (int i = 0; i < N; i++) {
    hx[i] = (i * 37 + 11) % 19 - 6;        // -6 .. 12, irregular
    hflag[i] = (i % 32) % 3 != 1;          // the same pattern in every 32 lanes
  }
  int *x, *flag, *a, *b, *c;
  CHECK(cudaMalloc(&x, N * sizeof(int)));
  CHECK(cudaMalloc(&flag, N * sizeof(int)));
  CHECK(cudaMalloc(&a, N * sizeof(int)));
  CHECK(cudaMalloc(&b, N * sizeof(int)));
  CHECK(cudaMalloc(&c, N * sizeof(int)));
  CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(flag, hflag, sizeof hflag, cudaMemcpyHostToDevice));
  int got[N], n1, n2;
  long total = 0;
  for (int i = 0; i < N; i++) total += hx[i];

  // W1
  CHECK(cudaMemset(a, 0, N * sizeof(int)));
  ws_block_sum<<<N / BLOCK, BLOCK, BLOCK / ws * sizeof(int)>>>(x, a);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, a, 2 * sizeof(int), cudaMemcpyDeviceToHost));
  int ok = 1;
  for (int blk = 0; blk < N / BLOCK; blk++) {
    int want = 0;
    for (int t = 0; t < BLOCK; t++) want += hx[blk * BLOCK + t];
    ok &= got[blk] == want;
  }
  printf("W1 block sums by warpSize: %s\n", ok ? "ok" : "wrong");
  verdict("W1", ok, 1);

  // W2
  CHECK(cudaMemset(a, 0, sizeof(int)));
  ws_shuffles<<<N / BLOCK, BLOCK>>>(x, a);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(&n1, a, sizeof(int), cudaMemcpyDeviceToHost));
  printf("W2 warp broadcast, rotation and %%laneid: %d wrong\n", n1);
  verdict("W2", n1 == 0, 1);

  // W3
  ws_segment16<<<N / BLOCK, BLOCK>>>(x, a);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, a, sizeof got, cudaMemcpyDeviceToHost));
  n1 = 0;
  for (int i = 0; i < N; i++) {
    int want = 0;
    for (int k = i & ~15; k < (i & ~15) + 16; k++) want += hx[k];
    n1 += got[i] != want;
  }
  printf("W3 16-lane segment sums: %d wrong\n", n1);
  verdict("W3", n1 == 0, 1);

  // W4
  CHECK(cudaMemset(a, 0, sizeof(int)));
  ws_vote_all<<<N / BLOCK, BLOCK>>>(x, a);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(&n1, a, sizeof(int), cudaMemcpyDeviceToHost));
  printf("W4 __all_sync over the warp: %d wrong\n", n1);
  verdict("W4", n1 == 0, 1);

  // H1
  int positives = 0;
  for (int i = 0; i < N; i++) positives += hx[i] > 0;
  CHECK(cudaMemset(a, 0, sizeof(int)));
  h_ballot_count<<<N / BLOCK, BLOCK>>>(x, a);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(&n1, a, sizeof(int), cudaMemcpyDeviceToHost));
  printf("H1 ballot popcounts by lanes tid%%32==0: %d positives (host %d)\n", n1, positives);
  verdict("H1", n1 == positives, h_checked);

  // H2
  h_broadcast_tid32<<<N / BLOCK, BLOCK>>>(a);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, a, sizeof got, cudaMemcpyDeviceToHost));
  n1 = 0;
  for (int i = 0; i < N; i++) n1 += got[i] != (i % BLOCK) / 32;
  printf("H2 lane-0 broadcast of tid/32: %d of %d lanes differ\n", n1, N);
  verdict("H2", n1 == 0, h_checked);

  // H3
  int flagged = 0;
  for (int i = 0; i < N; i++) flagged += hflag[i];
  CHECK(cudaMemset(b, 0, sizeof(int)));
  CHECK(cudaMemset(c, 0, N * sizeof(int)));
  h_aggregated_atomic<<<N / BLOCK, BLOCK>>>(flag, b, c);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(&n1, b, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got, c, sizeof got, cudaMemcpyDeviceToHost));
  n2 = 0;
  for (int i = 0; i < N; i++) n2 += got[i] != 0;
  printf("H3 warp-aggregated atomic, leader __ffs(__activemask())-1: counter %d, slots written %d (host %d)\n", n1,
         n2, flagged);
  verdict("H3", n1 == flagged && n2 == flagged, h_checked);

  // H4
  CHECK(cudaMemset(a, 0, sizeof(int)));
  h_sum_from16<<<N / BLOCK, BLOCK>>>(x, a);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(&n1, a, sizeof(int), cudaMemcpyDeviceToHost));
  printf("H4 shfl_down sum from 16, lanes tid%%32==0 add: %d (host %ld)\n", n1, total);
  verdict("H4", n1 == total, h_checked);

  // H5
  h_warp_sum_broadcast<<<N / BLOCK, BLOCK>>>(x, a);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, a, sizeof got, cudaMemcpyDeviceToHost));
  n1 = 0;
  for (int i = 0; i < N; i++) {
    int want = 0;
    for (int k = i & ~31; k < (i & ~31) + 32; k++) want += hx[k];
    n1 += got[i] != want;
  }
  printf("H5 warp sum from 16, broadcast from lane 0: %d of %d lanes differ\n", n1, N);
  verdict("H5", n1 == 0, h_checked);

  CHECK(cudaFree(x));
  CHECK(cudaFree(flag));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  if (failures) return 1;
  printf("PASS warp_size_idioms\n");
  return 0;
}
