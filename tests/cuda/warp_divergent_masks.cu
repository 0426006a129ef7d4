// warp_divergent_masks: __activemask() names only the lanes on the calling
// path, and the collectives that take it as their mask (__ballot_sync,
// __any_sync, __all_sync, __match_any_sync) work over those lanes:
//   - nested divergent branches (odd lanes, then bit 1; even lanes, then
//     lanes < 16);
//   - a loop with a per-lane trip count (lane % 5 + 1), not unrolled:
//     iteration i runs in the lanes whose count exceeds i;
//   - after that loop and a __syncwarp(): every live lane;
//   - a full warp and a partial one (a 48-thread block: 16 lanes in warp 1).
// Every value printed is the mask of the lanes on one path of a warp that
// was converged where the path began. stdout: the masks, then PASS.
#include "check.h"

#define SLOTS 16
#define UNSET 0xdeadbeefu

__global__ void masks(unsigned *out) {
  int lane = threadIdx.x & 31;
  unsigned *o = out + threadIdx.x * SLOTS;
  if (lane & 1) {
    if (lane & 2)
      o[0] = __activemask();
    else
      o[1] = __activemask();
    o[2] = __ballot_sync(__activemask(), lane & 4);
  } else {
    o[3] = __activemask();
    if (lane < 16) {
      unsigned m = __activemask();
      o[4] = m;
      o[5] = __any_sync(m, lane == 6);
      o[6] = __all_sync(m, (lane & 1) == 0);
      o[7] = __all_sync(m, lane != 8);
    }
  }
  int trips = lane % 5 + 1;
#pragma unroll 1   // unrolled, the lanes would meet iteration i in different copies of the body
  for (int i = 0; i < trips; i++) {
    o[8 + i] = __activemask();
    if (i == 2) o[15] = __ballot_sync(__activemask(), lane & 1);
  }
  __syncwarp();
  o[13] = __activemask();
  if (lane % 3 == 0) o[14] = __match_any_sync(__activemask(), lane / 8);
}

// The lanes l of `lanes` for which cond holds.
#define WHERE(lanes, cond)                                   \
  ([&]() {                                                   \
    unsigned m_ = 0;                                         \
    for (int l = 0; l < 32; l++)                             \
      if (((lanes) >> l & 1u) && (cond)) m_ |= 1u << l;      \
    return m_;                                               \
  }())

static void expect(int nthreads, unsigned *want) {
  for (int i = 0; i < nthreads * SLOTS; i++) want[i] = UNSET;
  for (int t = 0; t < nthreads; t++) {
    int lane = t % 32, w = t / 32, k = nthreads - w * 32 < 32 ? nthreads - w * 32 : 32;
    unsigned all = k == 32 ? 0xffffffffu : (1u << k) - 1, *o = want + t * SLOTS;
    if (lane & 1) {
      o[(lane & 2) ? 0 : 1] = WHERE(all, (l & 3) == (lane & 3));
      o[2] = WHERE(all, (l & 1) && (l & 4));
    } else {
      o[3] = WHERE(all, !(l & 1));
      if (lane < 16) {
        unsigned m = WHERE(all, !(l & 1) && l < 16);
        o[4] = m;
        o[5] = (m >> 6) & 1u;
        o[6] = 1;
        o[7] = !((m >> 8) & 1u);
      }
    }
    for (int i = 0; i < lane % 5 + 1; i++) o[8 + i] = WHERE(all, l % 5 + 1 > i);
    if (lane % 5 + 1 > 2) o[15] = WHERE(all, l % 5 + 1 > 2 && (l & 1));
    o[13] = all;
    if (lane % 3 == 0) o[14] = WHERE(all, l % 3 == 0 && l / 8 == lane / 8);
  }
}

int main(void) {
  static const char *what[SLOTS] = {
      "odd, bit 1 set", "odd, bit 1 clear", "odd: ballot(bit 2)", "even", "even, < 16", "even, < 16: any(lane 6)",
      "even, < 16: all(even)", "even, < 16: all(lane != 8)", "loop iteration 0", "loop iteration 1",
      "loop iteration 2", "loop iteration 3", "loop iteration 4", "after the loop and __syncwarp",
      "lane % 3 == 0: match_any(lane / 8)", "loop iteration 2: ballot(odd)"};
  const int sizes[2] = {64, 48};
  for (int s = 0; s < 2; s++) {
    int n = sizes[s];
    unsigned *want = (unsigned *)malloc(n * SLOTS * sizeof(unsigned));
    unsigned *got = (unsigned *)malloc(n * SLOTS * sizeof(unsigned)), *dout;
    expect(n, want);
    CHECK(cudaMalloc(&dout, n * SLOTS * sizeof(unsigned)));
    CHECK(cudaMemset(dout, 0xef, n * SLOTS * sizeof(unsigned)));
    for (int i = 0; i < n * SLOTS; i++) got[i] = UNSET;
    CHECK(cudaMemcpy(dout, got, n * SLOTS * sizeof(unsigned), cudaMemcpyHostToDevice));
    masks<<<1, n>>>(dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dout, n * SLOTS * sizeof(unsigned), cudaMemcpyDeviceToHost));
    check_u32("masks (thread * 16 + slot)", got, want, n * SLOTS);
    // one line per slot: the value in the last warp's lowest lane that wrote it
    printf("block of %d threads, warp %d:\n", n, (n - 1) / 32);
    int base = (n - 1) / 32 * 32;
    for (int k = 0; k < SLOTS; k++)
      for (int t = base; t < n; t++)
        if (got[t * SLOTS + k] != UNSET) {
          printf("  %-36s lane %2d: 0x%08x\n", what[k], t - base, got[t * SLOTS + k]);
          break;
        }
    CHECK(cudaFree(dout));
    free(want);
    free(got);
  }
  return pass("warp_divergent_masks");
}
