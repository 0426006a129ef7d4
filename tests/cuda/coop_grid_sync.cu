// coop_grid_sync: cooperative launch with grid-wide synchronisation
// (cudaLaunchCooperativeKernel + cg::this_grid().sync()).
//
// One kernel runs a multi-phase algorithm over N elements with grid-stride
// loops, so the result does not depend on the grid size:
//   1. SWEEPS Jacobi-like sweeps over a ring, x' = f(x[i-1], x[i], x[i+1], b[i]),
//      ping-ponging two buffers with grid.sync() between sweeps;
//   2. ROUNDS rounds of a grid-wide reduction and broadcast: every block sums
//      its part into partial[block], grid.sync(), every block sums the
//      partials (in the same order) into the round's total, grid.sync(),
//      every element adds the total, grid.sync().
// Integer arithmetic (wrapping), so any stale read changes the answer and
// the host computes it bit for bit.
// The grid is sized from cudaOccupancyMaxActiveBlocksPerMultiprocessor times
// the SM count; one block more must fail with
// cudaErrorCooperativeLaunchTooLarge; cudaDevAttrCooperativeLaunch must be 1.
// Launched with cudaLaunchCooperativeKernel (on a stream, timed by events,
// and on the default stream with a smaller grid) and with cudaLaunchKernelEx
// and cudaLaunchAttributeCooperative.
#include <cooperative_groups.h>
#include "check.h"

namespace cg = cooperative_groups;

#define N (1 << 15)
#define THREADS 64
#define SWEEPS 12
#define ROUNDS 4

__device__ __host__ static unsigned step(unsigned left, unsigned mid, unsigned right, unsigned b) {
  return left * 3u + (mid ^ b) + right * 5u + 1u;
}

__global__ void grid_algorithm(unsigned *x, unsigned *y, const unsigned *b, unsigned *partial,
                               unsigned *totals, unsigned *phases) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ unsigned sums[THREADS];
  const unsigned stride = (unsigned)grid.size();
  const unsigned first = (unsigned)grid.thread_rank();

  unsigned *src = x, *dst = y;
  for (int s = 0; s < SWEEPS; s++) {
    for (unsigned i = first; i < N; i += stride)
      dst[i] = step(src[(i + N - 1) % N], src[i], src[(i + 1) % N], b[i]);
    grid.sync();
    unsigned *t = src;
    src = dst;
    dst = t;
  }
  // After an even number of sweeps the data is back in x.

  for (int r = 0; r < ROUNDS; r++) {
    unsigned mine = 0;
    for (unsigned i = first; i < N; i += stride) mine += src[i] * (unsigned)(r + 1);
    sums[block.thread_rank()] = mine;
    block.sync();
    for (unsigned half = THREADS / 2; half > 0; half /= 2) {
      if (block.thread_rank() < half) sums[block.thread_rank()] += sums[block.thread_rank() + half];
      block.sync();
    }
    if (block.thread_rank() == 0) partial[blockIdx.x] = sums[0];
    grid.sync();
    unsigned total = 0;
    for (unsigned k = 0; k < gridDim.x; k++) total += partial[k];
    if (grid.thread_rank() == 0) totals[r] = total;
    grid.sync();   // everyone has read partial[] before the next round writes it
    for (unsigned i = first; i < N; i += stride) src[i] += total ^ i;
    grid.sync();
  }
  if (grid.thread_rank() == 0) phases[0] = (unsigned)grid.is_valid() + 2u * (unsigned)grid.num_blocks();
}

static void host_reference(unsigned *x, const unsigned *b, unsigned *totals) {
  unsigned *y = (unsigned *)malloc(N * sizeof(unsigned));
  unsigned *src = x, *dst = y;
  for (int s = 0; s < SWEEPS; s++) {
    for (unsigned i = 0; i < N; i++) dst[i] = step(src[(i + N - 1) % N], src[i], src[(i + 1) % N], b[i]);
    unsigned *t = src;
    src = dst;
    dst = t;
  }
  for (int r = 0; r < ROUNDS; r++) {
    unsigned total = 0;   // a sum mod 2^32: the order does not matter
    for (unsigned i = 0; i < N; i++) total += src[i] * (unsigned)(r + 1);
    totals[r] = total;
    for (unsigned i = 0; i < N; i++) src[i] += total ^ i;
  }
  free(y);
}

int main(void) {
  int dev = 0, coop = 0, sms = 0, per_sm = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  if (coop != 1) fail("cudaDevAttrCooperativeLaunch is not 1");
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_algorithm, THREADS, 0));
  if (sms < 1 || per_sm < 1) fail("no room for a cooperative grid");
  int blocks = per_sm * sms;
  fprintf(stderr, "coop_grid_sync: %d SMs x %d blocks of %d threads\n", sms, per_sm, THREADS);

  unsigned *hx = (unsigned *)malloc(N * sizeof(unsigned)), *hb = (unsigned *)malloc(N * sizeof(unsigned));
  unsigned seed = 11;
  for (int i = 0; i < N; i++) {
    hx[i] = test_rand(&seed);
    hb[i] = test_rand(&seed);
  }
  unsigned *dx, *dy, *db, *dpartial, *dtotals, *dphases;
  CHECK(cudaMalloc(&dx, N * sizeof(unsigned)));
  CHECK(cudaMalloc(&dy, N * sizeof(unsigned)));
  CHECK(cudaMalloc(&db, N * sizeof(unsigned)));
  CHECK(cudaMalloc(&dpartial, (blocks + 1) * sizeof(unsigned)));
  CHECK(cudaMalloc(&dtotals, ROUNDS * sizeof(unsigned)));
  CHECK(cudaMalloc(&dphases, sizeof(unsigned)));
  CHECK(cudaMemcpy(dx, hx, N * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb, N * sizeof(unsigned), cudaMemcpyHostToDevice));

  // One block more than can be resident: refused, and nothing runs.
  void *args[] = {&dx, &dy, &db, &dpartial, &dtotals, &dphases};
  EXPECT_ERROR(cudaLaunchCooperativeKernel((void *)grid_algorithm, dim3(blocks + 1), dim3(THREADS), args, 0, 0),
               cudaErrorCooperativeLaunchTooLarge);
  EXPECT_ERROR(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
  CHECK(cudaGetLastError());

  // The real launch, on a stream of its own, timed by events.
  cudaStream_t stream;
  cudaEvent_t start, stop;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, stream));
  CHECK(cudaLaunchCooperativeKernel((void *)grid_algorithm, dim3(blocks), dim3(THREADS), args, 0, stream));
  CHECK(cudaEventRecord(stop, stream));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaGetLastError());

  unsigned want_totals[ROUNDS], got_totals[ROUNDS], got_phases = 0;
  unsigned *got = (unsigned *)malloc(N * sizeof(unsigned));
  host_reference(hx, hb, want_totals);
  CHECK(cudaMemcpy(got, dx, N * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_totals, dtotals, sizeof got_totals, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&got_phases, dphases, sizeof got_phases, cudaMemcpyDeviceToHost));
  check_u32("round totals", got_totals, want_totals, ROUNDS);
  check_u32("x after sweeps and rounds", got, hx, N);
  unsigned want_phases = 1u + 2u * (unsigned)blocks;
  check_u32("grid.is_valid() + 2 * grid.num_blocks()", &got_phases, &want_phases, 1);

  // A smaller cooperative grid gives the same answer (grid-stride loops).
  for (int i = 0; i < N; i++) {
    hx[i] = test_rand(&seed);
  }
  CHECK(cudaMemcpy(dx, hx, N * sizeof(unsigned), cudaMemcpyHostToDevice));
  int small = blocks > 3 ? 3 : blocks;
  CHECK(cudaLaunchCooperativeKernel((void *)grid_algorithm, dim3(small), dim3(THREADS), args, 0, 0));
  CHECK_LAUNCH();
  host_reference(hx, hb, want_totals);
  CHECK(cudaMemcpy(got, dx, N * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_totals, dtotals, sizeof got_totals, cudaMemcpyDeviceToHost));
  check_u32("round totals (small grid)", got_totals, want_totals, ROUNDS);
  check_u32("x (small grid)", got, hx, N);

  // The same through cudaLaunchKernelEx with cudaLaunchAttributeCooperative.
  for (int i = 0; i < N; i++) {
    hx[i] = test_rand(&seed);
  }
  CHECK(cudaMemcpy(dx, hx, N * sizeof(unsigned), cudaMemcpyHostToDevice));
  cudaLaunchAttribute attr;
  memset(&attr, 0, sizeof attr);
  attr.id = cudaLaunchAttributeCooperative;
  attr.val.cooperative = 1;
  cudaLaunchConfig_t config;
  memset(&config, 0, sizeof config);
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(THREADS);
  config.stream = stream;
  config.attrs = &attr;
  config.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&config, grid_algorithm, dx, dy, (const unsigned *)db, dpartial, dtotals, dphases));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaGetLastError());
  host_reference(hx, hb, want_totals);
  CHECK(cudaMemcpy(got, dx, N * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_totals, dtotals, sizeof got_totals, cudaMemcpyDeviceToHost));
  check_u32("round totals (cudaLaunchKernelEx)", got_totals, want_totals, ROUNDS);
  check_u32("x (cudaLaunchKernelEx)", got, hx, N);
  config.gridDim = dim3(blocks + 1);
  EXPECT_ERROR(cudaLaunchKernelEx(&config, grid_algorithm, dx, dy, (const unsigned *)db, dpartial, dtotals, dphases),
               cudaErrorCooperativeLaunchTooLarge);
  EXPECT_ERROR(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);

  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dpartial));
  CHECK(cudaFree(dtotals));
  CHECK(cudaFree(dphases));
  free(hx);
  free(hb);
  free(got);
  return pass("coop_grid_sync");
}
