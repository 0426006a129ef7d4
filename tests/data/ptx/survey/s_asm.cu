// Survey: PTX forms with no CUDA C intrinsic that real programs write as
// inline asm (llama.cpp's CUDA backend, CUTLASS/CuTe, FlashAttention-style
// kernels): movmatrix, ldmatrix/stmatrix variants, elect.sync, setmaxnreg,
// redux.sync f32, fence.proxy, prefetch and discard, applypriority,
// createpolicy, cvt.rs and friends, multimem (refused), wgmma/tcgen05 (refused).
#include <cstdint>
#define K extern "C" __global__ void
#ifdef __CUDA_ARCH__
#define SM(n) (__CUDA_ARCH__ >= (n))
#else
#define SM(n) 1
#endif
// arch- or family-specific targets (sm_90a, sm_100a, sm_100f, sm_120a ...)
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_SPECIFIC__) || defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
#define SPECIFIC 1
#else
#define SPECIFIC 0
#endif

#if SM(750)
K m_movmatrix(const uint32_t *p, uint32_t *o) {
  uint32_t x = p[threadIdx.x], y;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(y) : "r"(x));
  o[threadIdx.x] = y;
}
#endif
#if SM(900)
K m_ldmatrix(uint32_t *o) {
  __shared__ uint32_t s[512];
  for (int i = threadIdx.x; i < 512; i += 32) s[i] = i * 0x10001u;
  __syncwarp();
  uint32_t a = (uint32_t)__cvta_generic_to_shared(&s[(threadIdx.x % 16) * 8]), r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%4], {%0,%1,%2,%3};" :: "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(a));
  asm volatile("stmatrix.sync.aligned.x1.m8n8.shared.b16 [%1], {%0};" :: "r"(r0), "r"(a));
  o[threadIdx.x] = r0 + r1 + r2 + r3;
}
#endif
#if SM(1000) && SPECIFIC
K m_ldmatrix100(uint32_t *o) {
  __shared__ uint32_t s[512];
  uint32_t a = (uint32_t)__cvta_generic_to_shared(&s[threadIdx.x * 4]), r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
  asm volatile("ldmatrix.sync.aligned.m8n16.x2.shared.b8x16.b6x16_p32 {%0,%1}, [%2];" : "=r"(r2), "=r"(r3) : "r"(a));
  asm volatile("stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 [%1], {%0};" :: "r"(r0), "r"(a));
  o[threadIdx.x] = r0 + r1 + r2 + r3;
}
#endif
#if SM(900)
K m_elect(uint32_t *o) {
  uint32_t lead; uint32_t is;
  asm volatile("{ .reg .pred p; elect.sync %0|p, 0xffffffff; selp.u32 %1, 1, 0, p; }" : "=r"(lead), "=r"(is));
  o[threadIdx.x] = lead + is;
}
#endif
#if SM(900) && SPECIFIC
K m_setmaxnreg(int *o) {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
  o[0] = 1;
}
#endif
#if SM(1000) && SPECIFIC && !SM(1200)
K m_redux_f32(const float *p, float *o) {
  float x = p[threadIdx.x], y, z;
  asm volatile("redux.sync.min.abs.NaN.f32 %0, %1, 0xffffffff;" : "=f"(y) : "f"(x));
  asm volatile("redux.sync.max.f32 %0, %1, 0xffffffff;" : "=f"(z) : "f"(x));
  o[threadIdx.x] = y + z;
}
#endif
#if SM(900)
K m_fence_proxy(int *o) {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("fence.proxy.async.global;" ::: "memory");
  asm volatile("fence.proxy.alias;" ::: "memory");
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  asm volatile("fence.sc.sys;" ::: "memory");
  asm volatile("membar.gl; membar.cta; membar.sys;" ::: "memory");
  o[0] = 1;
}
#endif
#if SM(900)
K m_prefetch(const int *p, int *o) {
  asm volatile("prefetch.global.L2 [%0];" :: "l"(p));
  asm volatile("prefetch.global.L1 [%0];" :: "l"(p));
  asm volatile("prefetch.global.L2::evict_last [%0];" :: "l"(p));
  asm volatile("prefetch.global.L2::evict_normal [%0];" :: "l"(p));
  asm volatile("prefetch.L1 [%0];" :: "l"(p));
  asm volatile("prefetchu.L1 [%0];" :: "l"(p));
  asm volatile("prefetch.tensormap [%0];" :: "l"(p));
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], 256;" :: "l"(p));
  asm volatile("discard.global.L2 [%0], 128;" :: "l"(o));
  asm volatile("applypriority.global.L2::evict_normal [%0], 128;" :: "l"(o));
  o[0] = p[0];
}
#endif
#if SM(1000)
K m_policy(const int *p, int *o) {
  uint64_t pol, pol2;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
  asm volatile("createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %0, 0.5;" : "=l"(pol2));
  int v;
  asm volatile("ld.global.L1::evict_last.L2::cache_hint.s32 %0, [%1], %2;" : "=r"(v) : "l"(p), "l"(pol));
  asm volatile("st.global.L1::no_allocate.L2::cache_hint.s32 [%0], %1, %2;" :: "l"(o), "r"(v), "l"(pol2));
  asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.s32 {%0,%0,%0,%0}, [%1];" : "=r"(v) : "l"(p));
  asm volatile("ld.global.nc.L1::no_allocate.v8.f32 {%0,%0,%0,%0,%0,%0,%0,%0}, [%1];" : "=r"(v) : "l"(p));
  o[1] = v;
}
#endif
#if SM(1000) && SPECIFIC
K m_cvt_misc(const float *p, uint32_t *o) {
  uint32_t r, s; float a = p[0], b = p[1];
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(*(uint16_t *)&r) : "f"(a), "f"(b));
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(s) : "f"(a), "f"(b));
  o[0] = r + s;
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  asm("cvt.rs.f16x2.f32 %0, %1, %2, %3;" : "=r"(s) : "f"(a), "f"(b), "r"(r));
  o[1] = s;
#endif
  asm("cvt.rna.satfinite.tf32.f32 %0, %1;" : "=r"(s) : "f"(a));
  asm("cvt.rn.satfinite.tf32.f32 %0, %1;" : "=r"(r) : "f"(a));
  o[2] = s + r;
  asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(s) : "h"((uint16_t)r));
  o[3] = s;
}
#endif
#if SM(900)
K m_f16_misc(const uint32_t *p, uint32_t *o) {
  uint32_t a = p[0], b = p[1], c = p[2], r, s, t;
  asm("fma.rn.relu.bf16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  asm("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(s) : "r"(a));
  asm("max.NaN.xorsign.abs.bf16x2 %0, %1, %2;" : "=r"(t) : "r"(a), "r"(b));
  o[0] = r + s + t;
  asm("fma.rn.oob.relu.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[1] = r;
}
#endif
#if 1
K m_misc_int(const uint32_t *p, uint32_t *o) {
  uint32_t a = p[0], b = p[1], c = p[2], r;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[0] = r;
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[1] = r;
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[2] = r;
  asm("vadd.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[3] = r;
  asm("vmax2.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[4] = r;
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[5] = r;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r)); o[6] = r;
  asm("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(r)); o[7] = r;
}
#endif
#if SM(900)
K m_bar(int *o) {
  asm volatile("bar.sync 1, 64;");
  asm volatile("barrier.sync.aligned 2, 64;");
  asm volatile("bar.arrive 3, 64;");
  asm volatile("barrier.cta.sync.aligned 0;");
  asm volatile("barrier.cta.arrive.aligned 4, 64;");
  o[threadIdx.x] = 1;
}
#endif
#if 1
K m_stack(int *o, int n) {
  uint64_t sp, buf;
  asm volatile("stacksave.u64 %0;" : "=l"(sp));
  asm volatile("alloca.u64 %0, %1, 8;" : "=l"(buf) : "l"((uint64_t)n * 4));
  *(int *)buf = o[0];
  o[1] = *(int *)buf;
  asm volatile("stackrestore.u64 %0;" :: "l"(sp));
}
#endif
#if SM(900)
K m_mapa(int *o) {
  __shared__ int s[32];
  uint32_t a = (uint32_t)__cvta_generic_to_shared(s), r, rk; uint64_t g;
  asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(r) : "r"(a));
  asm volatile("mapa.u64 %0, %1, 0;" : "=l"(g) : "l"(s));
  asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(rk) : "r"(r));
  int v; asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(r));
  asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(r), "r"(v));
  asm volatile("atom.shared::cluster.add.u32 %0, [%1], 1;" : "=r"(v) : "r"(r));
  asm volatile("red.shared::cluster.add.u32 [%0], 1;" :: "r"(r));
  uint32_t is; asm volatile("{ .reg .pred p; isspacep.shared::cluster p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(is) : "l"(g));
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;");
  o[threadIdx.x] = r + rk + v + is + (int)g;
}
#endif
#if SM(900)
K m_multimem(uint32_t *p) {
  uint32_t v;
  asm volatile("multimem.ld_reduce.relaxed.sys.global.add.u32 %0, [%1];" : "=r"(v) : "l"(p));
  asm volatile("multimem.st.relaxed.sys.global.u32 [%0], %1;" :: "l"(p), "r"(v));
  asm volatile("multimem.red.relaxed.sys.global.add.u32 [%0], %1;" :: "l"(p), "r"(v));
}
#endif
#if SM(900) && SPECIFIC && !SM(1000)
K m_wgmma(float *o, uint64_t da, uint64_t db) {
  float d[4] = {0, 0, 0, 0};
  asm volatile("wgmma.fence.sync.aligned;");
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, %4, %5, 1, 1, 1, 0, 0;"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "l"(da), "l"(db));
  asm volatile("wgmma.commit_group.sync.aligned;");
  asm volatile("wgmma.wait_group.sync.aligned 0;");
  o[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
}
#endif
#if SM(1000) && SPECIFIC && !SM(1200)
K m_tcgen05(uint32_t *o) {
  __shared__ uint32_t taddr;
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;" :: "r"((uint32_t)__cvta_generic_to_shared(&taddr)));
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  o[0] = taddr;
}
#endif
#if SM(890)
K m_mma_misc(const uint32_t *p, float *o) {
  uint32_t a0 = p[0], a1 = p[1], a2 = p[2], a3 = p[3], b0 = p[4], b1 = p[5];
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  o[threadIdx.x] = d0 + d1 + d2 + d3;
}
#endif
#if SM(1200) && SPECIFIC
K m_mma_kind(const uint32_t *p, float *o) {
  uint32_t a0 = p[0], a1 = p[1], a2 = p[2], a3 = p[3], b0 = p[4], b1 = p[5];
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.kind::f8f6f4.m16n8k32.row.col.f32.e2m1.e3m2.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  o[threadIdx.x] = d0 + d1 + d2 + d3;
}
#endif
#if 1
K m_activemask(uint32_t *o) {
  uint32_t m; asm volatile("activemask.b32 %0;" : "=r"(m)); o[threadIdx.x] = m;
  asm volatile("bar.warp.sync %0;" :: "r"(m));
  uint32_t v; asm volatile("vote.sync.ballot.b32 %0, 1, %1;" : "=r"(v) : "r"(m)); o[threadIdx.x] += v;
}
#endif
#if SM(900)
K m_griddep(int *o) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  o[threadIdx.x] += 1;
  asm volatile("griddepcontrol.launch_dependents;");
}
#endif
#if SM(700)
K m_nanosleep(int *o) {
  asm volatile("nanosleep.u32 100;");
  uint32_t t = o[0]; asm volatile("nanosleep.u32 %0;" :: "r"(t));
  o[0] = 1;
}
#endif
