// Survey: cuda_fp16.h, cuda_bf16.h, cuda_fp8.h, cuda_fp6.h, cuda_fp4.h.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_fp6.h>
#include <cuda_fp4.h>
#define K extern "C" __global__ void

K h_arith(__half *p, __half2 *q, __half *o, __half2 *o2) {
  __half a = p[0], b = p[1], c = p[2]; __half2 x = q[0], y = q[1], z = q[2];
  o[0] = __hadd(a, b) + __hsub(a, b) + __hmul(a, b) + __hdiv(a, b) + __hfma(a, b, c) + __hneg(a) + __habs(a) + __hadd_sat(a, b) + __hsub_sat(a, b) + __hmul_sat(a, b) + __hfma_sat(a, b, c) + __hfma_relu(a, b, c) + __hadd_rn(a, b) + __hsub_rn(a, b) + __hmul_rn(a, b);
  o[1] = __hmax(a, b) + __hmin(a, b) + __hmax_nan(a, b) + __hmin_nan(a, b) + (__half)(__heq(a, b) + __hne(a, b) + __hlt(a, b) + __hge(a, b) + __hequ(a, b) + __hltu(a, b) + __hisnan(a) + __hisinf(a));
  o2[0] = __hadd2(x, y) + __hsub2(x, y) + __hmul2(x, y) + __h2div(x, y) + __hfma2(x, y, z) + __hneg2(x) + __habs2(x) + __hadd2_sat(x, y) + __hfma2_sat(x, y, z) + __hfma2_relu(x, y, z) + __hmax2(x, y) + __hmin2_nan(x, y) + __hcmadd(x, y, z) + __hadd2_rn(x, y) + __hmul2_rn(x, y);
  o2[1] = __heq2(x, y) + __hlt2(x, y) + __hgeu2(x, y) + __hisnan2(x) + __lows2half2(x, y) + __highs2half2(x, y) + __halves2half2(a, b) + __low2half2(x) + __high2half2(x) + __lowhigh2highlow(x) + __half2half2(a);
  o[2] = (__half)(__hbeq2(x, y) + __hbne2(x, y) + __hblt2(x, y) + __hbgeu2(x, y)) + __low2half(x) + __high2half(x);
  o[3] = (__half)(__heq2_mask(x, y) + __hne2_mask(x, y) + __hlt2_mask(x, y));
}
K h_math(__half *p, __half2 *q, __half *o, __half2 *o2) {
  __half a = p[0]; __half2 x = q[0];
  o[0] = hsqrt(a) + hrsqrt(a) + hrcp(a) + hlog(a) + hlog2(a) + hlog10(a) + hexp(a) + hexp2(a) + hexp10(a) + hcos(a) + hsin(a) + hceil(a) + hfloor(a) + hrint(a) + htrunc(a) + htanh(a) + htanh_approx(a);
  o2[0] = h2sqrt(x) + h2rsqrt(x) + h2rcp(x) + h2log(x) + h2log2(x) + h2log10(x) + h2exp(x) + h2exp2(x) + h2exp10(x) + h2cos(x) + h2sin(x) + h2ceil(x) + h2floor(x) + h2rint(x) + h2trunc(x) + h2tanh(x) + h2tanh_approx(x);
}
K h_conv(float *f, double *d, int *i, __half *o, float *of, int *oi, __half2 *o2) {
  float a = f[0]; double x = d[0]; int n = i[0]; __half h = o[8];
  o[0] = __float2half(a) + __float2half_rn(a) + __float2half_rz(a) + __float2half_rd(a) + __float2half_ru(a) + __double2half(x) + __int2half_rn(n) + __int2half_rz(n) + __uint2half_rd(n) + __short2half_rn(n) + __ll2half_ru(n) + __ull2half_rz(n) + __ushort2half_rd(n);
  of[0] = __half2float(h) + __low2float(o2[4]) + __high2float(o2[4]);
  oi[0] = __half2int_rn(h) + __half2int_rz(h) + __half2int_rd(h) + __half2int_ru(h) + __half2uint_rn(h) + __half2short_rz(h) + __half2ushort_rd(h) + __half2ll_rn(h) + __half2ull_ru(h) + __half2char_rz(h) + __half2uchar_rz(h) + __half_as_short(h) + __half_as_ushort(h);
  o2[0] = __float2half2_rn(a) + __floats2half2_rn(a, a) + __float22half2_rn(make_float2(a, a));
  float2 g = __half22float2(o2[4]); of[1] = g.x + g.y;
  o[1] = __short_as_half((short)n) + __ushort_as_half((unsigned short)n);
}
K h_mem(__half *p, __half2 *q, __half *o, __half2 *o2) {
  __half a = __ldg(p) + __ldcg(p + 1) + __ldca(p + 2) + __ldcs(p + 3) + __ldlu(p + 4) + __ldcv(p + 5);
  __half2 x = __ldg(q) + __ldcg(q + 1) + __ldcs(q + 2) + __ldlu(q + 3);
  __stwb(o, a); __stcg(o + 1, a); __stcs(o + 2, a); __stwt(o + 3, a); __stwb(o2, x); __stcs(o2 + 1, x);
  o[4] = __shfl_sync(~0u, a, 1) + __shfl_xor_sync(~0u, a, 2) + __shfl_up_sync(~0u, a, 1) + __shfl_down_sync(~0u, a, 1);
  o2[2] = __shfl_sync(~0u, x, 1) + __shfl_xor_sync(~0u, x, 2);
}
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
K b_arith(__nv_bfloat16 *p, __nv_bfloat162 *q, __nv_bfloat16 *o, __nv_bfloat162 *o2) {
  __nv_bfloat16 a = p[0], b = p[1], c = p[2]; __nv_bfloat162 x = q[0], y = q[1], z = q[2];
  o[0] = __hadd(a, b) + __hsub(a, b) + __hmul(a, b) + __hdiv(a, b) + __hfma(a, b, c) + __hneg(a) + __habs(a) + __hadd_sat(a, b) + __hfma_sat(a, b, c) + __hfma_relu(a, b, c) + __hmax(a, b) + __hmin_nan(a, b) + __hadd_rn(a, b) + __hmul_rn(a, b);
  o2[0] = __hadd2(x, y) + __hsub2(x, y) + __hmul2(x, y) + __h2div(x, y) + __hfma2(x, y, z) + __hneg2(x) + __habs2(x) + __hadd2_sat(x, y) + __hfma2_relu(x, y, z) + __hmax2_nan(x, y) + __hmin2(x, y) + __hcmadd(x, y, z) + __heq2(x, y) + __hltu2(x, y);
  o[1] = (__nv_bfloat16)(float)(__heq(a, b) + __hlt(a, b) + __hgeu(a, b) + __hisnan(a) + __hisinf(a) + __hbeq2(x, y) + __hblt2(x, y));
}
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
K b_math(__nv_bfloat16 *p, __nv_bfloat162 *q, __nv_bfloat16 *o, __nv_bfloat162 *o2) {
  __nv_bfloat16 a = p[0]; __nv_bfloat162 x = q[0];
  o[0] = hsqrt(a) + hrsqrt(a) + hrcp(a) + hlog(a) + hlog2(a) + hlog10(a) + hexp(a) + hexp2(a) + hexp10(a) + hcos(a) + hsin(a) + hceil(a) + hfloor(a) + hrint(a) + htrunc(a) + htanh(a) + htanh_approx(a);
  o2[0] = h2sqrt(x) + h2rsqrt(x) + h2rcp(x) + h2log(x) + h2exp(x) + h2exp2(x) + h2cos(x) + h2sin(x) + h2ceil(x) + h2floor(x) + h2rint(x) + h2trunc(x) + h2tanh(x) + h2tanh_approx(x);
}
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
K b_conv(float *f, double *d, int *i, __nv_bfloat16 *o, float *of, int *oi, __nv_bfloat162 *o2, __half *oh) {
  float a = f[0]; double x = d[0]; int n = i[0]; __nv_bfloat16 h = o[8];
  o[0] = __float2bfloat16(a) + __float2bfloat16_rn(a) + __float2bfloat16_rz(a) + __float2bfloat16_rd(a) + __float2bfloat16_ru(a) + __double2bfloat16(x) + __int2bfloat16_rn(n) + __int2bfloat16_rz(n) + __uint2bfloat16_rd(n) + __short2bfloat16_rn(n) + __ll2bfloat16_ru(n) + __ushort2bfloat16_rd(n);
  of[0] = __bfloat162float(h) + __low2float(o2[4]) + __high2float(o2[4]);
  oi[0] = __bfloat162int_rn(h) + __bfloat162int_rz(h) + __bfloat162int_rd(h) + __bfloat162uint_ru(h) + __bfloat162short_rz(h) + __bfloat162ll_rn(h) + __bfloat162ull_rz(h) + __bfloat162char_rz(h) + __bfloat162uchar_rz(h) + __bfloat16_as_short(h);
  o2[0] = __float2bfloat162_rn(a) + __floats2bfloat162_rn(a, a) + __float22bfloat162_rn(make_float2(a, a));
  float2 g = __bfloat1622float2(o2[4]); of[1] = g.x + g.y;
#if __CUDA_ARCH__ >= 800
  oh[0] = __float2half((float)h);
#endif
}
#endif
K f8_conv(float *f, __half *h, __nv_bfloat16 *b, double *d, unsigned short *o, float *of) {
  float2 f2 = make_float2(f[0], f[1]); __half2_raw h2 = *(__half2_raw *)h; __nv_bfloat162_raw b2 = *(__nv_bfloat162_raw *)b; double2 d2 = make_double2(d[0], d[1]);
  o[0] = __nv_cvt_float2_to_fp8x2(f2, __NV_SATFINITE, __NV_E4M3) + __nv_cvt_float2_to_fp8x2(f2, __NV_NOSAT, __NV_E5M2) + __nv_cvt_halfraw2_to_fp8x2(h2, __NV_SATFINITE, __NV_E5M2) + __nv_cvt_bfloat16raw2_to_fp8x2(b2, __NV_SATFINITE, __NV_E4M3) + __nv_cvt_double2_to_fp8x2(d2, __NV_SATFINITE, __NV_E4M3);
  o[1] = __nv_cvt_float_to_fp8(f[0], __NV_SATFINITE, __NV_E4M3) + __nv_cvt_halfraw_to_fp8(*(__half_raw *)h, __NV_SATFINITE, __NV_E5M2) + __nv_cvt_bfloat16raw_to_fp8(*(__nv_bfloat16_raw *)b, __NV_SATFINITE, __NV_E4M3) + __nv_cvt_double_to_fp8(d[0], __NV_SATFINITE, __NV_E5M2);
  __half2_raw r = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)o[4], __NV_E4M3); __half_raw s = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)o[5], __NV_E5M2);
  o[2] = r.x + r.y + s.x;
  __nv_fp8_e4m3 e(f[2]); __nv_fp8x4_e5m2 e4(make_float4(f[0], f[1], f[2], f[3])); __nv_fp8_e8m0 m(f[3]);
  of[0] = (float)e + ((float4)e4).x + (float)m;
}
K f8_e8m0(float *f, __nv_bfloat16 *b, double *d, unsigned short *o) {
  float2 f2 = make_float2(f[0], f[1]);
  o[0] = __nv_cvt_float_to_e8m0(f[0], __NV_SATFINITE, cudaRoundZero) + __nv_cvt_float2_to_e8m0x2(f2, __NV_NOSAT, cudaRoundPosInf) + __nv_cvt_bfloat16raw_to_e8m0(*(__nv_bfloat16_raw *)b, __NV_SATFINITE, cudaRoundZero) + __nv_cvt_bfloat162raw_to_e8m0x2(*(__nv_bfloat162_raw *)b, __NV_SATFINITE, cudaRoundPosInf) + __nv_cvt_double_to_e8m0(d[0], __NV_SATFINITE, cudaRoundZero);
  __nv_bfloat16_raw r = __nv_cvt_e8m0_to_bf16raw((__nv_fp8_storage_t)o[3]); __nv_bfloat162_raw r2 = __nv_cvt_e8m0x2_to_bf162raw((__nv_fp8x2_storage_t)o[4]);
  o[1] = r.x + r2.x + r2.y;
}
K f6_conv(float *f, __half *h, __nv_bfloat16 *b, double *d, unsigned short *o) {
  float2 f2 = make_float2(f[0], f[1]);
  o[0] = __nv_cvt_float2_to_fp6x2(f2, __NV_E2M3, cudaRoundNearest) + __nv_cvt_float2_to_fp6x2(f2, __NV_E3M2, cudaRoundNearest) + __nv_cvt_float_to_fp6(f[0], __NV_E3M2, cudaRoundNearest) + __nv_cvt_halfraw2_to_fp6x2(*(__half2_raw *)h, __NV_E2M3, cudaRoundNearest) + __nv_cvt_bfloat16raw2_to_fp6x2(*(__nv_bfloat162_raw *)b, __NV_E3M2, cudaRoundNearest) + __nv_cvt_double2_to_fp6x2(make_double2(d[0], d[1]), __NV_E2M3, cudaRoundZero);
  __half2_raw r = __nv_cvt_fp6x2_to_halfraw2((__nv_fp6x2_storage_t)o[4], __NV_E2M3); __half_raw s = __nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)o[5], __NV_E3M2);
  o[1] = r.x + r.y + s.x;
}
K f4_conv(float *f, __half *h, __nv_bfloat16 *b, double *d, unsigned short *o) {
  float2 f2 = make_float2(f[0], f[1]);
  o[0] = __nv_cvt_float2_to_fp4x2(f2, __NV_E2M1, cudaRoundNearest) + __nv_cvt_float_to_fp4(f[0], __NV_E2M1, cudaRoundNearest) + __nv_cvt_halfraw2_to_fp4x2(*(__half2_raw *)h, __NV_E2M1, cudaRoundNearest) + __nv_cvt_bfloat16raw2_to_fp4x2(*(__nv_bfloat162_raw *)b, __NV_E2M1, cudaRoundNearest) + __nv_cvt_double2_to_fp4x2(make_double2(d[0], d[1]), __NV_E2M1, cudaRoundZero);
  __half2_raw r = __nv_cvt_fp4x2_to_halfraw2((__nv_fp4x2_storage_t)o[4], __NV_E2M1); __half_raw s = __nv_cvt_fp4_to_halfraw((__nv_fp4_storage_t)o[5], __NV_E2M1);
  o[1] = r.x + r.y + s.x;
}
