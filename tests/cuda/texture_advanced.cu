// texture_advanced: mipmaps, cube maps, layered and half-float textures and
// surfaces on mip levels, cuda-samples style.
//   1. a mipmapped 2D float texture (cudaMallocMipmappedArray, one copy per
//      level through cudaGetMipmappedArrayLevel): tex2DLod with point
//      filtering and point mip filtering (exact; lods outside the levels are
//      clamped), then trilinear (linear filtering, linear mip filtering,
//      trilinear optimization off) at lods with a quarter-step fraction;
//   2. tex2DGrad on a mipmapped texture whose level l holds the constant l,
//      so the result is the level of detail itself: log2 of the longer
//      derivative vector in level-0 texels (axis-aligned and one diagonal);
//   3. a cubemap (texCubemap) read at the centre of every texel of every face
//      (exact), and bilinear inside faces; a layered cubemap
//      (texCubemapLayered); a mipmapped cubemap (texCubemapLod);
//   4. a layered 2D texture with bilinear filtering (tex2DLayered), and a
//      mipmapped layered one (tex2DLayeredLod);
//   5. half-float textures (cudaCreateChannelDescHalf/Half4) read with
//      tex2D<float>/tex2D<float4> (promoted to float; point exact; linear:
//      the 1/256-weight sum rounded to fp16, as an H200 returns it, within
//      one fp16 ulp);
//   6. surfaces: every level of a mipmapped array written with surf2Dwrite
//      and read back through the mipmapped texture (tex2DLod); a 3D array
//      written with surf3Dwrite, a layered array with surf2DLayeredwrite and
//      a cubemap with surfCubemapwrite, each read back through a texture.
// Host references: texels are exact; bilinear results use the hardware's
// 1/256 weights (w11 = round(a*b), the others by difference, as measured on
// an H200), within 1e-5 relative (cube faces: one 1/256 weight step);
// levels of detail from gradients within 1/32 of a level.
// Every check runs even after one fails: each failing check prints its
// mismatches (up to 10) and a count, and the program exits 1 at the end.
#include <cuda_fp16.h>

#include "check.h"

// ------------------------------------------------------- non-fatal checks
static int failures;

// report: one FAIL line per mismatch (the first 10), then a count; false if any.
static bool report(const char *what, const float *got, const float *want, int n, const double *tol) {
  int bad = 0;
  for (int i = 0; i < n; i++) {
    bool same = got[i] == want[i] || (isnan(got[i]) && isnan(want[i]));
    double d = fabs((double)got[i] - (double)want[i]);
    if (tol ? d <= tol[i] : same) continue;
    if (bad++ < 10) {
      if (tol)
        printf("FAIL %s: index %d: got %.9g, expected %.9g (diff %.3g)\n", what, i, got[i], want[i], d);
      else
        printf("FAIL %s: index %d: got %.9g, expected %.9g\n", what, i, got[i], want[i]);
    }
  }
  if (bad) {
    printf("FAIL %s: %d of %d values differ\n", what, bad, n);
    failures++;
  }
  return !bad;
}

// expect_exact: bit-exact floats (NaN equals NaN).
static void expect_exact(const char *what, const float *got, const float *want, int n) {
  report(what, got, want, n, NULL);
}

// expect_tol: |got - want| <= abs_tol + rel_tol * |want|.
static void expect_tol(const char *what, const float *got, const float *want, int n, double rel_tol, double abs_tol) {
  static double tol[4096];
  for (int i = 0; i < n; i++) tol[i] = abs_tol + rel_tol * fabs((double)want[i]);
  report(what, got, want, n, tol);
}

// expect_half_ulp: within one fp16 ulp of want (the ulp of want's binade).
static void expect_half_ulp(const char *what, const float *got, const float *want, int n) {
  static double tol[4096];
  for (int i = 0; i < n; i++) {
    int e;
    frexp(fabs((double)want[i]), &e);  // |want| in [2^(e-1), 2^e); subnormal halves below 2^-14
    tol[i] = want[i] == 0 ? ldexp(1.0, -24) : ldexp(1.0, (e - 1 < -14 ? -14 : e - 1) - 10);
  }
  report(what, got, want, n, tol);
}

// expect_status: a call that must fail with exactly `want` (non-fatal).
static void expect_status(const char *what, cudaError_t got, cudaError_t want) {
  if (got == want) return;
  printf("FAIL %s returned %s, expected %s\n", what, cudaGetErrorName(got), cudaGetErrorName(want));
  failures++;
}

// ---------------------------------------------------------------- host models
static float bilinear(const float *img, int w, int h, float x, float y) {  // unnormalized, clamp
  float bx = x - 0.5f, by = y - 0.5f, fx = floorf(bx), fy = floorf(by);
  int a = (int)floorf((bx - fx) * 256.0f + 0.5f), b = (int)floorf((by - fy) * 256.0f + 0.5f);
  int w11 = (a * b + 128) >> 8;
  int wt[4] = {256 - a - b + w11, a - w11, b - w11, w11};
  double r = 0;
  for (int k = 0; k < 4; k++) {
    int xi = (int)fx + (k & 1), yi = (int)fy + (k >> 1);
    xi = xi < 0 ? 0 : xi >= w ? w - 1 : xi;
    yi = yi < 0 ? 0 : yi >= h ? h - 1 : yi;
    r += wt[k] * (double)img[yi * w + xi];
  }
  return (float)(r / 256.0);
}

// A filtered result of a half texture: rounded to fp16, nearest even (an
// H200 returned -1.32226562 where the float sum is -1.32177734).
static float half_filtered(float v) { return __half2float(__float2half_rn(v)); }

// ------------------------------------------------------------------ kernels
__global__ void k_lod(cudaTextureObject_t t, const float4 *q, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLod<float>(t, q[i].x, q[i].y, q[i].z);
}

__global__ void k_grad(cudaTextureObject_t t, const float4 *d, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(d[i].x, d[i].y), make_float2(d[i].z, d[i].w));
}

__global__ void k_cube(cudaTextureObject_t t, const float4 *dir, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemap<float>(t, dir[i].x, dir[i].y, dir[i].z);
}

__global__ void k_cube_layered(cudaTextureObject_t t, const float4 *dir, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemapLayered<float>(t, dir[i].x, dir[i].y, dir[i].z, (int)dir[i].w);
}

__global__ void k_cube_lod(cudaTextureObject_t t, const float4 *dir, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemapLod<float>(t, dir[i].x, dir[i].y, dir[i].z, dir[i].w);
}

__global__ void k_layered_lod(cudaTextureObject_t t, const float4 *q, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLayeredLod<float>(t, q[i].x, q[i].y, (int)q[i].w, q[i].z);
}

__global__ void k_layered(cudaTextureObject_t t, const float4 *q, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLayered<float>(t, q[i].x, q[i].y, (int)q[i].z);
}

__global__ void k_half(cudaTextureObject_t t1, cudaTextureObject_t t4, const float4 *q, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 v = tex2D<float4>(t4, q[i].x, q[i].y);
  out[5 * i] = tex2D<float>(t1, q[i].x, q[i].y);
  out[5 * i + 1] = v.x; out[5 * i + 2] = v.y; out[5 * i + 3] = v.z; out[5 * i + 4] = v.w;
}

__global__ void k_surf_level(cudaSurfaceObject_t s, int level, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) surf2Dwrite(level * 10.0f + x * 0.5f + y, s, x * (int)sizeof(float), y);
}

__global__ void k_surf_shapes(cudaSurfaceObject_t s3, cudaSurfaceObject_t sl, cudaSurfaceObject_t sc) {
  int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;  // 8 x 8 x 6
  surf3Dwrite(make_float2(x + 8.0f * y, 100.0f * z), s3, x * (int)sizeof(float2), y, z);
  surf2DLayeredwrite(-(x + 8.0f * y) - 1000.0f * z, sl, x * (int)sizeof(float), y, z);
  surfCubemapwrite((unsigned char)(x + 8 * y + 32 * z), sc, x, y, z);
}

__global__ void k_read_shapes(cudaTextureObject_t t3, cudaTextureObject_t tl, cudaTextureObject_t tc,
                              const float4 *dir, float *out) {
  int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x, i = (z * 8 + y) * 8 + x;
  float2 v = tex3D<float2>(t3, x + 0.5f, y + 0.5f, z + 0.5f);
  out[4 * i] = v.x;
  out[4 * i + 1] = v.y;
  out[4 * i + 2] = tex2DLayered<float>(tl, x + 0.5f, y + 0.5f, z);
  out[4 * i + 3] = texCubemap<float>(tc, dir[i].x, dir[i].y, dir[i].z);  // uchar read as normalized float
}

// ------------------------------------------------------------------ helpers
template <typename T> static T *dev_copy(const T *h, int n) {
  T *d;
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

static void fetch(float *h, float *d, int n) {
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
}

static cudaTextureObject_t make_tex(cudaResourceDesc *r, int linear, int mip_linear, float max_lod, int normalized,
                                    cudaTextureReadMode read = cudaReadModeElementType) {
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
  td.mipmapFilterMode = mip_linear ? cudaFilterModeLinear : cudaFilterModePoint;
  td.readMode = read;
  td.normalizedCoords = normalized;
  td.maxMipmapLevelClamp = max_lod;
  td.disableTrilinearOptimization = 1;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, r, &td, NULL));
  return t;
}

// Direction towards the centre of texel (x, y) of face f of an s x s cube
// (the programming guide's face table, inverted), times k.
static float4 cube_dir(int f, float x, float y, int s, float k) {
  float sc = 2.0f * x / s - 1.0f, tc = 2.0f * y / s - 1.0f;
  float d[3];
  switch (f) {
    case 0: d[0] = 1; d[2] = -sc; d[1] = -tc; break;
    case 1: d[0] = -1; d[2] = sc; d[1] = -tc; break;
    case 2: d[1] = 1; d[0] = sc; d[2] = tc; break;
    case 3: d[1] = -1; d[0] = sc; d[2] = -tc; break;
    case 4: d[2] = 1; d[0] = sc; d[1] = -tc; break;
    default: d[2] = -1; d[0] = -sc; d[1] = -tc; break;
  }
  return make_float4(k * d[0], k * d[1], k * d[2], 0);
}

#define W0 64
#define H0 32
#define NLEV 7

static float level_value(int l, int x, int y) { return 100.0f * l + (float)((x * 3 + y * 5) % 17); }

int main(void) {
  // ---- 1. mipmapped 2D float texture: tex2DLod ----
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t mip;
  CHECK(cudaMallocMipmappedArray(&mip, &fdesc, make_cudaExtent(W0, H0, 0), 99));  // clamped to 7 levels
  static float lv[NLEV][W0 * H0];
  int lw[NLEV], lh[NLEV];
  for (int l = 0; l < NLEV; l++) {
    lw[l] = W0 >> l ? W0 >> l : 1;
    lh[l] = H0 >> l ? H0 >> l : 1;
    for (int y = 0; y < lh[l]; y++)
      for (int x = 0; x < lw[l]; x++) lv[l][y * lw[l] + x] = level_value(l, x, y);
    cudaArray_t a;
    CHECK(cudaGetMipmappedArrayLevel(&a, mip, l));
    cudaExtent e;
    cudaChannelFormatDesc got_desc;
    unsigned flags;
    CHECK(cudaArrayGetInfo(&got_desc, &e, &flags, a));
    if ((int)e.width != lw[l] || (int)e.height != lh[l]) {
      printf("FAIL mip level %d extent: %zu x %zu\n", l, e.width, e.height);
      failures++;
    }
    CHECK(cudaMemcpy2DToArray(a, 0, 0, lv[l], lw[l] * sizeof(float), lw[l] * sizeof(float), lh[l],
                              cudaMemcpyHostToDevice));
  }
  cudaArray_t beyond;
  expect_status("cudaGetMipmappedArrayLevel past the last level", cudaGetMipmappedArrayLevel(&beyond, mip, NLEV + 3),
                cudaErrorInvalidValue);
  expect_status("cudaGetLastError after it", cudaGetLastError(), cudaErrorInvalidValue);  // and clear it
  cudaResourceDesc mres = {};
  mres.resType = cudaResourceTypeMipmappedArray;
  mres.res.mipmap.mipmap = mip;

  // point/point: a sample at the centre of a texel of the chosen level
  const float lods[] = {0.0f, 1.0f, 2.4f, 2.6f, 4.0f, 6.0f, 9.0f, -1.0f};
  const int nlods = sizeof lods / sizeof lods[0];
  static float4 q[4096];
  static float want[4096], got[4096];
  int n = 0;
  for (int k = 0; k < nlods; k++) {
    float lod = lods[k];
    int l = lod < 0 ? 0 : lod > NLEV - 1 ? NLEV - 1 : (int)floorf(lod + 0.5f);
    for (int y = 0; y < lh[l]; y += 3)
      for (int x = 0; x < lw[l]; x += 5) {
        q[n] = make_float4((x + 0.5f) / lw[l], (y + 0.5f) / lh[l], lod, 0);
        want[n++] = lv[l][y * lw[l] + x];
      }
  }
  float4 *dq = dev_copy(q, n);
  float *dout;
  CHECK(cudaMalloc(&dout, 4096 * sizeof(float)));
  cudaTextureObject_t tpp = make_tex(&mres, 0, 0, NLEV - 1, 1);
  k_lod<<<(n + 127) / 128, 128>>>(tpp, dq, dout, n);
  fetch(got, dout, n);
  expect_exact("tex2DLod point/point", got, want, n);
  CHECK(cudaFree(dq));

  // trilinear: lods with quarter fractions, at positions a quarter texel off
  // the centres of level l0 + 1 (so every weight is a multiple of 1/16 and
  // no rounding of the hardware's 1/256 weights can matter)
  const float tlods[] = {0.25f, 1.5f, 2.75f, 3.0f, 0.5f};
  n = 0;
  for (int k = 0; k < 5; k++)
    for (int i = 0; i < 60; i++) {
      float lod = tlods[k];
      int l0 = (int)floorf(lod);
      float u = (i * 7 % lw[l0 + 1] + 0.25f) / lw[l0 + 1], v = (i * 11 % lh[l0 + 1] + 0.75f) / lh[l0 + 1];
      float fr = lod - l0;
      float a = bilinear(lv[l0], lw[l0], lh[l0], u * lw[l0], v * lh[l0]);
      float b = fr > 0 ? bilinear(lv[l0 + 1], lw[l0 + 1], lh[l0 + 1], u * lw[l0 + 1], v * lh[l0 + 1]) : 0.0f;
      q[n] = make_float4(u, v, lod, 0);
      want[n++] = (float)((1.0 - fr) * a + fr * b);
    }
  dq = dev_copy(q, n);
  cudaTextureObject_t tll = make_tex(&mres, 1, 1, NLEV - 1, 1);
  k_lod<<<(n + 127) / 128, 128>>>(tll, dq, dout, n);
  fetch(got, dout, n);
  expect_tol("tex2DLod trilinear", got, want, n, 1e-5, 1e-3);
  CHECK(cudaFree(dq));

  // ---- 2. tex2DGrad: level l holds l everywhere, so the result is the lod ----
  cudaMipmappedArray_t lodmap;
  CHECK(cudaMallocMipmappedArray(&lodmap, &fdesc, make_cudaExtent(W0, H0, 0), NLEV));
  for (int l = 0; l < NLEV; l++) {
    static float c[W0 * H0];
    for (int i = 0; i < lw[l] * lh[l]; i++) c[i] = (float)l;
    cudaArray_t a;
    CHECK(cudaGetMipmappedArrayLevel(&a, lodmap, l));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, c, lw[l] * sizeof(float), lw[l] * sizeof(float), lh[l], cudaMemcpyHostToDevice));
  }
  cudaResourceDesc gres = {};
  gres.resType = cudaResourceTypeMipmappedArray;
  gres.res.mipmap.mipmap = lodmap;
  cudaTextureObject_t tg = make_tex(&gres, 1, 1, NLEV - 1, 1);
  // derivatives in level-0 texels: {dPdx.x, dPdx.y, dPdy.x, dPdy.y}
  const float gd[][4] = {{1, 0, 0, 1}, {2, 0, 0, 1}, {1, 0, 0, 4}, {0, 2, 8, 0}, {0.5f, 0, 0, 0.5f},
                         {128, 0, 0, 1}, {2.8284271f, 0, 0, 1}, {3, 4, 0, 1}, {1.5f, 0, 0, 0}, {0, 0, 0, 0}};
  const int ng = sizeof gd / sizeof gd[0];
  float4 dg[16];
  float gwant[16], ggot[16];
  for (int i = 0; i < ng; i++) {
    dg[i] = make_float4(gd[i][0] / W0, gd[i][1] / H0, gd[i][2] / W0, gd[i][3] / H0);
    double rx = hypot(gd[i][0], gd[i][1]), ry = hypot(gd[i][2], gd[i][3]);
    double lod = log2(rx > ry ? rx : ry);
    gwant[i] = (float)(lod < 0 ? 0 : lod > NLEV - 1 ? NLEV - 1 : lod);
  }
  float4 *ddg = dev_copy(dg, ng);
  k_grad<<<1, 32>>>(tg, ddg, dout, ng);
  fetch(ggot, dout, ng);
  // 1/32 of a level: the LOD's fixed-point precision is not documented
  expect_tol("tex2DGrad level of detail", ggot, gwant, ng, 0, 1.0 / 32);
  CHECK(cudaFree(ddg));

  // ---- 3. cubemaps ----
  const int S = 8;
  static float cube[2 * 6 * S * S];
  for (int i = 0; i < 2 * 6 * S * S; i++) cube[i] = (float)(i / (S * S) * 100 + i % (S * S));  // face*100 + y*S + x
  cudaArray_t acube, acubes;
  CHECK(cudaMalloc3DArray(&acube, &fdesc, make_cudaExtent(S, S, 6), cudaArrayCubemap));
  CHECK(cudaMalloc3DArray(&acubes, &fdesc, make_cudaExtent(S, S, 12), cudaArrayCubemap | cudaArrayLayered));
  for (int k = 0; k < 2; k++) {
    cudaMemcpy3DParms cp = {};
    cp.srcPtr = make_cudaPitchedPtr(cube, S * sizeof(float), S, S);
    cp.dstArray = k ? acubes : acube;
    cp.extent = make_cudaExtent(S, S, k ? 12 : 6);
    cp.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&cp));
  }
  cudaResourceDesc cres = {};
  cres.resType = cudaResourceTypeArray;
  cres.res.array.array = acube;
  cudaTextureObject_t tcube = make_tex(&cres, 0, 0, 0, 1), tcube_lin = make_tex(&cres, 1, 0, 0, 1);
  n = 0;
  for (int f = 0; f < 6; f++)
    for (int y = 0; y < S; y++)
      for (int x = 0; x < S; x++) {
        q[n] = cube_dir(f, x + 0.5f, y + 0.5f, S, 1.0f + 0.37f * f);
        want[n++] = cube[f * S * S + y * S + x];
      }
  dq = dev_copy(q, n);
  k_cube<<<(n + 127) / 128, 128>>>(tcube, dq, dout, n);
  fetch(got, dout, n);
  expect_exact("texCubemap point", got, want, n);
  CHECK(cudaFree(dq));
  n = 0;
  for (int f = 0; f < 6; f++)
    for (int y = 1; y < S - 2; y++)
      for (int x = 1; x < S - 2; x++) {
        float fx = x + 0.75f, fy = y + 0.5f + 0.25f * (x & 1);
        q[n] = cube_dir(f, fx, fy, S, 2.0f);
        want[n++] = bilinear(cube + f * S * S, S, S, fx, fy);
      }
  dq = dev_copy(q, n);
  k_cube<<<(n + 127) / 128, 128>>>(tcube_lin, dq, dout, n);
  fetch(got, dout, n);
  // within 1/256 of the largest neighbour difference (8): the face
  // coordinates come from a division the hardware may round differently
  expect_tol("texCubemap bilinear inside faces", got, want, n, 0, 8.5 / 256);
  CHECK(cudaFree(dq));
  cres.res.array.array = acubes;
  cudaTextureObject_t tcubes = make_tex(&cres, 0, 0, 0, 1);
  n = 0;
  for (int c = 0; c < 2; c++)
    for (int f = 0; f < 6; f++)
      for (int i = 0; i < S * S; i += 3) {
        q[n] = cube_dir(f, i % S + 0.5f, i / S + 0.5f, S, 0.8f);
        q[n].w = (float)c;
        want[n++] = cube[(c * 6 + f) * S * S + i];
      }
  dq = dev_copy(q, n);
  k_cube_layered<<<(n + 127) / 128, 128>>>(tcubes, dq, dout, n);
  fetch(got, dout, n);
  expect_exact("texCubemapLayered point", got, want, n);
  CHECK(cudaFree(dq));

  // mipmapped cubemap (8 x 8, 4 levels): texCubemapLod, point/point, at the
  // centre of every texel of the chosen level; face f of level l holds
  // 1000 l + 100 f + y * size + x
  cudaMipmappedArray_t mcube;
  CHECK(cudaMallocMipmappedArray(&mcube, &fdesc, make_cudaExtent(S, S, 6), 4, cudaArrayCubemap));
  for (int l = 0; l < 4; l++) {
    int s = S >> l;
    static float faces[6 * S * S];
    for (int i = 0; i < 6 * s * s; i++) faces[i] = (float)(1000 * l + i / (s * s) * 100 + i % (s * s));
    cudaArray_t a;
    CHECK(cudaGetMipmappedArrayLevel(&a, mcube, l));
    cudaMemcpy3DParms cp = {};
    cp.srcPtr = make_cudaPitchedPtr(faces, s * sizeof(float), s, s);
    cp.dstArray = a;
    cp.extent = make_cudaExtent(s, s, 6);
    cp.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&cp));
  }
  cudaResourceDesc mcres = {};
  mcres.resType = cudaResourceTypeMipmappedArray;
  mcres.res.mipmap.mipmap = mcube;
  cudaTextureObject_t tmcube = make_tex(&mcres, 0, 0, 3, 1);
  n = 0;
  const float clods[] = {0.0f, 1.0f, 1.7f, 3.0f, 5.0f};
  for (int k = 0; k < 5; k++) {
    int l = clods[k] > 3 ? 3 : (int)floorf(clods[k] + 0.5f), s = S >> l;
    for (int f = 0; f < 6; f++)
      for (int i = 0; i < s * s; i++) {
        q[n] = cube_dir(f, i % s + 0.5f, i / s + 0.5f, s, 1.5f);
        q[n].w = clods[k];
        want[n++] = (float)(1000 * l + 100 * f + i);
      }
  }
  dq = dev_copy(q, n);
  k_cube_lod<<<(n + 127) / 128, 128>>>(tmcube, dq, dout, n);
  fetch(got, dout, n);
  expect_exact("texCubemapLod point/point", got, want, n);
  CHECK(cudaFree(dq));
  CHECK(cudaDestroyTextureObject(tmcube));
  CHECK(cudaFreeMipmappedArray(mcube));

  // ---- 4. layered 2D, bilinear ----
  const int LW = 16, LH = 8, NL = 3;
  static float lay[NL * LW * LH];
  for (int i = 0; i < NL * LW * LH; i++) lay[i] = (float)((i * 29) % 53) * 0.25f - 3.0f;
  cudaArray_t alay;
  CHECK(cudaMalloc3DArray(&alay, &fdesc, make_cudaExtent(LW, LH, NL), cudaArrayLayered));
  cudaMemcpy3DParms lp = {};
  lp.srcPtr = make_cudaPitchedPtr(lay, LW * sizeof(float), LW, LH);
  lp.dstArray = alay;
  lp.extent = make_cudaExtent(LW, LH, NL);
  lp.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&lp));
  cudaResourceDesc lres = {};
  lres.resType = cudaResourceTypeArray;
  lres.res.array.array = alay;
  cudaTextureObject_t tlay = make_tex(&lres, 1, 0, 0, 0);
  n = 0;
  for (int l = 0; l < NL; l++)
    for (int i = 0; i < 40; i++) {
      float x = (i * 13 % 40) * 0.4f - 0.3f, y = (i * 7 % 40) * 0.2f + 0.1f;
      q[n] = make_float4(x, y, (float)l, 0);
      want[n++] = bilinear(lay + l * LW * LH, LW, LH, x, y);
    }
  dq = dev_copy(q, n);
  k_layered<<<(n + 127) / 128, 128>>>(tlay, dq, dout, n);
  fetch(got, dout, n);
  expect_tol("tex2DLayered bilinear", got, want, n, 1e-5, 1e-4);
  CHECK(cudaFree(dq));

  // mipmapped layered 2D (16 x 8 x 3 layers, 3 levels): tex2DLayeredLod, point/point
  cudaMipmappedArray_t mlay;
  CHECK(cudaMallocMipmappedArray(&mlay, &fdesc, make_cudaExtent(LW, LH, NL), 3, cudaArrayLayered));
  for (int l = 0; l < 3; l++) {
    int w = LW >> l, h = LH >> l;
    static float buf[NL * LW * LH];
    for (int i = 0; i < NL * w * h; i++) buf[i] = (float)(1000 * l) + lay[i];
    cudaArray_t a;
    CHECK(cudaGetMipmappedArrayLevel(&a, mlay, l));
    cudaMemcpy3DParms cp = {};
    cp.srcPtr = make_cudaPitchedPtr(buf, w * sizeof(float), w, h);
    cp.dstArray = a;
    cp.extent = make_cudaExtent(w, h, NL);
    cp.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&cp));
  }
  cudaResourceDesc mlres = {};
  mlres.resType = cudaResourceTypeMipmappedArray;
  mlres.res.mipmap.mipmap = mlay;
  cudaTextureObject_t tmlay = make_tex(&mlres, 0, 0, 2, 1);
  n = 0;
  for (int l = 0; l < 3; l++) {
    int w = LW >> l, h = LH >> l;
    for (int layer = 0; layer < NL; layer++)
      for (int i = 0; i < w * h; i += 2) {
        q[n] = make_float4((i % w + 0.5f) / w, (i / w + 0.5f) / h, (float)l, (float)layer);
        want[n++] = (float)(1000 * l) + lay[layer * w * h + i];
      }
  }
  dq = dev_copy(q, n);
  k_layered_lod<<<(n + 127) / 128, 128>>>(tmlay, dq, dout, n);
  fetch(got, dout, n);
  expect_exact("tex2DLayeredLod point/point", got, want, n);
  CHECK(cudaFree(dq));
  CHECK(cudaDestroyTextureObject(tmlay));
  CHECK(cudaFreeMipmappedArray(mlay));

  // ---- 5. half-float textures ----
  const int HW = 16, HH = 8;
  static float h1f[HW * HH], h4f[4 * HW * HH];
  static __half h1[HW * HH], h4[4 * HW * HH];
  for (int i = 0; i < HW * HH; i++) {
    h1f[i] = (float)((i * 37) % 61) * 0.125f - 3.5f;  // exact in half
    h1[i] = __float2half(h1f[i]);
  }
  for (int i = 0; i < 4 * HW * HH; i++) {
    h4f[i] = (float)((i * 11) % 83) * 0.0625f - 2.0f;
    h4[i] = __float2half(h4f[i]);
  }
  cudaChannelFormatDesc hd1 = cudaCreateChannelDescHalf(), hd4 = cudaCreateChannelDescHalf4();
  cudaArray_t ah1, ah4;
  CHECK(cudaMallocArray(&ah1, &hd1, HW, HH));
  CHECK(cudaMallocArray(&ah4, &hd4, HW, HH));
  CHECK(cudaMemcpy2DToArray(ah1, 0, 0, h1, HW * 2, HW * 2, HH, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DToArray(ah4, 0, 0, h4, HW * 8, HW * 8, HH, cudaMemcpyHostToDevice));
  cudaResourceDesc hr1 = {}, hr4 = {};
  hr1.resType = hr4.resType = cudaResourceTypeArray;
  hr1.res.array.array = ah1;
  hr4.res.array.array = ah4;
  static float h4c[4][HW * HH];
  for (int c = 0; c < 4; c++)
    for (int i = 0; i < HW * HH; i++) h4c[c][i] = h4f[4 * i + c];
  for (int linear = 0; linear < 2; linear++) {
    cudaTextureObject_t t1 = make_tex(&hr1, linear, 0, 0, 0), t4 = make_tex(&hr4, linear, 0, 0, 0);
    n = 0;
    for (int i = 0; i < 96; i++) {
      float x = linear ? (i * 5 % 96) / 6.0f + 0.1f : (i % HW) + 0.5f, y = linear ? (i * 7 % 96) / 12.0f : (i / HW) + 0.5f;
      q[n++] = make_float4(x, y, 0, 0);
    }
    dq = dev_copy(q, n);
    k_half<<<1, 128>>>(t1, t4, dq, dout, n);
    fetch(got, dout, 5 * n);
    for (int i = 0; i < n; i++) {
      float x = q[i].x, y = q[i].y;
      int xi = (int)floorf(x), yi = (int)floorf(y);
      want[5 * i] = linear ? half_filtered(bilinear(h1f, HW, HH, x, y)) : h1f[yi * HW + xi];
      for (int c = 0; c < 4; c++)
        want[5 * i + 1 + c] = linear ? half_filtered(bilinear(h4c[c], HW, HH, x, y)) : h4c[c][yi * HW + xi];
    }
    // within one fp16 ulp: the rounding (nearest even) is inferred from one
    // H200 value, a tie; the hardware's intermediate precision is not
    // documented. And every result is an fp16 value (the rule itself).
    if (linear) {
      expect_half_ulp("half textures, bilinear", got, want, 5 * n);
      static float as_half[5 * 96];
      for (int i = 0; i < 5 * n; i++) as_half[i] = half_filtered(got[i]);
      expect_exact("half textures, bilinear results are fp16 values", got, as_half, 5 * n);
    } else
      expect_exact("half textures, point", got, want, 5 * n);
    CHECK(cudaFree(dq));
    CHECK(cudaDestroyTextureObject(t1));
    CHECK(cudaDestroyTextureObject(t4));
  }

  // ---- 6. surfaces: mip levels, 3D, layered, cubemap ----
  cudaMipmappedArray_t smip;
  CHECK(cudaMallocMipmappedArray(&smip, &fdesc, make_cudaExtent(W0, H0, 0), NLEV, cudaArraySurfaceLoadStore));
  for (int l = 0; l < NLEV; l++) {
    cudaArray_t a;
    CHECK(cudaGetMipmappedArrayLevel(&a, smip, l));
    cudaResourceDesc sr = {};
    sr.resType = cudaResourceTypeArray;
    sr.res.array.array = a;
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &sr));
    k_surf_level<<<dim3((lw[l] + 31) / 32, lh[l]), 32>>>(s, l, lw[l], lh[l]);
    CHECK_LAUNCH();
    CHECK(cudaDestroySurfaceObject(s));
  }
  cudaResourceDesc smres = {};
  smres.resType = cudaResourceTypeMipmappedArray;
  smres.res.mipmap.mipmap = smip;
  cudaTextureObject_t tsm = make_tex(&smres, 0, 0, NLEV - 1, 1);
  n = 0;
  for (int l = 0; l < NLEV; l++)
    for (int y = 0; y < lh[l]; y += 2)
      for (int x = 0; x < lw[l]; x += 3) {
        q[n] = make_float4((x + 0.5f) / lw[l], (y + 0.5f) / lh[l], (float)l, 0);
        want[n++] = l * 10.0f + x * 0.5f + y;
      }
  dq = dev_copy(q, n);
  k_lod<<<(n + 127) / 128, 128>>>(tsm, dq, dout, n);
  fetch(got, dout, n);
  expect_exact("surf2Dwrite on mip levels, read by tex2DLod", got, want, n);
  CHECK(cudaFree(dq));

  cudaChannelFormatDesc f2 = cudaCreateChannelDesc<float2>(), u8 = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t a3, al, ac;
  CHECK(cudaMalloc3DArray(&a3, &f2, make_cudaExtent(8, 8, 6), cudaArraySurfaceLoadStore));
  CHECK(cudaMalloc3DArray(&al, &fdesc, make_cudaExtent(8, 8, 6), cudaArrayLayered | cudaArraySurfaceLoadStore));
  CHECK(cudaMalloc3DArray(&ac, &u8, make_cudaExtent(8, 8, 6), cudaArrayCubemap | cudaArraySurfaceLoadStore));
  cudaResourceDesc r3 = {}, rl = {}, rc = {};
  r3.resType = rl.resType = rc.resType = cudaResourceTypeArray;
  r3.res.array.array = a3;
  rl.res.array.array = al;
  rc.res.array.array = ac;
  cudaSurfaceObject_t s3, sl, sc;
  CHECK(cudaCreateSurfaceObject(&s3, &r3));
  CHECK(cudaCreateSurfaceObject(&sl, &rl));
  CHECK(cudaCreateSurfaceObject(&sc, &rc));
  k_surf_shapes<<<6, dim3(8, 8)>>>(s3, sl, sc);
  CHECK_LAUNCH();
  cudaTextureObject_t t3 = make_tex(&r3, 0, 0, 0, 0), tl = make_tex(&rl, 0, 0, 0, 0),
                      tc = make_tex(&rc, 0, 0, 0, 1, cudaReadModeNormalizedFloat);
  for (int i = 0; i < 6 * 64; i++) q[i] = cube_dir(i / 64, i % 8 + 0.5f, i / 8 % 8 + 0.5f, 8, 1.0f);
  dq = dev_copy(q, 6 * 64);
  k_read_shapes<<<6, dim3(8, 8)>>>(t3, tl, tc, dq, dout);
  fetch(got, dout, 4 * 6 * 64);
  for (int i = 0; i < 6 * 64; i++) {
    int x = i % 8, y = i / 8 % 8, z = i / 64;
    want[4 * i] = x + 8.0f * y;
    want[4 * i + 1] = 100.0f * z;
    want[4 * i + 2] = -(x + 8.0f * y) - 1000.0f * z;
    want[4 * i + 3] = (float)(x + 8 * y + 32 * z) / 255.0f;
  }
  expect_tol("surf3Dwrite / surf2DLayeredwrite / surfCubemapwrite read back by textures", got, want, 4 * 6 * 64,
                1e-6, 0);
  CHECK(cudaFree(dq));

  CHECK(cudaDestroyTextureObject(tpp)); CHECK(cudaDestroyTextureObject(tll)); CHECK(cudaDestroyTextureObject(tg));
  CHECK(cudaDestroyTextureObject(tcube)); CHECK(cudaDestroyTextureObject(tcube_lin));
  CHECK(cudaDestroyTextureObject(tcubes)); CHECK(cudaDestroyTextureObject(tlay)); CHECK(cudaDestroyTextureObject(tsm));
  CHECK(cudaDestroyTextureObject(t3)); CHECK(cudaDestroyTextureObject(tl)); CHECK(cudaDestroyTextureObject(tc));
  CHECK(cudaDestroySurfaceObject(s3)); CHECK(cudaDestroySurfaceObject(sl)); CHECK(cudaDestroySurfaceObject(sc));
  CHECK(cudaFreeMipmappedArray(mip)); CHECK(cudaFreeMipmappedArray(lodmap)); CHECK(cudaFreeMipmappedArray(smip));
  CHECK(cudaFreeArray(acube)); CHECK(cudaFreeArray(acubes)); CHECK(cudaFreeArray(alay)); CHECK(cudaFreeArray(ah1));
  CHECK(cudaFreeArray(ah4)); CHECK(cudaFreeArray(a3)); CHECK(cudaFreeArray(al)); CHECK(cudaFreeArray(ac));
  CHECK(cudaFree(dout));
  if (failures) {
    printf("FAIL texture_advanced: %d checks failed\n", failures);
    return 1;
  }
  printf("Test PASSED\n");
  return pass("texture_advanced");
}
