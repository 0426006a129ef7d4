// warp_vote: __ballot_sync, __all_sync and __any_sync with the full mask and
// with partial masks that name exactly the lanes of a divergent branch.
#include "check.h"

#define NOUT 9

__global__ void vote(const int *pred_in, unsigned *out) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int p = pred_in[threadIdx.x];
  unsigned *o = out + warp * NOUT;
  unsigned b = __ballot_sync(0xffffffffu, p);
  int all = __all_sync(0xffffffffu, p);
  int any = __any_sync(0xffffffffu, p);
  if (lane == 0) { o[0] = b; o[1] = all; o[2] = any; }
  if (lane < 16) {                       // lower half only
    unsigned m = 0x0000ffffu;
    unsigned bl = __ballot_sync(m, p);
    int al = __all_sync(m, p), an = __any_sync(m, p);
    if (lane == 3) { o[3] = bl; o[4] = al; o[5] = an; }
  } else if (lane & 1) {                 // odd lanes of the upper half
    unsigned m = 0xaaaa0000u;
    unsigned bo = __ballot_sync(m, p);
    int ao = __all_sync(m, p), ano = __any_sync(m, p);
    if (lane == 31) { o[6] = bo; o[7] = ao; o[8] = ano; }
  }
}

int main(void) {
  const int warps = 6, n = warps * 32;
  int pred[n];
  // warp 0: all true; warp 1: all false; warp 2: every third; warp 3: only
  // lane 17; warp 4: lower half true; warp 5: lanes 16..31 odd true.
  for (int i = 0; i < n; i++) {
    int w = i / 32, l = i % 32;
    pred[i] = w == 0 ? 1 : w == 1 ? 0 : w == 2 ? (l % 3 == 0) : w == 3 ? (l == 17)
            : w == 4 ? (l < 16) : (l >= 16 && (l & 1));
  }
  unsigned want[warps * NOUT];
  for (int w = 0; w < warps; w++) {
    unsigned b = 0;
    for (int l = 0; l < 32; l++) if (pred[w * 32 + l]) b |= 1u << l;
    unsigned lo = b & 0x0000ffffu, odd = b & 0xaaaa0000u;
    unsigned *o = want + w * NOUT;
    o[0] = b; o[1] = b == 0xffffffffu; o[2] = b != 0;
    o[3] = lo; o[4] = lo == 0x0000ffffu; o[5] = lo != 0;
    o[6] = odd; o[7] = odd == 0xaaaa0000u; o[8] = odd != 0;
  }
  int *dp;
  unsigned *dout, got[warps * NOUT];
  CHECK(cudaMalloc(&dp, sizeof(pred)));
  CHECK(cudaMalloc(&dout, sizeof(got)));
  CHECK(cudaMemcpy(dp, pred, sizeof(pred), cudaMemcpyHostToDevice));
  vote<<<1, n>>>(dp, dout);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
  check_u32("vote results (warp*9 + slot)", got, want, warps * NOUT);
  CHECK(cudaFree(dp)); CHECK(cudaFree(dout));
  return pass("warp_vote");
}
