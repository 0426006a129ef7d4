// movmatrix_transpose: movmatrix.sync.aligned.m8n8.trans.b16 through inline
// asm, as llama.cpp's CUDA backend writes it (its mma helpers transpose an
// 8x8 tile of halves held in registers), on several warps and tiles, and in
// a loop where each warp transposes twice (the identity). Also ldmatrix
// .trans feeding movmatrix: the two transposes cancel, giving the tile as
// stored. Results are checked bit for bit against a host transpose.
// Built for the default architecture (sm_75: movmatrix needs sm_75).
#include "check.h"

#include <stdint.h>

// Lane l of a warp holds row l/4, columns 2(l%4) and 2(l%4)+1 of an 8x8
// matrix of 16-bit elements (the ldmatrix/mma fragment layout), low half first.
__device__ uint32_t movmatrix_trans(uint32_t x) {
  uint32_t y;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(y) : "r"(x));
  return y;
}

// One tile per warp: in[64 * w ...] row-major 8x8; out the fragment after movmatrix.
__global__ void transpose_tiles(const uint16_t *in, uint32_t *out, int twice) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  const uint16_t *tile = in + 64 * warp;
  int row = lane / 4, col = 2 * (lane % 4);
  uint32_t frag = (uint32_t)tile[8 * row + col] | (uint32_t)tile[8 * row + col + 1] << 16;
  uint32_t t = movmatrix_trans(frag);
  if (twice) t = movmatrix_trans(t);
  out[32 * warp + lane] = t;
}

// ldmatrix.x1.trans from shared memory, then movmatrix: the tile as stored.
__global__ void ldmatrix_then_movmatrix(const uint16_t *in, uint32_t *out) {
  __shared__ __align__(16) uint16_t tile[64];
  int lane = threadIdx.x;
  tile[2 * lane] = in[2 * lane];
  tile[2 * lane + 1] = in[2 * lane + 1];
  __syncwarp();
  uint32_t addr = (uint32_t)__cvta_generic_to_shared(&tile[8 * (lane % 8)]), r;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(addr));
  out[lane] = movmatrix_trans(r);
}

static uint32_t fragment(const uint16_t *m, int lane) {
  int row = lane / 4, col = 2 * (lane % 4);
  return (uint32_t)m[8 * row + col] | (uint32_t)m[8 * row + col + 1] << 16;
}

int main() {
  const int warps = 6, n = 64 * warps;
  uint16_t h_in[n];
  for (int i = 0; i < n; i++) h_in[i] = (uint16_t)(0x1000 * (i / 64) + 37 * (i % 64) + 1);
  uint16_t *d_in;
  uint32_t *d_out, got[32 * warps], want[32 * warps];
  CHECK(cudaMalloc(&d_in, sizeof h_in));
  CHECK(cudaMalloc(&d_out, sizeof got));
  CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));

  // one transpose: lane l gets its fragment of the transposed tile
  transpose_tiles<<<2, 96>>>(d_in, d_out, 0);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
  for (int w = 0; w < warps; w++) {
    uint16_t t[64];
    for (int r = 0; r < 8; r++)
      for (int c = 0; c < 8; c++) t[8 * r + c] = h_in[64 * w + 8 * c + r];
    for (int l = 0; l < 32; l++) want[32 * w + l] = fragment(t, l);
  }
  check_u32("movmatrix.trans", got, want, 32 * warps);

  // two transposes: the fragment as loaded
  transpose_tiles<<<2, 96>>>(d_in, d_out, 1);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
  for (int w = 0; w < warps; w++)
    for (int l = 0; l < 32; l++) want[32 * w + l] = fragment(h_in + 64 * w, l);
  check_u32("movmatrix twice", got, want, 32 * warps);

  // ldmatrix .trans, then movmatrix: the stored tile's fragment
  ldmatrix_then_movmatrix<<<1, 32>>>(d_in, d_out);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, d_out, 32 * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  for (int l = 0; l < 32; l++) want[l] = fragment(h_in, l);
  check_u32("ldmatrix.trans + movmatrix", got, want, 32);

  printf("movmatrix: %d tiles transposed, first fragment 0x%08x\n", warps, got[0]);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return pass("movmatrix_transpose");
}
