// narrow_formats_sm100: the fp4 (e2m1), fp6 (e2m3, e3m2) and ue8m0 conversions
// of cuda_fp4.h / cuda_fp6.h / cuda_fp8.h and the f32x2 arithmetic of
// sm_100_rt.h, computed on the device and compared with the same functions
// on the host, where the headers convert in software. Built with sm_90 SASS
// and compute_100f PTX (tests/cuda/CMakeLists.txt): natively on an H200 the
// sm_90 code runs (the headers' software path on the device too); under
// cubridge with CUBRIDGE_SM=100 the compute_100f PTX is chosen, whose
// cvt.*.{e2m1x2,e2m3x2,e3m2x2,ue8m0x2} and add/mul/fma.f32x2 instructions
// the translator implements.
#include "check.h"

#include <cuda_bf16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

#define NOUT 12

__host__ __device__ static void convert(float x, float y, unsigned *o) {
  float2 f = make_float2(x, y);
  o[0] = __nv_cvt_float2_to_fp4x2(f, __NV_E2M1, cudaRoundNearest);
  o[1] = __nv_cvt_float2_to_fp6x2(f, __NV_E2M3, cudaRoundNearest);
  o[2] = __nv_cvt_float2_to_fp6x2(f, __NV_E3M2, cudaRoundNearest);
  o[3] = __nv_cvt_float2_to_e8m0x2(f, __NV_SATFINITE, cudaRoundZero);
  o[4] = __nv_cvt_float2_to_e8m0x2(f, __NV_NOSAT, cudaRoundPosInf);
  __half2_raw h = __nv_cvt_fp4x2_to_halfraw2((__nv_fp4x2_storage_t)(o[0] & 0xff), __NV_E2M1);
  o[5] = h.x | (unsigned)h.y << 16;
  h = __nv_cvt_fp6x2_to_halfraw2((__nv_fp6x2_storage_t)o[1], __NV_E2M3);
  o[6] = h.x | (unsigned)h.y << 16;
  h = __nv_cvt_fp6x2_to_halfraw2((__nv_fp6x2_storage_t)o[2], __NV_E3M2);
  o[7] = h.x | (unsigned)h.y << 16;
  __nv_bfloat162_raw b = __nv_cvt_e8m0x2_to_bf162raw((__nv_fp8x2_storage_t)o[3]);
  o[8] = b.x | (unsigned)b.y << 16;
}

__global__ void convert_all(const float *in, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[2 * i], y = in[2 * i + 1];
  convert(x, y, out + NOUT * i);
  float2 a = make_float2(x, y), c = make_float2(y, 0.5f);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
  float2 s = __fadd2_rn(a, c), p = __fmul2_rz(a, c), m = __ffma2_rn(a, c, a);
#else
  float2 s = make_float2(__fadd_rn(a.x, c.x), __fadd_rn(a.y, c.y));
  float2 p = make_float2(__fmul_rz(a.x, c.x), __fmul_rz(a.y, c.y));
  float2 m = make_float2(__fmaf_rn(a.x, c.x, a.x), __fmaf_rn(a.y, c.y, a.y));
#endif
  unsigned *o = out + NOUT * i;
  o[9] = __float_as_uint(s.x) ^ __float_as_uint(s.y);
  o[10] = __float_as_uint(p.x) ^ __float_as_uint(p.y);
  o[11] = __float_as_uint(m.x) ^ __float_as_uint(m.y);
}

static float bits(unsigned u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

int main() {
  // edge values of each format, halfway points, subnormals, specials, and a sweep
  static const float special[] = {0.0f, -0.0f, 0.25f, 0.5f, 0.75f, 1.0f, 1.25f, 1.5f, 1.75f, 2.5f, 3.0f, 3.5f,
                                  5.0f, 6.0f, 7.0f, 7.5f, 8.0f, 28.0f, 30.0f, 32.0f, 1e6f, -6.0f, -7.75f,
                                  0.0625f, 0.09375f, 0.03125f, 0.015625f, 1.0e-39f, 0x1p-127f, 0x1p-126f,
                                  0x1.8p-127f, 3e38f, INFINITY, -INFINITY, NAN, -0.3f, 0.124f, 0.126f};
  const int ns = sizeof special / sizeof special[0];
  const int n = ns * ns + 1024;
  float *h_in = (float *)malloc(2 * n * sizeof(float));
  unsigned *got = (unsigned *)malloc(NOUT * n * sizeof(unsigned)), *want = (unsigned *)malloc(NOUT * n * sizeof(unsigned));
  for (int i = 0; i < ns * ns; i++) {
    h_in[2 * i] = special[i / ns];
    h_in[2 * i + 1] = special[i % ns];
  }
  unsigned seed = 12345;
  for (int i = ns * ns; i < n; i++)
    for (int k = 0; k < 2; k++) {
      seed = seed * 1664525u + 1013904223u;
      h_in[2 * i + k] = bits((seed & 0x807fffffu) | ((118u + (seed >> 24) % 22u) << 23));
    }
  for (int i = 0; i < n; i++) {
    float x = h_in[2 * i], y = h_in[2 * i + 1];
    convert(x, y, want + NOUT * i);
    float2 a = make_float2(x, y), c = make_float2(y, 0.5f);
    volatile float sx = a.x + c.x, sy = a.y + c.y;
    want[NOUT * i + 9] = *(volatile unsigned *)&sx ^ *(volatile unsigned *)&sy;
    (void)sx;
  }
  float *d_in;
  unsigned *d_out;
  CHECK(cudaMalloc(&d_in, 2 * n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, NOUT * n * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_in, h_in, 2 * n * sizeof(float), cudaMemcpyHostToDevice));
  convert_all<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, d_out, NOUT * n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  static const char *what[NOUT] = {"fp4x2 (e2m1)", "fp6x2 (e2m3)", "fp6x2 (e3m2)", "e8m0x2 rz satfinite",
                                   "e8m0x2 rp", "fp4x2 -> half2", "e2m3x2 -> half2", "e3m2x2 -> half2",
                                   "e8m0x2 -> bf16x2", "add.f32x2", "mul.rz.f32x2", "fma.f32x2"};
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 10; k++) {   // the fma below; the rz product is not compared (no host rz)
      unsigned g = got[NOUT * i + k], w = want[NOUT * i + k];
      float x = h_in[2 * i], y = h_in[2 * i + 1];
      if (k == 9 && (isnan(x + y) || isnan(y + 0.5f)))
        continue;   // NaN results: the host's NaN is not the GPU's canonical one
      if (g != w) {
        printf("FAIL %s: input (%a, %a): got 0x%x, expected 0x%x\n", what[k], h_in[2 * i], h_in[2 * i + 1], g, w);
        return 1;
      }
    }
  // the fma, checked for finite inputs and results
  for (int i = 0; i < n; i++) {
    float x = h_in[2 * i], y = h_in[2 * i + 1];
    if (!isfinite(x) || !isfinite(y)) continue;
    float mx = fmaf(x, y, x), my = fmaf(y, 0.5f, y);
    unsigned w = *(unsigned *)&mx ^ *(unsigned *)&my;
    if (got[NOUT * i + 11] != w && !(isnan(mx) || isnan(my))) {
      printf("FAIL fma.f32x2: input (%a, %a): got 0x%x, expected 0x%x\n", x, y, got[NOUT * i + 11], w);
      return 1;
    }
  }
  printf("narrow formats: %d input pairs, fp4x2(6, 0.25) = 0x%02x, e8m0(1.0) = 0x%02x\n", n,
         got[NOUT * (13 * ns + 2)], got[NOUT * 5 * ns + 3] & 0xff);
  free(h_in);
  free(got);
  free(want);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return pass("narrow_formats_sm100");
}
