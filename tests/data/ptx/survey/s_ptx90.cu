// Survey: libcu++ <cuda/ptx> wrappers for sm_90 (and sm_100 under
// __CUDA_ARCH__ >= 1000): special registers, fences, cluster barriers,
// getctarank, bulk copies, st.async/red.async, mbarrier forms, ld/st hints.
#include <cuda/ptx>
#include <cuda/barrier>
#include <cstdint>
namespace ptx = cuda::ptx;
#define K extern "C" __global__ void

K p_sreg(uint32_t *o, uint64_t *o64) {
  o[0] = ptx::get_sreg_laneid() + ptx::get_sreg_warpid() + ptx::get_sreg_nwarpid() + ptx::get_sreg_smid() + ptx::get_sreg_nsmid() + ptx::get_sreg_gridid();
  o[1] = ptx::get_sreg_lanemask_eq() + ptx::get_sreg_lanemask_le() + ptx::get_sreg_lanemask_lt() + ptx::get_sreg_lanemask_ge() + ptx::get_sreg_lanemask_gt();
  o[2] = ptx::get_sreg_clock() + ptx::get_sreg_clock_hi() + ptx::get_sreg_globaltimer_lo() + ptx::get_sreg_globaltimer_hi() + ptx::get_sreg_total_smem_size() + ptx::get_sreg_dynamic_smem_size();
  o64[0] = ptx::get_sreg_clock64() + ptx::get_sreg_globaltimer() + ptx::get_sreg_gridid();
#if __CUDA_ARCH__ >= 900
  o[3] = ptx::get_sreg_clusterid_x() + ptx::get_sreg_clusterid_y() + ptx::get_sreg_clusterid_z() + ptx::get_sreg_nclusterid_x() + ptx::get_sreg_nclusterid_y() + ptx::get_sreg_nclusterid_z();
  o[4] = ptx::get_sreg_cluster_ctaid_x() + ptx::get_sreg_cluster_ctaid_y() + ptx::get_sreg_cluster_ctaid_z() + ptx::get_sreg_cluster_nctaid_x() + ptx::get_sreg_cluster_nctaid_y() + ptx::get_sreg_cluster_nctaid_z();
  o[5] = ptx::get_sreg_cluster_ctarank() + ptx::get_sreg_cluster_nctarank() + ptx::get_sreg_is_explicit_cluster() + ptx::get_sreg_aggr_smem_size();
  o64[1] = ptx::get_sreg_current_graph_exec();
#endif
}
#if __CUDA_ARCH__ >= 900
K p_fence(int *o) {
  ptx::fence(ptx::sem_sc, ptx::scope_cta); ptx::fence(ptx::sem_sc, ptx::scope_gpu); ptx::fence(ptx::sem_sc, ptx::scope_sys); ptx::fence(ptx::sem_sc, ptx::scope_cluster);
  ptx::fence(ptx::sem_acq_rel, ptx::scope_cta); ptx::fence(ptx::sem_acq_rel, ptx::scope_cluster);
  ptx::fence_proxy_async(); ptx::fence_proxy_async(ptx::space_global); ptx::fence_proxy_async(ptx::space_shared); ptx::fence_proxy_async(ptx::space_cluster);
  ptx::fence_proxy_alias();
  ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  o[0] = 1;
}
K p_fence86(int *o) {
  ptx::fence(ptx::sem_acquire, ptx::scope_gpu); ptx::fence(ptx::sem_release, ptx::scope_cluster);
  ptx::fence_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster); ptx::fence_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
  ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
  ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
  o[0] = 1;
}
K p_tensormap_fence(const void *tm, int *o) {
  ptx::fence_proxy_tensormap_generic(ptx::sem_release, ptx::scope_gpu);
  ptx::fence_proxy_tensormap_generic(ptx::sem_acquire, ptx::scope_gpu, tm, ptx::n32_t<128>());
  o[0] = 1;
}
K p_cluster(int *o) {
  __shared__ int s[32];
  s[threadIdx.x] = 1;
  ptx::barrier_cluster_arrive(); ptx::barrier_cluster_wait();
  ptx::barrier_cluster_arrive(ptx::sem_release); ptx::barrier_cluster_wait(ptx::sem_acquire);
  ptx::barrier_cluster_arrive(ptx::sem_relaxed); ptx::barrier_cluster_wait();
  o[threadIdx.x] = ptx::getctarank(ptx::space_cluster, s);
}
K p_bulk(const int4 *g, int4 *out, uint64_t *tm) {
  __shared__ alignas(128) int4 s[64];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) { ptx::mbarrier_init(&bar, 1); }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s, g, sizeof(s), &bar);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(s));
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {}
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out, s, sizeof(s));
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_shared, s + 32, s, 256, &bar);
    ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_add, (int *)out, (const int *)s, 256);
    int32_t c[1] = {0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, s, tm, c, &bar);
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, tm, c, s);
  }
}
K p_async_st(int *o) {
  __shared__ int s[32]; __shared__ uint64_t bar;
  if (threadIdx.x == 0) ptx::mbarrier_init(&bar, 32);
  __syncthreads();
  ptx::st_async(&s[(threadIdx.x + 1) % 32], (int32_t)threadIdx.x, &bar);
  ptx::red_async(ptx::op_add, (uint32_t *)&s[0], 1u, &bar);
  uint64_t st = ptx::mbarrier_arrive(&bar);
  while (!ptx::mbarrier_test_wait(&bar, st)) {}
  o[threadIdx.x] = s[threadIdx.x];
}
K p_mbar(int *o) {
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) ptx::mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  uint64_t s1 = ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar);
  ptx::mbarrier_try_wait(ptx::sem_acquire, ptx::scope_cta, &bar, s1);
  ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_cluster, &bar);
  ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &bar, 1, 1000);
  uint64_t s2 = ptx::mbarrier_arrive_no_complete(&bar, 1);
  ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, 16);
  o[0] = (int)ptx::mbarrier_test_wait_parity(&bar, 0) + (int)s2;
}
K p_ldst(int *g, int *o, uint64_t pol) {
  o[0] = ptx::ld(ptx::space_global, g) + ptx::ld_nc(ptx::space_global, g + 1) + ptx::ld_L1_evict_last(ptx::space_global, g + 2) + ptx::ld_nc_L1_no_allocate_L2_256B(ptx::space_global, g + 3) + ptx::ld_L2_cache_hint(ptx::space_global, g + 4, pol) + ptx::ld_L1_evict_first_L2_128B(ptx::space_global, g + 5);
  ptx::st(ptx::space_global, o + 1, o[0]); ptx::st_L2_cache_hint(ptx::space_global, o + 2, o[0], pol); ptx::st_L1_no_allocate(ptx::space_global, o + 3, o[0]);
  __int128 w = ptx::ld(ptx::space_global, (__int128 *)g + 8); ptx::st(ptx::space_global, (__int128 *)o + 8, w);
}
K p_bits(uint32_t *p, uint32_t *o) {
  o[0] = ptx::prmt(p[0], p[1], p[2]) + ptx::prmt_f4e(p[0], p[1], p[2]) + ptx::bmsk_clamp(p[0], p[1]) + ptx::bmsk_wrap(p[0], p[1]) + ptx::bfind(p[0]) + ptx::bfind_shiftamt((int32_t)p[1]) + ptx::shl(p[0], p[1]) + ptx::shr((int32_t)p[0], p[1]);
}
#endif
#if __CUDA_ARCH__ >= 1000
K p_sm100(int *o, uint64_t *g) {
  __shared__ alignas(16) int4 r; __shared__ uint64_t bar; __shared__ int s[64];
  if (threadIdx.x == 0) ptx::mbarrier_init(&bar, 1);
  __syncthreads();
  ptx::st_bulk((void *)s, (uint64_t)256, ptx::n32_t<0>());
  ptx::clusterlaunchcontrol_try_cancel(&r, &bar);
  int4 v = r;
  o[0] = ptx::clusterlaunchcontrol_query_cancel_is_canceled(v) + ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<int>(v);
  ptx::cp_async_bulk_cp_mask(ptx::space_global, ptx::space_shared, g, s, 64, 0xffffu);
}
#endif
