// coop_groups: cooperative groups -- this_thread_block().sync(), warp tiles
// from tiled_partition<32> and sub-warp tiles from tiled_partition<8> with
// their shfl_down and ballot/any, and cg::reduce over a tile.  Integer data:
// exact in any order.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "check.h"

namespace cg = cooperative_groups;

__global__ void groups(const int *in, int *tile32_sums, int *tile8_sums, int *block_sums,
                       unsigned *tile8_ballots) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int partial[8];
  int v = in[blockIdx.x * blockDim.x + block.thread_rank()];

  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int s = v;
  for (int off = warp.size() / 2; off > 0; off /= 2) s += warp.shfl_down(s, off);
  if (warp.thread_rank() == 0) {
    tile32_sums[blockIdx.x * 8 + warp.meta_group_rank()] = s;
    partial[warp.meta_group_rank()] = s;
  }

  cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
  int t = cg::reduce(tile8, v, cg::plus<int>());
  unsigned b = tile8.ballot(v > 0);
  int any_big = tile8.any(v > 90);
  int tile_index = block.thread_rank() / 8;
  if (tile8.thread_rank() == 0) {
    tile8_sums[blockIdx.x * 32 + tile_index] = t;
    tile8_ballots[blockIdx.x * 32 + tile_index] = b | (any_big ? 0x100u : 0u);
  }

  block.sync();
  if (block.thread_rank() == 0) {
    int total = 0;
    for (int k = 0; k < 8; k++) total += partial[k];
    block_sums[blockIdx.x] = total;
  }
}

int main(void) {
  const int blocks = 20, threads = 256, n = blocks * threads;
  int *in = (int *)malloc(n * 4);
  unsigned seed = 3;
  for (int i = 0; i < n; i++) in[i] = (int)(test_rand(&seed) % 200) - 100;
  int w32[blocks * 8] = {0}, w8[blocks * 32] = {0}, wb[blocks] = {0};
  unsigned wballot[blocks * 32] = {0};
  for (int i = 0; i < n; i++) {
    int b = i / threads, t = i % threads;
    w32[b * 8 + t / 32] += in[i];
    w8[b * 32 + t / 8] += in[i];
    wb[b] += in[i];
    if (in[i] > 0) wballot[b * 32 + t / 8] |= 1u << (t % 8);
    if (in[i] > 90) wballot[b * 32 + t / 8] |= 0x100u;
  }
  int *din, *d32, *d8, *db;
  unsigned *dballot;
  CHECK(cudaMalloc(&din, n * 4));
  CHECK(cudaMalloc(&d32, sizeof(w32)));
  CHECK(cudaMalloc(&d8, sizeof(w8)));
  CHECK(cudaMalloc(&db, sizeof(wb)));
  CHECK(cudaMalloc(&dballot, sizeof(wballot)));
  CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice));
  groups<<<blocks, threads>>>(din, d32, d8, db, dballot);
  CHECK_LAUNCH();
  int g32[blocks * 8], g8[blocks * 32], gb[blocks];
  unsigned gballot[blocks * 32];
  CHECK(cudaMemcpy(g32, d32, sizeof(g32), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(g8, d8, sizeof(g8), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gb, db, sizeof(gb), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gballot, dballot, sizeof(gballot), cudaMemcpyDeviceToHost));
  check_i32("warp tile sums", g32, w32, blocks * 8);
  check_i32("8-thread tile sums (cg::reduce)", g8, w8, blocks * 32);
  check_i32("block sums", gb, wb, blocks);
  check_u32("8-thread tile ballot | any<<8", gballot, wballot, blocks * 32);
  CHECK(cudaFree(din)); CHECK(cudaFree(d32)); CHECK(cudaFree(d8)); CHECK(cudaFree(db));
  CHECK(cudaFree(dballot));
  free(in);
  return pass("coop_groups");
}
