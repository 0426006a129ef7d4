/* test_driver_texture.c: mipmapped arrays, cubemap arrays and the newer
 * texture instructions through the driver API.
 *
 *   - cuMipmappedArrayCreate/GetLevel/Destroy: the level count clamped to
 *     [1, 1 + log2(largest extent)], the level descriptors (layers and faces
 *     kept), copies into and out of a level, and the exact error codes: a
 *     level past the last (CUDA_ERROR_INVALID_VALUE), destroyed or NULL
 *     handles (CUDA_ERROR_INVALID_HANDLE), destroying a level with
 *     cuArrayDestroy (CUDA_ERROR_INVALID_HANDLE), sparse arrays
 *     (CUDA_ERROR_NOT_SUPPORTED), a surface over a mipmapped array
 *     (CUDA_ERROR_INVALID_VALUE);
 *   - cubemap array shapes (square, 6 or 6n faces), sRGB and resource views
 *     (CUDA_ERROR_NOT_SUPPORTED), seamless cubemap filtering across faces;
 *   - texture references: cuModuleGetTexRef/SurfRef and PTX declaring a
 *     .texref (CUDA_ERROR_NOT_SUPPORTED, CUDA_ERROR_INVALID_PTX);
 *   - PTX kernels: txq (num_mipmap_levels, level sizes, array_size of a cube
 *     array, addr_mode_0), tex.level with a residency predicate, LOD bias
 *     and clamps, tex.base, integer-coordinate tex.level, tex.grad with
 *     anisotropy, tex.grad.cube, .v2.f16x2 and .v4.f16 results, tld4 on a2d and cube,
 *     sust.p into float, u8 and half arrays, and linear filtering of a half
 *     texture rounded to fp16 (the H200 value);
 *   - the device memory of a texture object given back at its destroy;
 *   - traps: a handle that is no object, a .trap surface load out of range
 *     (CUDA_ERROR_LAUNCH_FAILED).
 * It runs on the CPU (unit.*) and on the OpenCL device (opencl.driver_texture). */
#include "driver/driver.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define EXPECT(call, want)                                                                                  \
    do {                                                                                                    \
        CUresult got_ = (call);                                                                             \
        if (got_ != (want)) {                                                                               \
            const char *g_ = NULL;                                                                          \
            cuGetErrorName(got_, &g_);                                                                      \
            fprintf(stderr, "%s:%d: %s returned %s (%d), want %s\n", __FILE__, __LINE__, #call,             \
                    g_ ? g_ : "?", (int)got_, #want);                                                      \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)
#define CHECK(cond, ...)                                                                                    \
    do {                                                                                                    \
        if (!(cond)) {                                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);                         \
            fprintf(stderr, __VA_ARGS__);                                                                   \
            fprintf(stderr, "\n");                                                                          \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)

static CUDA_ARRAY3D_DESCRIPTOR desc3(size_t w, size_t h, size_t d, CUarray_format f, unsigned ch, unsigned flags)
{
    CUDA_ARRAY3D_DESCRIPTOR a;
    memset(&a, 0, sizeof a);
    a.Width = w;
    a.Height = h;
    a.Depth = d;
    a.Format = f;
    a.NumChannels = ch;
    a.Flags = flags;
    return a;
}

/* The descriptor of level l of m. */
static CUDA_ARRAY3D_DESCRIPTOR level_desc(CUmipmappedArray m, unsigned l)
{
    CUarray a = NULL;
    CUDA_ARRAY3D_DESCRIPTOR d;
    memset(&d, 0, sizeof d);
    EXPECT(cuMipmappedArrayGetLevel(&a, m, l), CUDA_SUCCESS);
    EXPECT(cuArray3DGetDescriptor_v2(&d, a), CUDA_SUCCESS);
    return d;
}

static void test_mipmap_api(void)
{
    CUmipmappedArray m = NULL;
    CUarray a = NULL;
    CUDA_ARRAY3D_DESCRIPTOR d = desc3(64, 32, 0, CU_AD_FORMAT_FLOAT, 1, 0);
    /* level counts are clamped */
    EXPECT(cuMipmappedArrayCreate(&m, &d, 0), CUDA_SUCCESS);
    EXPECT(cuMipmappedArrayGetLevel(&a, m, 0), CUDA_SUCCESS);
    EXPECT(cuMipmappedArrayGetLevel(&a, m, 1), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMipmappedArrayDestroy(m), CUDA_SUCCESS);
    EXPECT(cuMipmappedArrayCreate(&m, &d, 100), CUDA_SUCCESS);
    CUDA_ARRAY3D_DESCRIPTOR l3 = level_desc(m, 3), l6 = level_desc(m, 6);
    CHECK(l3.Width == 8 && l3.Height == 4 && l3.Depth == 0, "level 3 is %zux%zux%zu", l3.Width, l3.Height, l3.Depth);
    CHECK(l6.Width == 1 && l6.Height == 1, "level 6 is %zux%zu", l6.Width, l6.Height);
    EXPECT(cuMipmappedArrayGetLevel(&a, m, 7), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMipmappedArrayGetLevel(NULL, m, 0), CUDA_ERROR_INVALID_VALUE);

    /* a copy into level 2 (16 x 8) comes back */
    float src[16 * 8], back[16 * 8];
    for (int i = 0; i < 16 * 8; i++)
        src[i] = (float)i * 0.5f;
    EXPECT(cuMipmappedArrayGetLevel(&a, m, 2), CUDA_SUCCESS);
    CUDA_MEMCPY2D cp;
    memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_HOST;
    cp.srcHost = src;
    cp.srcPitch = 16 * sizeof(float);
    cp.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    cp.dstArray = a;
    cp.WidthInBytes = 16 * sizeof(float);
    cp.Height = 8;
    EXPECT(cuMemcpy2D_v2(&cp), CUDA_SUCCESS);
    memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    cp.srcArray = a;
    cp.dstMemoryType = CU_MEMORYTYPE_HOST;
    cp.dstHost = back;
    cp.dstPitch = 16 * sizeof(float);
    cp.WidthInBytes = 16 * sizeof(float);
    cp.Height = 8;
    EXPECT(cuMemcpy2D_v2(&cp), CUDA_SUCCESS);
    CHECK(memcmp(src, back, sizeof src) == 0, "level 2 copy round trip");

    /* a level dies with its mipmapped array, not by itself */
    EXPECT(cuArrayDestroy(a), CUDA_ERROR_INVALID_HANDLE);
    /* surfaces live in arrays, not mipmapped arrays */
    CUDA_RESOURCE_DESC res;
    memset(&res, 0, sizeof res);
    res.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    res.res.mipmap.hMipmappedArray = m;
    CUsurfObject so = 0;
    EXPECT(cuSurfObjectCreate(&so, &res), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMipmappedArrayDestroy(m), CUDA_SUCCESS);
    /* destroyed and NULL handles */
    EXPECT(cuMipmappedArrayGetLevel(&a, m, 0), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuMipmappedArrayDestroy(m), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuMipmappedArrayDestroy(NULL), CUDA_ERROR_INVALID_HANDLE);
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.flags = CU_TRSF_NORMALIZED_COORDINATES;
    CUtexObject to = 0;
    EXPECT(cuTexObjectCreate(&to, &res, &td, NULL), CUDA_ERROR_INVALID_HANDLE);

    /* bad descriptors */
    EXPECT(cuMipmappedArrayCreate(NULL, &d, 2), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMipmappedArrayCreate(&m, NULL, 2), CUDA_ERROR_INVALID_VALUE);
    CUDA_ARRAY3D_DESCRIPTOR bad = desc3(64, 32, 0, (CUarray_format)0x77, 1, 0);
    EXPECT(cuMipmappedArrayCreate(&m, &bad, 2), CUDA_ERROR_INVALID_VALUE);
    bad = desc3(64, 32, 0, CU_AD_FORMAT_FLOAT, 3, 0);
    EXPECT(cuMipmappedArrayCreate(&m, &bad, 2), CUDA_ERROR_INVALID_VALUE);
    bad = desc3(64, 32, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SPARSE);
    EXPECT(cuMipmappedArrayCreate(&m, &bad, 2), CUDA_ERROR_NOT_SUPPORTED);

    /* levels of layered, 3D and cubemap mipmapped arrays */
    CUDA_ARRAY3D_DESCRIPTOR ld = desc3(16, 16, 5, CU_AD_FORMAT_UNSIGNED_INT8, 4, CUDA_ARRAY3D_LAYERED);
    EXPECT(cuMipmappedArrayCreate(&m, &ld, 9), CUDA_SUCCESS);   /* 5 levels: the layers are no extent */
    CUDA_ARRAY3D_DESCRIPTOR e = level_desc(m, 2);
    CHECK(e.Width == 4 && e.Height == 4 && e.Depth == 5 && e.Flags == CUDA_ARRAY3D_LAYERED, "layered level 2");
    EXPECT(cuMipmappedArrayGetLevel(&a, m, 5), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMipmappedArrayDestroy(m), CUDA_SUCCESS);
    CUDA_ARRAY3D_DESCRIPTOR vd = desc3(16, 8, 4, CU_AD_FORMAT_HALF, 2, 0);
    EXPECT(cuMipmappedArrayCreate(&m, &vd, 9), CUDA_SUCCESS);
    e = level_desc(m, 3);
    CHECK(e.Width == 2 && e.Height == 1 && e.Depth == 1, "3D level 3 is %zux%zux%zu", e.Width, e.Height, e.Depth);
    EXPECT(cuMipmappedArrayDestroy(m), CUDA_SUCCESS);
    CUDA_ARRAY3D_DESCRIPTOR cd = desc3(8, 8, 6, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP);
    EXPECT(cuMipmappedArrayCreate(&m, &cd, 4), CUDA_SUCCESS);
    e = level_desc(m, 1);
    CHECK(e.Width == 4 && e.Height == 4 && e.Depth == 6 && e.Flags == CUDA_ARRAY3D_CUBEMAP, "cube level 1");
    EXPECT(cuMipmappedArrayDestroy(m), CUDA_SUCCESS);
}

static void test_cubemap_arrays(void)
{
    CUarray a = NULL;
    CUDA_ARRAY3D_DESCRIPTOR d = desc3(8, 4, 6, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP);
    EXPECT(cuArray3DCreate_v2(&a, &d), CUDA_ERROR_INVALID_VALUE);   /* not square */
    d = desc3(8, 8, 5, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP);
    EXPECT(cuArray3DCreate_v2(&a, &d), CUDA_ERROR_INVALID_VALUE);   /* not 6 faces */
    d = desc3(8, 8, 10, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED);
    EXPECT(cuArray3DCreate_v2(&a, &d), CUDA_ERROR_INVALID_VALUE);   /* not 6n faces */
    d = desc3(8, 8, 12, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED);
    EXPECT(cuArray3DCreate_v2(&a, &d), CUDA_SUCCESS);
    CUDA_RESOURCE_DESC res;
    memset(&res, 0, sizeof res);
    res.resType = CU_RESOURCE_TYPE_ARRAY;
    res.res.array.hArray = a;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.flags = CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SRGB;
    CUtexObject t = 0;
    EXPECT(cuTexObjectCreate(&t, &res, &td, NULL), CUDA_ERROR_NOT_SUPPORTED);
    CUDA_RESOURCE_VIEW_DESC view;
    memset(&view, 0, sizeof view);
    td.flags = CU_TRSF_NORMALIZED_COORDINATES;
    EXPECT(cuTexObjectCreate(&t, &res, &td, &view), CUDA_ERROR_NOT_SUPPORTED);
    EXPECT(cuArrayDestroy(a), CUDA_SUCCESS);
}

static const char texref_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n.global .texref tr;\n"
    ".visible .entry k(.param .u64 out)\n{\n  ret;\n}\n";

/* '{...}|p' belongs to texture fetches only */
static const char vec_pred_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.global.v2.u32 {%r1, %r2}|%p1, [%rd1];\n  ret;\n}\n";

static void test_texture_references(CUmodule m)
{
    CUtexref tr = NULL;
    CUsurfref sr = NULL;
    EXPECT(cuModuleGetTexRef(&tr, m, "tr"), CUDA_ERROR_NOT_SUPPORTED);
    EXPECT(cuModuleGetSurfRef(&sr, m, "sr"), CUDA_ERROR_NOT_SUPPORTED);
    CUmodule bad = NULL;
    EXPECT(cuModuleLoadData(&bad, texref_ptx), CUDA_ERROR_INVALID_PTX);
    /* An error inside a kernel: at load time when loading eagerly; lazily,
     * the load succeeds and the kernel's first use returns what the load
     * would have, each time it is asked. */
    CUmoduleLoadingMode mode;
    EXPECT(cuModuleGetLoadingMode(&mode), CUDA_SUCCESS);
    if (mode == CU_MODULE_EAGER_LOADING) {
        EXPECT(cuModuleLoadData(&bad, vec_pred_ptx), CUDA_ERROR_INVALID_PTX);
    } else {
        CUfunction f = NULL;
        EXPECT(cuModuleLoadData(&bad, vec_pred_ptx), CUDA_SUCCESS);
        EXPECT(cuModuleGetFunction(&f, bad, "k"), CUDA_ERROR_INVALID_PTX);
        EXPECT(cuModuleGetFunction(&f, bad, "k"), CUDA_ERROR_INVALID_PTX);
        EXPECT(cuModuleGetFunction(&f, bad, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);
        EXPECT(cuModuleUnload(bad), CUDA_SUCCESS);
    }
}

/* ---- kernels ---------------------------------------------------------------------------- */

#define PTX_HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"
static const char kernels_ptx[] = PTX_HEAD
    /* txq: out[0..5] = num_mipmap_levels, level(2) width, level(2) height, array_size, addr_mode_0, width */
    ".visible .entry q(.param .u64 h, .param .u64 out)\n{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<3>;\n  ld.param.u64 %rd1, [h];\n  ld.param.u64 %rd2, [out];\n"
    "  txq.num_mipmap_levels.b32 %r1, [%rd1];\n  txq.level.width.b32 %r2, [%rd1], 2;\n"
    "  txq.level.height.b32 %r3, [%rd1], 2;\n  txq.array_size.b32 %r4, [%rd1];\n  txq.addr_mode_0.b32 %r5, [%rd1];\n"
    "  txq.width.b32 %r6, [%rd1];\n"
    "  st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};\n  st.global.v2.u32 [%rd2+16], {%r5, %r6};\n  ret;\n}\n"
    /* lv: out[0] = tex.level(x, y, lod).x, out[1] = residency, out[2] = tex.base(x, y).x,
     *     out[3] = bits of tex.level.s32 at texel (ix, iy) of level ilod */
    ".visible .entry lv(.param .u64 h, .param .u64 out, .param .f32 x, .param .f32 y, .param .f32 lod,\n"
    "                   .param .u32 ix, .param .u32 iy, .param .u32 ilod)\n{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<12>; .reg .f32 %f<16>; .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [h];\n  ld.param.u64 %rd2, [out];\n  ld.param.f32 %f1, [x];\n  ld.param.f32 %f2, [y];\n"
    "  ld.param.f32 %f3, [lod];\n  ld.param.u32 %r1, [ix];\n  ld.param.u32 %r2, [iy];\n  ld.param.u32 %r3, [ilod];\n"
    "  tex.level.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}|%p1, [%rd1, {%f1, %f2}], %f3;\n"
    "  selp.u32 %r4, 1, 0, %p1;\n"
    "  tex.base.2d.v4.f32.f32 {%f8, %f9, %f10, %f11}, [%rd1, {%f1, %f2}];\n"
    "  tex.level.2d.v4.s32.s32 {%r5, %r6, %r7, %r8}, [%rd1, {%r1, %r2}], %r3;\n"
    "  st.global.f32 [%rd2], %f4;\n  st.global.u32 [%rd2+4], %r4;\n  st.global.f32 [%rd2+8], %f8;\n"
    "  st.global.u32 [%rd2+12], %r5;\n  ret;\n}\n"
    /* gr: out[0] = tex.grad(0.5, 0.5, {dx0, dx1}, {dy0, dy1}).x */
    ".visible .entry gr(.param .u64 h, .param .u64 out, .param .f32 a, .param .f32 b, .param .f32 c, .param .f32 d)\n{\n"
    "  .reg .f32 %f<16>; .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [h];\n  ld.param.u64 %rd2, [out];\n  ld.param.f32 %f1, [a];\n  ld.param.f32 %f2, [b];\n"
    "  ld.param.f32 %f3, [c];\n  ld.param.f32 %f4, [d];\n  mov.f32 %f5, 0f3F000000;\n"
    "  tex.grad.2d.v4.f32.f32 {%f6, %f7, %f8, %f9}, [%rd1, {%f5, %f5}], {%f1, %f2}, {%f3, %f4};\n"
    "  st.global.f32 [%rd2], %f6;\n  ret;\n}\n"
    /* hf: out = tex(x, y) as .v2.f16x2 (2 words) then as .v4.f16 (4 halves) */
    ".visible .entry hf(.param .u64 h, .param .u64 out, .param .f32 x, .param .f32 y)\n{\n"
    "  .reg .b16 %h<6>; .reg .b32 %r<4>; .reg .f32 %f<4>; .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [h];\n  ld.param.u64 %rd2, [out];\n  ld.param.f32 %f1, [x];\n  ld.param.f32 %f2, [y];\n"
    "  tex.2d.v2.f16x2.f32 {%r1, %r2}, [%rd1, {%f1, %f2}];\n"
    "  tex.2d.v4.f16.f32 {%h1, %h2, %h3, %h4}, [%rd1, {%f1, %f2}];\n"
    "  st.global.v2.u32 [%rd2], {%r1, %r2};\n  st.global.v4.u16 [%rd2+8], {%h1, %h2, %h3, %h4};\n  ret;\n}\n"
    /* g4: out[0..3] = tld4.r.a2d(layer, x, y), out[4..7] = tld4.r.cube(x, y, z) */
    ".visible .entry g4(.param .u64 h, .param .u64 hc, .param .u64 out, .param .u32 layer, .param .f32 x,\n"
    "                   .param .f32 y, .param .f32 cx, .param .f32 cy, .param .f32 cz)\n{\n"
    "  .reg .b32 %r<2>; .reg .f32 %f<16>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [h];\n  ld.param.u64 %rd2, [out];\n  ld.param.u64 %rd3, [hc];\n  ld.param.u32 %r1, [layer];\n"
    "  ld.param.f32 %f1, [x];\n  ld.param.f32 %f2, [y];\n  ld.param.f32 %f11, [cx];\n  ld.param.f32 %f12, [cy];\n"
    "  ld.param.f32 %f13, [cz];\n"
    "  tld4.r.a2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%r1, %f1, %f2, %f2}];\n"
    "  tld4.r.cube.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd3, {%f11, %f12, %f13, %f13}];\n"
    "  st.global.v4.f32 [%rd2], {%f3, %f4, %f5, %f6};\n  st.global.v4.f32 [%rd2+16], {%f7, %f8, %f9, %f10};\n"
    "  ret;\n}\n"
    /* cg: out[0] = tex.grad.cube(p, dPdx, {0, 0, 0}).x */
    ".visible .entry cg(.param .u64 h, .param .u64 out, .param .f32 x, .param .f32 y, .param .f32 z,\n"
    "                   .param .f32 dx, .param .f32 dy, .param .f32 dz)\n{\n"
    "  .reg .f32 %f<16>; .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [h];\n  ld.param.u64 %rd2, [out];\n  ld.param.f32 %f1, [x];\n  ld.param.f32 %f2, [y];\n"
    "  ld.param.f32 %f3, [z];\n  ld.param.f32 %f4, [dx];\n  ld.param.f32 %f5, [dy];\n  ld.param.f32 %f6, [dz];\n"
    "  mov.f32 %f7, 0f00000000;\n"
    "  tex.grad.cube.v4.f32.f32 {%f8, %f9, %f10, %f11}, [%rd1, {%f1, %f2, %f3, %f3}], {%f4, %f5, %f6, %f7},\n"
    "      {%f7, %f7, %f7, %f7};\n"
    "  st.global.f32 [%rd2], %f8;\n  ret;\n}\n"
    /* cu: out[0] = tex.cube(x, y, z).x */
    ".visible .entry cu(.param .u64 h, .param .u64 out, .param .f32 x, .param .f32 y, .param .f32 z)\n{\n"
    "  .reg .f32 %f<10>; .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [h];\n  ld.param.u64 %rd2, [out];\n  ld.param.f32 %f1, [x];\n  ld.param.f32 %f2, [y];\n"
    "  ld.param.f32 %f3, [z];\n"
    "  tex.cube.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd1, {%f1, %f2, %f3, %f3}];\n"
    "  st.global.f32 [%rd2], %f4;\n  ret;\n}\n"
    /* sp: sust.p.2d.v4.b32 [h, {x, y}], vals[0..3] */
    ".visible .entry sp(.param .u64 h, .param .u64 vals, .param .u32 x, .param .u32 y)\n{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [h];\n  ld.param.u64 %rd2, [vals];\n  ld.param.u32 %r1, [x];\n  ld.param.u32 %r2, [y];\n"
    "  ld.global.v4.u32 {%r3, %r4, %r5, %r6}, [%rd2];\n"
    "  sust.p.2d.v4.b32.trap [%rd1, {%r1, %r2}], {%r3, %r4, %r5, %r6};\n  ret;\n}\n";

static CUmodule kmod;
static CUdeviceptr dout;

static void launch(const char *name, void **args)
{
    CUfunction f = NULL;
    EXPECT(cuModuleGetFunction(&f, kmod, name), CUDA_SUCCESS);
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL), CUDA_SUCCESS);
    EXPECT(cuCtxSynchronize(), CUDA_SUCCESS);
}

static CUtexObject tex_over(CUDA_RESOURCE_DESC *res, unsigned flags, int linear, int mip_linear, float bias,
                            float min_lod, float max_lod, unsigned aniso)
{
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.flags = flags;
    td.filterMode = linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
    td.mipmapFilterMode = mip_linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
    td.mipmapLevelBias = bias;
    td.minMipmapLevelClamp = min_lod;
    td.maxMipmapLevelClamp = max_lod;
    td.maxAnisotropy = aniso;
    CUtexObject t = 0;
    EXPECT(cuTexObjectCreate(&t, res, &td, NULL), CUDA_SUCCESS);
    return t;
}

/* Fills level l of m (w x h floats) with value(l, x, y). */
static void fill_levels(CUmipmappedArray m, unsigned levels, size_t w, size_t h, float (*value)(unsigned, int, int))
{
    static float buf[64 * 64];
    for (unsigned l = 0; l < levels; l++) {
        size_t lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
        for (size_t i = 0; i < lw * lh; i++)
            buf[i] = value(l, (int)(i % lw), (int)(i / lw));
        CUarray a = NULL;
        EXPECT(cuMipmappedArrayGetLevel(&a, m, l), CUDA_SUCCESS);
        CUDA_MEMCPY2D cp;
        memset(&cp, 0, sizeof cp);
        cp.srcMemoryType = CU_MEMORYTYPE_HOST;
        cp.srcHost = buf;
        cp.srcPitch = lw * sizeof(float);
        cp.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        cp.dstArray = a;
        cp.WidthInBytes = lw * sizeof(float);
        cp.Height = lh;
        EXPECT(cuMemcpy2D_v2(&cp), CUDA_SUCCESS);
    }
}

static float texel_value(unsigned l, int x, int y) { return 100.0f * (float)l + (float)x + 0.25f * (float)y; }
static float level_number(unsigned l, int x, int y) { (void)x; (void)y; return (float)l; }

static void test_mip_sampling(void)
{
    CUmipmappedArray m = NULL;
    CUDA_ARRAY3D_DESCRIPTOR d = desc3(32, 32, 0, CU_AD_FORMAT_FLOAT, 1, 0);
    EXPECT(cuMipmappedArrayCreate(&m, &d, 6), CUDA_SUCCESS);
    fill_levels(m, 6, 32, 32, texel_value);
    CUDA_RESOURCE_DESC res;
    memset(&res, 0, sizeof res);
    res.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    res.res.mipmap.hMipmappedArray = m;
    float out[8];

    /* what an object takes of the device's memory (the OpenCL device: its descriptors) comes back */
    size_t free0 = 0, free1 = 1, total = 0;
    EXPECT(cuMemGetInfo_v2(&free0, &total), CUDA_SUCCESS);
    for (int i = 0; i < 3; i++)
        EXPECT(cuTexObjectDestroy(tex_over(&res, CU_TRSF_NORMALIZED_COORDINATES, 0, 0, 0, 0, 5, 0)), CUDA_SUCCESS);
    EXPECT(cuMemGetInfo_v2(&free1, &total), CUDA_SUCCESS);
    CHECK(free0 == free1, "texture objects give their memory back: %zu bytes free before, %zu after", free0, free1);

    /* txq */
    CUtexObject t = tex_over(&res, CU_TRSF_NORMALIZED_COORDINATES, 0, 0, 0, 0, 5, 0);
    void *qa[] = {&t, &dout};
    launch("q", qa);
    uint32_t qv[6];
    EXPECT(cuMemcpyDtoH_v2(qv, dout, sizeof qv), CUDA_SUCCESS);
    CHECK(qv[0] == 6 && qv[1] == 8 && qv[2] == 8 && qv[3] == 0 && qv[4] == CU_TR_ADDRESS_MODE_WRAP && qv[5] == 32,
          "txq %u %u %u %u %u %u", qv[0], qv[1], qv[2], qv[3], qv[4], qv[5]);

    /* tex.level (point mip filter: lod 1.6 -> level 2), residency, tex.base, integer tex.level */
    float x = (3 + 0.5f) / 8, y = (5 + 0.5f) / 8, lod = 1.6f;   /* texel (3, 5) of level 2 */
    uint32_t ix = 7, iy = 2, il = 1;
    void *la[] = {&t, &dout, &x, &y, &lod, &ix, &iy, &il};
    launch("lv", la);
    EXPECT(cuMemcpyDtoH_v2(out, dout, 4 * sizeof(float)), CUDA_SUCCESS);
    uint32_t bits;
    memcpy(&bits, &out[1], 4);
    CHECK(out[0] == texel_value(2, 3, 5), "tex.level got %g", (double)out[0]);
    CHECK(bits == 1, "residency predicate %u", bits);
    CHECK(out[2] == texel_value(0, 14, 22), "tex.base got %g", (double)out[2]);   /* (x, y) * 32 */
    float want_i = texel_value(1, 7, 2);
    memcpy(&bits, &out[3], 4);
    uint32_t want_bits;
    memcpy(&want_bits, &want_i, 4);
    CHECK(bits == want_bits, "integer tex.level got 0x%08x want 0x%08x", bits, want_bits);
    EXPECT(cuTexObjectDestroy(t), CUDA_SUCCESS);

    /* bias 1 moves lod 1.6 to level 3; a min clamp of 4 to level 4; a max clamp of 0 (the zeroed default) keeps level 0 */
    const struct { float bias, min, max; unsigned level; } clamps[] = {{1, 0, 5, 3}, {0, 4, 5, 4}, {0, 0, 0, 0}};
    for (int k = 0; k < 3; k++) {
        t = tex_over(&res, CU_TRSF_NORMALIZED_COORDINATES, 0, 0, clamps[k].bias, clamps[k].min, clamps[k].max, 0);
        x = y = 0.5f;
        launch("lv", la);
        EXPECT(cuMemcpyDtoH_v2(out, dout, sizeof(float)), CUDA_SUCCESS);
        unsigned l = clamps[k].level, n = 32u >> l;
        CHECK(out[0] == texel_value(l, (int)n / 2, (int)n / 2), "bias/clamp case %d got %g", k, (double)out[0]);
        EXPECT(cuTexObjectDestroy(t), CUDA_SUCCESS);
    }
    EXPECT(cuMipmappedArrayDestroy(m), CUDA_SUCCESS);

    /* tex.grad with anisotropy over levels holding their own number */
    EXPECT(cuMipmappedArrayCreate(&m, &d, 6), CUDA_SUCCESS);
    fill_levels(m, 6, 32, 32, level_number);
    res.res.mipmap.hMipmappedArray = m;
    const struct { unsigned aniso; float dx, dy; float lod; } gr[] = {
        {0, 4, 1, 2}, {1, 4, 1, 2}, {2, 4, 1, 1}, {4, 4, 1, 0}, {16, 8, 2, 1}, {4, 3, 1, 0},
    };
    for (int k = 0; k < 6; k++) {
        t = tex_over(&res, CU_TRSF_NORMALIZED_COORDINATES, 1, 1, 0, 0, 5, gr[k].aniso);
        float a = gr[k].dx / 32, b = 0, c = 0, e = gr[k].dy / 32;
        void *ga[] = {&t, &dout, &a, &b, &c, &e};
        launch("gr", ga);
        EXPECT(cuMemcpyDtoH_v2(out, dout, sizeof(float)), CUDA_SUCCESS);
        CHECK(fabsf(out[0] - gr[k].lod) < 1e-6f, "grad case %d (aniso %u): lod %g want %g", k, gr[k].aniso,
              (double)out[0], (double)gr[k].lod);
        EXPECT(cuTexObjectDestroy(t), CUDA_SUCCESS);
    }
    EXPECT(cuMipmappedArrayDestroy(m), CUDA_SUCCESS);
}

/* tex.grad.cube over an 8 x 8 mipmapped cubemap whose level l holds l: the
 * level of detail from direction derivatives projected on the face. */
static void test_cube_gradients(void)
{
    CUmipmappedArray m = NULL;
    CUDA_ARRAY3D_DESCRIPTOR d = desc3(8, 8, 6, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP);
    EXPECT(cuMipmappedArrayCreate(&m, &d, 4), CUDA_SUCCESS);
    for (unsigned l = 0; l < 4; l++) {
        static float buf[6 * 64];
        size_t n = 8u >> l;
        for (size_t i = 0; i < 6 * n * n; i++)
            buf[i] = (float)l;
        CUarray a = NULL;
        EXPECT(cuMipmappedArrayGetLevel(&a, m, l), CUDA_SUCCESS);
        CUDA_MEMCPY3D cp;
        memset(&cp, 0, sizeof cp);
        cp.srcMemoryType = CU_MEMORYTYPE_HOST;
        cp.srcHost = buf;
        cp.srcPitch = n * sizeof(float);
        cp.srcHeight = n;
        cp.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        cp.dstArray = a;
        cp.WidthInBytes = n * sizeof(float);
        cp.Height = n;
        cp.Depth = 6;
        EXPECT(cuMemcpy3D_v2(&cp), CUDA_SUCCESS);
    }
    CUDA_RESOURCE_DESC res;
    memset(&res, 0, sizeof res);
    res.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    res.res.mipmap.hMipmappedArray = m;
    CUtexObject t = tex_over(&res, CU_TRSF_NORMALIZED_COORDINATES, 1, 1, 0, 0, 3, 0);
    /* +x face centre: u = (-z/x + 1)/2, so du = -dz/2 and |du| * 8 = 4 |dz|;
     * +y face at (0.5, 2, 0.25) moving outwards by 4: du = -1/4, dv = -1/8: 2 and 1 texels */
    const struct { float p[3], dp[3]; double rho; } cases[] = {
        {{1, 0, 0}, {0, 0, 0.25f}, 1.0}, {{1, 0, 0}, {0, 0, 0.5f}, 2.0}, {{2, 0, 0}, {0, 0, 2.0f}, 4.0},
        {{0.5f, 2, 0.25f}, {0, 4, 0}, sqrt(2.0 * 2.0 + 1.0)},
    };
    for (int k = 0; k < 4; k++) {
        float px = cases[k].p[0], py = cases[k].p[1], pz = cases[k].p[2];
        float dx = cases[k].dp[0], dy = cases[k].dp[1], dz = cases[k].dp[2];
        void *args[] = {&t, &dout, &px, &py, &pz, &dx, &dy, &dz};
        launch("cg", args);
        float got = 0;
        EXPECT(cuMemcpyDtoH_v2(&got, dout, sizeof got), CUDA_SUCCESS);
        double lod = log2(cases[k].rho);
        float want = (float)(floor(lod) + floor((lod - floor(lod)) * 256 + 0.5) / 256);
        CHECK(got == want, "cube grad case %d: got %g want %g", k, (double)got, (double)want);
    }
    EXPECT(cuTexObjectDestroy(t), CUDA_SUCCESS);
    EXPECT(cuMipmappedArrayDestroy(m), CUDA_SUCCESS);
}

static CUarray float_array(size_t w, size_t h, size_t n, unsigned flags, unsigned channels, float *host);

/* Bilinear filtering across cube faces (CU_TRSF_SEAMLESS_CUBEMAP) on a 4 x 4
 * cube whose face f holds 10 f: texels past an edge come from the
 * neighbouring face; without the flag the face is clamped. */
static void test_seamless_cube(void)
{
    static float faces[6 * 16];
    for (int i = 0; i < 96; i++)
        faces[i] = 10.0f * (float)(i / 16);
    CUarray a = float_array(4, 4, 6, CUDA_ARRAY3D_CUBEMAP, 1, faces);
    CUDA_RESOURCE_DESC res;
    memset(&res, 0, sizeof res);
    res.resType = CU_RESOURCE_TYPE_ARRAY;
    res.res.array.hArray = a;
    /* face 0 at u = 0.9375, v = 0.5: a quarter of the weight on face 5 (-z);
     * face 4 at u = 0.0625, v = 0.5: a quarter on face 1 (-x) */
    const struct { float p[3], seamless, clamped; } cases[] = {
        {{1, 0, -0.875f}, 12.5f, 0.0f}, {{-0.875f, 0, 1}, 32.5f, 40.0f},
    };
    for (int seamless = 0; seamless < 2; seamless++) {
        CUtexObject t = tex_over(&res, CU_TRSF_NORMALIZED_COORDINATES | (seamless ? CU_TRSF_SEAMLESS_CUBEMAP : 0), 1,
                                 0, 0, 0, 0, 0);
        for (int k = 0; k < 2; k++) {
            float x = cases[k].p[0], y = cases[k].p[1], z = cases[k].p[2], got = -1;
            void *args[] = {&t, &dout, &x, &y, &z};
            launch("cu", args);
            EXPECT(cuMemcpyDtoH_v2(&got, dout, sizeof got), CUDA_SUCCESS);
            float want = seamless ? cases[k].seamless : cases[k].clamped;
            CHECK(got == want, "seamless %d case %d: got %g want %g", seamless, k, (double)got, (double)want);
        }
        EXPECT(cuTexObjectDestroy(t), CUDA_SUCCESS);
    }
    EXPECT(cuArrayDestroy(a), CUDA_SUCCESS);
}

/* A w x h x n float array filled with base + i. */
static CUarray float_array(size_t w, size_t h, size_t n, unsigned flags, unsigned channels, float *host)
{
    CUDA_ARRAY3D_DESCRIPTOR d = desc3(w, h, n, CU_AD_FORMAT_FLOAT, channels, flags);
    CUarray a = NULL;
    EXPECT(cuArray3DCreate_v2(&a, &d), CUDA_SUCCESS);
    CUDA_MEMCPY3D cp;
    memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_HOST;
    cp.srcHost = host;
    cp.srcPitch = w * channels * sizeof(float);
    cp.srcHeight = h;
    cp.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    cp.dstArray = a;
    cp.WidthInBytes = w * channels * sizeof(float);
    cp.Height = h;
    cp.Depth = n ? n : 1;
    EXPECT(cuMemcpy3D_v2(&cp), CUDA_SUCCESS);
    return a;
}

static CUtexObject array_tex(CUarray a, unsigned flags)
{
    CUDA_RESOURCE_DESC res;
    memset(&res, 0, sizeof res);
    res.resType = CU_RESOURCE_TYPE_ARRAY;
    res.res.array.hArray = a;
    return tex_over(&res, flags, 0, 0, 0, 0, 0, 0);
}

static uint16_t half_bits(float f)   /* exact values only */
{
    if (f == 0)
        return 0;
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(((u >> 16) & 0x8000u) | ((((u >> 23) & 0xffu) - 112u) << 10) | ((u >> 13) & 0x3ffu));
}

static void test_half_results_gather_and_cube(void)
{
    /* a 4-channel 4 x 4 texture: .v2.f16x2 and .v4.f16 results */
    static float px[4 * 4 * 4];
    for (int i = 0; i < 64; i++)
        px[i] = (float)(i % 13) * 0.5f - 2.0f;
    CUarray a = float_array(4, 4, 0, 0, 4, px);
    CUtexObject t = array_tex(a, 0);
    float x = 2.5f, y = 1.5f;   /* texel (2, 1) */
    void *ha[] = {&t, &dout, &x, &y};
    launch("hf", ha);
    uint32_t w[4];
    EXPECT(cuMemcpyDtoH_v2(w, dout, sizeof w), CUDA_SUCCESS);
    const float *p = &px[(1 * 4 + 2) * 4];
    uint16_t hb[4];
    memcpy(hb, &w[2], 8);
    CHECK(w[0] == ((uint32_t)half_bits(p[0]) | (uint32_t)half_bits(p[1]) << 16) &&
              w[1] == ((uint32_t)half_bits(p[2]) | (uint32_t)half_bits(p[3]) << 16),
          "f16x2 results 0x%08x 0x%08x", w[0], w[1]);
    CHECK(hb[0] == half_bits(p[0]) && hb[1] == half_bits(p[1]) && hb[2] == half_bits(p[2]) && hb[3] == half_bits(p[3]),
          "f16 results %04x %04x %04x %04x", hb[0], hb[1], hb[2], hb[3]);
    EXPECT(cuTexObjectDestroy(t), CUDA_SUCCESS);
    EXPECT(cuArrayDestroy(a), CUDA_SUCCESS);

    /* tld4 on layer 1 of a layered 4 x 4 x 2 texture and on face 0 of a 4 x 4 cube */
    static float lay[2 * 16], cube[6 * 16];
    for (int i = 0; i < 32; i++)
        lay[i] = (float)i;
    for (int i = 0; i < 96; i++)
        cube[i] = 1000.0f + (float)i;
    CUarray al = float_array(4, 4, 2, CUDA_ARRAY3D_LAYERED, 1, lay);
    CUarray ac = float_array(4, 4, 6, CUDA_ARRAY3D_CUBEMAP, 1, cube);
    CUtexObject tl = array_tex(al, 0), tc = array_tex(ac, CU_TRSF_NORMALIZED_COORDINATES);
    uint32_t layer = 1;
    float gx = 2.0f, gy = 2.0f;                        /* footprint x 1..2, y 1..2 */
    float cx = 1.0f, cy = -0.25f, cz = 0.25f;          /* face 0: s = -z, t = -y -> u = 0.375, v = 0.625 */
    void *ga[] = {&tl, &tc, &dout, &layer, &gx, &gy, &cx, &cy, &cz};
    launch("g4", ga);
    float g[8];
    EXPECT(cuMemcpyDtoH_v2(g, dout, sizeof g), CUDA_SUCCESS);
    const float *l1 = lay + 16;
    CHECK(g[0] == l1[2 * 4 + 1] && g[1] == l1[2 * 4 + 2] && g[2] == l1[1 * 4 + 2] && g[3] == l1[1 * 4 + 1],
          "tld4.a2d %g %g %g %g", (double)g[0], (double)g[1], (double)g[2], (double)g[3]);
    /* u * 4 - 0.5 = 1, v * 4 - 0.5 = 2: texels x 1..2, y 2..3 of face 0 */
    CHECK(g[4] == cube[3 * 4 + 1] && g[5] == cube[3 * 4 + 2] && g[6] == cube[2 * 4 + 2] && g[7] == cube[2 * 4 + 1],
          "tld4.cube %g %g %g %g", (double)g[4], (double)g[5], (double)g[6], (double)g[7]);
    /* txq.array_size of a cube array counts cubes */
    CUarray acs = NULL;
    CUDA_ARRAY3D_DESCRIPTOR cd = desc3(4, 4, 18, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED);
    EXPECT(cuArray3DCreate_v2(&acs, &cd), CUDA_SUCCESS);
    CUtexObject tcs = array_tex(acs, CU_TRSF_NORMALIZED_COORDINATES);
    void *qa[] = {&tcs, &dout};
    launch("q", qa);
    uint32_t qv[6];
    EXPECT(cuMemcpyDtoH_v2(qv, dout, sizeof qv), CUDA_SUCCESS);
    CHECK(qv[0] == 1 && qv[3] == 3, "cube array: levels %u, array_size %u", qv[0], qv[3]);
    EXPECT(cuTexObjectDestroy(tl), CUDA_SUCCESS);
    EXPECT(cuTexObjectDestroy(tc), CUDA_SUCCESS);
    EXPECT(cuTexObjectDestroy(tcs), CUDA_SUCCESS);
    EXPECT(cuArrayDestroy(al), CUDA_SUCCESS);
    EXPECT(cuArrayDestroy(ac), CUDA_SUCCESS);
    EXPECT(cuArrayDestroy(acs), CUDA_SUCCESS);
}

/* Linear filtering of a 2 x 2 half texture holding -3.5, 1.125 / 1.875, -1.125 at
 * weights a = 111/256, b = 21/256 (texture_advanced's first half value that is
 * not a half): the 1/256-weight sum is -1.32177734375, a tie between two
 * halves; an H200 returned -1.322265625 (nearest even), and so must the
 * sampler. Point sampling and a float texture with the same texels are not rounded. */
static void test_half_linear_rounding(void)
{
    const uint16_t bits[4] = {0xc300, 0x3c80, 0x3f80, 0xbc80};   /* -3.5, 1.125, 1.875, -1.125 */
    CUDA_ARRAY3D_DESCRIPTOR d = desc3(2, 2, 0, CU_AD_FORMAT_HALF, 1, 0);
    CUarray a = NULL;
    EXPECT(cuArray3DCreate_v2(&a, &d), CUDA_SUCCESS);
    CUDA_MEMCPY2D cp;
    memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_HOST;
    cp.srcHost = bits;
    cp.srcPitch = 4;
    cp.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    cp.dstArray = a;
    cp.WidthInBytes = 4;
    cp.Height = 2;
    EXPECT(cuMemcpy2D_v2(&cp), CUDA_SUCCESS);
    float fl[4] = {-3.5f, 1.125f, 1.875f, -1.125f};
    CUarray af = float_array(2, 2, 0, 0, 1, fl);
    CUDA_RESOURCE_DESC res;
    memset(&res, 0, sizeof res);
    res.resType = CU_RESOURCE_TYPE_ARRAY;
    float x = 0.5f + 111.0f / 256, y = 0.5f + 21.0f / 256, lod = 0;
    uint32_t zero = 0;
    const struct { CUarray arr; int linear; float want; } cases[] = {
        {a, 1, -1.322265625f}, {a, 0, -3.5f}, {af, 1, -1.32177734375f},
    };
    for (int k = 0; k < 3; k++) {
        res.res.array.hArray = cases[k].arr;
        CUtexObject t = tex_over(&res, 0, cases[k].linear, 0, 0, 0, 0, 0);
        void *args[] = {&t, &dout, &x, &y, &lod, &zero, &zero, &zero};
        launch("lv", args);
        float got[3] = {0, 0, 0};
        EXPECT(cuMemcpyDtoH_v2(got, dout, sizeof got), CUDA_SUCCESS);
        CHECK(got[0] == cases[k].want && got[2] == cases[k].want, "half rounding case %d: got %.9g, %.9g want %.9g", k,
              (double)got[0], (double)got[2], (double)cases[k].want);
        EXPECT(cuTexObjectDestroy(t), CUDA_SUCCESS);
    }
    EXPECT(cuArrayDestroy(a), CUDA_SUCCESS);
    EXPECT(cuArrayDestroy(af), CUDA_SUCCESS);
}

/* sust.p of {vals} at element (1, 1) of a 3 x 2 array of format f with ch channels; returns its bytes. */
static void store_formatted(CUarray_format f, unsigned ch, const uint32_t vals[4], unsigned char *elem, size_t eb)
{
    CUDA_ARRAY3D_DESCRIPTOR d = desc3(3, 2, 0, f, ch, CUDA_ARRAY3D_SURFACE_LDST);
    CUarray a = NULL;
    EXPECT(cuArray3DCreate_v2(&a, &d), CUDA_SUCCESS);
    CUDA_RESOURCE_DESC res;
    memset(&res, 0, sizeof res);
    res.resType = CU_RESOURCE_TYPE_ARRAY;
    res.res.array.hArray = a;
    CUsurfObject s = 0;
    EXPECT(cuSurfObjectCreate(&s, &res), CUDA_SUCCESS);
    CUdeviceptr dv = 0;
    EXPECT(cuMemAlloc_v2(&dv, 16), CUDA_SUCCESS);
    EXPECT(cuMemcpyHtoD_v2(dv, vals, 16), CUDA_SUCCESS);
    uint32_t x = 1, y = 1;
    void *args[] = {&s, &dv, &x, &y};
    launch("sp", args);
    unsigned char all[3 * 2 * 16];
    CUDA_MEMCPY2D cp;
    memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    cp.srcArray = a;
    cp.dstMemoryType = CU_MEMORYTYPE_HOST;
    cp.dstHost = all;
    cp.dstPitch = 3 * eb;
    cp.WidthInBytes = 3 * eb;
    cp.Height = 2;
    EXPECT(cuMemcpy2D_v2(&cp), CUDA_SUCCESS);
    memcpy(elem, all + (1 * 3 + 1) * eb, eb);
    EXPECT(cuSurfObjectDestroy(s), CUDA_SUCCESS);
    EXPECT(cuMemFree_v2(dv), CUDA_SUCCESS);
    EXPECT(cuArrayDestroy(a), CUDA_SUCCESS);
}

static void test_formatted_stores(void)
{
    float fv[4] = {1.5f, -2.25f, 3.0f, 0.5f};
    uint32_t v[4];
    memcpy(v, fv, 16);
    unsigned char e[16];
    store_formatted(CU_AD_FORMAT_FLOAT, 2, v, e, 8);   /* R, G kept; B, A ignored */
    float got[2];
    memcpy(got, e, 8);
    CHECK(got[0] == 1.5f && got[1] == -2.25f, "sust.p float2: %g %g", (double)got[0], (double)got[1]);
    store_formatted(CU_AD_FORMAT_HALF, 4, v, e, 8);
    uint16_t h[4];
    memcpy(h, e, 8);
    CHECK(h[0] == 0x3e00 && h[1] == 0xc080 && h[2] == 0x4200 && h[3] == 0x3800, "sust.p half4: %04x %04x %04x %04x",
          h[0], h[1], h[2], h[3]);
    uint32_t iv[4] = {7, 300, 0, 255};
    store_formatted(CU_AD_FORMAT_UNSIGNED_INT8, 4, iv, e, 4);
    CHECK(e[0] == 7 && e[1] == 255 && e[2] == 0 && e[3] == 255, "sust.p uchar4: %u %u %u %u", e[0], e[1], e[2], e[3]);
    uint32_t sv[4] = {(uint32_t)-200, 5, 0, 0};
    store_formatted(CU_AD_FORMAT_SIGNED_INT8, 1, sv, e, 1);
    CHECK((int8_t)e[0] == -128, "sust.p char: %d", (int8_t)e[0]);
}

/* A handle that is no object (0, an ordinary allocation) and a .trap surface load out of range trap:
 * the launch fails with CUDA_ERROR_LAUNCH_FAILED. The error is sticky, so each runs in a context of its
 * own. */
static const char trap_ptx[] = PTX_HEAD
    ".visible .entry bad(.param .u64 h, .param .u64 out)\n{\n"
    "  .reg .f32 %f<5>; .reg .b64 %rd<3>;\n  ld.param.u64 %rd1, [h];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.f32 %f1, 0f00000000;\n  tex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1}];\n"
    "  st.global.f32 [%rd2], %f1;\n  ret;\n}\n"
    ".visible .entry far(.param .u64 h, .param .u64 out)\n{\n"
    "  .reg .b32 %r<2>; .reg .b64 %rd<3>;\n  ld.param.u64 %rd1, [h];\n  ld.param.u64 %rd2, [out];\n"
    "  suld.b.1d.b32.trap %r1, [%rd1, {4096}];\n  st.global.u32 [%rd2], %r1;\n  ret;\n}\n";

static void test_traps(CUdevice dev)
{
    for (int which = 0; which < 3; which++) {
        CUcontext ctx = NULL;
        CUmodule m = NULL;
        CUfunction f = NULL;
        CUdeviceptr out = 0;
        CUarray a = NULL;
        CUsurfObject s = 0;
        EXPECT(cuCtxCreate_v4(&ctx, NULL, 0, dev), CUDA_SUCCESS);
        EXPECT(cuModuleLoadData(&m, trap_ptx), CUDA_SUCCESS);
        EXPECT(cuModuleGetFunction(&f, m, which < 2 ? "bad" : "far"), CUDA_SUCCESS);
        EXPECT(cuMemAlloc_v2(&out, 256), CUDA_SUCCESS);
        unsigned long long h = which == 0 ? 0 : out;
        if (which == 2) {
            float host[16] = {0};
            a = float_array(16, 0, 0, CUDA_ARRAY3D_SURFACE_LDST, 1, host);
            CUDA_RESOURCE_DESC res;
            memset(&res, 0, sizeof res);
            res.resType = CU_RESOURCE_TYPE_ARRAY;
            res.res.array.hArray = a;
            EXPECT(cuSurfObjectCreate(&s, &res), CUDA_SUCCESS);
            h = s;
        }
        void *args[] = {&h, &out};
        if (f) {
            EXPECT(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL), CUDA_SUCCESS);
            EXPECT(cuCtxSynchronize(), CUDA_ERROR_LAUNCH_FAILED);
        }
        EXPECT(cuCtxDestroy_v2(ctx), CUDA_SUCCESS);   /* its objects, arrays and memory with it */
    }
}

int main(void)
{
    EXPECT(cuInit(0), CUDA_SUCCESS);
    CUdevice dev = 0;
    EXPECT(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
    CUcontext ctx = NULL;
    EXPECT(cuCtxCreate_v4(&ctx, NULL, 0, dev), CUDA_SUCCESS);
    test_mipmap_api();
    test_cubemap_arrays();
    EXPECT(cuModuleLoadData(&kmod, kernels_ptx), CUDA_SUCCESS);
    test_texture_references(kmod);
    EXPECT(cuMemAlloc_v2(&dout, 256), CUDA_SUCCESS);
    if (kmod) {
        test_mip_sampling();
        test_half_results_gather_and_cube();
        test_cube_gradients();
        test_seamless_cube();
        test_formatted_stores();
        test_half_linear_rounding();
        EXPECT(cuModuleUnload(kmod), CUDA_SUCCESS);
    }
    EXPECT(cuMemFree_v2(dout), CUDA_SUCCESS);
    EXPECT(cuCtxDestroy_v2(ctx), CUDA_SUCCESS);
    test_traps(dev);
    if (failures)
        fprintf(stderr, "test_driver_texture: %d failures\n", failures);
    return failures ? 1 : 0;
}
