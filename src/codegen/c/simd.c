/* simd.c: packed and sub-word integer and float arithmetic (CB_DIALECT_C):
 *   - add .u16x2/.s16x2 (sm_90; nvcc's __vadd2 and the DPX intrinsics);
 *   - add/sub/mul/fma .f32x2 (sm_100: __fadd2_rn and friends);
 *   - the video instructions vadd vsub vabsdiff vmin vmax (32-bit scalar,
 *     with a secondary .add/.min/.max) and their SIMD forms vadd2 vsub2
 *     vavrg2 vabsdiff2 vmin2 vmax2 and vadd4 ... vmax4 (with .sat or the
 *     accumulating .add; nvcc's __vabsdiffu4, __vsadu2 ...);
 *   - fns (find the n-th set bit);
 *   - redux.sync.{min,max}{.abs}{.NaN}.f32 (sm_100a), on warp.c's rendezvous.
 * Operand selectors (a.h10, b.b7654, d.h0 ...) are not supported: every
 * operand is used whole, as the defaults select, which is what nvcc emits.
 * Semantics from the PTX ISA's pseudo-code for each instruction.
 * cb_codegen_c_prelude_simd is OpenCL C as well (the OpenCL dialect emits
 * these forms through the same emitters); the redux helpers, which need the
 * C dialect's warp rendezvous, are cb_codegen_c_prelude_simd_redux.
 */
#include "codegen/c/ops.h"

#include <stdio.h>
#include <string.h>

const char cb_codegen_c_prelude_simd[] =
"/* ---- packed arithmetic and video instructions ---- */\n"
"/* op: 0 add, 1 sub, 2 avrg (half away from zero), 3 absdiff, 4 min, 5 max */\n"
"CB_INL int64_t cb_vop(int op, int64_t x, int64_t y) { switch (op) {\n"
"  case 0: return x + y; case 1: return x - y; case 2: return x + y >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1;\n"
"  case 3: return x > y ? x - y : y - x; case 4: return x < y ? x : y; default: return x > y ? x : y; } }\n"
"CB_INL int64_t cb_vclamp(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }\n"
"/* vop2/vop4: lanes of w = 16 or 8 bits; acc: .add (d = c + the lane results), else .sat clamps each\n"
"   lane to the destination type's lane range and d holds the lanes */\n"
"CB_INL uint32_t cb_vsimd(int op, int w, uint32_t a, uint32_t b, uint32_t c, int sd, int sa, int sb, int sat, int acc) {\n"
"  int n = 32 / w; uint32_t m = (1u << w) - 1u, d = acc ? c : 0;\n"
"  for (int i = 0; i < n; i++) { uint32_t ua = a >> (w * i) & m, ub = b >> (w * i) & m;\n"
"    int64_t x = sa && (ua >> (w - 1)) ? (int64_t)ua - ((int64_t)1 << w) : (int64_t)ua;\n"
"    int64_t y = sb && (ub >> (w - 1)) ? (int64_t)ub - ((int64_t)1 << w) : (int64_t)ub;\n"
"    int64_t v = cb_vop(op, x, y);\n"
"    if (sat) v = sd ? cb_vclamp(v, -((int64_t)1 << (w - 1)), ((int64_t)1 << (w - 1)) - 1) : cb_vclamp(v, 0, (int64_t)m);\n"
"    if (acc) d += (uint32_t)v; else d |= ((uint32_t)v & m) << (w * i); }\n"
"  return d; }\n"
"/* scalar vop: 32-bit operands extended by their types; .sat clamps to the destination type (a\n"
"   u32 destination only from below: a sum past 2^32 wraps, as the H200 gives it); then the\n"
"   secondary op2 (0 none, 1 add, 2 min, 3 max) with c, comparing as the destination type, but\n"
"   vabsdiff's result always as unsigned */\n"
"CB_INL uint32_t cb_vscalar(int op, uint32_t a, uint32_t b, uint32_t c, int sd, int sa, int sb, int sat, int op2) {\n"
"  int64_t x = sa ? (int64_t)(int32_t)a : (int64_t)a, y = sb ? (int64_t)(int32_t)b : (int64_t)b, v = cb_vop(op, x, y);\n"
"  if (sat) v = sd ? cb_vclamp(v, INT32_MIN, INT32_MAX) : v < 0 ? 0 : v;\n"
"  int64_t z = sd ? (int64_t)(int32_t)c : (int64_t)c;\n"
"  int64_t t = sd && op != 3 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)(uint32_t)v;\n"
"  switch (op2) { case 1: return (uint32_t)v + c; case 2: return (uint32_t)(t < z ? t : z); case 3: return (uint32_t)(t > z ? t : z);\n"
"  default: return (uint32_t)v; } }\n"
"/* add/sub .u16x2/.s16x2: each half wraps */\n"
"CB_INL uint32_t cb_addsub16x2(uint32_t a, uint32_t b, int sub) { uint32_t lo = (sub ? a - b : a + b) & 0xffffu;\n"
"  uint32_t hi = (sub ? (a >> 16) - (b >> 16) : (a >> 16) + (b >> 16)) & 0xffffu; return lo | hi << 16; }\n"
"/* .f32x2: each f32 element as the f32 instruction computes it (op 0 add, 1 sub, 2 mul, 3 fma) */\n"
"CB_INL uint64_t cb_f32x2(int op, uint64_t a, uint64_t b, uint64_t c, int mode, int ftz, int sat) { uint64_t r = 0;\n"
"  for (int i = 0; i < 2; i++) { float x = cb_f32((uint32_t)(a >> (32 * i))), y = cb_f32((uint32_t)(b >> (32 * i)));\n"
"    float z = cb_f32((uint32_t)(c >> (32 * i))), v;\n"
"    if (ftz) { x = cb_ftz32(x); y = cb_ftz32(y); z = cb_ftz32(z); }\n"
"    switch (op) { case 0: v = cb_add_r32(x, y, 0, mode); break; case 1: v = cb_sub_r32(x, y, 0, mode); break;\n"
"    case 2: v = cb_mul_r32(x, y, 0, mode); break; default: v = cb_fma_r32(x, y, z, mode); }\n"
"    if (sat) v = cb_sat32(v); if (ftz) v = cb_ftz32(v);\n"
"    r |= (uint64_t)cb_bits32(cb_cn32(v)) << (32 * i); }\n"
"  return r; }\n"
"/* fns: the position of the offset-th set bit of mask from base (up for offset > 0, down for < 0) */\n"
"CB_INL uint32_t cb_fns(uint32_t mask, uint32_t base, int32_t off) {\n"
"  if (off == 0) return base < 32u && (mask >> base & 1u) ? base : 0xffffffffu;\n"
"  int64_t n = off > 0 ? (int64_t)off - 1 : -(int64_t)off - 1; int inc = off > 0 ? 1 : -1;\n"
"  for (int pos = (int)base; pos >= 0 && pos < 32; pos += inc) if (mask >> pos & 1u) { if (n == 0) return (uint32_t)pos; n--; }\n"
"  return 0xffffffffu; }\n";

/* redux.sync's f32 forms, on the C dialect's warp rendezvous (warp.c's cb_wx). */
const char cb_codegen_c_prelude_simd_redux[] =
"/* redux.sync f32: min/max over the lanes (of magnitudes with .abs), as min/max.f32 do (a NaN lane is\n"
"   skipped, -0 < +0); .NaN: the canonical NaN when any lane holds a NaN. Uses warp.c's cb_wx */\n"
"CB_INL void cb_redux_f32(void *const d[32], uint32_t lanes, int mx, int ab, int nan) {\n"
"  float r = 0; int first = 1, anynan = 0;\n"
"  CB_FOR_LANES(l, lanes) { float v = cb_f32((uint32_t)CB_WX(d, l)->a); if (ab) v = fabsf(v); anynan |= v != v;\n"
"    r = first ? v : mx ? cb_fmax_f32(r, v) : cb_fmin_f32(r, v); first = 0; }\n"
"  uint32_t b = nan && anynan ? 0x7fffffffu : r != r ? 0x7fffffffu : cb_bits32(r);\n"
"  CB_FOR_LANES(l, lanes) CB_WX(d, l)->r = b; }\n"
"#define CB_REDUX_F32(N, MX, AB, NAN) CB_WFN cb_wfn_redux_f32_##N(void *const d[32], uint32_t lanes) { cb_redux_f32(d, lanes, MX, AB, NAN); }\n"
"CB_REDUX_F32(0, 0, 0, 0) CB_REDUX_F32(1, 1, 0, 0) CB_REDUX_F32(2, 0, 1, 0) CB_REDUX_F32(3, 1, 1, 0)\n"
"CB_REDUX_F32(4, 0, 0, 1) CB_REDUX_F32(5, 1, 0, 1) CB_REDUX_F32(6, 0, 1, 1) CB_REDUX_F32(7, 1, 1, 1)\n";

static void read_u32(cg *c, const ptx_operand *o)
{
    cg_puts(c, "(uint32_t)");
    cg_read(c, o, PTX_TYPE_u32);
}

/* ---- packed add/sub and f32x2 (the dialect's by-type hook) ------------------------------- */

static int f32x2_op(const ptx_instr *in)
{
    switch (in->op) {
    case PTX_OP_add: return 0;
    case PTX_OP_sub: return 1;
    case PTX_OP_mul: return 2;
    case PTX_OP_fma: return 3;
    default: return -1;
    }
}

int cg_emit_packed(cg *c, const ptx_instr *in)
{
    if (!in->ntypes)
        return 0;
    ptx_type ty = in->types[0];
    if ((ty == PTX_TYPE_u16x2 || ty == PTX_TYPE_s16x2) && (in->op == PTX_OP_add || in->op == PTX_OP_sub)) {
        if (ptx_has(in, PTX_MOD_sat) || ptx_has(in, PTX_MOD_cc) || in->op == PTX_OP_sub)
            cg_fail(c, "add.u16x2/.s16x2 take no .sat or .cc (and sub has no packed 16-bit form)");
        cg_dst_open(c, &in->ops[0], PTX_TYPE_u32);
        cg_puts(c, "cb_addsub16x2(");
        read_u32(c, &in->ops[1]);
        cg_puts(c, ", ");
        read_u32(c, &in->ops[2]);
        cg_printf(c, ", %d)", in->op == PTX_OP_sub);
        cg_dst_close(c, &in->ops[0], PTX_TYPE_u32);
        return 1;
    }
    if (ty != PTX_TYPE_f32x2)
        return 0;
    int op = f32x2_op(in);
    if (op < 0)
        cg_fail(c, ".f32x2 is supported on add, sub, mul and fma");
    const char *mode = fround(in);
    if (op == 3 && !mode && !ptx_has(in, PTX_MOD_rn))
        cg_fail(c, "fma.f32x2 needs a rounding mode");
    cg_dst_open(c, &in->ops[0], PTX_TYPE_b64);
    cg_printf(c, "cb_f32x2(%d, ", op);
    for (int i = 1; i < 4; i++) {
        if (i < in->nops)
            cg_read(c, &in->ops[i], PTX_TYPE_b64);
        else
            cg_puts(c, "0");
        cg_puts(c, ", ");
    }
    cg_printf(c, "%s, %d, %d)", mode ? mode : "FE_TONEAREST", ptx_has(in, PTX_MOD_ftz), ptx_has(in, PTX_MOD_sat));
    cg_dst_close(c, &in->ops[0], PTX_TYPE_b64);
    return 1;
}

/* ---- video instructions ------------------------------------------------------------------ */

/* The three types (d, a, b: .u32 or .s32 each); fails otherwise. */
static void video_types(cg *c, const ptx_instr *in, int s[3])
{
    if (in->ntypes != 3)
        cg_fail(c, "video instructions take .dtype.atype.btype");
    for (int i = 0; i < 3; i++) {
        if (in->types[i] != PTX_TYPE_u32 && in->types[i] != PTX_TYPE_s32)
            cg_fail(c, "video instruction types are .u32 or .s32");
        s[i] = in->types[i] == PTX_TYPE_s32;
    }
}

static void emit_video(cg *c, const ptx_instr *in, int op, int lanes)
{
    int s[3];
    video_types(c, in, s);
    int sat = ptx_has(in, PTX_MOD_sat), add = ptx_has(in, PTX_MOD_add);
    int op2 = add ? 1 : ptx_has(in, PTX_MOD_min) ? 2 : ptx_has(in, PTX_MOD_max) ? 3 : 0;
    if (lanes > 1) {
        if (in->nops != 4 || op2 > 1 || (sat && add))
            cg_fail(c, "SIMD video instructions take d, a, b, c and .sat or .add (not both)");
    } else if (in->nops != (op2 ? 4 : 3)) {
        cg_fail(c, "scalar video instructions take d, a, b (and c with .add, .min or .max); merging into "
                   "a part of d is not supported");
    }
    cg_dst_open(c, &in->ops[0], PTX_TYPE_u32);
    cg_printf(c, lanes > 1 ? "cb_vsimd(%d, %d, " : "cb_vscalar(%d, ", op, 32 / lanes);
    for (int i = 1; i < 4; i++) {
        if (i < in->nops)
            read_u32(c, &in->ops[i]);
        else
            cg_puts(c, "0u");
        cg_puts(c, ", ");
    }
    cg_printf(c, "%d, %d, %d, %d, %d)", s[0], s[1], s[2], sat, lanes > 1 ? add : op2);
    cg_dst_close(c, &in->ops[0], PTX_TYPE_u32);
}

void c_emit_vadd(cg *c, const ptx_instr *in) { emit_video(c, in, 0, 1); }
void c_emit_vsub(cg *c, const ptx_instr *in) { emit_video(c, in, 1, 1); }
void c_emit_vabsdiff(cg *c, const ptx_instr *in) { emit_video(c, in, 3, 1); }
void c_emit_vmin(cg *c, const ptx_instr *in) { emit_video(c, in, 4, 1); }
void c_emit_vmax(cg *c, const ptx_instr *in) { emit_video(c, in, 5, 1); }
void c_emit_vadd2(cg *c, const ptx_instr *in) { emit_video(c, in, 0, 2); }
void c_emit_vsub2(cg *c, const ptx_instr *in) { emit_video(c, in, 1, 2); }
void c_emit_vavrg2(cg *c, const ptx_instr *in) { emit_video(c, in, 2, 2); }
void c_emit_vabsdiff2(cg *c, const ptx_instr *in) { emit_video(c, in, 3, 2); }
void c_emit_vmin2(cg *c, const ptx_instr *in) { emit_video(c, in, 4, 2); }
void c_emit_vmax2(cg *c, const ptx_instr *in) { emit_video(c, in, 5, 2); }
void c_emit_vadd4(cg *c, const ptx_instr *in) { emit_video(c, in, 0, 4); }
void c_emit_vsub4(cg *c, const ptx_instr *in) { emit_video(c, in, 1, 4); }
void c_emit_vavrg4(cg *c, const ptx_instr *in) { emit_video(c, in, 2, 4); }
void c_emit_vabsdiff4(cg *c, const ptx_instr *in) { emit_video(c, in, 3, 4); }
void c_emit_vmin4(cg *c, const ptx_instr *in) { emit_video(c, in, 4, 4); }
void c_emit_vmax4(cg *c, const ptx_instr *in) { emit_video(c, in, 5, 4); }

/* ---- fns ------------------------------------------------------------------------------- */

/* fns.b32 d, mask, base, offset */
void c_emit_fns(cg *c, const ptx_instr *in)
{
    if (in->ntypes != 1 || in->types[0] != PTX_TYPE_b32)
        cg_fail(c, "fns takes .b32");
    cg_dst_open(c, &in->ops[0], PTX_TYPE_u32);
    cg_puts(c, "cb_fns(");
    read_u32(c, &in->ops[1]);
    cg_puts(c, ", ");
    read_u32(c, &in->ops[2]);
    cg_puts(c, ", (int32_t)");
    cg_read(c, &in->ops[3], PTX_TYPE_s32);
    cg_puts(c, ")");
    cg_dst_close(c, &in->ops[0], PTX_TYPE_u32);
}

/* redux.sync.{min,max}{.abs}{.NaN}.f32 d, a, membermask */
int cg_emit_redux_f32(cg *c, const ptx_instr *in)
{
    if (!in->ntypes || in->types[0] != PTX_TYPE_f32)
        return 0;
    int mx = ptx_has(in, PTX_MOD_max), ab = ptx_has(in, PTX_MOD_abs), nan = ptx_has(in, PTX_MOD_NaN);
    if (!ptx_has(in, PTX_MOD_sync) || in->nops != 3 || mx == ptx_has(in, PTX_MOD_min))
        cg_fail(c, "redux.sync.f32 takes .min or .max ({.abs}{.NaN}) and d, a, membermask");
    cg_puts(c, "cb_wx cb_w; memset(&cb_w, 0, sizeof cb_w); cb_w.a = (uint64_t)cb_bits32(");
    cg_read(c, &in->ops[1], PTX_TYPE_f32);
    cg_puts(c, ");\n    t->blk->rt->warp_exchange(t, ");
    cg_read(c, &in->ops[2], PTX_TYPE_u32);
    cg_printf(c, ", &cb_w, cb_wfn_redux_f32_%d);\n    ", mx + 2 * ab + 4 * nan);
    cg_dst_open(c, &in->ops[0], PTX_TYPE_f32);
    cg_puts(c, "cb_f32((uint32_t)cb_w.r)");
    cg_dst_close(c, &in->ops[0], PTX_TYPE_f32);
    return 1;
}
