/* test_cpu_wmma_forms: wmma.load / wmma.mma / wmma.store for the fragment
 * types beyond f16 m16n16k16 (test_cpu_ptx_mma.c and tests/cuda/wmma_gemm.cu
 * cover that): .tf32 m16n16k8, .s8/.u8 on m16n16k16, m32n8k16 and
 * m8n32k16 (with .satfinite), .f64 m8n8k4, .s4/.u4 m8n8k32, .b1 m8n8k128
 * (.xor/.and .popc), .bf16 m8n32k16, and .f16 m32n8k16 / m8n32k16 (whose a
 * or b fragments hold more or fewer elements than the matrix: the ISA's
 * fragments are .v8 .f16x2 for every shape). The layout inside a fragment
 * is opaque, so each case loads whole matrices from memory (row- or
 * column-major, with a stride), multiplies, and stores D, which is checked
 * against a host reference with the documented arithmetic (exact products
 * summed in double plus C, rounded once; f64: an fma chain; integers exact).
 * Also: the unsupported forms fail the translation with a message. */
#include "test_cpu_util.h"

#include <math.h>

#include "codegen/translate.h"

static cb_backend *be;

#define PTX_HEAD ".version 8.7\n.target sm_90\n.address_size 64\n"

static uint32_t rng_state = 4242;
static uint32_t rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8 ^ rng_state << 13;
}

/* 'h' f16, 'g' bf16, 't' tf32, 's' s8, 'u' u8, 'd' f64, 'S' s4, 'U' u4, 'b' b1; accumulators 'f' f32, 'h' f16,
 * 'i' s32, 'd' f64 */
typedef struct wcase {
    const char *name, *shape, *atn, *btn, *ctn, *dtn, *mma_types, *extra;
    int m, n, k;
    char at, bt, ct, dt;
    int acol, brow;   /* a stored column-major, b stored row-major (else a row-major, b column-major) */
    int na, nb, nc, nd, sat, bop;
} wcase;

static int width(char t)
{
    switch (t) {
    case 'h': case 'g': return 16;
    case 'd': return 64;
    case 's': case 'u': return 8;
    case 'S': case 'U': return 4;
    case 'b': return 1;
    default: return 32;
    }
}

static double half_val(uint16_t h, int bf)
{
    if (bf) {
        uint32_t b = (uint32_t)h << 16;
        float f;
        memcpy(&f, &b, 4);
        return f;
    }
    int e = h >> 10 & 31, m = h & 1023;
    double s = h & 0x8000 ? -1 : 1;
    if (e == 31)
        return m ? NAN : s * INFINITY;
    return s * (e ? ldexp(1024 + m, e - 25) : ldexp(m, -24));
}

static uint16_t half_of(double x)
{
    if (isnan(x))
        return 0x7fff;
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    x = fabs(x);
    if (x >= 65520.0)
        return sign | 0x7c00;
    if (x < ldexp(1, -14))
        return sign | (uint16_t)nearbyint(x * ldexp(1, 24));
    int e;
    double q = nearbyint(ldexp(frexp(x, &e), 11));
    if (q == 2048) {
        q = 1024;
        e++;
    }
    return sign | (uint16_t)((e + 14) << 10 | ((uint32_t)q - 1024));
}

static double value_of(char t, uint64_t v)
{
    switch (t) {
    case 'h': return half_val((uint16_t)v, 0);
    case 'g': return half_val((uint16_t)v, 1);
    case 't': { uint32_t b = (uint32_t)v & 0xffffe000u; float f; memcpy(&f, &b, 4); return f; }
    case 'f': { uint32_t b = (uint32_t)v; float f; memcpy(&f, &b, 4); return f; }
    case 's': return (int8_t)v;
    case 'u': return (uint8_t)v;
    case 'i': return (int32_t)(uint32_t)v;
    case 'd': { double d; memcpy(&d, &v, 8); return d; }
    case 'S': return (int)(v & 15) - (v & 8 ? 16 : 0);
    case 'U': return (double)(v & 15);
    default: return (double)(v & 1);
    }
}

static uint64_t random_el(char t)
{
    uint32_t r = rnd();
    switch (t) {
    case 'h': return (r & 0x83ff) | (uint32_t)(9 + rnd() % 12) << 10;
    case 'g': return (r & 0x807f) | (uint32_t)(121 + rnd() % 12) << 7;
    case 't': return (r & 0x807fffffu) | (uint32_t)(121 + rnd() % 12) << 23;   /* low 13 bits: ignored */
    case 'f': { float f = (float)((int)(r % 20001) - 10000) / 8.0f; uint32_t u; memcpy(&u, &f, 4); return u; }
    case 'i': return r % 5 == 0 ? (r & 1 ? 0x7fffff00u : 0x80000100u) : (uint32_t)((int)(r % 200001) - 100000);
    case 'd': { double d = (double)((int)(r % 2001) - 1000) / 64.0 + ldexp((double)(rnd() % 1000), -30); uint64_t u; memcpy(&u, &d, 8); return u; }
    case 'S': case 'U': return r & 15;
    case 'b': return r & 1;
    default: return r & 0xff;
    }
}

/* element e (w bits) of a packed little-endian array; sub-byte elements from the low bits of a byte first */
static void put_mem(unsigned char *p, int w, size_t e, uint64_t v)
{
    if (w >= 8) {
        memcpy(p + e * (size_t)(w / 8), &v, (size_t)(w / 8));
        return;
    }
    size_t bit = e * (size_t)w;
    unsigned m = ((1u << w) - 1u) << (bit % 8);
    p[bit / 8] = (unsigned char)((p[bit / 8] & ~m) | (((unsigned)v << (bit % 8)) & m));
}

static uint64_t get_mem(const unsigned char *p, int w, size_t e)
{
    uint64_t v = 0;
    memcpy(&v, p + e * (size_t)(w / 8), (size_t)(w / 8));
    return v;
}

static void regs(char *out, size_t len, const char *pfx, int first, int n)
{
    out[0] = 0;
    for (int i = 0; i < n; i++)
        snprintf(out + strlen(out), len - strlen(out), "%s%s%d", i ? ", " : "{", pfx, first + i);
    strcat(out, "}");
}

static void run_case(const wcase *wc)
{
    int M = wc->m, N = wc->n, K = wc->k;
    int lda = wc->acol ? M + 3 : K + (width(wc->at) < 8 ? 0 : 5);   /* strides in elements, padded */
    int ldb = wc->brow ? N + 2 : K + (width(wc->bt) < 8 ? 0 : 7);
    int ldc = N + 1, ldd = N + 4;
    const char *ra = wc->at == 'd' ? "%rd" : "%r", *rc = wc->ct == 'd' ? "%rd" : "%r", *rdd = wc->dt == 'd' ? "%rd" : "%r";
    char fa[300], fb[300], fc[300], fd[300], ptx[8192];
    regs(fa, sizeof fa, ra, 10, wc->na);
    regs(fb, sizeof fb, ra, 30, wc->nb);
    regs(fc, sizeof fc, rc, 50, wc->nc);
    regs(fd, sizeof fd, rdd, 70, wc->nd);
    snprintf(ptx, sizeof ptx,
             PTX_HEAD ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
             "  .reg .b32 %%r<100>; .reg .b64 %%rd<100>;\n"
             "  ld.param.u64 %%rd1, [pa];\n  ld.param.u64 %%rd2, [pb];\n  ld.param.u64 %%rd3, [pc];\n  ld.param.u64 %%rd4, [pd];\n"
             "  wmma.load.a.sync.aligned.%s.%s.global.%s %s, [%%rd1], %d;\n"
             "  wmma.load.b.sync.aligned.%s.%s.global.%s %s, [%%rd2], %d;\n"
             "  wmma.load.c.sync.aligned.row.%s.global.%s %s, [%%rd3], %d;\n"
             "  wmma.mma%s.sync.aligned.%s.%s.%s.%s%s %s, %s, %s, %s;\n"
             "  wmma.store.d.sync.aligned.row.%s.global.%s [%%rd4], %s, %d;\n"
             "  ret;\n}\n",
             wc->acol ? "col" : "row", wc->shape, wc->atn, fa, lda, wc->brow ? "row" : "col", wc->shape, wc->btn, fb,
             ldb, wc->shape, wc->ctn, fc, ldc, wc->bop == 1 ? ".xor.popc" : wc->bop == 2 ? ".and.popc" : "",
             wc->acol ? "col" : "row", wc->brow ? "row" : "col", wc->shape, wc->mma_types, wc->extra, fd, fa, fb, fc,
             wc->shape, wc->dtn, fd, ldd);
    char err[1024];
    cb_translation *tr = NULL;
    if (cb_translate_ptx(ptx, strlen(ptx), "wmma_forms.ptx", CB_DIALECT_C, &tr, err, sizeof err) != 0) {
        TU_CHECK(0, "%s: translate: %s", wc->name, err);
        return;
    }
    void *mod = tu_load(be, tr, NULL);
    TU_CHECK(mod != NULL, "%s: load", wc->name);
    static unsigned char ma[65536], mb[65536], mc[65536], md[65536];
    static double A[32][128], B[128][32], C[32][32];
    static uint64_t Ci[32][32];
    for (int trial = 0; mod && trial < 3; trial++) {
        memset(ma, 0, sizeof ma);
        memset(mb, 0, sizeof mb);
        memset(mc, 0, sizeof mc);
        memset(md, 0xee, sizeof md);
        int wa = width(wc->at), wb = width(wc->bt), wcc = wc->ct == 'h' ? 16 : wc->ct == 'd' ? 64 : 32;
        int wd = wc->dt == 'h' ? 16 : wc->dt == 'd' ? 64 : 32;
        for (int r = 0; r < M; r++)
            for (int c = 0; c < K; c++) {
                uint64_t v = random_el(wc->at);
                A[r][c] = value_of(wc->at, v);
                put_mem(ma, wa, wc->acol ? (size_t)c * lda + r : (size_t)r * lda + c, v);
            }
        for (int r = 0; r < K; r++)
            for (int c = 0; c < N; c++) {
                uint64_t v = random_el(wc->bt);
                B[r][c] = value_of(wc->bt, v);
                put_mem(mb, wb, wc->brow ? (size_t)r * ldb + c : (size_t)c * ldb + r, v);
            }
        for (int r = 0; r < M; r++)
            for (int c = 0; c < N; c++) {
                uint64_t v = wc->ct == 'h' ? half_of((double)((int)(rnd() % 2001) - 1000) / 8.0) : random_el(wc->ct);
                C[r][c] = value_of(wc->ct, v);
                Ci[r][c] = v;
                put_mem(mc, wcc, (size_t)r * ldc + c, v);
            }
        tu_params p = {0};
        TU_PARAM(&p, (uint64_t)(uintptr_t)ma);
        TU_PARAM(&p, (uint64_t)(uintptr_t)mb);
        TU_PARAM(&p, (uint64_t)(uintptr_t)mc);
        TU_PARAM(&p, (uint64_t)(uintptr_t)md);
        cb_launch_error lerr;
        CUresult res = tu_launch(be, mod, 0, 1, 32, p.buf, p.len, &lerr);
        TU_CHECK(res == CUDA_SUCCESS, "%s: launch %d %s", wc->name, (int)res, lerr.message);
        int bad = 0;
        for (int r = 0; r < M && !bad; r++)
            for (int c = 0; c < N && !bad; c++) {
                uint64_t got = get_mem(md, wd, (size_t)r * ldd + c);
                if (wc->dt == 'i') {
                    long long s = (int32_t)(uint32_t)Ci[r][c];
                    for (int k = 0; k < K; k++) {
                        long long a = (long long)A[r][k], b = (long long)B[k][c];
                        s += wc->bop == 1 ? (a ^ b) : wc->bop == 2 ? (a & b) : a * b;
                    }
                    long long want = wc->sat ? (s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s) : (int32_t)(uint32_t)s;
                    if ((int32_t)(uint32_t)got != want) {
                        TU_CHECK(0, "%s: D[%d][%d] = %d want %lld", wc->name, r, c, (int32_t)(uint32_t)got, want);
                        bad = 1;
                    }
                } else if (wc->dt == 'd') {
                    double s = C[r][c], g;
                    for (int k = 0; k < K; k++)
                        s = fma(A[r][k], B[k][c], s);
                    memcpy(&g, &got, 8);
                    if (g != s) {
                        TU_CHECK(0, "%s: D[%d][%d] = %a want %a", wc->name, r, c, g, s);
                        bad = 1;
                    }
                } else {
                    double s = 0;
                    for (int k = 0; k < K; k++)
                        s += A[r][k] * B[k][c];
                    s += C[r][c];
                    uint64_t want;
                    if (wc->dt == 'h') {
                        want = half_of(s);
                    } else {
                        float f = (float)s;
                        uint32_t u;
                        memcpy(&u, &f, 4);
                        want = u;
                    }
                    if ((got & (wd == 16 ? 0xffffu : 0xffffffffu)) != want) {
                        TU_CHECK(0, "%s: D[%d][%d] = 0x%llx want 0x%llx", wc->name, r, c, (unsigned long long)got,
                                 (unsigned long long)want);
                        bad = 1;
                    }
                }
            }
    }
    if (mod)
        be->module_unload(be, mod);
    cb_translation_free(tr);
}

static const wcase cases[] = {
    {"tf32 m16n16k8", "m16n16k8", "tf32", "tf32", "f32", "f32", "f32.tf32.tf32.f32", "", 16, 16, 8, 't', 't', 'f', 'f', 0, 0, 4, 4, 8, 8, 0, 0},
    {"tf32 m16n16k8 a col b row", "m16n16k8", "tf32", "tf32", "f32", "f32", "f32.tf32.tf32.f32", "", 16, 16, 8, 't', 't', 'f', 'f', 1, 1, 4, 4, 8, 8, 0, 0},
    {"s8 m16n16k16", "m16n16k16", "s8", "s8", "s32", "s32", "s32.s8.s8.s32", "", 16, 16, 16, 's', 's', 'i', 'i', 0, 0, 2, 2, 8, 8, 0, 0},
    {"u8 m16n16k16 satfinite", "m16n16k16", "u8", "u8", "s32", "s32", "s32.u8.u8.s32", ".satfinite", 16, 16, 16, 'u', 'u', 'i', 'i', 0, 1, 2, 2, 8, 8, 1, 0},
    {"s8*u8 m32n8k16", "m32n8k16", "s8", "u8", "s32", "s32", "s32.s8.u8.s32", "", 32, 8, 16, 's', 'u', 'i', 'i', 1, 0, 4, 1, 8, 8, 0, 0},
    {"u8*s8 m8n32k16 satfinite", "m8n32k16", "u8", "s8", "s32", "s32", "s32.u8.s8.s32", ".satfinite", 8, 32, 16, 'u', 's', 'i', 'i', 0, 1, 1, 4, 8, 8, 1, 0},
    {"f64 m8n8k4", "m8n8k4", "f64", "f64", "f64", "f64", "f64.f64.f64.f64", "", 8, 8, 4, 'd', 'd', 'd', 'd', 0, 0, 1, 1, 2, 2, 0, 0},
    {"f64 m8n8k4 .rn a col b row", "m8n8k4", "f64", "f64", "f64", "f64", "rn.f64.f64.f64.f64", "", 8, 8, 4, 'd', 'd', 'd', 'd', 1, 1, 1, 1, 2, 2, 0, 0},
    {"s4 m8n8k32", "m8n8k32", "s4", "s4", "s32", "s32", "s32.s4.s4.s32", "", 8, 8, 32, 'S', 'S', 'i', 'i', 0, 0, 1, 1, 2, 2, 0, 0},
    {"u4*s4 m8n8k32 satfinite", "m8n8k32", "u4", "s4", "s32", "s32", "s32.u4.s4.s32", ".satfinite", 8, 8, 32, 'U', 'S', 'i', 'i', 0, 0, 1, 1, 2, 2, 1, 0},
    {"b1 m8n8k128 xor", "m8n8k128", "b1", "b1", "s32", "s32", "s32.b1.b1.s32", "", 8, 8, 128, 'b', 'b', 'i', 'i', 0, 0, 1, 1, 2, 2, 0, 1},
    {"b1 m8n8k128 and", "m8n8k128", "b1", "b1", "s32", "s32", "s32.b1.b1.s32", "", 8, 8, 128, 'b', 'b', 'i', 'i', 0, 0, 1, 1, 2, 2, 0, 2},
    {"bf16 m8n32k16", "m8n32k16", "bf16", "bf16", "f32", "f32", "f32.bf16.bf16.f32", "", 8, 32, 16, 'g', 'g', 'f', 'f', 0, 0, 2, 8, 8, 8, 0, 0},
    {"bf16 m32n8k16", "m32n8k16", "bf16", "bf16", "f32", "f32", "f32.bf16.bf16.f32", "", 32, 8, 16, 'g', 'g', 'f', 'f', 1, 1, 8, 2, 8, 8, 0, 0},
    {"f16 m32n8k16 f32", "m32n8k16", "f16", "f16", "f32", "f32", "f32.f32", "", 32, 8, 16, 'h', 'h', 'f', 'f', 0, 0, 8, 8, 8, 8, 0, 0},
    {"f16 m8n32k16 f16", "m8n32k16", "f16", "f16", "f16", "f16", "f16.f16", "", 8, 32, 16, 'h', 'h', 'h', 'h', 1, 1, 8, 8, 4, 4, 0, 0},
    {"f16 m8n32k16 f32<-f16", "m8n32k16", "f16", "f16", "f16", "f32", "f32.f16", "", 8, 32, 16, 'h', 'h', 'h', 'f', 0, 1, 8, 8, 4, 8, 0, 0},
};

static void test_errors(void)
{
    static const struct { const char *instr, *want; } bad[] = {
        {"wmma.load.a.sync.aligned.col.m8n8k32.global.s4 {%r1}, [%rd1], 32", ".row"},
        {"wmma.load.a.sync.aligned.row.m16n16k16.global.tf32 {%r1,%r2,%r3,%r4}, [%rd1], 16", "unsupported wmma.load.a"},
        {"wmma.load.c.sync.aligned.row.m8n8k4.global.f32 {%r1,%r2}, [%rd1], 8", "unsupported wmma.load.c"},
        {"wmma.mma.sync.aligned.row.col.m16n16k8.f16.tf32.tf32.f32 {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}", "unsupported wmma.mma"},
        {"wmma.mma.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r1,%r2}, {%r1}, {%r2}, {%r1,%r2}", "unsupported wmma.mma"},
        {"wmma.mma.sync.aligned.row.col.m8n8k4.rz.f64.f64.f64.f64 {%rd1,%rd2}, {%rd1}, {%rd2}, {%rd1,%rd2}", ".rz"},
        {"wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}", "satfinite"},
        {"wmma.load.a.sync.aligned.row.m16n8k16.global.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1], 16", "shape"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char ptx[2048], err[1024] = "";
        snprintf(ptx, sizeof ptx, PTX_HEAD ".visible .entry k()\n{\n  .reg .b32 %%r<20>; .reg .b64 %%rd<20>;\n  %s;\n  ret;\n}\n",
                 bad[i].instr);
        cb_translation *tr = NULL;
        int rc = cb_translate_ptx(ptx, strlen(ptx), "bad.ptx", CB_DIALECT_C, &tr, err, sizeof err);
        TU_CHECK(rc != 0, "accepted: %s", bad[i].instr);
        TU_CHECK(rc == 0 || strstr(err, bad[i].want) != NULL, "error for '%s' lacks '%s': %s", bad[i].instr,
                 bad[i].want, err);
        cb_translation_free(tr);
    }
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
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i]);
    test_errors();
    be->shutdown(be);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    if (tu_failures)
        fprintf(stderr, "%d failure(s)\n", tu_failures);
    return tu_failures ? 1 : 0;
}
