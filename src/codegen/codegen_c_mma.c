/* codegen_c_mma.c: warp-level matrix instructions (CB_DIALECT_C):
 * mma.sync, wmma.load/store/mma, ldmatrix, stmatrix.
 *
 * mma.sync, wmma.mma, ldmatrix and stmatrix are warp collectives: each lane
 * copies its fragment registers (or its row address) into a cb_mx on its
 * stack and calls rt->warp_exchange with a cb_mfn_* function below, which
 * gathers the 32 lanes' fragments into whole matrices, computes, and
 * scatters the results back; the lane then copies its d registers out.
 *
 * Fragment layouts:
 *   - mma.sync and ldmatrix/stmatrix: the PTX ISA's tables (groupID =
 *     lane >> 2, threadID_in_group = lane & 3), per shape and type;
 *   - wmma: the ISA leaves the layout unspecified, so cubridge picks one:
 *     slot j of lane l (a slot is one element: half of a .b32 register for
 *     16-bit types, a whole register for 32-bit ones) holds element
 *     e = (l * slots + j) mod 256 of the 256-element matrix, at row e / cols,
 *     column e % cols of its logical (unlaid-out) shape. wmma.load/store move
 *     each lane's own elements (no rendezvous); only wmma.mma gathers.
 *
 * Arithmetic: products of the inputs are exact in double, summed in double
 * in k order and rounded once to the accumulator type (f32, f16: nearest
 * even). Integer mma is exact (.satfinite clamps to s32). f64 mma is an fma
 * chain over k starting from c. Tensor cores may round partial sums
 * differently (the ISA does not pin it down), so results can differ from a
 * GPU in the last bit when partial sums are not exact.
 */
#include "codegen/codegen.h"

#include <stdio.h>
#include <string.h>

const char cb_codegen_c_prelude_mma[] =
"/* ---- warp matrix instructions (mma, wmma, ldmatrix, stmatrix) ---- */\n"
"/* one lane's part: fragment registers, and the instruction's parameters in cfg */\n"
"typedef struct cb_mx { uint64_t a[8], b[8], c[8], d[8]; int cfg[8]; } cb_mx;\n"
"#define CB_MX(d, l) ((cb_mx *)(d)[l])\n"
"#define CB_MFN static __attribute__((unused)) void\n"
"/* element i of 16-bit (w=16), 8-bit (w=8) or 32-bit (w=32) packed registers r[] */\n"
"CB_INL uint32_t cb_mx_el(const uint64_t *r, int w, int i) { int per = 32 / w;\n"
"  return w == 32 ? (uint32_t)r[i] : (uint32_t)(r[i / per] >> (w * (i % per))) & ((1u << w) - 1u); }\n"
"CB_INL void cb_mx_set(uint64_t *r, int w, int i, uint32_t v) { int per = 32 / w; if (w == 32) { r[i] = v; return; }\n"
"  int sh = w * (i % per); uint64_t m = (uint64_t)((1u << w) - 1u) << sh; r[i / per] = (r[i / per] & ~m) | ((uint64_t)v << sh); }\n"
"/* input element kinds: 0 f16, 1 bf16, 2 tf32, 3 s8, 4 u8, 5 f64 */\n"
"CB_INL double cb_mx_in(int kind, uint64_t v) { switch (kind) {\n"
"  case 0: return cb_hd(0, (uint16_t)v); case 1: return cb_hd(1, (uint16_t)v);\n"
"  case 2: return (double)cb_f32((uint32_t)v & 0xffffe000u); case 3: return (double)(int8_t)v;\n"
"  case 4: return (double)(uint8_t)v; default: return cb_f64(v); } }\n"
"/* accumulator kinds: 0 f32, 1 f16 (pairs in .b32), 2 s32, 3 s32 .satfinite, 4 f64 */\n"
"CB_INL double cb_mx_acc_in(int kind, const uint64_t *r, int i) { switch (kind) {\n"
"  case 0: return (double)cb_f32((uint32_t)r[i]); case 1: return cb_hd(0, (uint16_t)cb_mx_el(r, 16, i));\n"
"  case 2: case 3: return (double)(int32_t)(uint32_t)r[i]; default: return cb_f64(r[i]); } }\n"
"CB_INL void cb_mx_acc_out(int kind, uint64_t *r, int i, double v, int64_t iv) { switch (kind) {\n"
"  case 0: r[i] = cb_bits32((float)v); break; case 1: cb_mx_set(r, 16, i, cb_dh(0, v, 0)); break;\n"
"  case 2: r[i] = (uint32_t)iv; break;\n"
"  case 3: r[i] = (uint32_t)(iv > INT32_MAX ? INT32_MAX : iv < INT32_MIN ? INT32_MIN : iv); break;\n"
"  default: r[i] = cb_bits64(v); } }\n"
"/* D = A*B + C over whole matrices (at most 16 x 16 x 32) */\n"
"typedef struct cb_mm { int m, n, k, ak, bk, ck; double A[32][32], B[32][32], C[32][32], D[32][32]; int64_t Ci[32][32], Di[32][32]; } cb_mm;\n"
"CB_INL void cb_mm_run(cb_mm *p) { double (*D)[32] = p->D; int64_t (*Di)[32] = p->Di;\n"
"  for (int i = 0; i < p->m; i++) for (int j = 0; j < p->n; j++) {\n"
"    if (p->ck == 2 || p->ck == 3) { int64_t s = p->Ci[i][j]; for (int q = 0; q < p->k; q++) s += (int64_t)p->A[i][q] * (int64_t)p->B[q][j]; Di[i][j] = s; }\n"
"    else if (p->ck == 4) { double s = p->C[i][j]; for (int q = 0; q < p->k; q++) s = fma(p->A[i][q], p->B[q][j], s); D[i][j] = s; }\n"
"    else { double s = 0; for (int q = 0; q < p->k; q++) s += p->A[i][q] * p->B[q][j]; D[i][j] = s + p->C[i][j]; } } }\n"
"/* mma.sync fragment positions (PTX ISA tables). shape: 0 m16n8k16, 1 m16n8k8, 2 m16n8k32, 3 m8n8k4, 4 m16n8k4.\n"
"   which: 0 a, 1 b, 2 c/d. Element i of lane l -> (row, col). */\n"
"CB_INL void cb_mma_pos(int shape, int ak, int which, int l, int i, int *r, int *c) { int g = l >> 2, t = l & 3;\n"
"  if (which == 2) { if (shape == 3) { *r = g; *c = t * 2 + i; } else { *r = g + 8 * (i >> 1); *c = t * 2 + (i & 1); } return; }\n"
"  if (ak == 5) { if (which == 0) { *r = g; *c = t; } else { *r = t; *c = g; } return; }\n"
"  if (ak == 2) { /* tf32 */\n"
"    if (shape == 4) { if (which == 0) { *r = g + 8 * i; *c = t; } else { *r = t; *c = g; } return; }\n"
"    if (which == 0) { *r = g + 8 * (i & 1); *c = t + 4 * (i >> 1); } else { *r = t + 4 * i; *c = g; } return; }\n"
"  if (ak >= 3) { /* s8/u8 */\n"
"    if (shape == 2) { if (which == 0) { *r = g + 8 * ((i >> 2) & 1); *c = t * 4 + (i & 3) + 16 * (i >> 3); }\n"
"      else { *r = t * 4 + (i & 3) + 16 * (i >> 2); *c = g; } return; }\n"
"    if (which == 0) { *r = g + 8 * (i >> 2); *c = t * 4 + (i & 3); } else { *r = t * 4 + i; *c = g; } return; }\n"
"  if (shape == 0) { if (which == 0) { *r = g + 8 * ((i >> 1) & 1); *c = t * 2 + (i & 1) + 8 * (i >> 2); }\n"
"    else { *r = t * 2 + (i & 1) + 8 * (i >> 1); *c = g; } return; }\n"
"  if (which == 0) { *r = g + 8 * (i >> 1); *c = t * 2 + (i & 1); } else { *r = t * 2 + i; *c = g; } }\n"
"/* one mma.sync: sizes and kinds come from the instruction */\n"
"CB_INL void cb_mma_do(void *const d[32], uint32_t lanes, int shape, int M, int N, int K, int ak, int bk, int ck, int dk) {\n"
"  static __thread cb_mm p; p.m = M; p.n = N; p.k = K; p.ak = ak; p.bk = bk; p.ck = ck;\n"
"  int w = ak == 5 ? 64 : ak == 2 ? 32 : ak >= 3 ? 8 : 16; int na = M * K / 32, nb = K * N / 32, nc = M * N / 32; int r, c;\n"
"  for (int l = 0; l < 32; l++) { if (!(lanes >> l & 1)) continue; cb_mx *x = CB_MX(d, l);\n"
"    for (int i = 0; i < na; i++) { cb_mma_pos(shape, ak, 0, l, i, &r, &c); p.A[r][c] = cb_mx_in(ak, w == 64 ? x->a[i] : cb_mx_el(x->a, w, i)); }\n"
"    for (int i = 0; i < nb; i++) { cb_mma_pos(shape, bk, 1, l, i, &r, &c); p.B[r][c] = cb_mx_in(bk, w == 64 ? x->b[i] : cb_mx_el(x->b, w, i)); }\n"
"    for (int i = 0; i < nc; i++) { cb_mma_pos(shape, ak, 2, l, i, &r, &c); p.C[r][c] = cb_mx_acc_in(ck, x->c, i);\n"
"      p.Ci[r][c] = (int64_t)(int32_t)(uint32_t)x->c[i]; } }\n"
"  cb_mm_run(&p);\n"
"  for (int l = 0; l < 32; l++) { if (!(lanes >> l & 1)) continue; cb_mx *x = CB_MX(d, l);\n"
"    for (int i = 0; i < nc; i++) { cb_mma_pos(shape, ak, 2, l, i, &r, &c); cb_mx_acc_out(dk, x->d, i, p.D[r][c], p.Di[r][c]); } } }\n"
"/* wmma: slot j of lane l holds element (l * slots + j) mod 256; rows of `cols` elements */\n"
"CB_INL void cb_wmma_pos(int slots, int cols, int l, int j, int *r, int *c) { int e = (l * slots + j) & 255; *r = e / cols; *c = e % cols; }\n"
"CB_INL void cb_wmma_do(void *const d[32], uint32_t lanes, int M, int N, int K, int ak, int ck, int dk) {\n"
"  static __thread cb_mm p; p.m = M; p.n = N; p.k = K; p.ak = ak; p.bk = ak; p.ck = ck;\n"
"  int w = ak == 2 ? 32 : ak >= 3 ? 8 : 16, sa = 256 / 32 * (ak == 0 ? 2 : 1), sc = 8; int r, c;\n"
"  for (int l = 0; l < 32; l++) { if (!(lanes >> l & 1)) continue; cb_mx *x = CB_MX(d, l);\n"
"    for (int j = 0; j < sa; j++) { cb_wmma_pos(sa, K, l, j, &r, &c); p.A[r][c] = cb_mx_in(ak, cb_mx_el(x->a, w, j));\n"
"      cb_wmma_pos(sa, N, l, j, &r, &c); p.B[r][c] = cb_mx_in(ak, cb_mx_el(x->b, w, j)); }\n"
"    for (int j = 0; j < sc; j++) { cb_wmma_pos(sc, N, l, j, &r, &c); p.C[r][c] = cb_mx_acc_in(ck, x->c, j);\n"
"      p.Ci[r][c] = (int64_t)(int32_t)(uint32_t)x->c[j]; } }\n"
"  cb_mm_run(&p);\n"
"  for (int l = 0; l < 32; l++) { if (!(lanes >> l & 1)) continue; cb_mx *x = CB_MX(d, l);\n"
"    for (int j = 0; j < sc; j++) { cb_wmma_pos(sc, N, l, j, &r, &c); cb_mx_acc_out(dk, x->d, j, p.D[r][c], p.Di[r][c]); } } }\n"
"/* wmma.load/store: lane's slots from/to memory p (row-major: element (r, c) at r * stride + c) */\n"
"CB_INL void cb_wmma_ldst(uint64_t *regs, int w, int slots, int cols, uint32_t lane, unsigned char *p, uint32_t stride, int rowmajor, int store) {\n"
"  for (int j = 0; j < slots; j++) { int r, c; cb_wmma_pos(slots, cols, (int)lane, j, &r, &c);\n"
"    unsigned char *q = p + ((size_t)(rowmajor ? (uint32_t)r * stride + (uint32_t)c : (uint32_t)c * stride + (uint32_t)r)) * (size_t)(w / 8);\n"
"    if (store) { uint32_t v = cb_mx_el(regs, w, j); memcpy(q, &v, (size_t)(w / 8)); }\n"
"    else { uint32_t v = 0; memcpy(&v, q, (size_t)(w / 8)); cb_mx_set(regs, w, j, v); } } }\n"
"/* ldmatrix/stmatrix m8n8 .b16: matrix i's row r lives at the address of lane 8i + r (in a[0]);\n"
"   lane l's register i holds row l/4, columns 2(l%4) and 2(l%4)+1 (.trans: the transpose) */\n"
"CB_INL void cb_ldst_matrix(void *const d[32], uint32_t lanes, int n, int trans, int store) {\n"
"  for (int l = 0; l < 32; l++) { if (!(lanes >> l & 1)) continue; cb_mx *x = CB_MX(d, l);\n"
"    for (int i = 0; i < n; i++) for (int h = 0; h < 2; h++) {\n"
"      int row = l >> 2, col = (l & 3) * 2 + h; if (trans) { int s = row; row = col; col = s; }\n"
"      int src = 8 * i + row; uint16_t *p = (uint16_t *)(uintptr_t)(CB_MX(d, src) ? CB_MX(d, src)->a[0] + 2u * (unsigned)col : 0);\n"
"      if (!p) continue;\n"
"      if (store) { uint16_t v = (uint16_t)cb_mx_el(x->c, 16, 2 * i + h); memcpy(p, &v, 2); }\n"
"      else { uint16_t v; memcpy(&v, p, 2); cb_mx_set(x->d, 16, 2 * i + h, v); } } } }\n"
"/* the cb_warp_fn of each instruction: its parameters come from the first lane's cfg */\n"
"CB_MFN cb_mfn_mma(void *const d[32], uint32_t lanes) { const int *f = CB_MX(d, __builtin_ctz(lanes))->cfg;\n"
"  cb_mma_do(d, lanes, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]); }\n"
"CB_MFN cb_mfn_wmma(void *const d[32], uint32_t lanes) { const int *f = CB_MX(d, __builtin_ctz(lanes))->cfg;\n"
"  cb_wmma_do(d, lanes, f[0], f[1], f[2], f[3], f[4], f[5]); }\n"
"CB_MFN cb_mfn_ldst_matrix(void *const d[32], uint32_t lanes) { const int *f = CB_MX(d, __builtin_ctz(lanes))->cfg;\n"
"  cb_ldst_matrix(d, lanes, f[0], f[1], f[2]); }\n";

/* ---- shapes and types ------------------------------------------------------------ */

typedef struct mshape {
    ptx_mod mod;
    int id, m, n, k;     /* id: the shape number cb_mma_pos knows (-1: wmma only) */
} mshape;

static const mshape shapes[] = {
    {PTX_MOD_m16n8k16, 0, 16, 8, 16}, {PTX_MOD_m16n8k8, 1, 16, 8, 8}, {PTX_MOD_m16n8k32, 2, 16, 8, 32},
    {PTX_MOD_m8n8k4, 3, 8, 8, 4},     {PTX_MOD_m16n8k4, 4, 16, 8, 4}, {PTX_MOD_m16n16k16, -1, 16, 16, 16},
    {PTX_MOD_m32n8k16, -1, 32, 8, 16}, {PTX_MOD_m8n32k16, -1, 8, 32, 16},
};

static const mshape *shape_of(const ptx_instr *in)
{
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (ptx_has(in, shapes[i].mod))
            return &shapes[i];
    return NULL;
}

/* Input element kind (cb_mx_in): 0 f16, 1 bf16, 2 tf32, 3 s8, 4 u8, 5 f64; -1 otherwise. */
static int in_kind(ptx_type t)
{
    switch (t) {
    case PTX_TYPE_f16: return 0;
    case PTX_TYPE_bf16: return 1;
    case PTX_TYPE_tf32: return 2;
    case PTX_TYPE_s8: return 3;
    case PTX_TYPE_u8: return 4;
    case PTX_TYPE_f64: return 5;
    default: return -1;
    }
}

/* Accumulator kind (cb_mx_acc_in/out): 0 f32, 1 f16, 2 s32 (3 with .satfinite), 4 f64; -1 otherwise. */
static int acc_kind(const ptx_instr *in, ptx_type t)
{
    switch (t) {
    case PTX_TYPE_f32: return 0;
    case PTX_TYPE_f16: return 1;
    case PTX_TYPE_s32: return ptx_has(in, PTX_MOD_satfinite) ? 3 : 2;
    case PTX_TYPE_f64: return 4;
    default: return -1;
    }
}

/* Registers in a fragment of `elems` elements of kind (input kinds; acc=1 for accumulators). */
static uint32_t nregs_in(int kind, uint32_t elems)
{
    switch (kind) {
    case 0: case 1: return elems / 2;
    case 3: case 4: return elems / 4;
    default: return elems;
    }
}

static uint32_t nregs_acc(int kind, uint32_t elems) { return kind == 1 ? elems / 2 : elems; }

/* ---- moving fragments between registers and a cb_mx -------------------------------- */

/* Emits cb_m.<field>[i] = register i of vector operand o, as 32 or 64 bits. */
static void pack_regs(cg *c, const ptx_operand *o, const char *field, uint32_t want, int bits64)
{
    if (want == 1 && o->kind != PTX_OPD_vec) {   /* a lone register */
        cg_printf(c, "    cb_m.%s[0] = (uint64_t)", field);
        cg_read(c, o, bits64 ? PTX_TYPE_b64 : PTX_TYPE_b32);
        cg_puts(c, ";\n");
        return;
    }
    if (o->kind != PTX_OPD_vec || o->nelems != want) {
        char msg[120];
        snprintf(msg, sizeof msg, "expected a vector of %u registers", want);
        cg_fail(c, msg);
    }
    for (uint32_t i = 0; i < o->nelems; i++) {
        cg_printf(c, "    cb_m.%s[%u] = (uint64_t)", field, i);
        cg_read(c, &o->elems[i], bits64 ? PTX_TYPE_b64 : PTX_TYPE_b32);
        cg_puts(c, ";\n");
    }
}

static void unpack_regs(cg *c, const ptx_operand *o, const char *field, uint32_t want, int bits64)
{
    if (want == 1 && o->kind != PTX_OPD_vec) {   /* a lone register */
        ptx_type ty = bits64 ? PTX_TYPE_b64 : PTX_TYPE_b32;
        cg_puts(c, "    ");
        cg_dst_open(c, o, ty);
        cg_printf(c, "(%s)cb_m.%s[0]", bits64 ? "uint64_t" : "uint32_t", field);
        cg_dst_close(c, o, ty);
        return;
    }
    if (o->kind != PTX_OPD_vec || o->nelems != want) {
        char msg[120];
        snprintf(msg, sizeof msg, "expected a vector of %u destination registers", want);
        cg_fail(c, msg);
    }
    ptx_type ty = bits64 ? PTX_TYPE_b64 : PTX_TYPE_b32;
    for (uint32_t i = 0; i < o->nelems; i++) {
        if (o->elems[i].kind == PTX_OPD_sink)
            continue;
        cg_puts(c, "    ");
        cg_dst_open(c, &o->elems[i], ty);
        cg_printf(c, "(%s)cb_m.%s[%u]", bits64 ? "uint64_t" : "uint32_t", field, i);
        cg_dst_close(c, &o->elems[i], ty);
    }
}

/* ---- mma.sync -------------------------------------------------------------------------- */

void emit_mma(cg *c, const ptx_instr *in)
{
    const mshape *s = shape_of(in);
    if (!ptx_has(in, PTX_MOD_sync) || !ptx_has(in, PTX_MOD_aligned) || !s || s->id < 0 || in->nops != 4)
        cg_fail(c, "mma needs .sync.aligned, a shape of sm_80 (m16n8k16, m16n8k8, m16n8k32, m16n8k4, m8n8k4) "
                   "and d, a, b, c");
    if (in->ntypes != 4 && !(in->ntypes == 2 && in->types[0] == in->types[1]))
        cg_fail(c, "mma needs .dtype.atype.btype.ctype");
    ptx_type dt = in->types[0];
    ptx_type at = in->ntypes == 4 ? in->types[1] : PTX_TYPE_f64, bt = in->ntypes == 4 ? in->types[2] : PTX_TYPE_f64;
    ptx_type ct = in->ntypes == 4 ? in->types[3] : in->types[1];
    int ak = in_kind(at), bk = in_kind(bt), ck = acc_kind(in, ct), dk = acc_kind(in, dt);
    int ok = ak >= 0 && bk >= 0 && ck >= 0 && dk >= 0;
    if (ok && ak <= 2)   /* floating point: a and b agree, accumulators f32 (f16 for f16 inputs) */
        ok = ak == bk && ((ck == 0 && dk == 0) || (ak == 0 && (ck == 0 || ck == 1) && (dk == 0 || dk == 1)));
    if (ok && (ak == 3 || ak == 4))
        ok = (bk == 3 || bk == 4) && ck == dk && (ck == 2 || ck == 3);
    if (ok && ak == 5)
        ok = bk == 5 && ck == 4 && dk == 4;
    /* shapes per input type */
    if (ok) {
        int id = s->id;
        ok = (ak <= 1 && (id == 0 || id == 1)) || (ak == 2 && (id == 1 || id == 4)) ||
             ((ak == 3 || ak == 4) && (id == 0 || id == 2)) || (ak == 5 && id == 3);
        if (ak == 1 && id == 1)
            ok = 1;
    }
    if (!ok)
        cg_fail(c, "unsupported mma shape/type combination (supported: f16/bf16 m16n8k16 and m16n8k8 with f32 or "
                   "f16 accumulators, tf32 m16n8k8/m16n8k4, s8/u8 m16n8k16/m16n8k32 with s32, f64 m8n8k4)");
    if (ptx_has(in, PTX_MOD_satfinite) && ck != 3)
        cg_fail(c, ".satfinite applies to integer mma only");
    uint32_t na = (uint32_t)(s->m * s->k / 32), nb = (uint32_t)(s->k * s->n / 32), nc = (uint32_t)(s->m * s->n / 32);
    int wide = ak == 5;
    cg_printf(c, "cb_mx cb_m; memset(&cb_m, 0, sizeof cb_m);\n");
    pack_regs(c, &in->ops[1], "a", nregs_in(ak, na), wide);
    pack_regs(c, &in->ops[2], "b", nregs_in(bk, nb), wide);
    pack_regs(c, &in->ops[3], "c", nregs_acc(ck, nc), wide);
    cg_printf(c, "    cb_m.cfg[0] = %d; cb_m.cfg[1] = %d; cb_m.cfg[2] = %d; cb_m.cfg[3] = %d; cb_m.cfg[4] = %d; "
                 "cb_m.cfg[5] = %d; cb_m.cfg[6] = %d; cb_m.cfg[7] = %d;\n",
              s->id, s->m, s->n, s->k, ak, bk, ck, dk);
    cg_puts(c, "    t->blk->rt->warp_exchange(t, 0xffffffffu, &cb_m, cb_mfn_mma);\n");
    unpack_regs(c, &in->ops[0], "d", nregs_acc(dk, nc), wide);
}

/* ---- wmma ------------------------------------------------------------------------------- */

/* wmma.load.{a,b,c}.sync.aligned.layout.shape{.space}.type r, [p]{, stride}
 * wmma.store.d.sync.aligned.layout.shape{.space}.type [p], r{, stride}
 * wmma.mma.sync.aligned.alayout.blayout.shape.dtype{.atype.btype}.ctype d, a, b, c */
static void emit_wmma_ldst(cg *c, const ptx_instr *in, const mshape *s)
{
    int store = ptx_has(in, PTX_MOD_store);
    int which = ptx_has(in, PTX_MOD_a) ? 0 : ptx_has(in, PTX_MOD_b) ? 1 : (ptx_has(in, PTX_MOD_c) || ptx_has(in, PTX_MOD_d)) ? 2 : -1;
    int rowmajor = ptx_has(in, PTX_MOD_row), colmajor = ptx_has(in, PTX_MOD_col);
    if (which < 0 || rowmajor == colmajor || in->ntypes != 1 || in->nops < 2 || in->nops > 3 ||
        (store && (which != 2 || !ptx_has(in, PTX_MOD_d))) || (!store && ptx_has(in, PTX_MOD_d)))
        cg_fail(c, "wmma.load needs .a/.b/.c, wmma.store needs .d; both a layout (.row/.col), a type, and r, [p]{, stride}");
    ptx_type ty = in->types[0];
    int w, slots;
    if (which < 2 && (ty == PTX_TYPE_f16 || ty == PTX_TYPE_bf16)) {
        w = 16;
        slots = ty == PTX_TYPE_f16 ? 16 : 8;
    } else if (which == 2 && (ty == PTX_TYPE_f16 || ty == PTX_TYPE_f32)) {
        w = ty == PTX_TYPE_f16 ? 16 : 32;
        slots = 8;
    } else {
        cg_fail(c, "unsupported wmma fragment type (a/b: .f16 .bf16; c/d: .f16 .f32)");
    }
    int cols = which == 0 ? s->k : s->n;
    int rows = which == 1 ? s->k : s->m;
    uint32_t nregs = w == 32 ? (uint32_t)slots : (uint32_t)slots / 2;
    const ptx_operand *mem = &in->ops[store ? 0 : 1], *regs = &in->ops[store ? 1 : 0];
    cg_puts(c, "cb_mx cb_m; memset(&cb_m, 0, sizeof cb_m);\n");
    if (store)
        pack_regs(c, regs, "d", nregs, 0);
    cg_puts(c, "    cb_wmma_ldst(cb_m.d, ");
    cg_printf(c, "%d, %d, %d, t->lane, ", w, slots, cols);
    cg_address(c, mem, cg_space(in));
    cg_puts(c, ", ");
    if (in->nops == 3)
        cg_read(c, &in->ops[2], PTX_TYPE_u32);
    else
        cg_printf(c, "%du", rowmajor ? cols : rows);
    cg_printf(c, ", %d, %d);\n", rowmajor, store);
    if (!store)
        unpack_regs(c, regs, "d", nregs, 0);
}

static void emit_wmma_mma(cg *c, const ptx_instr *in, const mshape *s)
{
    if (in->nops != 4 || (in->ntypes != 2 && in->ntypes != 4))
        cg_fail(c, "wmma.mma needs .dtype{.atype.btype}.ctype and d, a, b, c");
    ptx_type dt = in->types[0], ct = in->types[in->ntypes - 1];
    ptx_type at = in->ntypes == 4 ? in->types[1] : PTX_TYPE_f16;
    if (in->ntypes == 4 && in->types[2] != at)
        cg_fail(c, "wmma.mma: a and b must have the same type");
    int ak = in_kind(at), ck = acc_kind(in, ct), dk = acc_kind(in, dt);
    if ((ak != 0 && ak != 1) || (ck != 0 && ck != 1) || (dk != 0 && dk != 1) || (ak == 1 && (ck != 0 || dk != 0)))
        cg_fail(c, "unsupported wmma.mma types (f16 with f16/f32 accumulators, bf16 with f32)");
    uint32_t nab = ak == 0 ? 8 : 4;
    cg_puts(c, "cb_mx cb_m; memset(&cb_m, 0, sizeof cb_m);\n");
    pack_regs(c, &in->ops[1], "a", nab, 0);
    pack_regs(c, &in->ops[2], "b", nab, 0);
    pack_regs(c, &in->ops[3], "c", ck == 1 ? 4 : 8, 0);
    cg_printf(c, "    cb_m.cfg[0] = %d; cb_m.cfg[1] = %d; cb_m.cfg[2] = %d; cb_m.cfg[3] = %d; cb_m.cfg[4] = %d; "
                 "cb_m.cfg[5] = %d;\n",
              s->m, s->n, s->k, ak, ck, dk);
    cg_puts(c, "    t->blk->rt->warp_exchange(t, 0xffffffffu, &cb_m, cb_mfn_wmma);\n");
    unpack_regs(c, &in->ops[0], "d", dk == 1 ? 4 : 8, 0);
}

void emit_wmma(cg *c, const ptx_instr *in)
{
    const mshape *s = shape_of(in);
    if (!ptx_has(in, PTX_MOD_sync) || !ptx_has(in, PTX_MOD_aligned) || !s || s->id >= 0)
        cg_fail(c, "wmma needs .sync.aligned and a shape m16n16k16, m32n8k16 or m8n32k16");
    if (ptx_has(in, PTX_MOD_load) || ptx_has(in, PTX_MOD_store))
        emit_wmma_ldst(c, in, s);
    else if (ptx_has(in, PTX_MOD_mma))
        emit_wmma_mma(c, in, s);
    else
        cg_fail(c, "wmma needs .load, .store or .mma");
}

int cg_wmma_is_collective(const ptx_instr *in)
{
    return in->op == PTX_OP_wmma && ptx_has(in, PTX_MOD_mma);
}

/* ---- ldmatrix / stmatrix ------------------------------------------------------------------ */

static void emit_ldst_matrix(cg *c, const ptx_instr *in, int store)
{
    int n = ptx_has(in, PTX_MOD_x1) ? 1 : ptx_has(in, PTX_MOD_x2) ? 2 : ptx_has(in, PTX_MOD_x4) ? 4 : 0;
    if (!ptx_has(in, PTX_MOD_sync) || !ptx_has(in, PTX_MOD_aligned) || !ptx_has(in, PTX_MOD_m8n8) || !n ||
        in->ntypes != 1 || in->types[0] != PTX_TYPE_b16 || in->nops != 2)
        cg_fail(c, store ? "stmatrix needs .sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16 [p], r"
                         : "ldmatrix needs .sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16 r, [p]");
    ptx_space sp = cg_space(in);
    if (sp != PTX_SPACE_shared && sp != PTX_SPACE_none)
        cg_fail(c, "ldmatrix/stmatrix work on shared memory");
    const ptx_operand *mem = &in->ops[store ? 0 : 1], *regs = &in->ops[store ? 1 : 0];
    cg_puts(c, "cb_mx cb_m; memset(&cb_m, 0, sizeof cb_m);\n");
    if (store)
        pack_regs(c, regs, "c", (uint32_t)n, 0);
    cg_puts(c, "    cb_m.a[0] = (uint64_t)(uintptr_t)");
    cg_address(c, mem, sp);
    cg_printf(c, ";\n    cb_m.cfg[0] = %d; cb_m.cfg[1] = %d; cb_m.cfg[2] = %d;\n", n, ptx_has(in, PTX_MOD_trans), store);
    cg_puts(c, "    t->blk->rt->warp_exchange(t, 0xffffffffu, &cb_m, cb_mfn_ldst_matrix);\n");
    if (!store)
        unpack_regs(c, regs, "d", (uint32_t)n, 0);
}

void emit_ldmatrix(cg *c, const ptx_instr *in) { emit_ldst_matrix(c, in, 0); }
void emit_stmatrix(cg *c, const ptx_instr *in) { emit_ldst_matrix(c, in, 1); }
