// vector_word_atomicity: an aligned vector access of 8 or 16 bytes moves as
// one word, as GPUs move it. Code written for GPUs leans on that: CUB's
// decoupled look-back (thrust::copy_if, inclusive_scan, ...) packs a tile's
// status and value into one uint2 or ulonglong2, stores them with one
// st.relaxed.v2 and reads them back with one ld.relaxed.v2; a reader that saw
// the new status with the old value would add a stale prefix and give a
// wrong count with no error.
//
// Part 1: writer blocks publish (i, ~i) pairs as uint2, uint4 and ulonglong2
// while the next block reads them back; a torn read shows up as a pair that
// does not match.
// Part 2: a hand-written single-pass scan with decoupled look-back, its tile
// descriptors {flag, value} one ulonglong2 each, checked against the host over
// several sizes and repetitions.
#include "check.h"

#define ROUNDS 200000

// The accesses as CUB and hand-written look-back code make them, in inline
// PTX: generic st/ld.relaxed.gpu.v2.u32 (CUB's tile status), .volatile.global
// v4.u32 and .relaxed.gpu.global v2.u64.
__device__ void store_word(uint2 *p, uint2 v)
{ asm volatile("st.relaxed.gpu.v2.u32 [%0], {%1, %2};" :: "l"(p), "r"(v.x), "r"(v.y) : "memory"); }
__device__ uint2 load_word(uint2 *p)
{ uint2 v; asm volatile("ld.relaxed.gpu.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p) : "memory"); return v; }
__device__ void store_word(uint4 *p, uint4 v)
{ asm volatile("st.volatile.global.v4.u32 [%0], {%1, %2, %3, %4};" :: "l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory"); }
__device__ uint4 load_word(uint4 *p)
{ uint4 v; asm volatile("ld.volatile.global.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p) : "memory"); return v; }
__device__ void store_word(ulonglong2 *p, ulonglong2 v)
{ asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" :: "l"(p), "l"(v.x), "l"(v.y) : "memory"); }
__device__ ulonglong2 load_word(ulonglong2 *p)
{ ulonglong2 v; asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(v.x), "=l"(v.y) : "l"(p) : "memory"); return v; }

template <typename W> __device__ W pair_of(unsigned i);
template <typename W> __device__ bool torn(W w, unsigned *i);

template <> __device__ uint2 pair_of<uint2>(unsigned i) { return make_uint2(i, ~i); }
template <> __device__ bool torn<uint2>(uint2 w, unsigned *i)
{ *i = w.x; return (w.x | w.y) && w.y != ~w.x; }
template <> __device__ uint4 pair_of<uint4>(unsigned i)
{ return make_uint4(i, ~i, i * 2654435761u, i ^ 0x5a5a5a5au); }
template <> __device__ bool torn<uint4>(uint4 w, unsigned *i)
{ *i = w.x; return (w.x | w.y | w.z | w.w) && (w.y != ~w.x || w.z != w.x * 2654435761u || w.w != (w.x ^ 0x5a5a5a5au)); }
template <> __device__ ulonglong2 pair_of<ulonglong2>(unsigned i)
{ return make_ulonglong2(i, ~(unsigned long long)i); }
template <> __device__ bool torn<ulonglong2>(ulonglong2 w, unsigned *i)
{ *i = (unsigned)w.x; return (w.x | w.y) && w.y != ~w.x; }

// Even blocks write ROUNDS pairs into their slot; the odd block after each
// reads until it sees the last, counting pairs that do not match (all zeros:
// not written yet). The writer waits (a while, not for ever: one core runs
// the blocks one after the other) for its reader to start, so that the two
// overlap.
template <typename W>
__global__ void pairs(W *slots, unsigned *started, unsigned *bad)
{
  if (threadIdx.x != 0) return;
  W *slot = slots + blockIdx.x / 2;
  volatile unsigned *go = started + blockIdx.x / 2;
  if (blockIdx.x % 2 == 0) {
    for (unsigned polls = 0; !*go && polls < 20000000u; polls++) {}
    for (unsigned i = 1; i <= ROUNDS; i++) store_word(slot, pair_of<W>(i));
    return;
  }
  *go = 1;
  __threadfence();
  unsigned i = 0, n = 0;
  for (unsigned polls = 0; i != ROUNDS && polls < 50u * ROUNDS; polls++) {
    W w = load_word(slot);
    n += torn<W>(w, &i);
  }
  if (i != ROUNDS) n++;   // never saw the last pair: counted as wrong
  atomicAdd(bad, n);
}

template <typename W>
static void check_pairs(const char *name, int npairs)
{
  W *slots;
  unsigned *started, *bad, h_bad = 0;
  CHECK(cudaMalloc(&slots, npairs * sizeof(W)));
  CHECK(cudaMemset(slots, 0, npairs * sizeof(W)));
  CHECK(cudaMalloc(&started, npairs * sizeof *started));
  CHECK(cudaMemset(started, 0, npairs * sizeof *started));
  CHECK(cudaMalloc(&bad, sizeof *bad));
  CHECK(cudaMemset(bad, 0, sizeof *bad));
  pairs<W><<<2 * npairs, 32>>>(slots, started, bad);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(&h_bad, bad, sizeof h_bad, cudaMemcpyDeviceToHost));
  printf("%s pairs: %u torn\n", name, h_bad);
  if (h_bad != 0) {
    printf("FAIL %s: %u torn or missing pairs\n", name, h_bad);
    exit(1);
  }
  CHECK(cudaFree(slots));
  CHECK(cudaFree(started));
  CHECK(cudaFree(bad));
}

// ---- single-pass scan with decoupled look-back ---------------------------

#define TILE 256
enum { FLAG_NONE = 0, FLAG_AGGREGATE = 1, FLAG_PREFIX = 2 };

// Inclusive scan of in[0, n) (64-bit sums) in one pass: tile t publishes its
// aggregate, looks back over earlier tiles' descriptors until one carries an
// inclusive prefix, then publishes its own prefix.
__global__ void lookback_scan(const unsigned *in, unsigned long long *out, int n,
                              ulonglong2 *desc, unsigned *tile_counter)
{
  __shared__ unsigned long long sums[TILE];
  __shared__ unsigned tile_s;
  __shared__ unsigned long long exclusive_s;
  if (threadIdx.x == 0) tile_s = atomicAdd(tile_counter, 1);   // tiles in start order
  __syncthreads();
  unsigned tile = tile_s;
  int i = tile * TILE + threadIdx.x;
  sums[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int d = 1; d < TILE; d *= 2) {
    unsigned long long v = threadIdx.x >= d ? sums[threadIdx.x - d] : 0;
    __syncthreads();
    sums[threadIdx.x] += v;
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    unsigned long long aggregate = sums[TILE - 1], exclusive = 0;
    if (tile == 0) {
      store_word(&desc[0], make_ulonglong2(FLAG_PREFIX, aggregate));
    } else {
      store_word(&desc[tile], make_ulonglong2(FLAG_AGGREGATE, aggregate));
      for (int j = (int)tile - 1; j >= 0;) {
        ulonglong2 w = load_word(&desc[j]);   // flag and value in one load
        if (w.x == FLAG_NONE) continue;
        exclusive += w.y;
        if (w.x == FLAG_PREFIX) break;
        j--;
      }
      store_word(&desc[tile], make_ulonglong2(FLAG_PREFIX, exclusive + aggregate));
    }
    exclusive_s = exclusive;
  }
  __syncthreads();
  if (i < n) out[i] = exclusive_s + sums[threadIdx.x];
}

static void check_scan(int n, int reps)
{
  unsigned *h_in = (unsigned *)malloc(n * sizeof *h_in);
  unsigned long long *h_out = (unsigned long long *)malloc(n * sizeof *h_out);
  uint32_t s = 12345u + n;
  for (int i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    h_in[i] = s >> 8;
  }
  int tiles = (n + TILE - 1) / TILE;
  unsigned *d_in, *counter;
  unsigned long long *d_out;
  ulonglong2 *desc;
  CHECK(cudaMalloc(&d_in, n * sizeof *d_in));
  CHECK(cudaMalloc(&d_out, n * sizeof *d_out));
  CHECK(cudaMalloc(&desc, tiles * sizeof *desc));
  CHECK(cudaMalloc(&counter, sizeof *counter));
  CHECK(cudaMemcpy(d_in, h_in, n * sizeof *d_in, cudaMemcpyHostToDevice));
  int wrong_reps = 0;
  for (int r = 0; r < reps; r++) {
    CHECK(cudaMemset(desc, 0, tiles * sizeof *desc));
    CHECK(cudaMemset(counter, 0, sizeof *counter));
    lookback_scan<<<tiles, TILE>>>(d_in, d_out, n, desc, counter);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h_out, d_out, n * sizeof *h_out, cudaMemcpyDeviceToHost));
    unsigned long long sum = 0;
    for (int i = 0; i < n; i++) {
      sum += h_in[i];
      if (h_out[i] != sum) {
        fprintf(stderr, "scan n=%d rep %d: out[%d] = %llu, expected %llu\n", n, r, i, h_out[i], sum);
        wrong_reps++;
        break;
      }
    }
  }
  printf("look-back scan n=%d: %d of %d repetitions wrong\n", n, wrong_reps, reps);
  if (wrong_reps) {
    printf("FAIL look-back scan n=%d\n", n);
    exit(1);
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(desc));
  CHECK(cudaFree(counter));
  free(h_in);
  free(h_out);
}

int main()
{
  check_pairs<uint2>("uint2", 4);
  check_pairs<uint4>("uint4", 4);
  check_pairs<ulonglong2>("ulonglong2", 4);
  check_scan(1, 2);
  check_scan(TILE * 3 + 7, 4);
  check_scan(1 << 20, 6);
  printf("PASS vector_word_atomicity\n");
  return 0;
}
