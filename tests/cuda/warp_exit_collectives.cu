// warp_exit_collectives: full-mask warp collectives after some lanes of the
// warp have returned, which CUDA allows ("all non-exited threads named in
// mask must execute the same intrinsic"):
//   - a warp reduction with __shfl_down_sync(0xffffffff) and __syncwarp() in
//     a grid whose last warp is partial (n % 32 != 0, lanes past n return);
//     a lane adds a shuffled value only when its source lane is live, so the
//     result never depends on what an exited lane would supply;
//   - warp-aggregated atomics as the public samples write them (__activemask,
//     __ffs, __popc, __shfl_sync; and cooperative groups' coalesced_threads)
//     in a grid-stride filter: only the lanes in the branch take part;
//   - the tail of Numba's @cuda.reduce: lanes 0 and 1 of warp 0 call
//     __syncwarp() while lanes 2..31 skip it and return.
// stdout: one line per part (counts and sums), then PASS.
#include <cooperative_groups.h>

#include "check.h"

namespace cg = cooperative_groups;

__global__ void partial_reduce(const int *in, int *warp_sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int lane = threadIdx.x & 31;
  int live = n - (i - lane) < 32 ? n - (i - lane) : 32;   // lanes of this warp that did not return
  int v = in[i];
  for (int off = 16; off > 0; off >>= 1) {
    int t = __shfl_down_sync(0xffffffffu, v, off);
    if (lane + off < live) v += t;
  }
  __syncwarp();
  if (lane == 0) warp_sums[i / 32] = v;
}

__device__ unsigned lanemask_lt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

// The warp-aggregated increment of the "optimized filtering" sample.
__device__ int atomic_agg_inc(int *ctr) {
  unsigned active = __activemask();
  int leader = __ffs(active) - 1;
  int change = __popc(active);
  unsigned rank = __popc(active & lanemask_lt());
  int warp_res;
  if (rank == 0) warp_res = atomicAdd(ctr, change);
  warp_res = __shfl_sync(active, warp_res, leader);
  return warp_res + rank;
}

// The same with cooperative groups, as the warpAggregatedAtomicsCG sample.
__device__ int atomic_agg_inc_cg(int *ctr) {
  cg::coalesced_group active = cg::coalesced_threads();
  int res = 0;
  if (active.thread_rank() == 0) res = atomicAdd(ctr, (int)active.size());
  return active.shfl(res, 0) + active.thread_rank();
}

__global__ void filter(int *dst, int *nres, const int *src, int n, int use_cg) {
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x)
    if (src[i] > 0) dst[use_cg ? atomic_agg_inc_cg(nres) : atomic_agg_inc(nres)] = src[i];
}

// The end of Numba's reduction: two lanes finish, __syncwarp(), lane 0 writes.
__global__ void numba_tail(const int *in, int *out) {
  __shared__ int s[4];
  int tid = threadIdx.x;
  if (tid < 4) s[tid] = in[tid];
  __syncthreads();
  if (tid < 2) {
    s[tid] = s[tid] + s[tid + 2];
    __syncwarp();
  }
  if (tid == 0) out[0] = s[0] + s[1];
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int main(void) {
  // partial warps: n = 1000 over blocks of 128 (the last warp has 8 live lanes), and n = 45 in one block
  const int sizes[2] = {1000, 45};
  for (int s = 0; s < 2; s++) {
    int n = sizes[s], nwarps = (n + 31) / 32;
    int *in = (int *)malloc(n * sizeof(int)), *got = (int *)malloc(nwarps * sizeof(int));
    int *want = (int *)malloc(nwarps * sizeof(int));
    long total = 0;
    for (int i = 0; i < n; i++) in[i] = (i * 37) % 101 - 50;
    for (int w = 0; w < nwarps; w++) {
      want[w] = 0;
      for (int i = w * 32; i < n && i < w * 32 + 32; i++) want[w] += in[i];
      total += want[w];
    }
    int *din, *dsums;
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMalloc(&dsums, nwarps * sizeof(int)));
    CHECK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
    partial_reduce<<<(n + 127) / 128, 128>>>(din, dsums, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dsums, nwarps * sizeof(int), cudaMemcpyDeviceToHost));
    check_i32("partial_reduce warp sums", got, want, nwarps);
    printf("partial_reduce n=%d: %d warps, sum %ld\n", n, nwarps, total);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dsums));
    free(in);
    free(got);
    free(want);
  }

  // warp-aggregated filtering: plain and cooperative groups, a grid-stride loop with a ragged tail
  const int n = 10007;
  int *src = (int *)malloc(n * sizeof(int)), *pos = (int *)malloc(n * sizeof(int));
  int npos = 0;
  unsigned seed = 12345;
  for (int i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    src[i] = (int)((seed >> 8) % 2001) - 1000;
    if (src[i] > 0) pos[npos++] = src[i];
  }
  qsort(pos, npos, sizeof(int), cmp_int);
  int *dsrc, *ddst, *dn;
  CHECK(cudaMalloc(&dsrc, n * sizeof(int)));
  CHECK(cudaMalloc(&ddst, n * sizeof(int)));
  CHECK(cudaMalloc(&dn, sizeof(int)));
  CHECK(cudaMemcpy(dsrc, src, n * sizeof(int), cudaMemcpyHostToDevice));
  int *got = (int *)malloc(n * sizeof(int));
  for (int use_cg = 0; use_cg < 2; use_cg++) {
    CHECK(cudaMemset(dn, 0, sizeof(int)));
    CHECK(cudaMemset(ddst, 0, n * sizeof(int)));
    filter<<<7, 96>>>(ddst, dn, dsrc, n, use_cg);
    CHECK_LAUNCH();
    int count = 0;
    CHECK(cudaMemcpy(&count, dn, sizeof(int), cudaMemcpyDeviceToHost));
    if (count != npos) {
      printf("FAIL filter (%s): %d results, want %d\n", use_cg ? "coalesced_threads" : "activemask", count, npos);
      return 1;
    }
    CHECK(cudaMemcpy(got, ddst, count * sizeof(int), cudaMemcpyDeviceToHost));
    qsort(got, count, sizeof(int), cmp_int);   // the order depends on scheduling; the set does not
    check_i32("filtered values (sorted)", got, pos, npos);
    printf("filter (%s): %d of %d positive\n", use_cg ? "coalesced_threads" : "activemask", count, n);
  }
  CHECK(cudaFree(dsrc));
  CHECK(cudaFree(ddst));
  CHECK(cudaFree(dn));
  free(src);
  free(pos);
  free(got);

  // the tail of Numba's reduction, in a block of 64
  int tail_in[4] = {3, 5, 7, 11}, tail_out = 0, *dti, *dto;
  CHECK(cudaMalloc(&dti, sizeof tail_in));
  CHECK(cudaMalloc(&dto, sizeof(int)));
  CHECK(cudaMemcpy(dti, tail_in, sizeof tail_in, cudaMemcpyHostToDevice));
  numba_tail<<<1, 64>>>(dti, dto);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(&tail_out, dto, sizeof(int), cudaMemcpyDeviceToHost));
  if (tail_out != 26) {
    printf("FAIL numba_tail: %d, want 26\n", tail_out);
    return 1;
  }
  printf("numba_tail: %d\n", tail_out);
  CHECK(cudaFree(dti));
  CHECK(cudaFree(dto));
  return pass("warp_exit_collectives");
}
