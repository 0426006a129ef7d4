/* test_cpu_mma_forms: the mma.sync and mma.sp forms beyond the first set
 * (test_cpu_ptx_mma.c), through the real pipeline (hand-written PTX ->
 * cb_translate_ptx -> host compiler -> CPU backend):
 *   - m8n8k4 .f16 (the sm_70 quad pairs) in all four .row/.col layouts, with
 *     f16 and f32 accumulators (and f16 C into f32 D);
 *   - fp8 .e4m3/.e5m2 m16n8k32 and m16n8k16, f32 and f16 accumulators;
 *   - sparse mma.sp / mma.sp::ordered_metadata: f16/bf16 m16n8k16/k32,
 *     tf32 m16n8k8/k16, s8/u8 m16n8k32/k64, e4m3 m16n8k64, every selector;
 *   - integer m8n8k16 s8/u8, s4/u4 m8n8k32/m16n8k32/m16n8k64, b1 xor/and.popc
 *     m8n8k128/m16n8k128/m16n8k256, f64 m16n8k4/k8/k16;
 *   - the errors: unsupported combinations fail the translation, naming them.
 * Fragments are arranged by the host from the PTX ISA's fragment tables,
 * written here independently of the translator; inputs are random bit
 * patterns plus edge values (zeros of both signs, subnormals, infinities,
 * NaN, the largest finite values). The reference is the documented
 * arithmetic (docs/ptx.md): exact products summed in double in k order, plus
 * C, rounded once (f64: an fma chain from C; integers exact). The sparse
 * metadata layout is the one of docs/ptx.md, which test_cpu_mma_golden
 * checks against an H200's results. */
#include "test_cpu_util.h"

#include <math.h>

#include "codegen/translate.h"

static cb_backend *be;

#define PTX_HEAD ".version 8.7\n.target sm_90\n.address_size 64\n"

/* ---- element encodings ------------------------------------------------------------- */

static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8 ^ rng_state << 13;
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

/* double -> IEEE half, round to nearest even, overflow to infinity */
static uint16_t half_of(double x)
{
    if (isnan(x))
        return 0x7fff;
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    x = fabs(x);
    if (x >= 65520.0)
        return sign | 0x7c00;
    if (x < ldexp(1, -14)) {   /* subnormal: units of 2^-24 */
        double q = nearbyint(x * ldexp(1, 24));
        return sign | (uint16_t)q;
    }
    int e;
    double f = frexp(x, &e);   /* x = f * 2^e, f in [0.5, 1) */
    double q = nearbyint(ldexp(f, 11));   /* 11 significant bits */
    if (q == 2048) {
        q = 1024;
        e++;
    }
    return sign | (uint16_t)((e + 14) << 10 | ((uint32_t)q - 1024));
}

static double fp8_val(uint32_t v, int e5m2)
{
    double s = v & 128 ? -1 : 1;
    if (e5m2) {
        int e = v >> 2 & 31, m = v & 3;
        if (e == 31)
            return m ? NAN : s * INFINITY;
        return s * (e ? (1 + m / 4.0) * ldexp(1, e - 15) : m / 4.0 * ldexp(1, -14));
    }
    int e = v >> 3 & 15, m = v & 7;
    if (e == 15 && m == 7)
        return NAN;
    return s * (e ? (1 + m / 8.0) * ldexp(1, e - 7) : m / 8.0 * ldexp(1, -6));
}

/* ---- cases ------------------------------------------------------------------------------ */

/* element types: 'h' f16, 'g' bf16, 't' tf32, 's' s8, 'u' u8, 'd' f64, 'E' e4m3, 'F' e5m2, 'S' s4, 'U' u4,
 * 'b' b1. accumulators: 'f' f32, 'h' f16, 'i' s32, 'd' f64. */
typedef struct mcase {
    const char *name, *opcode;   /* opcode: everything before the operands */
    int m, n, k;
    char at, bt, ct, dt;
    int form;                    /* 0 dense m16, 1 dense m8, 2 m8n8k4 f16 quad pairs, 3 sparse */
    int acol, bcol, sel, sat, bop;
} mcase;

static int width(char t)
{
    switch (t) {
    case 'h': case 'g': return 16;
    case 't': return 32;
    case 'd': return 64;
    case 'S': case 'U': return 4;
    case 'b': return 1;
    default: return 8;
    }
}

static double value_of(char t, uint64_t v)
{
    switch (t) {
    case 'h': return half_val((uint16_t)v, 0);
    case 'g': return half_val((uint16_t)v, 1);
    case 't': { uint32_t b = (uint32_t)v & 0xffffe000u; float f; memcpy(&f, &b, 4); return f; }
    case 's': return (int8_t)v;
    case 'u': return (uint8_t)v;
    case 'd': { double d; memcpy(&d, &v, 8); return d; }
    case 'E': return fp8_val((uint32_t)v, 0);
    case 'F': return fp8_val((uint32_t)v, 1);
    case 'S': return (int)(v & 15) - (v & 8 ? 16 : 0);
    case 'U': return (double)(v & 15);
    default: return (double)(v & 1);
    }
}

/* A random element of type t: random bits, with edge values now and then; f16/bf16/tf32 mostly of modest
 * exponent so that sums are interesting rather than all infinite. */
static uint64_t random_el(char t)
{
    uint32_t r = rnd(), pick = rnd() % 16;
    switch (t) {
    case 'h': {
        static const uint16_t edge[] = {0x0000, 0x8000, 0x0001, 0x83ff, 0x7bff, 0x7c00, 0xfbff, 0x3c00};
        if (pick == 0)
            return edge[r % 8];
        return (r & 0x83ff) | (uint32_t)(8 + rnd() % 14) << 10;
    }
    case 'g': {
        if (pick == 0)
            return (uint16_t[]){0x0000, 0x8000, 0x0001, 0x7f7f, 0x7f80, 0x3f80}[r % 6];
        return (r & 0x807f) | (uint32_t)(120 + rnd() % 14) << 7;
    }
    case 't': {
        if (pick == 0)
            return (uint32_t[]){0x00000000u, 0x80000000u, 0x00002000u, 0x7f800000u, 0x7f7fffffu, 0x3f801fffu}[r % 6];
        return (r & 0x807fffffu) | (uint32_t)(120 + rnd() % 14) << 23;
    }
    case 'd': {
        double d = (double)(int)(r % 2001 - 1000) / 64.0 + ldexp((double)(rnd() % 1000), -30);
        if (pick == 0)
            d = (double[]){0.0, -0.0, 1e300, 4.9e-324}[r % 4];
        uint64_t u;
        memcpy(&u, &d, 8);
        return u;
    }
    case 'E': case 'F': case 's': case 'u': return r & 0xff;
    case 'S': case 'U': return r & 15;
    default: return r & 1;
    }
}

static uint64_t random_acc(char t)
{
    uint32_t r = rnd();
    switch (t) {
    case 'f': {
        float f = (float)((int)(r % 20001) - 10000) / 16.0f;
        uint32_t u;
        memcpy(&u, &f, 4);
        if (r % 23 == 0)
            u = (uint32_t[]){0x80000000u, 0x7f800000u, 0x00000001u}[r % 3];
        return u;
    }
    case 'h': return half_of((double)((int)(r % 2001) - 1000) / 8.0);
    case 'i': return r % 7 == 0 ? (r & 1 ? 0x7fffff00u : 0x80000100u) : (uint32_t)((int)(r % 200001) - 100000);
    default: { double d = (double)((int)(r % 20001) - 10000) / 16.0; uint64_t u; memcpy(&u, &d, 8); return u; }
    }
}

/* ---- fragment positions, from the PTX ISA's tables ------------------------------------------ */

static void pos_a(const mcase *mc, int l, int i, int *r, int *c)
{
    int g = l >> 2, t = l & 3, K = mc->k, w = width(mc->at);
    if (mc->form == 2) {   /* m8n8k4 .f16: quad pair (l>>2)&3, high group l >= 16 */
        int hi = l >= 16 ? 4 : 0;
        if (mc->acol) { *r = i + hi; *c = l % 4; }
        else { *r = l % 4 + hi; *c = i; }
        return;
    }
    if (mc->form == 1) { *r = g; *c = (K / 4) * t + i; return; }
    if (w == 16 && K == 8) { *r = g + (i >= 2 ? 8 : 0); *c = 2 * t + (i & 1); return; }
    if (w == 16) { *r = g + (i == 2 || i == 3 || i >= 6 ? 8 : 0); *c = 2 * t + (i & 1) + (i >= 4 ? 8 : 0); return; }
    if (w >= 32 && K == 4) { *r = g + 8 * i; *c = t; return; }
    if (w >= 32) { *r = g + 8 * (i & 1); *c = t + 4 * (i >> 1); return; }
    if (w == 8 && K == 16) { *r = g + (i >= 4 ? 8 : 0); *c = 4 * t + (i & 3); return; }
    if (w == 8) { *r = g + ((i >= 4 && i < 8) || i >= 12 ? 8 : 0); *c = 4 * t + (i & 3) + (i >= 8 ? 16 : 0); return; }
    if (w == 4 && K == 32) { *r = g + (i >= 8 ? 8 : 0); *c = 8 * t + (i & 7); return; }
    if (w == 4) { *r = g + ((i >= 8 && i < 16) || i >= 24 ? 8 : 0); *c = 8 * t + (i & 7) + (i >= 16 ? 32 : 0); return; }
    if (K == 128) { *r = g + (i >= 32 ? 8 : 0); *c = 32 * t + (i & 31); return; }
    *r = g + ((i >= 32 && i < 64) || i >= 96 ? 8 : 0);
    *c = 32 * t + (i & 31) + (i >= 64 ? 128 : 0);
}

static void pos_b(const mcase *mc, int l, int i, int *r, int *c)
{
    int g = l >> 2, t = l & 3, w = width(mc->bt);
    if (mc->form == 2) {
        int hi = l >= 16 ? 4 : 0;
        if (mc->bcol) { *r = i; *c = l % 4 + hi; }
        else { *r = l % 4; *c = i + hi; }
        return;
    }
    *c = g;
    if (mc->form == 1) { *r = (mc->k / 4) * t + i; return; }
    switch (w) {
    case 16: *r = 2 * t + (i & 1) + 8 * (i >> 1); break;
    case 32: case 64: *r = t + 4 * i; break;
    case 8: *r = 4 * t + (i & 3) + 16 * (i >> 2); break;
    case 4: *r = 8 * t + (i & 7) + 32 * (i >> 3); break;
    default: *r = 32 * t + (i & 31) + 128 * (i >> 5); break;
    }
}

static void pos_c(const mcase *mc, char acc, int l, int i, int *r, int *c)
{
    int g = l >> 2, t = l & 3;
    if (mc->form == 2) {
        int hi = l >= 16 ? 4 : 0;
        if (acc == 'f') { *r = (l & 1) + (i & 2) + hi; *c = (i & 4) + (l & 2) + (i & 1); }
        else { *r = l % 4 + hi; *c = i; }
        return;
    }
    if (mc->form == 1) { *r = g; *c = 2 * t + i; return; }
    *r = g + (i >= 2 ? 8 : 0);
    *c = 2 * t + (i & 1);
}

/* sparse A: element i of lane l -> row, first column of its chunk (4 wide; tf32 2), non-zero slot */
static void pos_sparse_a(const mcase *mc, int l, int i, int *r, int *cb, int *slot)
{
    int g = l >> 2, t = l & 3, w = width(mc->at), K = mc->k;
    if (w == 16 && K == 16) { *r = g + (i >= 2 ? 8 : 0); *cb = 4 * t; *slot = i & 1; return; }
    if (w == 16) { *r = g + (i == 2 || i == 3 || i >= 6 ? 8 : 0); *cb = 4 * t + (i >= 4 ? 16 : 0); *slot = i & 1; return; }
    if (w == 32 && K == 8) { *r = g + (i ? 8 : 0); *cb = 2 * t; *slot = 0; return; }
    if (w == 32) { *r = g + (i & 1 ? 8 : 0); *cb = 2 * t + (i >= 2 ? 8 : 0); *slot = 0; return; }
    if (K == 32) { *r = g + (i >= 4 ? 8 : 0); *cb = 8 * t + ((i & 3) >= 2 ? 4 : 0); *slot = i & 1; return; }
    *r = g + ((i >= 4 && i < 8) || i >= 12 ? 8 : 0);
    *cb = 8 * t + (i >= 8 ? 32 : 0) + ((i & 3) >= 2 ? 4 : 0);
    *slot = i & 1;
}

/* ---- one case ----------------------------------------------------------------------------- */

static int nel_a(const mcase *mc) { return mc->form == 2 ? 4 : mc->m * mc->k / 32 / (mc->form == 3 ? 2 : 1); }
static int nel_b(const mcase *mc) { return mc->form == 2 ? 4 : mc->k * mc->n / 32; }
static int nel_c(const mcase *mc) { return mc->form == 2 ? 8 : mc->m * mc->n / 32; }
static int nregs(char t, int n, int acc)
{
    if (acc)
        return t == 'h' ? n / 2 : n;
    int w = width(t);
    return w == 64 ? n : n * w / 32;
}

static void put_el(uint64_t *regs, int w, int i, uint64_t v)
{
    if (w >= 32) { regs[i] = v; return; }
    int per = 32 / w, sh = w * (i % per);
    regs[i / per] |= (v & ((1ull << w) - 1)) << sh;
}

static uint64_t get_el(const uint64_t *regs, int w, int i)
{
    if (w >= 32) return regs[i];
    int per = 32 / w;
    return regs[i / per] >> (w * (i % per)) & ((1ull << w) - 1);
}

/* Each lane loads its a, b, c (and metadata) registers from in + lane * 64 words of 8 bytes, runs the
 * instruction and stores its d registers to out + lane * 64 words. */
static void build_ptx(const mcase *mc, char *ptx, size_t len)
{
    int na = nregs(mc->at, nel_a(mc), 0), nb = nregs(mc->bt, nel_b(mc), 0);
    int nc = nregs(mc->ct, nel_c(mc), 1), nd = nregs(mc->dt, nel_c(mc), 1);
    char ops[4][600], body[8192] = "";
    int counts[4] = {nd, na, nb, nc}, wide[4] = {mc->dt == 'd', mc->at == 'd', mc->bt == 'd', mc->ct == 'd'};
    int word = 0, reg = 10;
    for (int o = 0; o < 4; o++) {
        strcpy(ops[o], "{");
        for (int i = 0; i < counts[o]; i++, reg++) {
            snprintf(ops[o] + strlen(ops[o]), 600 - strlen(ops[o]), "%s%s%d", i ? ", " : "", wide[o] ? "%rd" : "%r", reg);
            if (o > 0)
                snprintf(body + strlen(body), sizeof body - strlen(body), "  ld.global.%s %s%d, [%%rd3+%d];\n",
                         wide[o] ? "b64" : "b32", wide[o] ? "%rd" : "%r", reg, 8 * word++);
        }
        strcat(ops[o], "}");
    }
    char sparse[64] = "";
    if (mc->form == 3) {
        snprintf(body + strlen(body), sizeof body - strlen(body), "  ld.global.b32 %%r5, [%%rd3+%d];\n", 8 * 40);
        snprintf(sparse, sizeof sparse, ", %%r5, %d", mc->sel);
    }
    snprintf(body + strlen(body), sizeof body - strlen(body), "  %s %s, %s, %s, %s%s;\n", mc->opcode, ops[0], ops[1],
             ops[2], ops[3], sparse);
    /* stores of d */
    reg = 10;
    for (int i = 0; i < nd; i++, reg++)
        snprintf(body + strlen(body), sizeof body - strlen(body), "  st.global.%s [%%rd6+%d], %s%d;\n",
                 wide[0] ? "b64" : "b32", 8 * i, wide[0] ? "%rd" : "%r", reg);
    snprintf(ptx, len,
             PTX_HEAD ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
             "  .reg .b32 %%r<100>; .reg .b64 %%rd<100>;\n"
             "  mov.u32 %%r1, %%laneid;\n"
             "  ld.param.u64 %%rd1, [in];\n  mul.wide.u32 %%rd2, %%r1, 512;\n  add.u64 %%rd3, %%rd1, %%rd2;\n"
             "  ld.param.u64 %%rd4, [out];\n  add.u64 %%rd6, %%rd4, %%rd2;\n"
             "%s  ret;\n}\n",
             body);
}

static int same_float(double got, double want) { return (isnan(got) && isnan(want)) || (got == want && signbit(got) == signbit(want)); }

static void *load_ptx(const char *ptx, cb_translation **trp, char *err, size_t errlen)
{
    cb_translation *tr = NULL;
    if (cb_translate_ptx(ptx, strlen(ptx), "mma_forms.ptx", CB_DIALECT_C, &tr, err, errlen) != 0)
        return NULL;
    *trp = tr;
    return tu_load(be, tr, NULL);
}

static double A[32][256], B[256][32], Cm[32][32];
static uint64_t Craw[32][32];

static void run_trial(const mcase *mc, void *mod, int trial)
{
    static uint64_t in[32][64], out[32][64];
    memset(in, 0, sizeof in);
    memset(out, 0xee, sizeof out);
    /* Fill the lanes' registers: pick each element at random, place it in the dense matrices. */
    static uint64_t a_of[32][64], b_of[32][64], c_of[32][64];
    static int idx_of[32][256];   /* sparse: chosen index pairs per (row, chunk), as idx0 | idx1 << 2 */
    for (int r = 0; r < 32; r++)
        for (int ch = 0; ch < 64; ch++) {
            int i0, i1;
            if (width(mc->at) == 32) { i0 = (int)(rnd() % 2); i1 = i0; }
            else { i0 = (int)(rnd() % 4); do i1 = (int)(rnd() % 4); while (i1 == i0); if (i0 > i1) { int s = i0; i0 = i1; i1 = s; } }
            idx_of[r][ch] = i0 | i1 << 2;
        }
    double Aq0[4][8][4], Bq0[4][4][8], Cq0[4][8][8];
    uint64_t Cqr[4][8][8];
    memset(A, 0, sizeof A);
    memset(B, 0, sizeof B);
    for (int l = 0; l < 32; l++) {
        uint64_t ra[64] = {0}, rb[64] = {0}, rc[64] = {0};
        int q = (l >> 2) & 3, r, cc;
        for (int i = 0; i < nel_a(mc); i++) {
            uint64_t v = random_el(mc->at);
            put_el(ra, width(mc->at), i, v);
            if (mc->form == 3) {
                int cb, slot;
                pos_sparse_a(mc, l, i, &r, &cb, &slot);
                int cw = width(mc->at) == 32 ? 2 : 4, pair = idx_of[r][cb / cw];
                cc = cb + (width(mc->at) == 32 ? (pair & 3) : slot ? pair >> 2 : pair & 3);
                A[r][cc] = value_of(mc->at, v);
            } else if (mc->form == 2) {
                pos_a(mc, l, i, &r, &cc);
                Aq0[q][r][cc] = value_of(mc->at, v);
            } else {
                pos_a(mc, l, i, &r, &cc);
                A[r][cc] = value_of(mc->at, v);
            }
        }
        for (int i = 0; i < nel_b(mc); i++) {
            uint64_t v = random_el(mc->bt);
            put_el(rb, width(mc->bt), i, v);
            pos_b(mc, l, i, &r, &cc);
            if (mc->form == 2)
                Bq0[q][r][cc] = value_of(mc->bt, v);
            else
                B[r][cc] = value_of(mc->bt, v);
        }
        for (int i = 0; i < nel_c(mc); i++) {
            uint64_t v = random_acc(mc->ct);
            put_el(rc, mc->ct == 'h' ? 16 : mc->ct == 'd' ? 64 : 32, i, v);
            pos_c(mc, mc->ct, l, i, &r, &cc);
            double cv = mc->ct == 'h' ? half_val((uint16_t)v, 0) : mc->ct == 'f' ? value_of('t', v | 0) : 0;
            if (mc->ct == 'f') { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); cv = f; }
            if (mc->ct == 'd') memcpy(&cv, &v, 8);
            if (mc->form == 2) { Cq0[q][r][cc] = cv; Cqr[q][r][cc] = v; }
            else { Cm[r][cc] = cv; Craw[r][cc] = v; }
        }
        memcpy(a_of[l], ra, sizeof ra);
        memcpy(b_of[l], rb, sizeof rb);
        memcpy(c_of[l], rc, sizeof rc);
    }
    /* registers into the input words: a, b, c in order, metadata at word 40 */
    int na = nregs(mc->at, nel_a(mc), 0), nb = nregs(mc->bt, nel_b(mc), 0), nc = nregs(mc->ct, nel_c(mc), 1);
    for (int l = 0; l < 32; l++) {
        int w = 0;
        for (int i = 0; i < na; i++) in[l][w++] = a_of[l][i];
        for (int i = 0; i < nb; i++) in[l][w++] = b_of[l][i];
        for (int i = 0; i < nc; i++) in[l][w++] = c_of[l][i];
    }
    if (mc->form == 3) {   /* metadata: row r, chunk ch from lane 4(r%8) + sel*nthr + o, bits b, where */
        /* 16/32-bit types: o = ch/4, b = 16(r>=8) + 4(ch%4); 8-bit types: o = (r>=8) + 2(ch/8), b = 4(ch%8) */
        int cw = width(mc->at) == 32 ? 2 : 4, chunks = mc->k / cw, nthr = chunks / 4, w8 = width(mc->at) == 8;
        for (int r = 0; r < 16; r++)
            for (int ch = 0; ch < chunks; ch++) {
                int lane = 4 * (r % 8) + (nthr == 4 ? 0 : mc->sel * nthr) + (w8 ? (r >= 8) + 2 * (ch / 8) : ch / 4);
                int bit = w8 ? 4 * (ch % 8) : 16 * (r >= 8) + 4 * (ch % 4);
                int pair = idx_of[r][ch];
                uint32_t nib = cw == 2 ? ((pair & 3) ? 0xeu : 0x4u) : (uint32_t)pair;
                in[lane][40] |= (uint64_t)nib << bit;
            }
        /* the other lanes' metadata is garbage the instruction must ignore */
        for (int l = 0; l < 32; l++) {
            int t = l & 3, nthr2 = nthr == 4 ? 4 : nthr;
            if (t < mc->sel * nthr2 || t >= mc->sel * nthr2 + nthr2)
                in[l][40] = rnd();
        }
    }
    tu_params p = {0};
    TU_PARAM(&p, (uint64_t)(uintptr_t)in);
    TU_PARAM(&p, (uint64_t)(uintptr_t)out);
    cb_launch_error lerr;
    CUresult res = tu_launch(be, mod, 0, 1, 32, p.buf, p.len, &lerr);
    TU_CHECK(res == CUDA_SUCCESS, "%s: launch %d %s", mc->name, (int)res, lerr.message);
    int bad = 0;
    for (int l = 0; l < 32 && !bad; l++) {
        int q = (l >> 2) & 3;
        for (int i = 0; i < nel_c(mc) && !bad; i++) {
            int r, cc;
            pos_c(mc, mc->dt, l, i, &r, &cc);
            /* reference: the documented arithmetic */
            double s = 0, cv = mc->form == 2 ? Cq0[q][r][cc] : Cm[r][cc];
            long long si = 0;
            if (mc->dt == 'i')
                si = (int32_t)(uint32_t)(mc->form == 2 ? Cqr[q][r][cc] : Craw[r][cc]);
            if (mc->dt == 'd')
                s = cv;
            for (int k = 0; k < (mc->form == 2 ? 4 : mc->k); k++) {
                double av = mc->form == 2 ? Aq0[q][r][k] : A[r][k], bv = mc->form == 2 ? Bq0[q][k][cc] : B[k][cc];
                if (mc->dt == 'i') {
                    long long ai = (long long)av, bi = (long long)bv;
                    si += mc->bop == 1 ? (ai ^ bi) : mc->bop == 2 ? (ai & bi) : ai * bi;
                } else if (mc->dt == 'd') {
                    s = fma(av, bv, s);
                } else {
                    s += av * bv;
                }
            }
            uint64_t gotw = get_el(out[l], mc->dt == 'h' ? 16 : mc->dt == 'd' ? 64 : 32, i);
            if (mc->dt == 'i') {
                long long want = mc->sat ? (si > INT32_MAX ? INT32_MAX : si < INT32_MIN ? INT32_MIN : si) : (int32_t)(uint32_t)si;
                if ((int32_t)(uint32_t)gotw != want) {
                    TU_CHECK(0, "%s (trial %d): lane %d d%d (%d,%d) = %d want %lld", mc->name, trial, l, i, r, cc,
                             (int32_t)(uint32_t)gotw, want);
                    bad = 1;
                }
            } else if (mc->dt == 'f') {
                float want = (float)(s + cv), got;
                uint32_t u = (uint32_t)gotw;
                memcpy(&got, &u, 4);
                if (!same_float(got, want)) {
                    TU_CHECK(0, "%s (trial %d): lane %d d%d (%d,%d) = %a want %a", mc->name, trial, l, i, r, cc,
                             (double)got, (double)want);
                    bad = 1;
                }
            } else if (mc->dt == 'h') {
                uint16_t want = half_of(s + cv), got = (uint16_t)gotw;
                if (got != want && !(isnan(half_val(got, 0)) && isnan(half_val(want, 0)))) {
                    TU_CHECK(0, "%s (trial %d): lane %d d%d (%d,%d) = 0x%04x want 0x%04x", mc->name, trial, l, i, r,
                             cc, got, want);
                    bad = 1;
                }
            } else {
                double got;
                memcpy(&got, &gotw, 8);
                if (!same_float(got, s)) {
                    TU_CHECK(0, "%s (trial %d): lane %d d%d = %a want %a", mc->name, trial, l, i, got, s);
                    bad = 1;
                }
            }
        }
    }
}

static void run_case(const mcase *mc)
{
    char ptx[16384], err[1024];
    build_ptx(mc, ptx, sizeof ptx);
    cb_translation *tr = NULL;
    void *mod = load_ptx(ptx, &tr, err, sizeof err);
    TU_CHECK(mod != NULL, "%s: translate/load: %s", mc->name, err);
    if (mod) {
        for (int trial = 0; trial < 4; trial++)
            run_trial(mc, mod, trial);
        be->module_unload(be, mod);
    }
    cb_translation_free(tr);
}

#define MMA "mma.sync.aligned."
#define SP "mma.sp::ordered_metadata.sync.aligned."
static const mcase cases[] = {
    /* m8n8k4 .f16: quad pairs, every layout */
    {"m8n8k4 row.col f32", MMA "m8n8k4.row.col.f32.f16.f16.f32", 8, 8, 4, 'h', 'h', 'f', 'f', 2, 0, 1, 0, 0, 0},
    {"m8n8k4 row.row f32", MMA "m8n8k4.row.row.f32.f16.f16.f32", 8, 8, 4, 'h', 'h', 'f', 'f', 2, 0, 0, 0, 0, 0},
    {"m8n8k4 col.col f16", MMA "m8n8k4.col.col.f16.f16.f16.f16", 8, 8, 4, 'h', 'h', 'h', 'h', 2, 1, 1, 0, 0, 0},
    {"m8n8k4 col.row f32<-f16", MMA "m8n8k4.col.row.f32.f16.f16.f16", 8, 8, 4, 'h', 'h', 'h', 'f', 2, 1, 0, 0, 0, 0},
    /* fp8 */
    {"e4m3 m16n8k32 f32", MMA "m16n8k32.row.col.f32.e4m3.e4m3.f32", 16, 8, 32, 'E', 'E', 'f', 'f', 0, 0, 1, 0, 0, 0},
    {"e4m3*e5m2 m16n8k32 f32", MMA "m16n8k32.row.col.f32.e4m3.e5m2.f32", 16, 8, 32, 'E', 'F', 'f', 'f', 0, 0, 1, 0, 0, 0},
    {"e5m2 m16n8k32 f16", MMA "m16n8k32.row.col.f16.e5m2.e5m2.f16", 16, 8, 32, 'F', 'F', 'h', 'h', 0, 0, 1, 0, 0, 0},
    {"e5m2*e4m3 m16n8k16 f32", MMA "m16n8k16.row.col.f32.e5m2.e4m3.f32", 16, 8, 16, 'F', 'E', 'f', 'f', 0, 0, 1, 0, 0, 0},
    /* integer and binary */
    {"s8*u8 m8n8k16", MMA "m8n8k16.row.col.s32.s8.u8.s32", 8, 8, 16, 's', 'u', 'i', 'i', 1, 0, 1, 0, 0, 0},
    {"u8 m8n8k16 satfinite", MMA "m8n8k16.row.col.satfinite.s32.u8.u8.s32", 8, 8, 16, 'u', 'u', 'i', 'i', 1, 0, 1, 0, 1, 0},
    {"s4 m8n8k32", MMA "m8n8k32.row.col.s32.s4.s4.s32", 8, 8, 32, 'S', 'S', 'i', 'i', 1, 0, 1, 0, 0, 0},
    {"u4*s4 m16n8k32", MMA "m16n8k32.row.col.s32.u4.s4.s32", 16, 8, 32, 'U', 'S', 'i', 'i', 0, 0, 1, 0, 0, 0},
    {"s4 m16n8k64 satfinite", MMA "m16n8k64.row.col.satfinite.s32.s4.s4.s32", 16, 8, 64, 'S', 'S', 'i', 'i', 0, 0, 1, 0, 1, 0},
    {"b1 m8n8k128 xor", MMA "m8n8k128.row.col.s32.b1.b1.s32.xor.popc", 8, 8, 128, 'b', 'b', 'i', 'i', 1, 0, 1, 0, 0, 1},
    {"b1 m16n8k128 and", MMA "m16n8k128.row.col.s32.b1.b1.s32.and.popc", 16, 8, 128, 'b', 'b', 'i', 'i', 0, 0, 1, 0, 0, 2},
    {"b1 m16n8k256 xor", MMA "m16n8k256.row.col.s32.b1.b1.s32.xor.popc", 16, 8, 256, 'b', 'b', 'i', 'i', 0, 0, 1, 0, 0, 1},
    {"f64 m16n8k4", MMA "m16n8k4.row.col.f64.f64.f64.f64", 16, 8, 4, 'd', 'd', 'd', 'd', 0, 0, 1, 0, 0, 0},
    {"f64 m16n8k8", MMA "m16n8k8.row.col.f64.f64.f64.f64", 16, 8, 8, 'd', 'd', 'd', 'd', 0, 0, 1, 0, 0, 0},
    {"f64 m16n8k16", MMA "m16n8k16.row.col.f64.f64.f64.f64", 16, 8, 16, 'd', 'd', 'd', 'd', 0, 0, 1, 0, 0, 0},
    {"f64 m8n8k4", MMA "m8n8k4.row.col.f64.f64.f64.f64", 8, 8, 4, 'd', 'd', 'd', 'd', 1, 0, 1, 0, 0, 0},
    /* sparse */
    {"sp f16 m16n8k16 sel0", SP "m16n8k16.row.col.f32.f16.f16.f32", 16, 8, 16, 'h', 'h', 'f', 'f', 3, 0, 1, 0, 0, 0},
    {"sp f16 m16n8k16 sel3 f16", SP "m16n8k16.row.col.f16.f16.f16.f16", 16, 8, 16, 'h', 'h', 'h', 'h', 3, 0, 1, 3, 0, 0},
    {"sp(plain) bf16 m16n8k16 sel2", "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 16, 8, 16, 'g', 'g', 'f', 'f', 3, 0, 1, 2, 0, 0},
    {"sp f16 m16n8k32 sel1", SP "m16n8k32.row.col.f32.f16.f16.f32", 16, 8, 32, 'h', 'h', 'f', 'f', 3, 0, 1, 1, 0, 0},
    {"sp bf16 m16n8k32 sel0", SP "m16n8k32.row.col.f32.bf16.bf16.f32", 16, 8, 32, 'g', 'g', 'f', 'f', 3, 0, 1, 0, 0, 0},
    {"sp tf32 m16n8k8 sel1", SP "m16n8k8.row.col.f32.tf32.tf32.f32", 16, 8, 8, 't', 't', 'f', 'f', 3, 0, 1, 1, 0, 0},
    {"sp tf32 m16n8k16 sel1", SP "m16n8k16.row.col.f32.tf32.tf32.f32", 16, 8, 16, 't', 't', 'f', 'f', 3, 0, 1, 1, 0, 0},
    {"sp s8 m16n8k32 sel0", SP "m16n8k32.row.col.s32.s8.s8.s32", 16, 8, 32, 's', 's', 'i', 'i', 3, 0, 1, 0, 0, 0},
    {"sp u8*s8 m16n8k32 sel1 sat", SP "m16n8k32.row.col.satfinite.s32.u8.s8.s32", 16, 8, 32, 'u', 's', 'i', 'i', 3, 0, 1, 1, 1, 0},
    {"sp s8 m16n8k64", SP "m16n8k64.row.col.s32.s8.u8.s32", 16, 8, 64, 's', 'u', 'i', 'i', 3, 0, 1, 0, 0, 0},
    {"sp e4m3 m16n8k64", SP "m16n8k64.row.col.f32.e4m3.e5m2.f32", 16, 8, 64, 'E', 'F', 'f', 'f', 3, 0, 1, 0, 0, 0},
};

/* Forms that must fail the translation, with a word the message must contain. */
static void test_errors(void)
{
    static const struct { const char *instr, *want; } bad[] = {
        {MMA "m8n8k4.row.col.f16.f16.f16.f32 {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r7,%r8}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}", "unsupported mma"},
        {MMA "m16n8k16.row.row.f32.f16.f16.f32 {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%r1,%r2}, {%r1,%r2,%r3,%r4}", ".row.col"},
        {MMA "m16n8k32.row.col.f32.e4m3.f16.f32 {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%r1,%r2}, {%r1,%r2,%r3,%r4}", "unsupported mma"},
        {MMA "m16n8k128.row.col.s32.b1.b1.s32 {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r1}, {%r1,%r2,%r3,%r4}", "unsupported mma"},
        {SP "m16n8k64.row.col.s32.s4.s4.s32 {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, %r9, 0", "unsupported mma.sp"},
        {SP "m16n8k32.row.col.f32.f16.f16.f32 {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, %r9, 2", "selector"},
        {SP "m16n8k16.row.col.f32.f16.f16.f32 {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r1,%r2}, {%r1,%r2,%r3,%r4}, %r9, %r10", "selector"},
        {SP "m16n8k16.row.col.f32.f16.f16.f32 {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r1,%r2}, {%r1,%r2,%r3,%r4}", "metadata"},
        {MMA "m16n8k32.row.col.f32.e4m3.e4m3.f32 {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r1,%r2}, {%r1,%r2,%r3,%r4}", "vector of 4"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char ptx[2048], err[1024] = "";
        snprintf(ptx, sizeof ptx,
                 PTX_HEAD ".visible .entry k()\n{\n  .reg .b32 %%r<20>;\n  %s;\n  ret;\n}\n", bad[i].instr);
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
