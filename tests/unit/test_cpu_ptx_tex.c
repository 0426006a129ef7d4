/* test_cpu_ptx_tex: texture and surface instructions through the real
 * pipeline, on hand-made cb_texobj objects (the layout the driver builds):
 *   - tex.1d with every address mode (wrap, clamp, mirror, border) under
 *     normalized and unnormalized coordinates, point and linear filtering;
 *   - integer formats: u8 normalized, s8 normalized (clamped at -1), u8 read
 *     as integers through tex.a1d.v4.s32.s32 with a clamped layer;
 *   - txq of every supported attribute;
 *   - suld.b/sust.b with .clamp, .zero and .trap out of range. */
#include "test_cpu_util.h"

#include <math.h>

#include "codegen/translate.h"

static cb_backend *be;

#define PTX_HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

static void *load_ptx(const char *ptx, cb_translation **trp)
{
    char err[1024];
    cb_translation *tr = NULL;
    if (cb_translate_ptx(ptx, strlen(ptx), "ptx_tex.ptx", CB_DIALECT_C, &tr, err, sizeof err) != 0) {
        TU_CHECK(0, "translate: %s", err);
        return NULL;
    }
    *trp = tr;
    return tu_load(be, tr, NULL);
}

/* k0: out[i] = tex.1d(h, x[i]).x (f32); k1: txq; k2: tex.a1d.v4.s32.s32 (layer i % 4, x i);
 * k3: suld/sust */
static const char ptx[] = PTX_HEAD
    ".visible .entry samp(.param .u64 h, .param .u64 xs, .param .u64 out)\n{\n"
    "  .reg .b32 %r<8>; .reg .f32 %f<8>; .reg .b64 %rd<10>;\n"
    "  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [h];\n  ld.param.u64 %rd2, [xs];\n  ld.param.u64 %rd3, [out];\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n  add.u64 %rd5, %rd2, %rd4;\n  ld.global.f32 %f1, [%rd5];\n"
    "  tex.1d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%f1}];\n"
    "  add.u64 %rd6, %rd3, %rd4;\n  st.global.f32 [%rd6], %f2;\n  ret;\n}\n"
    ".visible .entry query(.param .u64 h, .param .u64 out)\n{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [h];\n  ld.param.u64 %rd2, [out];\n"
    "  txq.width.b32 %r1, [%rd1];\n  txq.height.b32 %r2, [%rd1];\n  txq.depth.b32 %r3, [%rd1];\n"
    "  txq.array_size.b32 %r4, [%rd1];\n  txq.normalized_coords.b32 %r5, [%rd1];\n  txq.filter_mode.b32 %r6, [%rd1];\n"
    "  st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};\n  st.global.v2.u32 [%rd2+16], {%r5, %r6};\n  ret;\n}\n"
    ".visible .entry layered(.param .u64 h, .param .u64 out)\n{\n"
    "  .reg .b32 %r<12>; .reg .b64 %rd<6>;\n  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [h];\n  ld.param.u64 %rd2, [out];\n"
    "  and.b32 %r2, %r1, 7;\n  shr.u32 %r3, %r1, 3;\n"   /* layer = tid / 8 (0..4: 4 is clamped to 3), x = tid % 8 */
    "  tex.a1d.v4.s32.s32 {%r4, %r5, %r6, %r7}, [%rd1, {%r3, %r2}];\n"
    "  mul.wide.u32 %rd3, %r1, 16;\n  add.u64 %rd4, %rd2, %rd3;\n  st.global.v4.u32 [%rd4], {%r4, %r5, %r6, %r7};\n"
    "  ret;\n}\n"
    ".visible .entry surf(.param .u64 h, .param .u64 out)\n{\n"
    "  .reg .b32 %r<12>; .reg .b64 %rd<6>;\n  ld.param.u64 %rd1, [h];\n  ld.param.u64 %rd2, [out];\n"
    "  sust.b.1d.b32.zero [%rd1, {100}], 77;\n"            /* dropped */
    "  sust.b.1d.b32.trap [%rd1, {4}], 55;\n"              /* element 1 */
    "  suld.b.1d.b32.clamp %r1, [%rd1, {1000}];\n"          /* the last element */
    "  suld.b.1d.b32.zero %r2, [%rd1, {-8}];\n"             /* 0 */
    "  suld.b.1d.v2.b32.trap {%r3, %r4}, [%rd1, {0}];\n"
    "  st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};\n  ret;\n}\n"
    ".visible .entry surftrap(.param .u64 h)\n{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [h];\n"
    "  suld.b.1d.b32.trap %r1, [%rd1, {32}];\n  ret;\n}\n";

static cb_texobj tex1d(void *base, uint32_t format, uint32_t channels, uint32_t width, uint32_t mode, int normalized,
                       int linear)
{
    cb_texobj o;
    memset(&o, 0, sizeof o);
    o.magic = CB_TEXOBJ_MAGIC;
    o.base = base;
    o.format = format;
    o.channels = channels;
    o.elem_bytes = channels * (format == 0x20 || format == 0x03 || format == 0x0a ? 4 : format == 0x10 || format == 0x02 || format == 0x09 ? 2 : 1);
    o.width = width;
    o.height = o.depth = 1;
    o.dims = 1;
    o.pitch = (uint64_t)width * o.elem_bytes;
    o.address[0] = o.address[1] = o.address[2] = mode;
    o.filter = (uint32_t)linear;
    o.flags = normalized ? 2u : 0u;
    o.border[0] = -7.5f;
    return o;
}

/* Host model of a 1D float texture's .x */
static int64_t wrap_index(uint32_t mode, int normalized, int64_t i, int64_t n, int *border)
{
    if (!normalized && mode != 3)
        mode = 1;
    *border = 0;
    if (i >= 0 && i < n)
        return i;
    if (mode == 0)
        return ((i % n) + n) % n;
    if (mode == 2) {
        int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
        return m < n ? m : 2 * n - 1 - m;
    }
    if (mode == 3) {
        *border = 1;
        return 0;
    }
    return i < 0 ? 0 : n - 1;
}

static float model_1d(const float *v, uint32_t n, uint32_t mode, int normalized, int linear, float x)
{
    float u = normalized ? x * (float)n : x;
    int b;
    if (!linear) {
        int64_t i = wrap_index(mode, normalized, (int64_t)floorf(u), n, &b);
        return b ? -7.5f : v[i];
    }
    float xb = u - 0.5f, fl = floorf(xb);
    float a = floorf((xb - fl) * 256.0f + 0.5f) / 256.0f;
    int64_t i0 = (int64_t)fl;
    int b0, b1;
    int64_t j0 = wrap_index(mode, normalized, i0, n, &b0), j1 = wrap_index(mode, normalized, i0 + 1, n, &b1);
    float t0 = b0 ? -7.5f : v[j0], t1 = b1 ? -7.5f : v[j1];
    return 0.0f + (1.0f - a) * t0 + a * t1;
}

static void test_sampling(void *mod)
{
    float texels[8] = {1, 2, 4, 8, 16, 32, 64, 128};
    enum { N = 64 };
    float xs[N], got[N];
    for (int i = 0; i < N; i++)
        xs[i] = -2.3f + 0.13f * (float)i;
    float norm_xs[N];
    for (int i = 0; i < N; i++)
        norm_xs[i] = -1.7f + 0.061f * (float)i;
    for (uint32_t mode = 0; mode < 4; mode++)
        for (int normalized = 0; normalized < 2; normalized++)
            for (int linear = 0; linear < 2; linear++) {
                cb_texobj o = tex1d(texels, 0x20, 1, 8, mode, normalized, linear);
                const float *x = normalized ? norm_xs : xs;
                tu_params p = {0};
                TU_PARAM(&p, (uint64_t)(uintptr_t)&o);
                TU_PARAM(&p, (uint64_t)(uintptr_t)x);
                TU_PARAM(&p, (uint64_t)(uintptr_t)got);
                cb_launch_error err;
                CUresult r = tu_launch(be, mod, 0, 1, N, p.buf, p.len, &err);
                TU_CHECK(r == CUDA_SUCCESS, "tex.1d: %d %s", (int)r, err.message);
                for (int i = 0; i < N; i++) {
                    float want = model_1d(texels, 8, mode, normalized, linear, x[i]);
                    if (fabsf(got[i] - want) > 1e-4f * fabsf(want) + 1e-5f) {
                        TU_CHECK(0, "tex.1d mode %u norm %d linear %d x %g: got %g want %g", mode, normalized, linear,
                                 (double)x[i], (double)got[i], (double)want);
                        break;
                    }
                }
            }
    /* u8 and s8 normalized */
    unsigned char u8[4] = {0, 51, 255, 128};
    signed char s8[4] = {-128, -127, 0, 127};
    float xs4[4] = {0.5f, 1.5f, 2.5f, 3.5f}, g4[4];
    for (int s = 0; s < 2; s++) {
        cb_texobj o = tex1d(s ? (void *)s8 : (void *)u8, s ? 0x08 : 0x01, 1, 4, 1, 0, 0);
        tu_params p = {0};
        TU_PARAM(&p, (uint64_t)(uintptr_t)&o);
        TU_PARAM(&p, (uint64_t)(uintptr_t)xs4);
        TU_PARAM(&p, (uint64_t)(uintptr_t)g4);
        cb_launch_error err;
        TU_CHECK(tu_launch(be, mod, 0, 1, 4, p.buf, p.len, &err) == CUDA_SUCCESS, "normalized read: %s", err.message);
        for (int i = 0; i < 4; i++) {
            float want = s ? fmaxf((float)s8[i] / 127.0f, -1.0f) : (float)u8[i] / 255.0f;
            TU_CHECK(g4[i] == want, "%s normalized %d: got %g want %g", s ? "s8" : "u8", i, (double)g4[i], (double)want);
        }
    }
}

static void test_query_layered_surface(void *mod)
{
    uint32_t q[6];
    float dummy[6 * 5 * 4];
    cb_texobj o = tex1d(dummy, 0x20, 1, 6, 1, 1, 1);
    o.dims = 2;
    o.height = 5;
    o.layers = 4;
    tu_params p = {0};
    TU_PARAM(&p, (uint64_t)(uintptr_t)&o);
    TU_PARAM(&p, (uint64_t)(uintptr_t)q);
    cb_launch_error err;
    TU_CHECK(tu_launch(be, mod, 1, 1, 1, p.buf, p.len, &err) == CUDA_SUCCESS, "txq: %s", err.message);
    TU_CHECK(q[0] == 6 && q[1] == 5 && q[2] == 1 && q[3] == 4 && q[4] == 1 && q[5] == 1, "txq: %u %u %u %u %u %u",
             q[0], q[1], q[2], q[3], q[4], q[5]);

    /* layered u8x2 read as integers: 4 layers of 8 texels */
    unsigned char lay[4][8][2];
    for (int l = 0; l < 4; l++)
        for (int x = 0; x < 8; x++) {
            lay[l][x][0] = (unsigned char)(l * 50 + x);
            lay[l][x][1] = (unsigned char)(200 + x);
        }
    cb_texobj a = tex1d(lay, 0x01, 2, 8, 1, 0, 0);
    a.layers = 4;
    a.layer_bytes = 16;
    a.flags = 1;   /* read as integer */
    int32_t out[40][4];
    tu_params p2 = {0};
    TU_PARAM(&p2, (uint64_t)(uintptr_t)&a);
    TU_PARAM(&p2, (uint64_t)(uintptr_t)out);
    TU_CHECK(tu_launch(be, mod, 2, 1, 40, p2.buf, p2.len, &err) == CUDA_SUCCESS, "a1d: %s", err.message);
    for (int t = 0; t < 40; t++) {
        int l = t / 8 > 3 ? 3 : t / 8, x = t % 8;
        TU_CHECK(out[t][0] == lay[l][x][0] && out[t][1] == lay[l][x][1] && out[t][2] == 0 && out[t][3] == 0,
                 "a1d thread %d: %d %d %d %d", t, out[t][0], out[t][1], out[t][2], out[t][3]);
    }

    /* surface of 8 u32 */
    uint32_t s[8] = {10, 11, 12, 13, 14, 15, 16, 17}, r[4];
    cb_texobj so = tex1d(s, 0x03, 1, 8, 1, 0, 0);
    so.is_surface = 1;
    tu_params p3 = {0};
    TU_PARAM(&p3, (uint64_t)(uintptr_t)&so);
    TU_PARAM(&p3, (uint64_t)(uintptr_t)r);
    TU_CHECK(tu_launch(be, mod, 3, 1, 1, p3.buf, p3.len, &err) == CUDA_SUCCESS, "surf: %s", err.message);
    TU_CHECK(r[0] == 17 && r[1] == 0 && r[2] == 10 && r[3] == 55 && s[1] == 55, "surf: %u %u %u %u (s[1] %u)", r[0],
             r[1], r[2], r[3], s[1]);
    tu_params p4 = {0};
    TU_PARAM(&p4, (uint64_t)(uintptr_t)&so);
    CUresult rc = tu_launch(be, mod, 4, 1, 1, p4.buf, p4.len, &err);
    TU_CHECK(rc == CUDA_ERROR_LAUNCH_FAILED, "suld.trap out of range: %d", (int)rc);
}

int main(void)
{
    char dir[256];
    tu_fresh_cache(dir, sizeof dir);
    be = cb_backend_cpu_create();
    if (!be) {
        fprintf(stderr, "no CPU backend\n");
        return 1;
    }
    cb_translation *tr = NULL;
    void *mod = load_ptx(ptx, &tr);
    if (mod) {
        test_sampling(mod);
        test_query_layered_surface(mod);
        be->module_unload(be, mod);
    }
    if (tr)
        cb_translation_free(tr);
    be->shutdown(be);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    if (tu_failures)
        fprintf(stderr, "%d failure(s)\n", tu_failures);
    return tu_failures ? 1 : 0;
}
