// warp_collectives_sm80: the warp and block collectives of sm_70/sm_80
// (built with -arch=sm_80, see CMakeLists.txt): __match_any_sync,
// __match_all_sync (match.sync), __reduce_{add,min,max,and,or,xor}_sync
// (redux.sync), __syncthreads_count/_and/_or (bar.red), __nanosleep, and
// the lane masks, with full and partial member masks; checked against the
// host exactly.
#include "check.h"

#define THREADS 160   // five warps; the last one is exercised with a partial mask

struct out_t {
  unsigned match_any, match_all, match_all_pred;
  unsigned r_add, r_and, r_or, r_xor;
  int r_min;
  unsigned r_max;
  int count, all, any;
  unsigned lt, ge;
};

__global__ void collectives(const unsigned *in, out_t *out) {
  int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  unsigned v = in[blockIdx.x * THREADS + tid];
  // warps 0-3: everyone; warp 4: the even lanes only
  unsigned mask = warp == 4 ? 0x55555555u : 0xffffffffu;
  out_t o = {};
  if (mask >> lane & 1) {
    o.match_any = __match_any_sync(mask, v & 7);
    int pred;
    o.match_all = __match_all_sync(mask, v >> 28 == 0 ? 1u : (warp == 1 ? 1u : v), &pred);
    o.match_all_pred = pred;
    o.r_add = __reduce_add_sync(mask, v);
    o.r_and = __reduce_and_sync(mask, v | 0x0f0f0000u);
    o.r_or = __reduce_or_sync(mask, v & 0x00ff00ffu);
    o.r_xor = __reduce_xor_sync(mask, v);
    o.r_min = __reduce_min_sync(mask, (int)v);
    o.r_max = __reduce_max_sync(mask, v);
    __nanosleep(50);
    unsigned lt, ge;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    o.lt = lt;
    o.ge = ge;
  }
  int p = (v % 3) == 0;
  o.count = __syncthreads_count(p);
  o.all = __syncthreads_and(v != 12345u);
  o.any = __syncthreads_or(p && warp == 2);
  out[blockIdx.x * THREADS + tid] = o;
}

static void model(const unsigned *in, out_t *want) {
  for (int b = 0; b < 3; b++) {
    const unsigned *x = in + b * THREADS;
    int count = 0, any = 0;
    for (int t = 0; t < THREADS; t++) {
      count += (x[t] % 3) == 0;
      any |= (x[t] % 3) == 0 && (t >> 5) == 2;
    }
    for (int w = 0; w < THREADS / 32; w++) {
      unsigned mask = w == 4 ? 0x55555555u : 0xffffffffu;
      unsigned add = 0, and_ = ~0u, or_ = 0, xor_ = 0, max = 0;
      int min = 0x7fffffff, same = 1;
      unsigned first = 0;
      int have_first = 0;
      for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1)) continue;
        unsigned v = x[w * 32 + l];
        unsigned m = v >> 28 == 0 ? 1u : (w == 1 ? 1u : v);
        if (!have_first) { first = m; have_first = 1; }
        same &= m == first;
        add += v; and_ &= v | 0x0f0f0000u; or_ |= v & 0x00ff00ffu; xor_ ^= v;
        if ((int)v < min) min = (int)v;
        if (v > max) max = v;
      }
      for (int l = 0; l < 32; l++) {
        out_t *o = &want[b * THREADS + w * 32 + l];
        memset(o, 0, sizeof *o);
        o->count = count;
        o->all = 1;
        o->any = any;
        if (!(mask >> l & 1)) continue;
        unsigned v = x[w * 32 + l];
        for (int k = 0; k < 32; k++)
          if ((mask >> k & 1) && (x[w * 32 + k] & 7) == (v & 7)) o->match_any |= 1u << k;
        o->match_all = same ? mask : 0;
        o->match_all_pred = same;
        o->r_add = add; o->r_and = and_; o->r_or = or_; o->r_xor = xor_; o->r_min = min; o->r_max = max;
        o->lt = (1u << l) - 1;
        o->ge = ~((1u << l) - 1);
      }
    }
  }
}

int main(void) {
  const int n = 3 * THREADS;
  unsigned *in = (unsigned *)malloc(n * sizeof(unsigned));
  unsigned seed = 31;
  for (int i = 0; i < n; i++) in[i] = test_rand(&seed) * 2654435761u;
  for (int i = 0; i < 32; i++) in[THREADS + 32 + i] &= 0x0fffffffu;   // block 1, warp 1: match_all holds
  out_t *want = (out_t *)malloc(n * sizeof(out_t)), *got = (out_t *)malloc(n * sizeof(out_t));
  model(in, want);
  unsigned *din;
  out_t *dout;
  CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dout, n * sizeof(out_t)));
  CHECK(cudaMemcpy(din, in, n * sizeof(unsigned), cudaMemcpyHostToDevice));
  collectives<<<3, THREADS>>>(din, dout);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, dout, n * sizeof(out_t), cudaMemcpyDeviceToHost));
  check_u32("warp and block collectives", (const unsigned *)got, (const unsigned *)want,
            n * sizeof(out_t) / sizeof(unsigned));
  CHECK(cudaFree(din)); CHECK(cudaFree(dout));
  free(in); free(want); free(got);
  return pass("warp_collectives_sm80");
}
