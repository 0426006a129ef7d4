// Survey: sm_20..sm_80 intrinsics of device_functions.h, sm_20/30/32/35/61
// intrinsics, sm_70_rt.h, sm_80_rt.h. One kernel per intrinsic group; each
// reads inputs from memory so nothing folds away.
#include <cuda_runtime.h>
#include <cstdio>
#include <cassert>
#define K extern "C" __global__ void

K k_ldg(const int4 *a, const float4 *b, const double2 *c, const char *d, const short2 *e, int4 *o) {
  int4 x = __ldg(a); float4 y = __ldg(b); double2 z = __ldg(c);
  o[0] = make_int4(x.x + (int)y.x + (int)z.x + __ldg(d) + __ldg(e).x, 0, 0, 0);
}
K k_ldcache(int *p, float4 *q, long long *o) {
  long long s = __ldcg(p) + __ldca(p + 1) + __ldcs(p + 2) + __ldlu(p + 3) + __ldcv(p + 4);
  float4 v = __ldcg(q); float4 w = __ldcs(q + 1); float4 u = __ldlu(q + 2); float4 t = __ldcv(q + 3);
  o[0] = s + (long long)(v.x + w.y + u.z + t.w);
}
K k_stcache(int *p, float4 *q, int v) {
  __stwb(p, v); __stcg(p + 1, v); __stcs(p + 2, v); __stwt(p + 3, v);
  __stwb(q, make_float4(v, 1, 2, 3)); __stcg(q + 1, make_float4(v, 1, 2, 3));
  __stcs(q + 2, make_float4(v, 1, 2, 3)); __stwt(q + 3, make_float4(v, 1, 2, 3));
}
K k_intbits(unsigned *p, unsigned long long *q, unsigned *o) {
  unsigned a = p[0], b = p[1], c = p[2];
  o[0] = __funnelshift_l(a, b, c) + __funnelshift_r(a, b, c) + __funnelshift_lc(a, b, c) + __funnelshift_rc(a, b, c);
  o[1] = __brev(a) + __clz(a) + __popc(a) + __ffs(a) + __byte_perm(a, b, c) + __sad(a, b, c) + __usad(a, b, c);
  o[2] = __mul24(a, b) + __umul24(a, b) + __mulhi(a, b) + __umulhi(a, b) + __hadd(a, b) + __rhadd(a, b) + __uhadd(a, b) + __urhadd(a, b);
  o[3] = (unsigned)(__mul64hi(q[0], q[1]) + __umul64hi(q[0], q[1]) + __brevll(q[0]) + __clzll(q[0]) + __popcll(q[0]) + __ffsll(q[0]));
  o[4] = __dp4a(a, b, c) + __dp4a((int)a, (int)b, (int)c) + __dp2a_lo(a, b, c) + __dp2a_hi((int)a, (int)b, (int)c);
  o[5] = __fns(a, b, (int)c);
}
K k_simd(unsigned *p, unsigned *o) {
  unsigned a = p[0], b = p[1];
  o[0] = __vabs2(a) + __vabsss2(a) + __vadd2(a, b) + __vaddss2(a, b) + __vaddus2(a, b) + __vavgs2(a, b) + __vavgu2(a, b) + __vhaddu2(a, b);
  o[1] = __vcmpeq2(a, b) + __vcmpges2(a, b) + __vcmpgeu2(a, b) + __vcmpgts2(a, b) + __vcmpltu2(a, b) + __vcmpne2(a, b);
  o[2] = __vmaxs2(a, b) + __vmaxu2(a, b) + __vmins2(a, b) + __vminu2(a, b) + __vneg2(a) + __vnegss2(a) + __vsads2(a, b) + __vsadu2(a, b);
  o[3] = __vseteq2(a, b) + __vsetges2(a, b) + __vsetltu2(a, b) + __vsub2(a, b) + __vsubss2(a, b) + __vsubus2(a, b);
  o[4] = __vabs4(a) + __vabsss4(a) + __vadd4(a, b) + __vaddss4(a, b) + __vaddus4(a, b) + __vavgs4(a, b) + __vavgu4(a, b) + __vhaddu4(a, b);
  o[5] = __vcmpeq4(a, b) + __vcmpges4(a, b) + __vcmpgeu4(a, b) + __vmaxs4(a, b) + __vmaxu4(a, b) + __vmins4(a, b) + __vminu4(a, b) + __vsads4(a, b) + __vsadu4(a, b);
  o[6] = __vseteq4(a, b) + __vsetgtu4(a, b) + __vsub4(a, b) + __vsubss4(a, b) + __vsubus4(a, b) + __vabsdiffs2(a, b) + __vabsdiffu4(a, b) + __vneg4(a) + __vnegss4(a);
}
K k_dpx(int *p, int *o) {  // sm_90 DPX; emulated below
  int a = p[0], b = p[1], c = p[2]; bool pr;
  o[0] = __vimax3_s32(a, b, c) + __vimin3_s32(a, b, c) + __vimax_s32_relu(a, b) + __vimin3_s32_relu(a, b, c);
  o[1] = __viaddmax_s32(a, b, c) + __viaddmin_s32_relu(a, b, c) + __vibmax_s32(a, b, &pr) + pr;
  o[2] = (int)(__vimax3_s16x2((unsigned)a, (unsigned)b, (unsigned)c) + __vimin_s16x2_relu((unsigned)a, (unsigned)b) + __viaddmax_u16x2((unsigned)a, (unsigned)b, (unsigned)c) + __vibmin_u16x2((unsigned)a, (unsigned)b, &pr, &pr));
  o[3] = (int)(__vimax3_u32((unsigned)a, (unsigned)b, (unsigned)c) + __viaddmin_u32((unsigned)a, (unsigned)b, (unsigned)c));
}
K k_fround(float *p, double *q, float *o, double *od) {
  float a = p[0], b = p[1], c = p[2];
  o[0] = __fadd_rn(a, b) + __fadd_rz(a, b) + __fadd_ru(a, b) + __fadd_rd(a, b) + __fsub_rn(a, b) + __fsub_ru(a, b) + __fmul_rz(a, b) + __fmul_rd(a, b);
  o[1] = __fmaf_rn(a, b, c) + __fmaf_rz(a, b, c) + __fmaf_ru(a, b, c) + __fmaf_rd(a, b, c) + __fmaf_ieee_rn(a, b, c) + __fmaf_ieee_rz(a, b, c);
  o[2] = __fdiv_rn(a, b) + __fdiv_rz(a, b) + __fdiv_ru(a, b) + __fdiv_rd(a, b) + __fdividef(a, b) + __frcp_rn(a) + __frcp_rz(a) + __frcp_ru(a) + __frcp_rd(a);
  o[3] = __fsqrt_rn(a) + __fsqrt_rz(a) + __fsqrt_ru(a) + __fsqrt_rd(a) + __frsqrt_rn(a) + __saturatef(a);
  o[4] = __expf(a) + __exp10f(a) + __logf(a) + __log2f(a) + __log10f(a) + __sinf(a) + __cosf(a) + __tanf(a) + __powf(a, b) + __tanhf(a);
  double x = q[0], y = q[1], z = q[2];
  od[0] = __dadd_rn(x, y) + __dadd_rz(x, y) + __dadd_ru(x, y) + __dadd_rd(x, y) + __dsub_ru(x, y) + __dmul_rd(x, y) + __fma_rn(x, y, z) + __fma_rz(x, y, z) + __fma_ru(x, y, z) + __fma_rd(x, y, z);
  od[1] = __ddiv_rn(x, y) + __ddiv_rz(x, y) + __ddiv_ru(x, y) + __ddiv_rd(x, y) + __drcp_rn(x) + __drcp_rz(x) + __drcp_ru(x) + __drcp_rd(x) + __dsqrt_rn(x) + __dsqrt_rz(x) + __dsqrt_ru(x) + __dsqrt_rd(x);
}
K k_conv(float *p, double *q, long long *o, float *of, double *od) {
  float a = p[0]; double x = q[0]; long long l = o[8]; unsigned long long u = (unsigned long long)o[9]; int i = (int)o[10]; unsigned ui = (unsigned)o[11];
  o[0] = __float2int_rn(a) + __float2int_rz(a) + __float2int_ru(a) + __float2int_rd(a) + __float2uint_rn(a) + __float2uint_rd(a) + __float2ll_rn(a) + __float2ll_ru(a) + __float2ull_rz(a) + __float2ull_rd(a);
  o[1] = __double2int_rn(x) + __double2int_ru(x) + __double2uint_rz(x) + __double2ll_rd(x) + __double2ull_rn(x) + __double2hiint(x) + __double2loint(x) + __float_as_int(a) + __float_as_uint(a) + __double_as_longlong(x);
  of[0] = __int2float_rn(i) + __int2float_rz(i) + __int2float_ru(i) + __int2float_rd(i) + __uint2float_rn(ui) + __uint2float_rd(ui) + __ll2float_rn(l) + __ll2float_ru(l) + __ull2float_rz(u) + __ull2float_rd(u) + __int_as_float(i) + __uint_as_float(ui) + __double2float_rn(x) + __double2float_rz(x) + __double2float_ru(x) + __double2float_rd(x);
  od[0] = __ll2double_rn(l) + __ll2double_rz(l) + __ll2double_ru(l) + __ll2double_rd(l) + __ull2double_rn(u) + __ull2double_rd(u) + __int2double_rn(i) + __uint2double_rn(ui) + __hiloint2double(i, (int)ui) + __longlong_as_double(l);
}
K k_math(float *p, double *q, float *o, double *od) {
  float a = p[0], b = p[1]; double x = q[0], y = q[1]; int e;
  o[0] = sinf(a) + cosf(a) + tanf(a) + expf(a) + exp2f(a) + exp10f(a) + expm1f(a) + logf(a) + log2f(a) + log10f(a) + log1pf(a) + powf(a, b) + sqrtf(a) + rsqrtf(a) + cbrtf(a) + rcbrtf(a);
  o[1] = asinf(a) + acosf(a) + atanf(a) + atan2f(a, b) + sinhf(a) + coshf(a) + tanhf(a) + asinhf(a) + acoshf(a) + atanhf(a) + erff(a) + erfcf(a) + erfinvf(a) + erfcinvf(a) + lgammaf(a) + tgammaf(a) + normcdff(a) + normcdfinvf(a);
  o[2] = fmodf(a, b) + remainderf(a, b) + frexpf(a, &e) + ldexpf(a, e) + scalbnf(a, 3) + ilogbf(a) + logbf(a) + truncf(a) + roundf(a) + rintf(a) + nearbyintf(a) + ceilf(a) + floorf(a) + lrintf(a) + lroundf(a) + fdimf(a, b) + hypotf(a, b) + norm3df(a, b, a) + rhypotf(a, b) + j0f(a) + j1f(a) + y0f(a) + y1f(a) + jnf(2, a) + cyl_bessel_i0f(a) + sinpif(a) + cospif(a) + nextafterf(a, b) + copysignf(a, b) + fmaxf(a, b) + fminf(a, b) + fabsf(a) + isnan(a) + isinf(a) + signbit(a) + isfinite(a);
  float s, c; sincosf(a, &s, &c); sincospif(a, &s, &c); o[3] = s + c + modff(a, &s) + remquof(a, b, &e) + fmaf(a, b, s) + __sinf(a);
  od[0] = sin(x) + cos(x) + tan(x) + exp(x) + exp2(x) + exp10(x) + expm1(x) + log(x) + log2(x) + log10(x) + log1p(x) + pow(x, y) + sqrt(x) + rsqrt(x) + cbrt(x) + asin(x) + acos(x) + atan(x) + atan2(x, y) + sinh(x) + cosh(x) + tanh(x) + erf(x) + erfc(x) + erfinv(x) + lgamma(x) + tgamma(x) + fmod(x, y) + remainder(x, y) + trunc(x) + round(x) + rint(x) + ceil(x) + floor(x) + hypot(x, y) + j0(x) + y1(x) + sinpi(x) + nextafter(x, y) + fma(x, y, x) + fmax(x, y) + fabs(x) + ilogb(x) + normcdfinv(x) + cyl_bessel_i1(x);
}
K k_sync(int *p, int *o) {
  int v = p[threadIdx.x];
  o[0] = __syncthreads_count(v) + __syncthreads_and(v) + __syncthreads_or(v);
  __syncthreads(); __threadfence(); __threadfence_block(); __threadfence_system(); __syncwarp(); __syncwarp(0xffff);
  o[1] = __ballot_sync(~0u, v) + __all_sync(~0u, v) + __any_sync(~0u, v) + __uni_sync(~0u, v) + __activemask();
  o[2] = __shfl_sync(~0u, v, 3) + __shfl_up_sync(~0u, v, 1) + __shfl_down_sync(~0u, v, 1, 16) + __shfl_xor_sync(~0u, v, 5);
  long long w = v; double d = v; float f = v;
  o[3] = (int)(__shfl_sync(~0u, w, 3) + __shfl_xor_sync(~0u, d, 1) + __shfl_down_sync(~0u, f, 2));
  o[4] = __match_any_sync(~0u, v) + __match_any_sync(~0u, w) + __match_all_sync(~0u, v, &o[5]) + __match_all_sync(~0u, d, &o[6]);
#if __CUDA_ARCH__ >= 800
  o[7] = (int)(__reduce_add_sync(~0u, (unsigned)v) + __reduce_min_sync(~0u, v) + __reduce_max_sync(~0u, (unsigned)v) + __reduce_and_sync(~0u, (unsigned)v) + __reduce_or_sync(~0u, (unsigned)v) + __reduce_xor_sync(~0u, (unsigned)v));
#endif
}
K k_misc(int *p, unsigned long long *o) {
  __nanosleep(p[0]);
  o[0] = clock() + clock64();
  long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); o[1] = t;
  __prof_trigger(3);
  o[2] = __isGlobal(p) + __isShared(p) + __isConstant(p) + __isLocal(p) + __isGridConstant(p);
  o[3] = __cvta_generic_to_shared(p) + __cvta_generic_to_global(p) + __cvta_generic_to_local(p) + __cvta_generic_to_constant(p);
  o[4] = (unsigned long long)__cvta_shared_to_generic((size_t)p[1]) + (unsigned long long)__cvta_global_to_generic((size_t)p[2]);
  if (p[3] == 7) __trap();
  if (p[4] == 8) __brkpt();
  if (p[5] == 9) assert(p[6] == 1);
  printf("%d\n", p[7]);
}
K k_alloca(int *p, int n) {
  int *a = (int *)alloca(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = p[i] * 2;
  p[0] = a[n - 1];
}
K k_malloc(int *p) { int *m = (int *)malloc(16); m[0] = p[0]; p[1] = m[0]; free(m); }
