// plain_thread_ids: a kernel without barriers or warp collectives (cubridge
// runs it through the generated block entry, a loop over the block's
// threads) sees the right thread and block indices, dimensions, lane and
// numbers and parameters in every thread, including in a function it
// calls, and an early return or exit in one thread does not end the others.
// The 3-D block of 10x7x5 = 350 threads spans rows, planes and the runtime's
// 256-thread chunks; the grid is 2x3x2. Exits 0 when every record matches
// the host's computation.
#include "check.h"

#define BX 10
#define BY 7
#define BZ 5
#define GX 2
#define GY 3
#define GZ 2
#define NT (BX * BY * BZ)
#define NB (GX * GY * GZ)
#define REC 8

__device__ __noinline__ unsigned lane_id(void) {
  unsigned l;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}

// Reads the thread's identity inside a called function.
__device__ __noinline__ unsigned who(void) {
  return threadIdx.x + 100u * threadIdx.y + 10000u * lane_id();
}

// Ends the calling thread from inside a function (PTX exit).
__device__ __noinline__ void quit(void) { asm volatile("exit;"); }

__global__ void ids(unsigned *out, unsigned seven, unsigned tag) {
  unsigned flat = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned *r = out + ((size_t)block * NT + flat) * REC;
  r[0] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16;
  r[1] = blockDim.x | blockDim.y << 8 | blockDim.z << 16;
  r[2] = blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16;
  r[3] = gridDim.x | gridDim.y << 8 | gridDim.z << 16;
  r[4] = lane_id() | (flat / 32) << 8;   // %warpid is a hardware slot on a GPU: not checked
  r[5] = who();
  if (flat % seven == 3)
    return;                      // early return: r[6], r[7] stay untouched
  r[6] = tag;
  if (flat % seven == 5)
    quit();                      // exit in a callee: r[7] stays untouched
  r[7] = tag + flat;
}

static unsigned expect(unsigned block, unsigned flat, int k, unsigned tag) {
  unsigned x = flat % BX, y = flat / BX % BY, z = flat / (BX * BY);
  unsigned bx = block % GX, by = block / GX % GY, bz = block / (GX * GY);
  switch (k) {
  case 0: return x | y << 8 | z << 16;
  case 1: return BX | BY << 8 | BZ << 16;
  case 2: return bx | by << 8 | bz << 16;
  case 3: return GX | GY << 8 | GZ << 16;
  case 4: return (flat % 32) | (flat / 32) << 8;
  case 5: return x + 100u * y + 10000u * (flat % 32);
  case 6: return flat % 7 == 3 ? 0xdeadbeefu : tag;
  default: return flat % 7 == 3 || flat % 7 == 5 ? 0xdeadbeefu : tag + flat;
  }
}

int main(void) {
  const size_t n = (size_t)NB * NT * REC;
  unsigned *d, *h = (unsigned *)malloc(n * sizeof *h);
  CHECK(cudaMalloc(&d, n * sizeof *d));
  CHECK(cudaMemset(d, 0xef, n * sizeof *d));
  for (size_t i = 0; i < n; i++)
    h[i] = 0xdeadbeefu;
  CHECK(cudaMemcpy(d, h, n * sizeof *h, cudaMemcpyHostToDevice));
  const unsigned tag = 0x5a000000u;
  ids<<<dim3(GX, GY, GZ), dim3(BX, BY, BZ)>>>(d, 7, tag);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h, d, n * sizeof *h, cudaMemcpyDeviceToHost));
  for (unsigned b = 0; b < NB; b++)
    for (unsigned f = 0; f < NT; f++)
      for (int k = 0; k < REC; k++) {
        unsigned got = h[((size_t)b * NT + f) * REC + k], want = expect(b, f, k, tag);
        if (got != want) {
          printf("FAIL block %u thread %u field %d: got 0x%08x, expected 0x%08x\n", b, f, k, got, want);
          return 1;
        }
      }
  CHECK(cudaFree(d));
  free(h);
  return pass("plain_thread_ids");
}
