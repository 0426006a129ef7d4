// Survey: sm_90_rt.h (clusters, distributed shared memory), sm_100_rt.h
// (f32x2 arithmetic), programmatic dependent launch, device-side graph
// conditionals, cooperative groups, cuda::barrier / cuda::pipeline.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
namespace cg = cooperative_groups;
#define K extern "C" __global__ void

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
K c_cluster(int *o) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  dim3 a = __clusterDim(), b = __clusterRelativeBlockIdx(), c = __clusterGridDimInClusters(), d = __clusterIdx();
  __cluster_barrier_arrive(); __cluster_barrier_wait(); __cluster_barrier_arrive_relaxed(); __cluster_barrier_wait();
  __threadfence_cluster();
  int *r = (int *)__cluster_map_shared_rank(s, (__clusterRelativeBlockRank() + 1) % __clusterSizeInBlocks());
  o[threadIdx.x] = a.x + b.y + c.z + d.x + __clusterDimIsSpecified() + *r + __cluster_query_shared_rank(r) + __isClusterShared(r) + __isCtaShared(s);
}
K c_cg_cluster(int *o) {
  __shared__ int s[32];
  cg::cluster_group cl = cg::this_cluster();
  s[threadIdx.x] = cl.block_rank();
  cl.sync();
  int *r = cl.map_shared_rank(s, (cl.block_rank() + 1) % cl.num_blocks());
  o[threadIdx.x] = *r + cl.dim_blocks().x + cl.block_index().x + cl.thread_rank() + cl.num_threads() + cl.query_shared_rank(r);
  cl.barrier_wait(cl.barrier_arrive());
}
K c_multicast(unsigned *o, const int *p) {
  __shared__ int s[4]; uint2 m = __cluster_map_shared_multicast(s, p[0]); o[0] = m.x + m.y;
}
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 1000
K c_f32x2(float2 *p, float2 *o) {
  float2 a = p[0], b = p[1], c = p[2];
  float2 r = __fadd2_rn(a, b), s = __fmul2_rz(a, b), t = __ffma2_rd(a, b, c), u = __fadd2_ru(a, b), v = __ffma2_rn(a, b, c);
  o[0] = make_float2(r.x + s.x + t.x + u.x + v.x, r.y + s.y + t.y + u.y + v.y);
}
#endif
K c_pdl(int *p) {
  cudaGridDependencySynchronize();
  p[threadIdx.x] += 1;
  cudaTriggerProgrammaticLaunchCompletion();
}
K c_cond(cudaGraphConditionalHandle h, const int *p) { if (threadIdx.x == 0) cudaGraphSetConditional(h, p[0] > 3); }
K c_cg(int *o, const int *p) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(w);
  int v = p[b.thread_rank()];
  o[0] = w.shfl(v, 3) + w.shfl_down(v, 1) + w.shfl_xor(v, 2) + w.ballot(v) + w.any(v) + w.all(v) + w.match_any(v);
  o[1] = cg::reduce(w, v, cg::plus<int>()) + cg::reduce(w, v, cg::greater<int>()) + cg::reduce(t8, v, cg::bit_and<int>()) + cg::reduce(w, (float)v, cg::plus<float>());
  o[2] = cg::inclusive_scan(w, v) + cg::exclusive_scan(t8, v, cg::bit_xor<int>());
  cg::coalesced_group a = cg::coalesced_threads();
  if (v & 1) { cg::coalesced_group odd = cg::coalesced_threads(); o[3] = odd.shfl(v, 0) + odd.size() + cg::reduce(odd, v, cg::plus<int>()); }
  cg::thread_group g = cg::tiled_partition(b, 16); g.sync();
  auto lab = cg::labeled_partition(w, v & 3); o[4] = lab.size() + a.size();
  b.sync(); w.sync(); o[5] = b.size() + b.group_index().x + b.thread_index().y + b.dim_threads().x + b.num_threads();
  cg::invoke_one(w, [&] { o[6] = 1; });
  o[7] = cg::invoke_one_broadcast(w, [&] { return v + 1; });
}
K c_cg_grid(int *o) {
  cg::grid_group g = cg::this_grid();
  o[g.thread_rank()] = g.size() + g.block_rank() + g.num_blocks() + g.is_valid();
  g.sync();
}
K c_cg_async(const int *p, int *o) {
  __shared__ int s[256];
  cg::thread_block b = cg::this_thread_block();
  cg::memcpy_async(b, s, p, sizeof(s));
  cg::wait(b);
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
  cg::memcpy_async(w, s, p + 256, sizeof(int) * 32);
  cg::wait_prior<0>(w);
  o[b.thread_rank()] = s[b.thread_rank()];
}
K c_barrier(const int *p, int *o) {
  __shared__ int s[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto b = cg::this_thread_block();
  if (b.thread_rank() == 0) init(&bar, b.size());
  b.sync();
  cuda::memcpy_async(b, s, p, sizeof(s), bar);
  bar.arrive_and_wait();
  auto tok = bar.arrive(); bar.wait(std::move(tok));
  o[b.thread_rank()] = s[b.thread_rank()];
  bar.arrive_and_drop();
}
K c_pipeline(const int *p, int *o) {
  __shared__ int s[2][128];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> st;
  auto b = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(b, &st);
  for (int i = 0; i < 2; i++) { pipe.producer_acquire(); cuda::memcpy_async(b, s[i], p + 128 * i, cuda::aligned_size_t<16>(sizeof(s[i])), pipe); pipe.producer_commit(); }
  for (int i = 0; i < 2; i++) { pipe.consumer_wait(); o[128 * i + b.thread_rank()] = s[i][b.thread_rank()]; pipe.consumer_release(); }
  cuda::pipeline<cuda::thread_scope_thread> tp = cuda::make_pipeline();
  tp.producer_acquire(); cuda::memcpy_async(&s[0][b.thread_rank()], p + b.thread_rank(), sizeof(int), tp); tp.producer_commit();
  cuda::pipeline_consumer_wait_prior<0>(tp); o[b.thread_rank()] += s[0][b.thread_rank()];
}
