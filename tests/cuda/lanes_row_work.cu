// lanes_row_work: what the CPU backend's fast path (lanes entries,
// docs/cpu-backend.md) does once per row of a block or once per loop rather
// than once per thread, exercised the way kernels are written:
//   - accesses affine in threadIdx.x, checked once per row (2-D blocks);
//   - the same through a generic pointer into shared memory (the row check
//     does not pass: the threads are checked one by one and let through);
//   - a row of accesses into unmapped memory: cudaErrorIllegalAddress;
//   - uniform shared-memory loads inside an unrolled loop (n-body's tile[j]);
//   - shared-memory atomics of every integer kind and float add;
//   - per-thread branches that divide only some blocks (a bounds guard and a
//     stencil's border test: interior blocks take one side whole), with a
//     branch inside that divides every block, and one uniform per block.
// Every result is checked against the host; stdout is the same on a GPU, on
// cubridge's fast path and on its general path.
#include "check.h"

__global__ void scale_rows(const int *in, int *out, int pitch, int a) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * pitch + x] = a * in[y * pitch + x] + 1;
}

// shared memory through a generic pointer (use_shared is 1: nvcc cannot tell
// which space p points to)
__global__ void via_generic(const int *in, int *out, int use_shared) {
  __shared__ int s[256];
  int *p = use_shared ? s : out + blockIdx.x * blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[threadIdx.x] = in[i] * 2;
  __syncthreads();
  out[i] = p[threadIdx.x] + 1;
}

__global__ void write_rows(int *p, long long offset) {
  p[offset + threadIdx.y * blockDim.x + threadIdx.x] = 7;
}

#define TILE 128
__global__ void uniform_tile(const int *pos, int *acc, int n) {
  __shared__ int tile[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int p = pos[i], a = 0, b = 0;
  for (int t = 0; t < n; t += TILE) {
    tile[threadIdx.x] = pos[t + threadIdx.x];
    __syncthreads();
#pragma unroll 8
    for (int j = 0; j < TILE; j++) {
      int q = tile[j];
      a += (q - p) * (q ^ p);
      b ^= q + p;
    }
    __syncthreads();
  }
  acc[2 * i] = a;
  acc[2 * i + 1] = b;
}

#define BINS 64
struct block_stats {
  unsigned hist[BINS];
  unsigned max, min, bits_or, bits_and, bits_xor, inc, dec, cas_hits, exch;
  int sum;
  float half_count;
  unsigned long long wide;
};

__global__ void shared_atomics(const unsigned *w, block_stats *out) {
  __shared__ block_stats s;
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) s.hist[b] = 0;
  if (threadIdx.x == 0) {
    s.max = 0; s.min = 0xffffffffu; s.bits_or = 0; s.bits_and = 0xffffffffu; s.bits_xor = 0;
    s.inc = 0; s.dec = 1000; s.cas_hits = 0; s.exch = 0; s.sum = 0; s.half_count = 0.0f; s.wide = 0;
  }
  __syncthreads();
  unsigned v = w[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(&s.hist[v % BINS], 1u);
  atomicMax(&s.max, v);
  atomicMin(&s.min, v);
  atomicOr(&s.bits_or, v & 0xff00u);
  atomicAnd(&s.bits_and, v | 0xffu);
  atomicXor(&s.bits_xor, v);
  atomicInc(&s.inc, 100u);           // wraps to 0 after 100
  atomicDec(&s.dec, 1000u);
  if (atomicCAS(&s.cas_hits, threadIdx.x, threadIdx.x + 1) == threadIdx.x) atomicAdd(&s.exch, 0u);
  atomicAdd(&s.sum, (int)(v & 7u) - 3);
  atomicAdd(&s.half_count, 0.5f);
  atomicAdd(&s.wide, (unsigned long long)v << 8);
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicExch(&s.exch, s.exch + 77u);
    out[blockIdx.x] = s;
  }
}

// n is not a multiple of the block: the guard divides only the last blocks of
// each row and column, the border test only the edge blocks, the parity test
// every block; blockIdx.x & 1 is one way for a whole block.
__global__ void edge_branches(const int *in, int *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n) return;
  int i = y * n + x, v;
  if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
    v = in[i];
  } else {
    v = in[i - n] + in[i + n] + in[i - 1] + in[i + 1] - 4 * in[i];
    if (v & 1)
      v += 3;
    else
      v -= 1;
  }
  if (blockIdx.x & 1) v *= 2;
  out[i] = v;
}

static int check_rows(void) {
  const int W = 96, H = 64, pitch = 100;
  int *hin = (int *)malloc(sizeof(int) * pitch * H), *hout = (int *)malloc(sizeof(int) * pitch * H);
  for (int i = 0; i < pitch * H; i++) hin[i] = i * 7 - 3000;
  int *din, *dout;
  CHECK(cudaMalloc(&din, sizeof(int) * pitch * H));
  CHECK(cudaMalloc(&dout, sizeof(int) * pitch * H));
  CHECK(cudaMemcpy(din, hin, sizeof(int) * pitch * H, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0, sizeof(int) * pitch * H));
  scale_rows<<<dim3(W / 32, H / 4), dim3(32, 4)>>>(din, dout, pitch, 3);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hout, dout, sizeof(int) * pitch * H, cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; y++)
    for (int x = 0; x < pitch; x++) {
      int want = x < W ? 3 * hin[y * pitch + x] + 1 : 0;
      if (hout[y * pitch + x] != want) {
        printf("FAIL scale_rows (%d, %d): got %d, expected %d\n", x, y, hout[y * pitch + x], want);
        return 1;
      }
    }
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  free(hin);
  free(hout);
  return 0;
}

static int check_edges(void) {
  const int n = 203, bx = 32, by = 8;
  size_t sz = sizeof(int) * n * n;
  int *hin = (int *)malloc(sz), *hout = (int *)malloc(sz);
  for (int i = 0; i < n * n; i++) hin[i] = (i * 2654435761u) >> 20;
  int *din, *dout;
  CHECK(cudaMalloc(&din, sz));
  CHECK(cudaMalloc(&dout, sz));
  CHECK(cudaMemcpy(din, hin, sz, cudaMemcpyHostToDevice));
  edge_branches<<<dim3((n + bx - 1) / bx, (n + by - 1) / by), dim3(bx, by)>>>(din, dout, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hout, dout, sz, cudaMemcpyDeviceToHost));
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++) {
      int i = y * n + x, v;
      if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
        v = hin[i];
      } else {
        v = hin[i - n] + hin[i + n] + hin[i - 1] + hin[i + 1] - 4 * hin[i];
        v = (v & 1) ? v + 3 : v - 1;
      }
      if ((x / bx) & 1) v *= 2;
      if (hout[i] != v) {
        printf("FAIL edge_branches (%d, %d): got %d, expected %d\n", x, y, hout[i], v);
        return 1;
      }
    }
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  free(hin);
  free(hout);
  return 0;
}

static int check_generic(void) {
  const int n = 4 * 256;
  int h[4 * 256], *din, *dout;
  for (int i = 0; i < n; i++) h[i] = i - 500;
  CHECK(cudaMalloc(&din, sizeof h));
  CHECK(cudaMalloc(&dout, sizeof h));
  CHECK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
  via_generic<<<4, 256>>>(din, dout, 1);
  CHECK_LAUNCH();
  int got[4 * 256];
  CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (got[i] != 2 * h[i] + 1) {
      printf("FAIL via_generic %d: got %d, expected %d\n", i, got[i], 2 * h[i] + 1);
      return 1;
    }
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  return 0;
}

static int check_uniform_tile(void) {
  const int n = 1024;
  int *hpos = (int *)malloc(sizeof(int) * n), *hacc = (int *)malloc(sizeof(int) * 2 * n);
  for (int i = 0; i < n; i++) hpos[i] = (i * 37) % 1001 - 500;
  int *dpos, *dacc;
  CHECK(cudaMalloc(&dpos, sizeof(int) * n));
  CHECK(cudaMalloc(&dacc, sizeof(int) * 2 * n));
  CHECK(cudaMemcpy(dpos, hpos, sizeof(int) * n, cudaMemcpyHostToDevice));
  uniform_tile<<<n / TILE, TILE>>>(dpos, dacc, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hacc, dacc, sizeof(int) * 2 * n, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    unsigned a = 0, b = 0, p = (unsigned)hpos[i];
    for (int j = 0; j < n; j++) {
      unsigned q = (unsigned)hpos[j];
      a += (q - p) * (q ^ p);
      b ^= q + p;
    }
    if ((unsigned)hacc[2 * i] != a || (unsigned)hacc[2 * i + 1] != b) {
      printf("FAIL uniform_tile %d: got %d %d, expected %d %d\n", i, hacc[2 * i], hacc[2 * i + 1], (int)a, (int)b);
      return 1;
    }
  }
  CHECK(cudaFree(dpos));
  CHECK(cudaFree(dacc));
  free(hpos);
  free(hacc);
  return 0;
}

static int check_atomics(void) {
  const int blocks = 3, threads = 256, n = blocks * threads;
  unsigned hw[3 * 256];
  for (int i = 0; i < n; i++) hw[i] = (unsigned)i * 2654435761u;
  unsigned *dw;
  block_stats *dout, hout[3];
  CHECK(cudaMalloc(&dw, sizeof hw));
  CHECK(cudaMalloc(&dout, sizeof hout));
  CHECK(cudaMemcpy(dw, hw, sizeof hw, cudaMemcpyHostToDevice));
  shared_atomics<<<blocks, threads>>>(dw, dout);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    block_stats want;
    memset(&want, 0, sizeof want);
    want.min = 0xffffffffu; want.bits_and = 0xffffffffu; want.dec = 1000;
    for (int t = 0; t < threads; t++) {
      unsigned v = hw[b * threads + t];
      want.hist[v % BINS]++;
      want.max = v > want.max ? v : want.max;
      want.min = v < want.min ? v : want.min;
      want.bits_or |= v & 0xff00u;
      want.bits_and &= v | 0xffu;
      want.bits_xor ^= v;
      want.inc = want.inc >= 100u ? 0u : want.inc + 1u;
      want.dec = (want.dec == 0u || want.dec > 1000u) ? 1000u : want.dec - 1u;
      want.sum += (int)(v & 7u) - 3;
      want.wide += (unsigned long long)v << 8;
    }
    // each thread's CAS succeeds only in thread order; the order of the
    // threads' atomics is free, so only the count bounds are checked
    want.half_count = 0.5f * threads;
    const block_stats *g = &hout[b];
    if (memcmp(g->hist, want.hist, sizeof want.hist) || g->max != want.max || g->min != want.min ||
        g->bits_or != want.bits_or || g->bits_and != want.bits_and || g->bits_xor != want.bits_xor ||
        g->inc != want.inc || g->dec != want.dec || g->sum != want.sum || g->wide != want.wide ||
        g->half_count != want.half_count || g->cas_hits < 1 || g->cas_hits > (unsigned)threads ||
        g->exch != 77u) {
      printf("FAIL shared_atomics block %d: max %u/%u min %u/%u or %x/%x and %x/%x xor %x/%x inc %u/%u dec %u/%u "
             "sum %d/%d wide %llu/%llu half %g/%g cas %u exch %u\n",
             b, g->max, want.max, g->min, want.min, g->bits_or, want.bits_or, g->bits_and, want.bits_and,
             g->bits_xor, want.bits_xor, g->inc, want.inc, g->dec, want.dec, g->sum, want.sum, g->wide, want.wide,
             g->half_count, want.half_count, g->cas_hits, g->exch);
      return 1;
    }
  }
  CHECK(cudaFree(dw));
  CHECK(cudaFree(dout));
  return 0;
}

// last: the fault is sticky
static int check_fault(void) {
  int *d;
  CHECK(cudaMalloc(&d, 1024 * sizeof(int)));
  const size_t big_bytes = (size_t)256 << 20;
  char *big;
  CHECK(cudaMalloc(&big, big_bytes));
  CHECK(cudaFree(big));   // unmapped from here on (as in oob_write)
  long long offset = ((long long)(big + big_bytes / 2) - (long long)d) / (long long)sizeof(int);
  write_rows<<<1, dim3(32, 4)>>>(d, offset);
  CHECK(cudaGetLastError());
  EXPECT_ERROR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  printf("rows into unmapped memory: %s\n", cudaGetErrorName(cudaErrorIllegalAddress));
  return 0;
}

int main(void) {
  if (check_rows() || check_edges() || check_generic() || check_uniform_tile() || check_atomics() || check_fault())
    return 1;
  return pass("lanes_row_work");
}
