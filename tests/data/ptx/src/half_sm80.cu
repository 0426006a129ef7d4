// cuda_fp16.h / cuda_bf16.h intrinsics, as nvcc lowers them (sm_80: regen.sh builds *_sm80.cu for sm_80).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void hk(const __half *a, const __half *b, __half *o, const __half2 *a2, __half2 *o2, float *f, int *ii) {
  int i = threadIdx.x;
  __half x = a[i], y = b[i];
  o[i*16+0] = __hadd(x, y);
  o[i*16+1] = __hmul(x, y);
  o[i*16+2] = __hfma(x, y, x);
  o[i*16+3] = __hsub(x, y);
  o[i*16+4] = hsqrt(x);
  o[i*16+5] = __hneg(x);
  o[i*16+6] = __habs(x);
  o[i*16+7] = __hmin(x, y);
  o[i*16+8] = __hmax_nan(x, y);
  o[i*16+9] = __float2half(f[i]);
  o[i*16+10] = __float2half_rz(f[i]);
  o[i*16+11] = __hdiv(x, y);
  o[i*16+12] = hexp(x);
  o[i*16+13] = __int2half_rn(ii[i]);
  o[i*16+14] = __hadd_sat(x, y);
  o[i*16+15] = hrcp(x);
  f[i] = __half2float(x) + __low2float(a2[i]);
  ii[i] = __half2int_rn(y) + __hlt(x, y) + __hisnan(x);
  o2[i] = __hfma2(a2[i], a2[i+1], __floats2half2_rn(1.0f, f[i]));
  o2[i+64] = __hmul2(a2[i], a2[i+1]);
  o2[i+128] = h2sqrt(a2[i]);
  o2[i+192] = __hmax2(a2[i], a2[i+1]);
}
extern "C" __global__ void bk(const __nv_bfloat16 *a, __nv_bfloat16 *o, const __nv_bfloat162 *a2, __nv_bfloat162 *o2, float *f, double *d) {
  int i = threadIdx.x;
  __nv_bfloat16 x = a[i], y = a[i+1];
  o[i*8+0] = __hadd(x, y);
  o[i*8+1] = __hmul(x, y);
  o[i*8+2] = __hfma(x, y, x);
  o[i*8+3] = __float2bfloat16(f[i]);
  o[i*8+4] = __double2bfloat16(d[i]);
  o[i*8+5] = __hmax(x,y);
  o[i*8+6] = hsqrt(x);
  o[i*8+7] = __hneg(x);
  f[i] = __bfloat162float(x);
  o2[i] = __hfma2(a2[i], a2[i+1], a2[i]);
  o2[i+64] = __floats2bfloat162_rn(f[i], f[i+1]);
}
