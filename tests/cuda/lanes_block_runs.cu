// lanes_block_runs: grid-stride kernels whose blocks share nothing, launched
// the way such code is (many blocks of whole warps, grids whose x is a prime,
// 2-D grids, a block size that is not whole warps, one block). The CPU
// backend runs a run of such blocks of one grid row as one set of SIMD lanes,
// blockIdx.x differing among them: every result here depends on blockIdx.x,
// and each is checked against the host.
//
//   lanes_block_runs           the checks, then PASS
//   lanes_block_runs assert    block 13's thread 37 fails an assert inside the loop
//   lanes_block_runs fault     block 13's thread 37 writes through a wild pointer inside the loop
//   lanes_block_runs gone      block 13's thread 37 leaves before a shuffle whose mask names it
//                              (cubridge warns, naming block 13 and warp 1)
#include <assert.h>
#include <string.h>
#include "check.h"

__global__ void axpy(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = fmaf(a, x[i], y[i]);
}

// Who wrote each element: blockIdx.x, blockIdx.y, threadIdx.x, and the loop's trip.
__global__ void ids(int *out, int n) {
  int stride = blockDim.x * gridDim.x * gridDim.y, trip = 0;
  for (int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride, trip++)
    out[i] = ((blockIdx.x * 64 + blockIdx.y) * 1024 + threadIdx.x) * 16 + trip;
}

// A warp's sum by shuffles, one atomic per warp, and each block's count of trips.
__global__ void warp_sums(const int *x, int n, unsigned long long *total, int *trips) {
  int s = 0, t = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x, t++) s += x[i];
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, (unsigned long long)(unsigned)s);
  if (threadIdx.x == 0) trips[blockIdx.x] = t;
}

// Branches on blockIdx.x: inside the loop, and a block that leaves before it.
__global__ void by_block(int *out, int n) {
  if (blockIdx.x == gridDim.x - 1) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    if (blockIdx.x % 3 == 0)
      out[i] = 2 * i + (int)blockIdx.x;
    else if (blockIdx.x % 3 == 1)
      out[i] = -i;
    else
      out[i] = i ^ (int)(blockIdx.x * 7919u);
  }
}

// Per-thread local memory indexed at run time.
__global__ void local_table(const int *x, int *out, int n) {
  int table[8];
  for (int k = 0; k < 8; k++) table[k] = (int)blockIdx.x * 8 + k;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = table[x[i] & 7] + table[(x[i] >> 3) & 7];
}

// A shuffle under a branch on blockIdx.x: the lanes of a block run together, those of a run of
// blocks would not (cubridge runs such a kernel one block at a time).
__global__ void shfl_odd_blocks(const int *x, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int v = x[i];
    if (blockIdx.x & 1) v += __shfl_xor_sync(0xffffffffu, v, 1);
    out[i] = v;
  }
}

// A loop under a branch on threadIdx.x whose exit ends the thread, in a block with shared
// memory (run one block at a time): odd threads loop, the others store at once.
__global__ void thread_loops(const int *x, int *out, int n) {
  __shared__ int step;
  if (threadIdx.x == 0) step = 3;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (threadIdx.x & 1) {
    int s = 0;
    for (int k = 0; k < (x[i] & 15); k++) s += k * step;
    out[i] = s;
    return;
  }
  out[i] = -1;
}

// One thread of one block fails: an assert (mode 1) or a store through a wild pointer (mode 2).
__global__ void one_fails(int *out, int n, int bad_block, int bad_thread, int mode) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    bool bad = blockIdx.x == bad_block && threadIdx.x == bad_thread && i >= n / 2;
    if (mode == 1) assert(!bad);
    int *p = bad && mode == 2 ? (int *)0x10 : out + i;
    *p = i;
  }
}

// A thread that leaves before a shuffle whose mask names it.
__global__ void leaves_early(const int *x, int *out, int n) {
  int s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) s += x[i];
  if (blockIdx.x == 13 && threadIdx.x == 37) return;
  s += __shfl_down_sync(0xffffffffu, s, 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// printf from one thread of one block in the loop.
__global__ void says(int n) {
  int trips = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) trips++;
  if (blockIdx.x == 13 && threadIdx.x == 37)
    printf("block %d thread %d: warp %d lane %d, %d trips\n", (int)blockIdx.x, (int)threadIdx.x,
           (int)threadIdx.x / 32, (int)threadIdx.x % 32, trips);
}

static void run_axpy(int blocks, int threads, int n) {
  float *hx = (float *)malloc(n * sizeof(float)), *hy = (float *)malloc(n * sizeof(float));
  float *want = (float *)malloc(n * sizeof(float));
  unsigned st = 7u + (unsigned)blocks;
  for (int i = 0; i < n; i++) {
    hx[i] = (float)(test_rand(&st) % 1000) / 7.0f;
    hy[i] = (float)(test_rand(&st) % 1000) / 3.0f;
    want[i] = fmaf(0.75f, hx[i], hy[i]);
  }
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, hy, n * sizeof(float), cudaMemcpyHostToDevice));
  axpy<<<blocks, threads>>>(0.75f, dx, dy, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  char what[64];
  snprintf(what, sizeof what, "axpy <<<%d, %d>>> n=%d", blocks, threads, n);
  check_f32_exact(what, hy, want, n);
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  free(hx);
  free(hy);
  free(want);
}

static void run_ids(dim3 grid, int threads, int n) {
  int *h = (int *)malloc(n * sizeof(int)), *want = (int *)malloc(n * sizeof(int)), *d;
  int stride = threads * grid.x * grid.y;
  for (int i = 0; i < n; i++) {
    int first = i % stride, trip = i / stride, t = first % threads, b = first / threads;
    int bx = b % grid.x, by = b / grid.x;
    want[i] = ((bx * 64 + by) * 1024 + t) * 16 + trip;
  }
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMemset(d, 0xff, n * sizeof(int)));
  ids<<<grid, threads>>>(d, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  char what[64];
  snprintf(what, sizeof what, "ids <<<(%u,%u), %d>>>", grid.x, grid.y, threads);
  check_i32(what, h, want, n);
  CHECK(cudaFree(d));
  free(h);
  free(want);
}

int main(int argc, char **argv) {
  const int n = 1 << 18;
  int *hx = (int *)malloc(n * sizeof(int)), *hout = (int *)malloc(n * sizeof(int));
  int *want = (int *)malloc(n * sizeof(int));
  unsigned st = 12345u;
  for (int i = 0; i < n; i++) hx[i] = (int)(test_rand(&st) % 100000);
  int *dx, *dout;
  CHECK(cudaMalloc(&dx, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CHECK(cudaMemcpy(dx, hx, n * sizeof(int), cudaMemcpyHostToDevice));

  if (argc > 1 && !strcmp(argv[1], "gone")) {
    leaves_early<<<40, 256>>>(dx, dout, n);
    CHECK_LAUNCH();
    printf("leaves_early: done\n");
    return 0;
  }
  if (argc > 1) {   // one thread fails: the error, and (on stderr) which thread
    int mode = !strcmp(argv[1], "assert") ? 1 : !strcmp(argv[1], "fault") ? 2 : 0;
    if (!mode) fail("usage: lanes_block_runs [assert|fault]");
    one_fails<<<40, 256>>>(dout, n, 13, 37, mode);
    CHECK(cudaGetLastError());
    cudaError_t e = cudaDeviceSynchronize();
    printf("one_fails: %s\n", cudaGetErrorName(e));
    return e == (mode == 1 ? cudaErrorAssert : cudaErrorIllegalAddress) ? 0 : 1;
  }

  // grids of a prime number of blocks, whole warps, a block size that is not, one block
  run_axpy(37, 256, n);
  run_axpy(256, 256, n + 77);
  run_axpy(5, 1024, n);
  run_axpy(101, 32, n - 3);
  run_axpy(19, 48, n);
  run_axpy(1, 256, 1000);
  run_ids(dim3(37, 1), 256, n);
  run_ids(dim3(11, 3), 128, n);
  run_ids(dim3(7, 5), 64, 100000);

  // warp sums and each block's trips
  const int blocks = 29, threads = 256;
  unsigned long long *dtotal, total = 0, want_total = 0;
  int *dtrips, trips[blocks], want_trips[blocks];
  CHECK(cudaMalloc(&dtotal, sizeof total));
  CHECK(cudaMalloc(&dtrips, sizeof trips));
  CHECK(cudaMemset(dtotal, 0, sizeof total));
  warp_sums<<<blocks, threads>>>(dx, n, dtotal, dtrips);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(&total, dtotal, sizeof total, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(trips, dtrips, sizeof trips, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) want_total += (unsigned long long)hx[i];
  for (int b = 0; b < blocks; b++) {
    int first = b * threads;
    want_trips[b] = first < n ? (n - first + blocks * threads - 1) / (blocks * threads) : 0;
  }
  check_u64("warp_sums total", &total, &want_total, 1);
  check_i32("warp_sums trips", trips, want_trips, blocks);

  // branches on blockIdx.x, and a block that leaves first
  CHECK(cudaMemset(dout, 0, n * sizeof(int)));
  by_block<<<41, 256>>>(dout, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int b = (i / 256) % 41;
    want[i] = b == 40 ? 0 : b % 3 == 0 ? 2 * i + b : b % 3 == 1 ? -i : i ^ (int)((unsigned)b * 7919u);
  }
  check_i32("by_block", hout, want, n);

  // local memory
  local_table<<<23, 256>>>(dx, dout, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int b = (i / 256) % 23;
    want[i] = (b * 8 + (hx[i] & 7)) + (b * 8 + ((hx[i] >> 3) & 7));
  }
  check_i32("local_table", hout, want, n);

  // a shuffle under a branch on blockIdx.x
  // (every thread the same trips, so that each shuffle's whole warp is there)
  const int m = 17 * 256 * 60;
  shfl_odd_blocks<<<17, 256>>>(dx, dout, m);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hout, dout, m * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < m; i++) {
    int b = (i / 256) % 17;
    want[i] = b & 1 ? hx[i] + hx[i ^ 1] : hx[i];
  }
  check_i32("shfl_odd_blocks", hout, want, m);

  // a divergent loop that leaves through the thread's end
  thread_loops<<<(n + 255) / 256, 256>>>(dx, dout, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int m = hx[i] & 15;
    want[i] = i & 1 ? 3 * m * (m - 1) / 2 : -1;
  }
  check_i32("thread_loops", hout, want, n);

  says<<<40, 256>>>(n);
  CHECK_LAUNCH();

  CHECK(cudaFree(dx));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dtotal));
  CHECK(cudaFree(dtrips));
  free(hx);
  free(hout);
  free(want);
  return pass("lanes_block_runs");
}
