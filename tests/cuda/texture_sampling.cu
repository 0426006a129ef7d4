// texture_sampling: texture and surface objects, cuda-samples style.
//   1. a 2D float CUDA array (cudaMallocArray + cudaMemcpy2DToArray) sampled
//      with point filtering and unnormalized coordinates (exact), then with
//      bilinear filtering and normalized coordinates, wrap addressing;
//   2. a uchar4 pitched 2D texture read as normalized floats, clamp and
//      border addressing;
//   3. tex1Dfetch from linear memory (integers);
//   4. a layered 2D array and a 3D array (point sampling, exact);
//   5. a surface: a kernel writes with surf2Dwrite, another reads back with
//      surf2Dread and tex2D through a texture object on the same array;
//   6. tex2Dgather (tld4).
// Exact where the result is a texel; bilinear results are compared with a
// host model of the hardware's 8-bit-fraction weights (checked on an H200),
// within 1e-5.
#include "check.h"

#define W 37
#define H 23

__global__ void sample_point(cudaTextureObject_t t, float *out) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * W + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

__global__ void sample_linear(cudaTextureObject_t t, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float u = -0.75f + 2.5f * i / n, v = 1.3f - 0.9f * i / n;   // normalized, outside [0,1) too
  out[i] = tex2D<float>(t, u, v);
}

__global__ void sample_uchar4(cudaTextureObject_t t, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = tex2D<float4>(t, (float)(i % 19) - 3.0f, (float)(i / 19) - 2.0f);
}

__global__ void fetch_linear(cudaTextureObject_t t, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(t, n - 1 - i);
}

__global__ void sample_layered_3d(cudaTextureObject_t layered, cudaTextureObject_t vol, float *out) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  out[(z * 8 + y) * 8 + x] = tex2DLayered<float>(layered, x + 0.5f, y + 0.5f, z) +
                             1000.0f * tex3D<float>(vol, x + 0.5f, y + 0.5f, z + 0.5f);
}

__global__ void surf_write(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = blockIdx.x;
  surf2Dwrite(make_float2(x * 1.5f, -y * 2.0f), s, x * (int)sizeof(float2), y);
}

__global__ void surf_read(cudaSurfaceObject_t s, cudaTextureObject_t t, float2 *out, float *out_tex) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * blockDim.x + x] = surf2Dread<float2>(s, x * (int)sizeof(float2), y);
  out_tex[y * blockDim.x + x] = tex2D<float2>(t, x + 0.5f, y + 0.5f).y;
}

__global__ void gather(cudaTextureObject_t t, float4 *out) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * W + x] = tex2Dgather<float4>(t, x + 1.0f, y + 1.0f, 0);
}

static float host_tex_linear(const float *img, float u, float v) {
  float x = u * W - 0.5f, y = v * H - 0.5f;
  float fx = floorf(x), fy = floorf(y);
  // weights in 1/256: a and b rounded to 8 fractional bits; the hardware
  // rounds a*b and derives the other corners by difference (seen on an H200)
  int a = (int)floorf((x - fx) * 256.0f + 0.5f), b = (int)floorf((y - fy) * 256.0f + 0.5f);
  int w11 = (a * b + 128) >> 8;
  int w[4] = {256 - a - b + w11, a - w11, b - w11, w11};
  int x0 = (int)fx, y0 = (int)fy;
  double r = 0;
  for (int k = 0; k < 4; k++) {
    int xi = x0 + (k & 1), yi = y0 + (k >> 1);
    xi = ((xi % W) + W) % W;
    yi = ((yi % H) + H) % H;
    r += w[k] * (double)img[yi * W + xi];
  }
  return (float)(r / 256.0);
}

static float *dev_floats(int n) {
  float *p;
  CHECK(cudaMalloc(&p, n * sizeof(float)));
  return p;
}

int main(void) {
  // ---- 1. float 2D array ----
  float img[W * H];
  for (int i = 0; i < W * H; i++) img[i] = (float)((i * 37) % 101) - 50.0f;
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &fdesc, W, H));
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tpoint;
  CHECK(cudaCreateTextureObject(&tpoint, &res, &td, NULL));
  float *dout = dev_floats(W * H), got[W * H];
  sample_point<<<H, W>>>(tpoint, dout);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
  check_f32_exact("point-sampled float array", got, img, W * H);

  td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
  td.filterMode = cudaFilterModeLinear;
  td.normalizedCoords = 1;
  cudaTextureObject_t tlin;
  CHECK(cudaCreateTextureObject(&tlin, &res, &td, NULL));
  const int nl = 500;
  float *dlin = dev_floats(nl), glin[nl], wlin[nl];
  sample_linear<<<(nl + 127) / 128, 128>>>(tlin, dlin, nl);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(glin, dlin, sizeof glin, cudaMemcpyDeviceToHost));
  for (int i = 0; i < nl; i++) wlin[i] = host_tex_linear(img, -0.75f + 2.5f * i / nl, 1.3f - 0.9f * i / nl);
  check_f32_tol("bilinear, normalized, wrap", glin, wlin, nl, 1e-5, 1e-4);

  // ---- 2. uchar4 pitched, normalized float read, clamp then border ----
  const int pw = 19, ph = 11;
  uchar4 hpix[pw * ph];
  for (int i = 0; i < pw * ph; i++) hpix[i] = make_uchar4(i % 256, (i * 3) % 256, 255 - i % 256, 7);
  uchar4 *dpix;
  size_t pitch;
  CHECK(cudaMallocPitch(&dpix, &pitch, pw * sizeof(uchar4), ph));
  CHECK(cudaMemcpy2D(dpix, pitch, hpix, pw * sizeof(uchar4), pw * sizeof(uchar4), ph, cudaMemcpyHostToDevice));
  for (int mode = 0; mode < 2; mode++) {
    cudaResourceDesc pr = {};
    pr.resType = cudaResourceTypePitch2D;
    pr.res.pitch2D.devPtr = dpix;
    pr.res.pitch2D.desc = cudaCreateChannelDesc<uchar4>();
    pr.res.pitch2D.width = pw;
    pr.res.pitch2D.height = ph;
    pr.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc pd = {};
    pd.addressMode[0] = pd.addressMode[1] = mode ? cudaAddressModeBorder : cudaAddressModeClamp;
    pd.filterMode = cudaFilterModePoint;
    pd.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t tp;
    CHECK(cudaCreateTextureObject(&tp, &pr, &pd, NULL));
    const int n = 19 * 16;
    float4 *d4;
    CHECK(cudaMalloc(&d4, n * sizeof(float4)));
    sample_uchar4<<<(n + 63) / 64, 64>>>(tp, d4, n);
    CHECK_LAUNCH();
    float4 g4[n];
    CHECK(cudaMemcpy(g4, d4, sizeof g4, cudaMemcpyDeviceToHost));
    float gf[4 * n], wf[4 * n];
    for (int i = 0; i < n; i++) {
      int x = i % 19 - 3, y = i / 19 - 2;
      int in = x >= 0 && x < pw && y >= 0 && y < ph;
      int cx = x < 0 ? 0 : x >= pw ? pw - 1 : x, cy = y < 0 ? 0 : y >= ph ? ph - 1 : y;
      uchar4 p = hpix[cy * pw + cx];
      float v[4] = {p.x / 255.0f, p.y / 255.0f, p.z / 255.0f, p.w / 255.0f};
      for (int c = 0; c < 4; c++) {
        wf[4 * i + c] = mode && !in ? 0.0f : v[c];
        gf[4 * i + c] = c == 0 ? g4[i].x : c == 1 ? g4[i].y : c == 2 ? g4[i].z : g4[i].w;
      }
    }
    check_f32_tol(mode ? "uchar4 normalized, border" : "uchar4 normalized, clamp", gf, wf, 4 * n, 1e-6, 0);
    CHECK(cudaDestroyTextureObject(tp));
    CHECK(cudaFree(d4));
  }

  // ---- 3. tex1Dfetch ----
  const int nf = 300;
  int hlin[nf], glf[nf], wlf[nf];
  for (int i = 0; i < nf; i++) hlin[i] = i * i - 7000;
  int *dl, *dlo;
  CHECK(cudaMalloc(&dl, sizeof hlin));
  CHECK(cudaMalloc(&dlo, sizeof hlin));
  CHECK(cudaMemcpy(dl, hlin, sizeof hlin, cudaMemcpyHostToDevice));
  cudaResourceDesc lr = {};
  lr.resType = cudaResourceTypeLinear;
  lr.res.linear.devPtr = dl;
  lr.res.linear.desc = cudaCreateChannelDesc<int>();
  lr.res.linear.sizeInBytes = sizeof hlin;
  cudaTextureDesc ld = {};
  ld.readMode = cudaReadModeElementType;
  cudaTextureObject_t tl;
  CHECK(cudaCreateTextureObject(&tl, &lr, &ld, NULL));
  fetch_linear<<<(nf + 127) / 128, 128>>>(tl, dlo, nf);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(glf, dlo, sizeof glf, cudaMemcpyDeviceToHost));
  for (int i = 0; i < nf; i++) wlf[i] = hlin[nf - 1 - i];
  check_i32("tex1Dfetch", glf, wlf, nf);

  // ---- 4. layered 2D and 3D arrays ----
  float vol[4 * 8 * 8], lay[4 * 8 * 8];
  for (int i = 0; i < 256; i++) { vol[i] = (float)(i % 97); lay[i] = (float)(i % 13) * 0.5f; }
  cudaArray_t alay, avol;
  CHECK(cudaMalloc3DArray(&alay, &fdesc, make_cudaExtent(8, 8, 4), cudaArrayLayered));
  CHECK(cudaMalloc3DArray(&avol, &fdesc, make_cudaExtent(8, 8, 4), 0));
  for (int k = 0; k < 2; k++) {
    cudaMemcpy3DParms cp = {};
    cp.srcPtr = make_cudaPitchedPtr(k ? vol : lay, 8 * sizeof(float), 8, 8);
    cp.dstArray = k ? avol : alay;
    cp.extent = make_cudaExtent(8, 8, 4);
    cp.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&cp));
  }
  cudaResourceDesc r2 = {}, r3 = {};
  r2.resType = r3.resType = cudaResourceTypeArray;
  r2.res.array.array = alay;
  r3.res.array.array = avol;
  cudaTextureDesc pt = {};
  pt.filterMode = cudaFilterModePoint;
  cudaTextureObject_t tlay, tvol;
  CHECK(cudaCreateTextureObject(&tlay, &r2, &pt, NULL));
  CHECK(cudaCreateTextureObject(&tvol, &r3, &pt, NULL));
  float *d3 = dev_floats(256), g3[256], w3[256];
  sample_layered_3d<<<dim3(8, 4), 8>>>(tlay, tvol, d3);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(g3, d3, sizeof g3, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 256; i++) w3[i] = lay[i] + 1000.0f * vol[i];
  check_f32_exact("layered 2D + 3D arrays", g3, w3, 256);

  // ---- 5. surfaces ----
  cudaChannelFormatDesc f2 = cudaCreateChannelDesc<float2>();
  cudaArray_t asurf;
  CHECK(cudaMallocArray(&asurf, &f2, 16, 9, cudaArraySurfaceLoadStore));
  cudaResourceDesc rs = {};
  rs.resType = cudaResourceTypeArray;
  rs.res.array.array = asurf;
  cudaSurfaceObject_t so;
  CHECK(cudaCreateSurfaceObject(&so, &rs));
  cudaTextureObject_t tso;
  CHECK(cudaCreateTextureObject(&tso, &rs, &pt, NULL));
  surf_write<<<9, 16>>>(so);
  CHECK_LAUNCH();
  float2 *ds;
  float *dst_tex = dev_floats(16 * 9);
  CHECK(cudaMalloc(&ds, 16 * 9 * sizeof(float2)));
  surf_read<<<9, 16>>>(so, tso, ds, dst_tex);
  CHECK_LAUNCH();
  float2 gs[16 * 9];
  float gst[16 * 9], ws[2 * 16 * 9], wst[16 * 9];
  CHECK(cudaMemcpy(gs, ds, sizeof gs, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gst, dst_tex, sizeof gst, cudaMemcpyDeviceToHost));
  for (int y = 0; y < 9; y++)
    for (int x = 0; x < 16; x++) {
      ws[2 * (y * 16 + x)] = x * 1.5f;
      ws[2 * (y * 16 + x) + 1] = -y * 2.0f;
      wst[y * 16 + x] = -y * 2.0f;
    }
  check_f32_exact("surf2Dwrite/surf2Dread", (const float *)gs, ws, 2 * 16 * 9);
  check_f32_exact("tex2D over a surface-written array", gst, wst, 16 * 9);

  // ---- 6. tex2Dgather ----
  float4 *dg;
  CHECK(cudaMalloc(&dg, W * H * sizeof(float4)));
  gather<<<H, W>>>(tpoint, dg);
  CHECK_LAUNCH();
  static float4 gg[W * H];
  CHECK(cudaMemcpy(gg, dg, sizeof gg, cudaMemcpyDeviceToHost));
  static float ggf[4 * W * H], wgf[4 * W * H];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int i = y * W + x;
      // footprint of (x + 1, y + 1): texels x..x+1, y..y+1 (clamped);
      // order (x, y+1), (x+1, y+1), (x+1, y), (x, y)
      int x1 = x + 1 < W ? x + 1 : W - 1, y1 = y + 1 < H ? y + 1 : H - 1;
      wgf[4 * i] = img[y1 * W + x];
      wgf[4 * i + 1] = img[y1 * W + x1];
      wgf[4 * i + 2] = img[y * W + x1];
      wgf[4 * i + 3] = img[y * W + x];
      ggf[4 * i] = gg[i].x; ggf[4 * i + 1] = gg[i].y; ggf[4 * i + 2] = gg[i].z; ggf[4 * i + 3] = gg[i].w;
    }
  check_f32_exact("tex2Dgather", ggf, wgf, 4 * W * H);

  CHECK(cudaDestroyTextureObject(tpoint)); CHECK(cudaDestroyTextureObject(tlin));
  CHECK(cudaDestroyTextureObject(tl)); CHECK(cudaDestroyTextureObject(tlay)); CHECK(cudaDestroyTextureObject(tvol));
  CHECK(cudaDestroyTextureObject(tso)); CHECK(cudaDestroySurfaceObject(so));
  CHECK(cudaFreeArray(arr)); CHECK(cudaFreeArray(alay)); CHECK(cudaFreeArray(avol)); CHECK(cudaFreeArray(asurf));
  CHECK(cudaFree(dout)); CHECK(cudaFree(dlin)); CHECK(cudaFree(dpix)); CHECK(cudaFree(dl)); CHECK(cudaFree(dlo));
  CHECK(cudaFree(d3)); CHECK(cudaFree(ds)); CHECK(cudaFree(dst_tex)); CHECK(cudaFree(dg));
  return pass("texture_sampling");
}
