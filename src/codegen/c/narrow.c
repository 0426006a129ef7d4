/* narrow.c: cvt to and from the narrow formats of sm_100/sm_120 (family-
 * and arch-specific targets; CB_DIALECT_C):
 *   cvt.rn.satfinite{.relu}.{e2m1x2,e2m3x2,e3m2x2}.f32 d, a, b
 *   cvt.rn{.relu}.f16x2.{e2m1x2,e2m3x2,e3m2x2} d, a
 *   cvt.{rz,rp}{.satfinite}.ue8m0x2.{f32 d, a, b | bf16x2 d, a}
 *   cvt.rn.bf16x2.ue8m0x2 d, a
 * As every pair conversion: a goes to the upper element, b to the lower.
 * Formats: e2m1 (fp4: bias 1, largest 6), e2m3 (fp6: bias 1, largest 7.5),
 * e3m2 (fp6: bias 3, largest 28) have no infinity or NaN; to them values are
 * rounded to nearest even, saturated to the largest finite value, and a NaN
 * gives the positive largest value; the sign of a zero is kept. ue8m0 is an
 * unsigned power of two, 2^(e - 127), with 0xff a NaN; from f32 the value is
 * first truncated (.rz) or rounded up (.rp, of the magnitude) to bf16, whose
 * exponent it keeps (.rp adds one when a finite value above 2^-127 has
 * fraction bits); .satfinite turns an overflow that is not a NaN into 0xfe.
 * Back to bf16: 2^(e - 127) (0 -> 2^-127, 0xff -> the canonical NaN).
 * These are the rules of the CUDA headers' own software conversions
 * (cuda_fp4.hpp, cuda_fp6.hpp, cuda_fp8.hpp), which define the intrinsics on
 * targets without the instructions; no GPU of this family was at hand to
 * confirm them.
 */
#include "codegen/c/ops.h"

#include <stdio.h>
#include <string.h>

const char cb_codegen_c_prelude_narrow[] =
"/* ---- fp4, fp6 and ue8m0 ---- */\n"
"/* f: 0 e2m1, 1 e2m3, 2 e3m2. Rounded as the IEEE-like format of one more exponent bit on a scaled\n"
"   value, which has the same encodings and steps over the narrow format's range */\n"
"CB_INL uint32_t cb_d2narrow(int f, double x, int relu) {\n"
"  static const int E[3] = {3, 3, 4}, M[3] = {1, 3, 2}, sh[3] = {-2, -2, -4}; static const uint32_t mx[3] = {7u, 31u, 31u};\n"
"  if (x != x) return mx[f]; if (relu && signbit(x)) x = 0;\n"
"  uint32_t s = signbit(x) ? (f == 0 ? 8u : 32u) : 0;\n"
"  uint32_t m = (uint32_t)cb_round_fmt(fabs(x) * cb_pow2(sh[f]), E[f], M[f], 0, 0);\n"
"  return s | (m > mx[f] ? mx[f] : m); }\n"
"/* and back to f16, exactly */\n"
"CB_INL uint16_t cb_narrow2h(int f, uint32_t v, int relu) {\n"
"  static const int M[3] = {1, 3, 2}, B[3] = {1, 1, 3}, W[3] = {3, 5, 5};\n"
"  uint32_t mag = v & ((1u << W[f]) - 1u), e = mag >> M[f], m = mag & ((1u << M[f]) - 1u);\n"
"  double x = e ? (double)((1u << M[f]) + m) * cb_pow2((int)e - B[f] - M[f]) : (double)m * cb_pow2(1 - B[f] - M[f]);\n"
"  if (v >> W[f] & 1u) { if (relu) return 0; x = -x; } return cb_dh(0, x, 0); }\n"
"/* ue8m0 from a bf16 (its magnitude) and from an f32 */\n"
"CB_INL uint32_t cb_bf2ue8m0(uint16_t h, int rp, int satf) { uint32_t a = h & 0x7fffu, r = a >> 7;\n"
"  if (rp && (a & 0x7fu) && a > 0x40u && a < 0x7f80u) r++;\n"
"  if (satf && a <= 0x7f80u && r == 0xffu) r--; return r; }\n"
"CB_INL uint32_t cb_f2ue8m0(float x, int rp, int satf) { uint32_t b = cb_bits32(x) & 0x7fffffffu, h = b >> 16;\n"
"  if (rp && (b & 0xffffu) && b <= 0x7f800000u) h++; return cb_bf2ue8m0((uint16_t)h, rp, satf); }\n"
"CB_INL uint16_t cb_ue8m02bf(uint32_t e) { e &= 0xffu; return e == 0xffu ? 0x7fffu : e == 0 ? 0x0040u : (uint16_t)(e << 7); }\n";

/* 0 e2m1x2, 1 e2m3x2, 2 e3m2x2, -1 otherwise. */
static int narrow_fmt(ptx_type t)
{
    return t == PTX_TYPE_e2m1x2 ? 0 : t == PTX_TYPE_e2m3x2 ? 1 : t == PTX_TYPE_e3m2x2 ? 2 : -1;
}

static void read_f32(cg *c, const ptx_instr *in, int i)
{
    cg_puts(c, "(double)");
    cg_read(c, &in->ops[i], PTX_TYPE_f32);
}

static void emit_to_narrow(cg *c, const ptx_instr *in, int f, ptx_type st)
{
    if (!ptx_has(in, PTX_MOD_rn) || !ptx_has(in, PTX_MOD_satfinite) || st != PTX_TYPE_f32 || in->nops != 3)
        cg_fail(c, "cvt to e2m1x2/e2m3x2/e3m2x2 needs .rn.satfinite and two .f32 sources");
    int relu = ptx_has(in, PTX_MOD_relu), sh = f == 0 ? 4 : 8;
    ptx_type dt = f == 0 ? PTX_TYPE_b8 : PTX_TYPE_b16;
    cg_dst_open(c, &in->ops[0], dt);
    cg_printf(c, "(cb_d2narrow(%d, ", f);
    read_f32(c, in, 1);
    cg_printf(c, ", %d) << %d | cb_d2narrow(%d, ", relu, sh, f);
    read_f32(c, in, 2);
    cg_printf(c, ", %d))", relu);
    cg_dst_close(c, &in->ops[0], dt);
}

static void emit_from_narrow(cg *c, const ptx_instr *in, int f, ptx_type dt)
{
    if (!ptx_has(in, PTX_MOD_rn) || dt != PTX_TYPE_f16x2 || in->nops != 2)
        cg_fail(c, "cvt from e2m1x2/e2m3x2/e3m2x2 needs .rn and gives .f16x2");
    int relu = ptx_has(in, PTX_MOD_relu), sh = f == 0 ? 4 : 8;
    cg_dst_open(c, &in->ops[0], PTX_TYPE_b32);
    cg_puts(c, "({ uint32_t cb_v = (uint32_t)");
    cg_read(c, &in->ops[1], f == 0 ? PTX_TYPE_b8 : PTX_TYPE_b16);
    cg_printf(c, "; (uint32_t)cb_narrow2h(%d, cb_v, %d) | (uint32_t)cb_narrow2h(%d, cb_v >> %d, %d) << 16; })", f,
              relu, f, sh, relu);
    cg_dst_close(c, &in->ops[0], PTX_TYPE_b32);
}

static void emit_ue8m0(cg *c, const ptx_instr *in, ptx_type dt, ptx_type st)
{
    if (dt == PTX_TYPE_bf16x2) {   /* cvt.rn.bf16x2.ue8m0x2 d, a */
        if (!ptx_has(in, PTX_MOD_rn) || in->nops != 2)
            cg_fail(c, "cvt.bf16x2.ue8m0x2 needs .rn");
        cg_dst_open(c, &in->ops[0], PTX_TYPE_b32);
        cg_puts(c, "({ uint32_t cb_v = (uint32_t)");
        cg_read(c, &in->ops[1], PTX_TYPE_b16);
        cg_puts(c, "; (uint32_t)cb_ue8m02bf(cb_v) | (uint32_t)cb_ue8m02bf(cb_v >> 8) << 16; })");
        cg_dst_close(c, &in->ops[0], PTX_TYPE_b32);
        return;
    }
    int rz = ptx_has(in, PTX_MOD_rz), rp = ptx_has(in, PTX_MOD_rp), sf = ptx_has(in, PTX_MOD_satfinite);
    if (rz == rp)
        cg_fail(c, "cvt to ue8m0x2 rounds with .rz or .rp");
    cg_dst_open(c, &in->ops[0], PTX_TYPE_b16);
    if (st == PTX_TYPE_f32 && in->nops == 3) {
        cg_printf(c, "(cb_f2ue8m0(");
        cg_read(c, &in->ops[1], PTX_TYPE_f32);
        cg_printf(c, ", %d, %d) << 8 | cb_f2ue8m0(", rp, sf);
        cg_read(c, &in->ops[2], PTX_TYPE_f32);
        cg_printf(c, ", %d, %d))", rp, sf);
    } else if (st == PTX_TYPE_bf16x2 && in->nops == 2) {
        cg_puts(c, "({ uint32_t cb_v = (uint32_t)");
        cg_read(c, &in->ops[1], PTX_TYPE_b32);
        cg_printf(c, "; cb_bf2ue8m0((uint16_t)cb_v, %d, %d) | cb_bf2ue8m0((uint16_t)(cb_v >> 16), %d, %d) << 8; })", rp,
                  sf, rp, sf);
    } else {
        cg_fail(c, "cvt to ue8m0x2 takes two .f32 or one .bf16x2");
    }
    cg_dst_close(c, &in->ops[0], PTX_TYPE_b16);
}

int cg_emit_cvt_narrow(cg *c, const ptx_instr *in)
{
    if (in->op != PTX_OP_cvt || in->ntypes != 2)
        return 0;
    ptx_type dt = in->types[0], st = in->types[1];
    if (narrow_fmt(dt) >= 0)
        emit_to_narrow(c, in, narrow_fmt(dt), st);
    else if (narrow_fmt(st) >= 0)
        emit_from_narrow(c, in, narrow_fmt(st), dt);
    else if (dt == PTX_TYPE_ue8m0x2 || st == PTX_TYPE_ue8m0x2)
        emit_ue8m0(c, in, dt, st);
    else
        return 0;
    return 1;
}
