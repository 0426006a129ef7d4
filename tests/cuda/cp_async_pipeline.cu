// cp_async_pipeline: a double-buffered global -> shared pipeline with
// cp.async (sm_80: built with -arch=sm_80, see CMakeLists.txt), the way
// cuda-samples' globalToShmemAsyncCopy stages tiles:
//   - __pipeline_memcpy_async (cp.async.ca / .cg, 4, 8 and 16 bytes),
//     __pipeline_commit, __pipeline_wait_prior(N);
//   - the zero-fill form (src-size < cp-size) for the ragged tail;
//   - cp.async written directly in inline PTX with commit_group,
//     wait_group and wait_all.
// Every block computes a weighted sum over tiles staged through two shared
// buffers while the next tile is in flight; integer arithmetic, exact.
#include <cuda_pipeline.h>

#include "check.h"

#define TILE 256   // ints per tile = threads per block

// out[b] = sum over tiles t of sum_i (t + 1) * in[t][i], in padded with zeros
__global__ void pipelined_sum(const int *in, long long *out, int n, int tiles_per_block) {
  __shared__ __align__(16) int buf[2][TILE];
  __shared__ long long partial[TILE];
  int tid = threadIdx.x;
  int base = blockIdx.x * tiles_per_block * TILE;
  long long acc = 0;
  // prologue: tile 0 in flight
  int idx = base + tid;
  __pipeline_memcpy_async(&buf[0][tid], &in[idx < n ? idx : 0], sizeof(int), idx < n ? 0 : sizeof(int));
  __pipeline_commit();
  for (int t = 0; t < tiles_per_block; t++) {
    if (t + 1 < tiles_per_block) {   // issue the next tile, then wait for the current one
      int j = base + (t + 1) * TILE + tid;
      __pipeline_memcpy_async(&buf[(t + 1) & 1][tid], &in[j < n ? j : 0], sizeof(int), j < n ? 0 : sizeof(int));
      __pipeline_commit();
      __pipeline_wait_prior(1);
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
    acc += (long long)(t + 1) * buf[t & 1][(tid * 7) % TILE];   // read another thread's element
    __syncthreads();
  }
  partial[tid] = acc;
  __syncthreads();
  for (int s = TILE / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// 16-byte copies (.cg) of int4 rows, with zero-fill of the last `short_by`
// bytes of row 1, then 8-byte copies, all in inline PTX.
__global__ void raw_cp_async(const int4 *src, int4 *dst, int short_by) {
  __shared__ __align__(16) int4 s16[64];
  __shared__ __align__(16) int2 s8[64];
  int tid = threadIdx.x;
  unsigned sa = (unsigned)__cvta_generic_to_shared(&s16[tid]);
  unsigned sb = (unsigned)__cvta_generic_to_shared(&s8[tid]);
  int src_size = tid == 1 ? 16 - short_by : 16;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa), "l"(&src[tid]), "r"(src_size));
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(sb), "l"((const int2 *)&src[64 + tid]));
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group 1;\n" ::);
  asm volatile("cp.async.wait_all;\n" ::);
  __syncthreads();
  int4 v = s16[63 - tid];
  int2 w = s8[63 - tid];
  dst[tid] = make_int4(v.x + w.x, v.y + w.y, v.z, v.w);
}

int main(void) {
  const int tiles_per_block = 9, blocks = 13;
  const int n = blocks * tiles_per_block * TILE - 1000;   // the last tiles are ragged
  int *in = (int *)malloc(n * sizeof(int));
  unsigned seed = 5;
  for (int i = 0; i < n; i++) in[i] = (int)(test_rand(&seed) % 20001) - 10000;
  long long *want = (long long *)calloc(blocks, sizeof(long long));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < tiles_per_block; t++)
      for (int tid = 0; tid < TILE; tid++) {
        int i = (b * tiles_per_block + t) * TILE + (tid * 7) % TILE;
        want[b] += (long long)(t + 1) * (i < n ? in[i] : 0);
      }
  int *din;
  long long *dout;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, blocks * sizeof(long long)));
  CHECK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
  pipelined_sum<<<blocks, TILE>>>(din, dout, n, tiles_per_block);
  CHECK_LAUNCH();
  long long *got = (long long *)malloc(blocks * sizeof(long long));
  CHECK(cudaMemcpy(got, dout, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  check_i64("pipelined sums", got, want, blocks);

  int4 hsrc[128];
  for (int i = 0; i < 128; i++) hsrc[i] = make_int4(i * 4 + 1, i * 4 + 2, i * 4 + 3, i * 4 + 4);
  int4 *dsrc, *ddst;
  CHECK(cudaMalloc(&dsrc, sizeof hsrc));
  CHECK(cudaMalloc(&ddst, 64 * sizeof(int4)));
  CHECK(cudaMemcpy(dsrc, hsrc, sizeof hsrc, cudaMemcpyHostToDevice));
  const int short_by = 8;   // row 1: only its first 8 bytes are read, the rest is zero
  raw_cp_async<<<1, 64>>>(dsrc, ddst, short_by);
  CHECK_LAUNCH();
  int4 hdst[64];
  CHECK(cudaMemcpy(hdst, ddst, sizeof hdst, cudaMemcpyDeviceToHost));
  int gotv[256], wantv[256];
  for (int t = 0; t < 64; t++) {
    int r = 63 - t;
    int4 v = hsrc[r];
    if (r == 1) v.z = v.w = 0;
    int x8 = hsrc[64 + r].x, y8 = hsrc[64 + r].y;   // the first 8 bytes of row 64 + r
    wantv[4 * t] = v.x + x8; wantv[4 * t + 1] = v.y + y8; wantv[4 * t + 2] = v.z; wantv[4 * t + 3] = v.w;
    gotv[4 * t] = hdst[t].x; gotv[4 * t + 1] = hdst[t].y; gotv[4 * t + 2] = hdst[t].z; gotv[4 * t + 3] = hdst[t].w;
  }
  check_i32("raw cp.async with zero-fill", gotv, wantv, 256);
  CHECK(cudaFree(din)); CHECK(cudaFree(dout)); CHECK(cudaFree(dsrc)); CHECK(cudaFree(ddst));
  free(in); free(want); free(got);
  return pass("cp_async_pipeline");
}
