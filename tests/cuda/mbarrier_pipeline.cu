// mbarrier_pipeline: split arrive/wait barriers and asynchronous copies the
// way libcu++ does them (built with -arch=sm_80, see CMakeLists.txt, where
// nvcc lowers them to mbarrier.* and cp.async; mbarrier_pipeline_sm75.cu
// builds the same source for the default architecture, where libcu++ falls
// back to atomics and plain copies):
//   1. barrier_double_buffer: every thread copies with
//      cuda::memcpy_async(block, ..., cuda::barrier) into two stages, waits
//      with arrive_and_wait, and frees a stage with arrive() + wait(token);
//   2. producer_consumer: warp 0 produces (memcpy_async over its tile,
//      arrive), warps 1..3 consume (wait_parity on "full", arrive on
//      "empty"), whole warps arrive with arrive(32) after __syncwarp (sm_80),
//      and
//      one consumer warp leaves early with arrive_and_drop;
//   3. pipeline_stages: a 4-stage cuda::pipeline (block scope, shared
//      state) with producer_acquire/commit, consumer_wait/release;
//   4. raw_mbarrier (sm_80 build only): the PTX directly -- init (.shared
//      and .shared::cta), arrive returning a state, test_wait on it,
//      test_wait.parity, arrive.noComplete with a count and pending_count
//      (the count before that arrive), arrive_drop, cp.async.mbarrier.arrive
//      with and without .noinc, inval and a second init.
// Integer arithmetic, checked exactly against the host.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>

#include "check.h"

#ifndef MBARRIER_TEST_NAME
#define MBARRIER_TEST_NAME "mbarrier_pipeline"
#define MBARRIER_RAW 1   // the PTX kernel: this file is built for sm_80
#endif

namespace cg = cooperative_groups;
typedef cuda::barrier<cuda::thread_scope_block> block_barrier;

#define TILE 256   // ints per tile

// The value a thread accumulates from tile t: another thread's element.
__host__ __device__ static inline long long tile_term(int t, int v) { return (long long)(t + 1) * v; }
__host__ __device__ static inline int pick(int tid, int n) { return (tid * 7 + 3) % n; }

// ---- 1. double buffering with cuda::barrier ---------------------------------

__global__ void barrier_double_buffer(const int *in, long long *out, int tiles) {
  __shared__ alignas(16) int buf[2][TILE];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ block_barrier full[2], empty[2];
  auto block = cg::this_thread_block();
  if (block.thread_rank() < 2) {
    init(&full[block.thread_rank()], block.size());
    init(&empty[block.thread_rank()], block.size());
  }
  block.sync();
  const int *src = in + (size_t)blockIdx.x * tiles * TILE;
  for (int s = 0; s < 2 && s < tiles; s++)
    cuda::memcpy_async(block, buf[s], src + s * TILE, cuda::aligned_size_t<16>(sizeof(int) * TILE), full[s]);
  long long acc = 0;
  for (int t = 0; t < tiles; t++) {
    int s = t & 1;
    full[s].arrive_and_wait();   // tile t has landed in buf[s]
    acc += tile_term(t, buf[s][pick(threadIdx.x, TILE)]);
    block_barrier::arrival_token done = empty[s].arrive();
    empty[s].wait(std::move(done));   // nobody reads buf[s] any more
    if (t + 2 < tiles)
      cuda::memcpy_async(block, buf[s], src + (t + 2) * TILE, cuda::aligned_size_t<16>(sizeof(int) * TILE), full[s]);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// ---- 2. warp-specialised producer and consumers --------------------------------

#define PC_STAGES 3
#define PC_CONSUMERS 96   // warps 1..3

__global__ void producer_consumer(const int *in, long long *out, int tiles, int drop_after) {
  __shared__ alignas(16) int buf[PC_STAGES][TILE];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ block_barrier full[PC_STAGES], empty[PC_STAGES];
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  if (block.thread_rank() < PC_STAGES) {
    init(&full[block.thread_rank()], 32);                // the producer warp's threads
    init(&empty[block.thread_rank()], PC_CONSUMERS);     // consumer threads (warp 3 drops out later)
  }
  block.sync();
  const int *src = in + (size_t)blockIdx.x * tiles * TILE;
  int w = threadIdx.x / 32;
  if (w == 0) {
    for (int t = 0; t < tiles; t++) {
      int s = t % PC_STAGES;
      if (t >= PC_STAGES) empty[s].wait_parity(((t / PC_STAGES) - 1) & 1);   // consumers freed buf[s]
      cuda::memcpy_async(warp, buf[s], src + t * TILE, cuda::aligned_size_t<16>(sizeof(int) * TILE), full[s]);
      (void)full[s].arrive();
    }
    return;
  }
  long long acc = 0;
  for (int t = 0; t < tiles; t++) {
    int s = t % PC_STAGES;
    full[s].wait_parity((t / PC_STAGES) & 1);
    acc += tile_term(t, buf[s][pick(threadIdx.x, TILE)]);
    if (w == 3 && t == drop_after) {   // warp 3 leaves (drop_after >= PC_STAGES - 1)
      // From the other stages once the phase of their last tile it read
      // (t - k) is complete, so that its drop counts for their next tile;
      // then from this tile's stage: one arrive_and_drop per thread.
      for (int k = 1; k < PC_STAGES; k++) {
        int t2 = t - k;
        empty[t2 % PC_STAGES].wait_parity((t2 / PC_STAGES) & 1);
        empty[t2 % PC_STAGES].arrive_and_drop();
      }
      empty[s].arrive_and_drop();
      break;
    }
#if MBARRIER_RAW
    warp.sync();   // the warp's reads are done: one arrive for all 32 lanes
    if (warp.thread_rank() == 0) (void)empty[s].arrive(32);
#else
    // Below sm_80 libcu++'s arrive() gathers the warp with __activemask and
    // __match_any_sync, which cubridge's activemask (every lane that has not
    // exited) gets wrong inside a branch taken by one lane: arrive together.
    (void)empty[s].arrive();
#endif
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// ---- 3. a multi-stage cuda::pipeline -------------------------------------------

#define PIPE_STAGES 4

__global__ void pipeline_stages(const int *in, long long *out, int tiles) {
  __shared__ alignas(16) int buf[PIPE_STAGES][TILE];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, PIPE_STAGES> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  const int *src = in + (size_t)blockIdx.x * tiles * TILE;
  long long acc = 0;
  for (int compute = 0, fetch = 0; compute < tiles; compute++) {
    for (; fetch < tiles && fetch < compute + PIPE_STAGES; fetch++) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buf[fetch % PIPE_STAGES], src + fetch * TILE,
                         cuda::aligned_size_t<16>(sizeof(int) * TILE), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc += tile_term(compute, buf[compute % PIPE_STAGES][pick(threadIdx.x, TILE)]);
    pipe.consumer_release();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// ---- 4. the PTX directly --------------------------------------------------------

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
__device__ static inline unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ static inline unsigned long long mb_arrive(unsigned b) {
  unsigned long long st;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(b) : "memory");
  return st;
}
__device__ static inline int mb_test(unsigned b, unsigned long long st) {
  unsigned r;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(b), "l"(st) : "memory");
  return (int)r;
}
__device__ static inline int mb_test_parity(unsigned b, unsigned parity) {
  unsigned r;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(b), "r"(parity) : "memory");
  return (int)r;
}
__device__ static inline void mb_wait(unsigned b, unsigned long long st) {
  while (!mb_test(b, st)) {
  }
}
#endif

// res[]: 16 ints per block (see main for each slot's expected value).
__global__ void raw_mbarrier(const int *in, int *res) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  __shared__ alignas(8) unsigned long long bar[2];
  __shared__ alignas(16) int stage[64];
  unsigned b0 = smem(&bar[0]), b1 = smem(&bar[1]);
  int tid = threadIdx.x;   // 64 threads
  int *r = res + blockIdx.x * 16;
  if (tid == 0) {
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(b0), "r"(64) : "memory");
    // b1: 64 arrive-ons from the threads plus 64 from cp.async.mbarrier.arrive.noinc
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b1), "r"(128) : "memory");
  }
  __syncthreads();
  // b0, phase 0: all 64 arrive and wait on their state.
  if (tid == 0) {
    r[0] = mb_test_parity(b0, 0);   // 0: thread 0 has not arrived, so phase 0 is incomplete
    unsigned long long st;
    asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], %2;" : "=l"(st) : "r"(b1), "r"(5) : "memory");
    unsigned pend;
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pend) : "l"(st));
    r[1] = (int)pend;   // 128: the pending count before that arrive
  }
  unsigned long long st = mb_arrive(b0);
  mb_wait(b0, st);
  if (tid == 0) {
    r[2] = mb_test_parity(b0, 0);   // 1: phase 0 (even) is complete
    r[3] = mb_test_parity(b0, 1);   // 0: phase 1 is not
    r[4] = mb_test(b0, st);         // 1: the state's phase is complete
  }
  __syncthreads();
  // b1, phase 0: every thread stages one int with cp.async and arrives through
  // cp.async.mbarrier.arrive.noinc (64, counted in the 128); threads 5..63 also
  // arrive themselves, threads 0..4 are covered by thread 0's .noComplete 5.
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem(&stage[tid])), "l"(&in[blockIdx.x * 64 + tid])
               : "memory");
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(b1) : "memory");
  if (tid >= 5) {
    unsigned long long s1 = mb_arrive(b1);
    mb_wait(b1, s1);
  } else {
    while (!mb_test_parity(b1, 0)) {
    }
  }
  if (tid == 0) {
    int sum = 0;
    for (int i = 0; i < 64; i++) sum += stage[i];
    r[5] = sum;   // every thread's copy is visible
  }
  __syncthreads();
  // b0, phase 1: threads 0..31 leave with arrive_drop, 32..63 arrive; phase 2
  // then completes with the 32 that stay.
  if (tid < 32) {
    asm volatile("mbarrier.arrive_drop.shared.b64 _, [%0];" ::"r"(b0) : "memory");
  } else {
    st = mb_arrive(b0);
    mb_wait(b0, st);
    st = mb_arrive(b0);
    mb_wait(b0, st);
    if (tid == 32) {
      r[6] = mb_test_parity(b0, 0);   // 1: phase 2 is complete
      r[7] = mb_test_parity(b0, 1);   // 0: phase 3 is not
    }
  }
  __syncthreads();
  // b0 again, invalidated and initialised afresh; cp.async.mbarrier.arrive
  // without .noinc changes no count, so 64 arrive-ons complete phase 0.
  if (tid == 0) {
    asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(b0) : "memory");
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(b0), "r"(64) : "memory");
  }
  __syncthreads();
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem(&stage[63 - tid])), "l"(&in[blockIdx.x * 64 + tid])
               : "memory");
  asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" ::"r"(b0) : "memory");
  st = mb_arrive(b0);
  mb_wait(b0, st);
  if (tid == 0) {
    int sum = 0;
    for (int i = 0; i < 64; i++) sum += stage[i] * (i + 1);
    r[8] = sum;
    r[9] = mb_test_parity(b0, 0);   // 1
    r[10] = mb_test_parity(b0, 1);  // 0
  }
  __syncthreads();
  if (tid == 0) {
    asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(b0) : "memory");
    asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(b1) : "memory");
  }
#endif
}

// ---- host ----------------------------------------------------------------------


// Sum each thread of a block would accumulate over `tiles` tiles, reading pick(tid) of each.
static long long expect_thread(const int *in, int block, int tiles, int tid, int upto) {
  long long acc = 0;
  for (int t = 0; t < tiles && t <= upto; t++) acc += tile_term(t, in[((size_t)block * tiles + t) * TILE + pick(tid, TILE)]);
  return acc;
}

int main(void) {
  const int blocks = 7, tiles = 11;
  const size_t n = (size_t)blocks * tiles * TILE;
  int *in = (int *)malloc(n * sizeof(int));
  unsigned seed = 17;
  for (size_t i = 0; i < n; i++) in[i] = (int)(test_rand(&seed) % 20001) - 10000;
  int *din;
  long long *dout;
  const int threads = 128;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, (size_t)blocks * threads * sizeof(long long)));
  CHECK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
  long long *got = (long long *)malloc((size_t)blocks * threads * sizeof(long long));
  long long *want = (long long *)malloc((size_t)blocks * threads * sizeof(long long));

  // 1
  CHECK(cudaMemset(dout, 0xff, (size_t)blocks * threads * sizeof(long long)));
  barrier_double_buffer<<<blocks, threads>>>(din, dout, tiles);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, dout, (size_t)blocks * threads * sizeof(long long), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < threads; t++) want[b * threads + t] = expect_thread(in, b, tiles, t, tiles);
  check_i64("barrier_double_buffer", got, want, (size_t)blocks * threads);

  // 2: warp 3 drops out after tile drop_after; warp 0 (the producer) writes nothing
  const int drop_after = 4;
  CHECK(cudaMemset(dout, 0, (size_t)blocks * threads * sizeof(long long)));
  producer_consumer<<<blocks, threads>>>(din, dout, tiles, drop_after);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, dout, (size_t)blocks * threads * sizeof(long long), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < threads; t++)
      want[b * threads + t] = t < 32 ? 0 : expect_thread(in, b, tiles, t, t >= 96 ? drop_after : tiles);
  check_i64("producer_consumer", got, want, (size_t)blocks * threads);

  // 3
  CHECK(cudaMemset(dout, 0xff, (size_t)blocks * threads * sizeof(long long)));
  pipeline_stages<<<blocks, threads>>>(din, dout, tiles);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, dout, (size_t)blocks * threads * sizeof(long long), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < threads; t++) want[b * threads + t] = expect_thread(in, b, tiles, t, tiles);
  check_i64("pipeline_stages", got, want, (size_t)blocks * threads);

  // 4 (sm_80 and up)
#if MBARRIER_RAW
  int *dres;
  CHECK(cudaMalloc(&dres, blocks * 16 * sizeof(int)));
  CHECK(cudaMemset(dres, 0xff, blocks * 16 * sizeof(int)));
  raw_mbarrier<<<blocks, 64>>>(din, dres);
  CHECK_LAUNCH();
  int res[16 * blocks], rwant[16 * blocks];
  CHECK(cudaMemcpy(res, dres, sizeof res, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    int *r = rwant + b * 16;
    const int *x = in + b * 64;
    int sum = 0, wsum = 0;
    for (int i = 0; i < 64; i++) sum += x[i];
    for (int i = 0; i < 64; i++) wsum += x[63 - i] * (i + 1);
    memset(r, 0xff, 16 * sizeof(int));
    r[0] = 0; r[1] = 128; r[2] = 1; r[3] = 0; r[4] = 1; r[5] = sum;
    r[6] = 1; r[7] = 0; r[8] = wsum; r[9] = 1; r[10] = 0;
  }
  check_i32("raw_mbarrier", res, rwant, 16 * blocks);
  CHECK(cudaFree(dres));
#endif
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  free(in); free(got); free(want);
  return pass(MBARRIER_TEST_NAME);
}
