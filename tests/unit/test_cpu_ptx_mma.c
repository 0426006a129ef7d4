/* test_cpu_ptx_mma: warp matrix instructions through the real pipeline
 * (hand-written PTX -> cb_translate_ptx -> host compiler -> CPU backend):
 *   - ldmatrix .x4/.x2 (plain and .trans) feeding mma.sync m16n8k16 f16 and
 *     bf16 with f32 accumulators, the usual way CUTLASS-style code does;
 *   - stmatrix .x4 (plain and .trans) against a host transpose;
 *   - mma.sync with fragments arranged by the host from the PTX ISA's
 *     fragment tables: f16 m16n8k8 (f16 accumulators), tf32 m16n8k8,
 *     s8 m16n8k32 (s32, with and without .satfinite), u8*s8 m16n8k16,
 *     f64 m8n8k4.
 * Inputs are small integers (or halves of them), so every product and sum is
 * exact and the answers are checked bit for bit against the host. */
#include "test_cpu_util.h"

#include <math.h>

#include "codegen/translate.h"

static cb_backend *be;

static void *load_ptx(const char *ptx, cb_translation **trp)
{
    char err[1024];
    cb_translation *tr = NULL;
    if (cb_translate_ptx(ptx, strlen(ptx), "ptx_mma.ptx", CB_DIALECT_C, &tr, err, sizeof err) != 0) {
        TU_CHECK(0, "translate: %s", err);
        return NULL;
    }
    *trp = tr;
    return tu_load(be, tr, NULL);
}

static void unload(void *mod, cb_translation *tr)
{
    if (mod)
        be->module_unload(be, mod);
    cb_translation_free(tr);
}

#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

static uint16_t f2h(float f)   /* exact for the small values used here */
{
    uint32_t b;
    memcpy(&b, &f, 4);
    if (f == 0)
        return (uint16_t)(b >> 16);
    int e = (int)((b >> 23) & 0xff) - 127;
    return (uint16_t)(((b >> 16) & 0x8000u) | (uint32_t)(e + 15) << 10 | ((b >> 13) & 0x3ffu));
}

static uint16_t f2bf(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return (uint16_t)(b >> 16);
}

static float bits2f(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* ---- ldmatrix + mma m16n8k16 ---------------------------------------------- */

/* A (16x16, row-major) and B (16x8) are copied into shared memory; A goes
 * through ldmatrix.x4, B through ldmatrix.x2 (.trans when B is row-major,
 * plain when it is stored n-major); C (16x8 f32) and D per the C fragment. */
static const char ldm_fmt[] = PTX_HEAD
    ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
    "  .reg .b32 %%r<40>; .reg .f32 %%f<10>; .reg .b64 %%rd<20>; .reg .pred %%p<2>;\n"
    "  .shared .align 16 .b8 sa[512]; .shared .align 16 .b8 sb[256];\n"
    "  mov.u32 %%r1, %%laneid;\n"
    /* copy 16 bytes of A and 8 of B per lane into shared memory */
    "  ld.param.u64 %%rd1, [pa];\n  mul.wide.u32 %%rd2, %%r1, 16;\n  add.u64 %%rd3, %%rd1, %%rd2;\n"
    "  ld.global.v4.u32 {%%r2, %%r3, %%r4, %%r5}, [%%rd3];\n"
    "  mov.u32 %%r6, sa;\n  shl.b32 %%r7, %%r1, 4;\n  add.u32 %%r8, %%r6, %%r7;\n"
    "  st.shared.v4.u32 [%%r8], {%%r2, %%r3, %%r4, %%r5};\n"
    "  ld.param.u64 %%rd4, [pb];\n  mul.wide.u32 %%rd5, %%r1, 8;\n  add.u64 %%rd6, %%rd4, %%rd5;\n"
    "  ld.global.v2.u32 {%%r2, %%r3}, [%%rd6];\n"
    "  mov.u32 %%r9, sb;\n  shl.b32 %%r10, %%r1, 3;\n  add.u32 %%r11, %%r9, %%r10;\n"
    "  st.shared.v2.u32 [%%r11], {%%r2, %%r3};\n"
    "  bar.warp.sync -1;\n"
    /* A: lane l gives row (l %% 16), column 8 * (l / 16) */
    "  and.b32 %%r12, %%r1, 15;\n  shr.u32 %%r13, %%r1, 4;\n  shl.b32 %%r14, %%r12, 5;\n  shl.b32 %%r15, %%r13, 4;\n"
    "  add.u32 %%r16, %%r14, %%r15;\n  add.u32 %%r16, %%r16, %%r6;\n"
    "  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%%r20, %%r21, %%r22, %%r23}, [%%r16];\n"
    /* B: lane l < 16 gives row l of the 16 rows of 16 bytes (row-major B: k rows),
       or (n-major) row l %% 8, column 8 * (l / 8) */
    "%s"
    "  ldmatrix.sync.aligned.m8n8.x2%s.shared.b16 {%%r24, %%r25}, [%%r17];\n"
    /* C fragment: (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1) */
    "  shr.u32 %%r26, %%r1, 2;\n  and.b32 %%r27, %%r1, 3;\n  shl.b32 %%r28, %%r26, 3;\n  shl.b32 %%r29, %%r27, 1;\n"
    "  add.u32 %%r30, %%r28, %%r29;\n  mul.wide.u32 %%rd7, %%r30, 4;\n"
    "  ld.param.u64 %%rd8, [pc];\n  add.u64 %%rd9, %%rd8, %%rd7;\n"
    "  ld.global.v2.f32 {%%f1, %%f2}, [%%rd9];\n  ld.global.v2.f32 {%%f3, %%f4}, [%%rd9+256];\n"
    "  mma.sync.aligned.m16n8k16.row.col.f32.%s.%s.f32 {%%f5, %%f6, %%f7, %%f8}, {%%r20, %%r21, %%r22, %%r23}, "
    "{%%r24, %%r25}, {%%f1, %%f2, %%f3, %%f4};\n"
    "  ld.param.u64 %%rd10, [pd];\n  add.u64 %%rd11, %%rd10, %%rd7;\n"
    "  st.global.v2.f32 [%%rd11], {%%f5, %%f6};\n  st.global.v2.f32 [%%rd11+256], {%%f7, %%f8};\n"
    "  ret;\n}\n";

static const char b_rowmajor_addr[] =   /* 16 rows (k) of 8 halves: lane l < 16 -> row l */
    "  and.b32 %r12, %r1, 15;\n  shl.b32 %r14, %r12, 4;\n  add.u32 %r17, %r14, %r9;\n";
static const char b_nmajor_addr[] =     /* 8 rows (n) of 16 halves: lane l -> row l % 8, col 8*(l/8 % 2) */
    "  and.b32 %r12, %r1, 7;\n  shr.u32 %r13, %r1, 3;\n  and.b32 %r13, %r13, 1;\n  shl.b32 %r14, %r12, 5;\n"
    "  shl.b32 %r15, %r13, 4;\n  add.u32 %r17, %r14, %r15;\n  add.u32 %r17, %r17, %r9;\n";

static void test_ldmatrix_mma(int bf16, int trans)
{
    char ptx[8192];
    const char *ty = bf16 ? "bf16" : "f16";
    snprintf(ptx, sizeof ptx, ldm_fmt, trans ? b_rowmajor_addr : b_nmajor_addr, trans ? ".trans" : "", ty, ty);
    cb_translation *tr = NULL;
    void *mod = load_ptx(ptx, &tr);
    if (!mod)
        return;
    float A[16][16], B[16][8], C[16][8];
    uint16_t ha[256], hb[128];
    uint32_t seed = 77 + (uint32_t)(bf16 * 2 + trans);
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 16; k++) {
            seed = seed * 1664525u + 1013904223u;
            A[i][k] = (float)((int)(seed >> 24) % 9 - 4) * 0.5f;
            ha[i * 16 + k] = bf16 ? f2bf(A[i][k]) : f2h(A[i][k]);
        }
    for (int k = 0; k < 16; k++)
        for (int n = 0; n < 8; n++) {
            seed = seed * 1664525u + 1013904223u;
            B[k][n] = (float)((int)(seed >> 24) % 7 - 3);
            uint16_t h = bf16 ? f2bf(B[k][n]) : f2h(B[k][n]);
            if (trans)
                hb[k * 8 + n] = h;   /* row-major: k rows */
            else
                hb[n * 16 + k] = h;  /* n-major ("col") */
        }
    for (int i = 0; i < 16; i++)
        for (int n = 0; n < 8; n++)
            C[i][n] = (float)(i * 8 + n) * 0.25f - 10.0f;
    float D[16][8];
    memset(D, 0, sizeof D);
    tu_params p = {0};
    TU_PARAM(&p, (uint64_t)(uintptr_t)ha);
    TU_PARAM(&p, (uint64_t)(uintptr_t)hb);
    TU_PARAM(&p, (uint64_t)(uintptr_t)C);
    TU_PARAM(&p, (uint64_t)(uintptr_t)D);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 0, 1, 32, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "ldmatrix+mma %s%s: %d %s", ty, trans ? " trans" : "", (int)r, err.message);
    for (int i = 0; i < 16; i++)
        for (int n = 0; n < 8; n++) {
            double s = 0;
            for (int k = 0; k < 16; k++)
                s += (double)A[i][k] * B[k][n];
            float want = (float)(s + C[i][n]);
            TU_CHECK(D[i][n] == want, "ldmatrix+mma %s%s: D[%d][%d] = %g, want %g", ty, trans ? " trans" : "", i, n,
                     (double)D[i][n], (double)want);
        }
    unload(mod, tr);
}

/* ---- stmatrix ------------------------------------------------------------- */

/* Lane l holds, for matrix i, the value 1000*i + l*2 + h in half h of
 * register i; stmatrix.x4 writes four 8x8 matrices whose rows are given by
 * lanes 8i..8i+7 (row r of matrix i at byte 16*(8i + r)). */
static const char stm_fmt[] = PTX_HEAD
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .reg .b32 %%r<40>; .reg .b64 %%rd<20>;\n"
    "  .shared .align 16 .b8 s[512];\n"
    "  mov.u32 %%r1, %%laneid;\n  shl.b32 %%r2, %%r1, 1;\n"
    "  add.u32 %%r3, %%r2, 1;\n  shl.b32 %%r3, %%r3, 16;\n  or.b32 %%r10, %%r2, %%r3;\n"   /* (2l+1)<<16 | 2l */
    "  add.u32 %%r11, %%r10, 0x03e803e8;\n  add.u32 %%r12, %%r10, 0x07d007d0;\n  add.u32 %%r13, %%r10, 0x0bb80bb8;\n"
    "  mov.u32 %%r4, s;\n  shl.b32 %%r5, %%r1, 4;\n  add.u32 %%r6, %%r4, %%r5;\n"
    "  stmatrix.sync.aligned.m8n8.x4%s.shared.b16 [%%r6], {%%r10, %%r11, %%r12, %%r13};\n"
    "  bar.warp.sync -1;\n"
    "  ld.shared.v4.u32 {%%r20, %%r21, %%r22, %%r23}, [%%r6];\n"
    "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 16;\n  add.u64 %%rd3, %%rd1, %%rd2;\n"
    "  st.global.v4.u32 [%%rd3], {%%r20, %%r21, %%r22, %%r23};\n"
    "  ret;\n}\n";

static void test_stmatrix(int trans)
{
    char ptx[4096];
    snprintf(ptx, sizeof ptx, stm_fmt, trans ? ".trans" : "");
    cb_translation *tr = NULL;
    void *mod = load_ptx(ptx, &tr);
    if (!mod)
        return;
    uint16_t got[256];
    memset(got, 0xff, sizeof got);
    tu_params p = {0};
    TU_PARAM(&p, (uint64_t)(uintptr_t)got);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 0, 1, 32, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "stmatrix: %d %s", (int)r, err.message);
    for (int i = 0; i < 4; i++)
        for (int row = 0; row < 8; row++)
            for (int col = 0; col < 8; col++) {
                /* element (row, col) of matrix i comes from lane 4*row + col/2, half col%2
                   (.trans: from the element (col, row)) */
                int rr = trans ? col : row, cc = trans ? row : col;
                uint16_t want = (uint16_t)(1000 * i + (4 * rr + cc / 2) * 2 + cc % 2);
                uint16_t g = got[(8 * i + row) * 8 + col];
                TU_CHECK(g == want, "stmatrix%s: matrix %d (%d,%d) = %u want %u", trans ? ".trans" : "", i, row, col,
                         g, want);
            }
    unload(mod, tr);
}

/* ---- mma with host-arranged fragments --------------------------------------- */

/* The PTX ISA's fragment tables (written here independently of the
 * translator). kind: 'h' f16/bf16, 't' tf32, 'i' 8-bit, 'd' f64. */
static void pos_a(const char *shape, char kind, int l, int i, int *r, int *c)
{
    int g = l >> 2, t = l & 3;
    if (kind == 'd') { *r = g; *c = t; return; }
    if (kind == 't') { *r = g + ((i & 1) ? 8 : 0); *c = t + ((i & 2) ? 4 : 0); return; }
    if (kind == 'i' && !strcmp(shape, "m16n8k32")) {
        *r = g + ((i >= 4 && i < 8) || i >= 12 ? 8 : 0);
        *c = t * 4 + (i & 3) + (i >= 8 ? 16 : 0);
        return;
    }
    if (kind == 'i') { *r = g + (i >= 4 ? 8 : 0); *c = t * 4 + (i & 3); return; }
    if (!strcmp(shape, "m16n8k16")) { *r = g + ((i == 2 || i == 3 || i >= 6) ? 8 : 0); *c = t * 2 + (i & 1) + (i >= 4 ? 8 : 0); return; }
    *r = g + (i >= 2 ? 8 : 0); *c = t * 2 + (i & 1);
}

static void pos_b(const char *shape, char kind, int l, int i, int *r, int *c)
{
    int g = l >> 2, t = l & 3;
    *c = g;
    if (kind == 'd') *r = t;
    else if (kind == 't') *r = t + (i ? 4 : 0);
    else if (kind == 'i' && !strcmp(shape, "m16n8k32")) *r = t * 4 + (i & 3) + (i >= 4 ? 16 : 0);
    else if (kind == 'i') *r = t * 4 + i;
    else if (!strcmp(shape, "m16n8k16")) *r = t * 2 + (i & 1) + (i >= 2 ? 8 : 0);
    else *r = t * 2 + i;
}

static void pos_c(char kind, int l, int i, int *r, int *c)
{
    int g = l >> 2, t = l & 3;
    if (kind == 'd') { *r = g; *c = t * 2 + i; return; }
    *r = g + (i >= 2 ? 8 : 0);
    *c = t * 2 + (i & 1);
}

typedef struct mcase {
    const char *name, *shape, *types;
    char kind;
    int m, n, k, na, nb, nc, nd;   /* registers per lane */
    int ebits;                     /* bits per a/b element in a register */
    int acc;                       /* 'f' f32, 'h' f16 pairs, 'i' s32, 'd' f64 */
    int a_unsigned, satfinite;
} mcase;

/* Each lane loads na + nb + nc 32-bit (64-bit for f64) words from in + lane * 32 words,
 * runs the mma, and stores nd words to out + lane * 8 words. */
static void build_ptx(const mcase *mc, char *ptx, size_t len)
{
    int w64 = mc->kind == 'd';
    const char *rt = w64 ? "b64" : "b32", *rr = w64 ? "%rd" : "%r";
    char a[200] = "", b[200] = "", cc[200] = "", d[200] = "", loads[4096] = "", stores[1024] = "";
    int reg = 10, esz = w64 ? 8 : 4;
    char *lists[3] = {a, b, cc};
    int counts[3] = {mc->na, mc->nb, mc->nc};
    int word = 0;
    for (int part = 0; part < 3; part++)
        for (int i = 0; i < counts[part]; i++, reg++, word++) {
            snprintf(lists[part] + strlen(lists[part]), 200 - strlen(lists[part]), "%s%s%d", i ? ", " : "", rr, reg);
            snprintf(loads + strlen(loads), sizeof loads - strlen(loads), "  ld.global.%s %s%d, [%%rd3+%d];\n", rt, rr,
                     reg, word * esz);
        }
    for (int i = 0; i < mc->nd; i++, reg++) {
        snprintf(d + strlen(d), sizeof d - strlen(d), "%s%s%d", i ? ", " : "", rr, reg);
        snprintf(stores + strlen(stores), sizeof stores - strlen(stores), "  st.global.%s [%%rd6+%d], %s%d;\n", rt,
                 i * esz, rr, reg);
    }
    snprintf(ptx, len,
             PTX_HEAD ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
             "  .reg .b32 %%r<60>; .reg .b64 %%rd<60>;\n"
             "  mov.u32 %%r1, %%laneid;\n"
             "  ld.param.u64 %%rd1, [in];\n  mul.wide.u32 %%rd2, %%r1, %d;\n  add.u64 %%rd3, %%rd1, %%rd2;\n"
             "%s"
             "  mma.sync.aligned.%s.row.col%s.%s {%s}, {%s}, {%s}, {%s};\n"
             "  ld.param.u64 %%rd4, [out];\n  mul.wide.u32 %%rd5, %%r1, %d;\n  add.u64 %%rd6, %%rd4, %%rd5;\n"
             "%s  ret;\n}\n",
             32 * esz, loads, mc->shape, mc->satfinite ? ".satfinite" : "", mc->types, d, a, b, cc, 8 * esz, stores);
}

/* The bits of element value v (an integer or half-integer) in the case's a/b encoding. */
static uint64_t enc_in(const mcase *mc, double v, int is_a)
{
    if (mc->kind == 'd') { uint64_t u; memcpy(&u, &v, 8); return u; }
    if (mc->kind == 't') { float f = (float)v; uint32_t u; memcpy(&u, &f, 4); return u | 0x1fffu; } /* low bits ignored */
    if (mc->kind == 'i') return (uint64_t)(uint8_t)(int8_t)(int)v;
    (void)is_a;
    return !strcmp(mc->types + 4, "bf16.bf16.f32") ? f2bf((float)v) : f2h((float)v);
}

static void put_el(uint64_t *words, int ebits, int i, uint64_t v)
{
    if (ebits >= 32) { words[i] = v; return; }
    int per = 32 / ebits, sh = ebits * (i % per);
    words[i / per] |= (v & ((1u << ebits) - 1u)) << sh;
}

static void test_mma_case(const mcase *mc)
{
    char ptx[16384];
    build_ptx(mc, ptx, sizeof ptx);
    cb_translation *tr = NULL;
    void *mod = load_ptx(ptx, &tr);
    if (!mod)
        return;
    double A[16][32], B[32][8], C[16][8];
    uint32_t seed = 991;
    for (int i = 0; i < mc->m; i++)
        for (int k = 0; k < mc->k; k++) {
            seed = seed * 1664525u + 1013904223u;
            int v = (int)(seed >> 24);
            A[i][k] = mc->kind == 'i' ? (mc->a_unsigned ? v : (int8_t)v) : (double)(v % 9 - 4) * 0.5;
        }
    for (int k = 0; k < mc->k; k++)
        for (int n = 0; n < mc->n; n++) {
            seed = seed * 1664525u + 1013904223u;
            int v = (int)(seed >> 24);
            B[k][n] = mc->kind == 'i' ? (int8_t)v : (double)(v % 7 - 3);
        }
    for (int i = 0; i < mc->m; i++)
        for (int n = 0; n < mc->n; n++)
            C[i][n] = mc->kind == 'i' ? (mc->satfinite ? (i & 1 ? 2147480000.0 : -2147480000.0) : i * 100 - n * 7)
                                      : (i * 8 + n) * 0.25 - 5.0;
    /* per-lane words: a, b, c */
    uint64_t in64[32][32];
    uint32_t in32[32][32];
    memset(in64, 0, sizeof in64);
    for (int l = 0; l < 32; l++) {
        uint64_t words[32];
        memset(words, 0, sizeof words);
        int r, c;
        for (int i = 0; i < mc->m * mc->k / 32; i++) {
            pos_a(mc->shape, mc->kind, l, i, &r, &c);
            put_el(words, mc->ebits, i, enc_in(mc, A[r][c], 1));
        }
        for (int i = 0; i < mc->k * mc->n / 32; i++) {
            pos_b(mc->shape, mc->kind, l, i, &r, &c);
            put_el(words + mc->na, mc->ebits, i, enc_in(mc, B[r][c], 0));
        }
        for (int i = 0; i < mc->m * mc->n / 32; i++) {
            pos_c(mc->kind, l, i, &r, &c);
            uint64_t v;
            if (mc->acc == 'f') { float f = (float)C[r][c]; uint32_t u; memcpy(&u, &f, 4); v = u; put_el(words + mc->na + mc->nb, 32, i, v); }
            else if (mc->acc == 'h') put_el(words + mc->na + mc->nb, 16, i, f2h((float)C[r][c]));
            else if (mc->acc == 'i') put_el(words + mc->na + mc->nb, 32, i, (uint32_t)(int32_t)C[r][c]);
            else { memcpy(&v, &C[r][c], 8); put_el(words + mc->na + mc->nb, 64, i, v); }
        }
        for (int i = 0; i < 32; i++) {
            in64[l][i] = words[i];
            in32[l][i] = (uint32_t)words[i];
        }
    }
    uint64_t out64[32][8];
    uint32_t out32[32][8];
    memset(out64, 0, sizeof out64);
    memset(out32, 0, sizeof out32);
    int w64 = mc->kind == 'd';
    tu_params p = {0};
    TU_PARAM(&p, (uint64_t)(uintptr_t)(w64 ? (void *)in64 : (void *)in32));
    TU_PARAM(&p, (uint64_t)(uintptr_t)(w64 ? (void *)out64 : (void *)out32));
    cb_launch_error err;
    CUresult res = tu_launch(be, mod, 0, 1, 32, p.buf, p.len, &err);
    TU_CHECK(res == CUDA_SUCCESS, "%s: %d %s", mc->name, (int)res, err.message);
    int bad = 0;
    for (int l = 0; l < 32 && !bad; l++)
        for (int i = 0; i < mc->m * mc->n / 32 && !bad; i++) {
            int r, c;
            pos_c(mc->kind, l, i, &r, &c);
            double s = mc->kind == 'd' ? C[r][c] : 0;
            long long si = (long long)C[r][c];
            for (int k = 0; k < mc->k; k++) {
                if (mc->kind == 'd')
                    s = fma(A[r][k], B[k][c], s);
                else
                    s += A[r][k] * B[k][c];
                si += (long long)A[r][k] * (long long)B[k][c];
            }
            if (mc->acc == 'i') {
                long long want = mc->satfinite ? (si > 2147483647LL ? 2147483647LL : si < -2147483648LL ? -2147483648LL : si)
                                               : (long long)(int32_t)(uint32_t)si;
                int32_t got = (int32_t)out32[l][i];
                if (got != want) {
                    TU_CHECK(0, "%s: lane %d d%d = %d want %lld", mc->name, l, i, got, want);
                    bad = 1;
                }
            } else if (mc->acc == 'f') {
                float want = (float)(s + C[r][c]), got = bits2f(out32[l][i]);
                if (got != want) {
                    TU_CHECK(0, "%s: lane %d d%d = %g want %g", mc->name, l, i, (double)got, (double)want);
                    bad = 1;
                }
            } else if (mc->acc == 'h') {
                uint16_t want = f2h((float)(s + C[r][c])), got = (uint16_t)(out32[l][i / 2] >> (16 * (i % 2)));
                if (got != want) {
                    TU_CHECK(0, "%s: lane %d d%d = 0x%04x want 0x%04x", mc->name, l, i, got, want);
                    bad = 1;
                }
            } else {
                double got;
                memcpy(&got, &out64[l][i], 8);
                if (got != s) {
                    TU_CHECK(0, "%s: lane %d d%d = %g want %g", mc->name, l, i, got, s);
                    bad = 1;
                }
            }
        }
    unload(mod, tr);
}

static const mcase cases[] = {
    {"f16 m16n8k8 f16 acc", "m16n8k8", "f16.f16.f16.f16", 'h', 16, 8, 8, 2, 1, 2, 2, 16, 'h', 0, 0},
    {"bf16 m16n8k8", "m16n8k8", "f32.bf16.bf16.f32", 'h', 16, 8, 8, 2, 1, 4, 4, 16, 'f', 0, 0},
    {"f16 m16n8k16 f32 acc", "m16n8k16", "f32.f16.f16.f32", 'h', 16, 8, 16, 4, 2, 4, 4, 16, 'f', 0, 0},
    {"tf32 m16n8k8", "m16n8k8", "f32.tf32.tf32.f32", 't', 16, 8, 8, 4, 2, 4, 4, 32, 'f', 0, 0},
    {"s8 m16n8k32", "m16n8k32", "s32.s8.s8.s32", 'i', 16, 8, 32, 4, 2, 4, 4, 8, 'i', 0, 0},
    {"s8 m16n8k32 satfinite", "m16n8k32", "s32.s8.s8.s32", 'i', 16, 8, 32, 4, 2, 4, 4, 8, 'i', 0, 1},
    {"u8*s8 m16n8k16", "m16n8k16", "s32.u8.s8.s32", 'i', 16, 8, 16, 2, 1, 4, 4, 8, 'i', 1, 0},
    {"f64 m8n8k4", "m8n8k4", "f64.f64.f64.f64", 'd', 8, 8, 4, 1, 1, 2, 2, 64, 'd', 0, 0},
};

int main(void)
{
    char dir[256];
    tu_fresh_cache(dir, sizeof dir);
    be = cb_backend_cpu_create();
    if (!be) {
        fprintf(stderr, "no CPU backend\n");
        return 1;
    }
    for (int bf = 0; bf < 2; bf++)
        for (int trans = 0; trans < 2; trans++)
            test_ldmatrix_mma(bf, trans);
    test_stmatrix(0);
    test_stmatrix(1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        test_mma_case(&cases[i]);
    be->shutdown(be);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    if (tu_failures)
        fprintf(stderr, "%d failure(s)\n", tu_failures);
    return tu_failures ? 1 : 0;
}
