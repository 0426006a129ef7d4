/* arith.c: the C emitters of integer and float arithmetic, carry chains and
 * conversions (CB_DIALECT_C; the f16/bf16 forms are in half.c).
 *
 * Each c_emit_<op> writes the body of one "{ ... }" block; the guard and the
 * comment around it come from unit.c.
 */
#include "codegen/c/ops.h"

#include <stdio.h>
#include <string.h>

/* d = a OP b for ints (wrapping) and floats (rounded, ftz, sat). */
static void emit_arith(cg *c, const ptx_instr *in, const char *op, const char *rhelper)
{
    ptx_type ty = ty0(in);
    dst_open(c, in, ty);
    if (is_int(ty)) {
        need_int(c, ty);
        cg_printf(c, "(%s)(", utype(ty));
        rd(c, in, 1, ty);
        cg_printf(c, ") %s (%s)(", op, utype(ty));
        rd(c, in, 2, ty);
        cg_puts(c, ")");
    } else {
        need_float(c, ty);
        const char *mode = fround(in);
        int nan64 = ty == PTX_TYPE_f64 && op[0] != '/';
        if (nan64) {   /* the GPU's NaN operand order; see cb_nan64 */
            cg_puts(c, "cb_nan64(");
            rd(c, in, 1, ty);
            cg_puts(c, ", ");
            rd(c, in, 2, ty);
            cg_puts(c, ", ");
        }
        ares_open(c, in, ty);
        if (mode) {
            cg_printf(c, "%s%s(", rhelper, ty == PTX_TYPE_f32 ? "32" : "64");
            rd(c, in, 1, ty);
            cg_puts(c, ", ");
            rd(c, in, 2, ty);
            cg_printf(c, ", 0, %s)", mode);
        } else {
            rd(c, in, 1, ty);
            cg_printf(c, " %s ", op);
            rd(c, in, 2, ty);
        }
        ares_close(c, in, ty);
        if (nan64)
            cg_puts(c, ")");
    }
    dst_close(c, in, ty);
}

/* ---- carry chains (add.cc, addc, sub.cc, subc, mad.cc, madc) ----------------------- */

/* sum = a + b (+ cf); with .cc the carry goes to cb_cf. sub uses borrow. */
static void emit_carry_op(cg *c, const ptx_instr *in, int sub, int carry_in)
{
    ptx_type ty = ty0(in);
    need_int(c, ty);
    int wide = ptx_type_size(ty) == 8;
    if (ptx_type_size(ty) < 4)
        cg_fail(c, "carry arithmetic needs a 32- or 64-bit type");
    const char *U = wide ? "uint64_t" : "uint32_t";
    cg_printf(c, "%s cb_a = (%s)", U, U);
    rd(c, in, 1, ty);
    cg_printf(c, ", cb_b = (%s)", U);
    rd(c, in, 2, ty);
    if (wide) {   /* 64 bits: the carry (borrow) out of each step by a compare, in 64-bit integers only */
        cg_printf(c, "; uint64_t cb_t = cb_a %s cb_b, cb_s = cb_t%s; ", sub ? "-" : "+",
                  carry_in ? (sub ? " - cb_cf" : " + cb_cf") : "");
    } else {      /* 32 bits: in 64, the carry (borrow) in bit 32 */
        cg_printf(c, "; uint64_t cb_s = (uint64_t)cb_a %s cb_b%s; ", sub ? "-" : "+",
                  carry_in ? (sub ? " - cb_cf" : " + cb_cf") : "");
    }
    dst_open(c, in, ty);
    cg_printf(c, "(%s)cb_s", U);
    dst_close(c, in, ty);
    if (ptx_has(in, PTX_MOD_cc) && wide)
        cg_printf(c, "    cb_cf = (uint32_t)(%s);\n", sub ? "(cb_a < cb_b) | (cb_t < cb_s)" : "(cb_t < cb_a) | (cb_s < cb_t)");
    else if (ptx_has(in, PTX_MOD_cc))
        cg_puts(c, "    cb_cf = (uint32_t)(cb_s >> 32) & 1u;\n");
}

/* ---- conversion ---------------------------------------------------------------------- */

void cg_f2i_nan(cg *c, ptx_type dt, ptx_type st)
{
    unsigned bits = 8 * ptx_type_size(dt);
    if (st != PTX_TYPE_f64 && bits < 64)
        cg_puts(c, ", 0");
    else if (is_signed(dt))
        cg_printf(c, ", %s", bits == 64 ? "INT64_MIN" : bits == 32 ? "INT32_MIN" : bits == 16 ? "INT16_MIN" : "INT8_MIN");
    else
        cg_printf(c, ", %lluull", 1ull << (bits - 1));
}

static void cvt_float_to_int(cg *c, const ptx_instr *in, ptx_type dt, ptx_type st)
{
    const char *rnd = ptx_has(in, PTX_MOD_rni) ? "rint" : ptx_has(in, PTX_MOD_rmi) ? "floor"
                      : ptx_has(in, PTX_MOD_rpi) ? "ceil" : "trunc";
    unsigned ds = ptx_type_size(dt);
    if (is_signed(dt)) {
        if (ds == 8)
            cg_printf(c, "cb_f2s64(%s((double)", rnd);
        else
            cg_printf(c, "cb_f2s_n(%s((double)", rnd);
    } else {
        if (ds == 8)
            cg_printf(c, "cb_f2u64(%s((double)", rnd);
        else
            cg_printf(c, "cb_f2u_n(%s((double)", rnd);
    }
    rd(c, in, 1, st);
    cg_puts(c, ")");
    if (ds < 8) {
        if (is_signed(dt))
            cg_printf(c, ", %lld, %lld", -(1ll << (8 * ds - 1)), (1ll << (8 * ds - 1)) - 1);
        else
            cg_printf(c, ", %lluull", (1ull << (8 * ds)) - 1);
    }
    cg_f2i_nan(c, dt, st);
    cg_puts(c, ")");
}

static void cvt_int_to_float(cg *c, const ptx_instr *in, ptx_type dt, ptx_type st)
{
    const char *mode = fround(in);
    const char *wide = is_signed(st) ? "int64_t" : "uint64_t";
    fres_open(c, in, dt);
    if (mode)
        cg_printf(c, "cb_cvt_%s_%s_r((%s)", dt == PTX_TYPE_f32 ? "f32" : "f64", is_signed(st) ? "s64" : "u64",
                  wide);
    else
        cg_printf(c, "(%s)(", cg_ctype(dt));
    cg_read(c, &in->ops[1], st);
    if (mode)
        cg_printf(c, ", %s)", mode);
    else
        cg_puts(c, ")");
    fres_close(c, in, dt);
}

static void cvt_int_to_int(cg *c, const ptx_instr *in, ptx_type dt, ptx_type st)
{
    if (!ptx_has(in, PTX_MOD_sat)) {
        cg_printf(c, "(%s)", cg_ctype(dt));
        cg_read(c, &in->ops[1], st);
        return;
    }
    /* saturate into dt's range: compare in a type wide enough for both */
    unsigned ds = ptx_type_size(dt);
    long long lo = is_signed(dt) ? -(1ll << (8 * ds - 1)) : 0;
    unsigned long long hi = is_signed(dt) ? (1ull << (8 * ds - 1)) - 1 : ds == 8 ? ~0ull : (1ull << (8 * ds)) - 1;
    if (is_signed(st)) {
        cg_puts(c, "({ int64_t cb_x = (int64_t)");
        cg_read(c, &in->ops[1], st);
        cg_printf(c, "; (%s)(cb_x < %lldll ? %lldll : (cb_x > 0 && (uint64_t)cb_x > %lluull) ? %lluull : (uint64_t)cb_x); })",
                  cg_ctype(dt), lo, lo, hi, hi);
    } else {
        cg_puts(c, "({ uint64_t cb_x = (uint64_t)");
        cg_read(c, &in->ops[1], st);
        cg_printf(c, "; (%s)(cb_x > %lluull ? %lluull : cb_x); })", cg_ctype(dt), hi, hi);
    }
}

void c_emit_cvt(cg *c, const ptx_instr *in)
{
    if (cg_emit_cvt_pack(c, in))
        return;
    ptx_type dt = in->types[0], st = in->types[1];
    int dfloat = ptx_type_is_float(dt), sfloat = ptx_type_is_float(st);
    if (in->ntypes != 2)
        cg_fail(c, "cvt takes two types");
    /* conversions to or from f16/bf16/tf32 are in half.c */
    if (ptx_type_kind(dt) == 'h' || ptx_type_kind(st) == 'h' || ptx_type_kind(dt) == 'g' ||
        ptx_type_kind(st) == 'g' || dt == PTX_TYPE_tf32 || st == PTX_TYPE_tf32 || dt == PTX_TYPE_pred ||
        st == PTX_TYPE_pred || ptx_type_size(dt) > 8 || ptx_type_size(st) > 8 || in->nops != 2)
        cg_fail(c, "unsupported conversion");
    dst_open(c, in, dt);
    if (sfloat && !dfloat) {
        cvt_float_to_int(c, in, dt, st);
    } else if (!sfloat && dfloat) {
        cvt_int_to_float(c, in, dt, st);
    } else if (sfloat && dfloat) {
        fres_open(c, in, dt);
        if (dt == st) {
            const char *f = ptx_has(in, PTX_MOD_rni) ? "rint" : ptx_has(in, PTX_MOD_rzi) ? "trunc"
                            : ptx_has(in, PTX_MOD_rmi) ? "floor" : ptx_has(in, PTX_MOD_rpi) ? "ceil" : "";
            /* cvt.rXi.f32.f32 of a NaN gives the canonical NaN on the GPU (f64 keeps the payload) */
            int cn = *f && dt == PTX_TYPE_f32;
            cg_printf(c, "%s%s%s(", cn ? "cb_cn32(" : "", f, cn ? "f" : "");
            rd(c, in, 1, st);
            cg_puts(c, cn ? "))" : ")");
        } else if (dt == PTX_TYPE_f64) {
            /* cvt.ftz.f64.f32 makes a NaN the canonical f32 NaN first (0x7fffffffe0000000) */
            int cn = ptx_has(in, PTX_MOD_ftz);
            cg_puts(c, cn ? "(double)cb_cn32(" : "(double)");
            rd(c, in, 1, st);
            if (cn)
                cg_puts(c, ")");
        } else if (fround(in)) {
            cg_puts(c, "cb_cvt_f32_f64_r(");
            rd(c, in, 1, st);
            cg_printf(c, ", %s)", fround(in));
        } else {
            cg_puts(c, "(float)");
            rd(c, in, 1, st);
        }
        fres_close(c, in, dt);
    } else {
        cvt_int_to_int(c, in, dt, st);
    }
    dst_close(c, in, dt);
}

/* ---- arithmetic -------------------------------------------------------------------------- */

void c_emit_add(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    if (ptx_has(in, PTX_MOD_cc))
        return emit_carry_op(c, in, 0, 0);
    if (is_int(ty) && ptx_has(in, PTX_MOD_sat)) {
        if (ty != PTX_TYPE_s32)
            cg_fail(c, "add.sat needs .s32");
        dst_open(c, in, ty);
        cg_puts(c, "cb_sat_s32((int64_t)");
        rd(c, in, 1, ty);
        cg_puts(c, " + (int64_t)");
        rd(c, in, 2, ty);
        cg_puts(c, ")");
        dst_close(c, in, ty);
        return;
    }
    emit_arith(c, in, "+", "cb_add_r");
}

void c_emit_sub(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    if (ptx_has(in, PTX_MOD_cc))
        return emit_carry_op(c, in, 1, 0);
    if (is_int(ty) && ptx_has(in, PTX_MOD_sat)) {
        if (ty != PTX_TYPE_s32)
            cg_fail(c, "sub.sat needs .s32");
        dst_open(c, in, ty);
        cg_puts(c, "cb_sat_s32((int64_t)");
        rd(c, in, 1, ty);
        cg_puts(c, " - (int64_t)");
        rd(c, in, 2, ty);
        cg_puts(c, ")");
        dst_close(c, in, ty);
        return;
    }
    emit_arith(c, in, "-", "cb_sub_r");
}

void c_emit_addc(cg *c, const ptx_instr *in) { emit_carry_op(c, in, 0, 1); }
void c_emit_subc(cg *c, const ptx_instr *in) { emit_carry_op(c, in, 1, 1); }

static ptx_type wide_type(cg *c, ptx_type t)
{
    switch (t) {
    case PTX_TYPE_u16: return PTX_TYPE_u32;
    case PTX_TYPE_s16: return PTX_TYPE_s32;
    case PTX_TYPE_u32: return PTX_TYPE_u64;
    case PTX_TYPE_s32: return PTX_TYPE_s64;
    default: cg_fail(c, ".wide needs a 16- or 32-bit integer type");
    }
}

/* The product term of mul/mad for integers, as an expression of the result type. */
static void int_product(cg *c, const ptx_instr *in, ptx_type ty, ptx_type *rt)
{
    need_int(c, ty);
    if (ptx_has(in, PTX_MOD_wide)) {
        ptx_type wt = wide_type(c, ty);
        *rt = wt;
        cg_printf(c, "(%s)((%s)", utype(wt), is_signed(ty) ? "int64_t" : "uint64_t");
        rd(c, in, 1, ty);
        cg_printf(c, " * (%s)", is_signed(ty) ? "int64_t" : "uint64_t");
        rd(c, in, 2, ty);
        cg_puts(c, ")");
    } else if (ptx_has(in, PTX_MOD_hi)) {
        if (ptx_type_size(ty) < 2)
            cg_fail(c, "unsupported type for mul.hi");
        *rt = ty;
        cg_printf(c, "(%s)cb_mulhi_%s%u(", utype(ty), is_signed(ty) ? "s" : "u", 8 * ptx_type_size(ty));
        rd(c, in, 1, ty);
        cg_puts(c, ", ");
        rd(c, in, 2, ty);
        cg_puts(c, ")");
    } else {
        *rt = ty;
        cg_printf(c, "(%s)(", utype(ty));
        rd(c, in, 1, ty);
        cg_printf(c, ") * (%s)(", utype(ty));
        rd(c, in, 2, ty);
        cg_puts(c, ")");
    }
}

void c_emit_mul(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    if (!is_int(ty))
        return emit_arith(c, in, "*", "cb_mul_r");
    ptx_type rt = ty;
    if (ptx_has(in, PTX_MOD_wide))
        rt = wide_type(c, ty);
    dst_open(c, in, rt);
    int_product(c, in, ty, &rt);
    dst_close(c, in, rt);
}

static void emit_fma_like(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    need_float(c, ty);
    const char *mode = fround(in);
    dst_open(c, in, ty);
    if (ty == PTX_TYPE_f64) {
        cg_puts(c, "({ double cb_a = ");
        rd(c, in, 1, ty);
        cg_puts(c, ", cb_b = ");
        rd(c, in, 2, ty);
        cg_puts(c, ", cb_c = ");
        rd(c, in, 3, ty);
        cg_puts(c, "; cb_fma64_nan(cb_a, cb_b, cb_c, ");
    }
    ares_open(c, in, ty);
    if (mode)
        cg_printf(c, "cb_fma_r%s(", ty == PTX_TYPE_f32 ? "32" : "64");
    else
        cg_puts(c, ty == PTX_TYPE_f32 ? "fmaf(" : "fma(");
    if (ty == PTX_TYPE_f64) {
        cg_puts(c, "cb_a, cb_b, cb_c");
    } else {
        rd(c, in, 1, ty);
        cg_puts(c, ", ");
        rd(c, in, 2, ty);
        cg_puts(c, ", ");
        rd(c, in, 3, ty);
    }
    if (mode)
        cg_printf(c, ", %s", mode);
    cg_puts(c, ")");
    ares_close(c, in, ty);
    if (ty == PTX_TYPE_f64)
        cg_puts(c, "); })");
    dst_close(c, in, ty);
}

static void emit_mad_int(cg *c, const ptx_instr *in, int carry_in)
{
    ptx_type ty = ty0(in), rt = ty;
    if (ptx_has(in, PTX_MOD_sat)) {
        /* mad.hi.sat.s32: the high word of a*b plus c, saturated (the only .sat form) */
        if (ty != PTX_TYPE_s32 || !ptx_has(in, PTX_MOD_hi) || carry_in || ptx_has(in, PTX_MOD_cc))
            cg_fail(c, "mad.sat needs .hi.s32 (and no carry)");
        dst_open(c, in, ty);
        cg_puts(c, "cb_sat_s32((int64_t)cb_mulhi_s32(");
        rd(c, in, 1, ty);
        cg_puts(c, ", ");
        rd(c, in, 2, ty);
        cg_puts(c, ") + (int64_t)");
        rd(c, in, 3, ty);
        cg_puts(c, ")");
        dst_close(c, in, ty);
        return;
    }
    if (ptx_has(in, PTX_MOD_wide))
        rt = wide_type(c, ty);
    int wide = ptx_type_size(rt) == 8;
    const char *U = wide ? "uint64_t" : "uint32_t";
    cg_printf(c, "%s cb_m = (%s)", U, U);
    int_product(c, in, ty, &rt);
    if (wide) {   /* 64 bits: the carry out of each step by a compare (as emit_carry_op) */
        cg_puts(c, "; uint64_t cb_t = cb_m + (uint64_t)");
        rd(c, in, 3, rt);
        cg_printf(c, ", cb_s = cb_t%s; ", carry_in ? " + cb_cf" : "");
    } else {
        cg_puts(c, "; uint64_t cb_s = (uint64_t)cb_m + (uint32_t)");
        rd(c, in, 3, rt);
        cg_printf(c, "%s; ", carry_in ? " + cb_cf" : "");
    }
    dst_open(c, in, rt);
    cg_printf(c, "(%s)cb_s", U);
    dst_close(c, in, rt);
    if (ptx_has(in, PTX_MOD_cc))
        cg_puts(c, wide ? "    cb_cf = (uint32_t)((cb_t < cb_m) | (cb_s < cb_t));\n"
                        : "    cb_cf = (uint32_t)(cb_s >> 32) & 1u;\n");
}

void c_emit_mad(cg *c, const ptx_instr *in)
{
    if (!is_int(ty0(in)))
        return emit_fma_like(c, in);
    emit_mad_int(c, in, 0);
}

void c_emit_madc(cg *c, const ptx_instr *in) { emit_mad_int(c, in, 1); }
void c_emit_fma(cg *c, const ptx_instr *in) { emit_fma_like(c, in); }

void c_emit_div(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    if (ty == PTX_TYPE_f32 && (ptx_has(in, PTX_MOD_approx) || ptx_has(in, PTX_MOD_full))) {
        /* approx: a * (1/b), for 2^126 < |b| < 2^128 the reciprocal is 0, so the result is 0 (NaN for a
         * infinite); full: within 2 ulp, here correctly rounded (c/prelude.c) */
        dst_open(c, in, ty);
        ares_open(c, in, ty);
        cg_puts(c, ptx_has(in, PTX_MOD_full) ? "cb_div_full32(" : "cb_div_approx32(");
        rd(c, in, 1, ty);
        cg_puts(c, ", ");
        rd(c, in, 2, ty);
        cg_puts(c, ")");
        ares_close(c, in, ty);
        dst_close(c, in, ty);
        return;
    }
    if (!is_int(ty))
        return emit_arith(c, in, "/", "cb_div_r");
    need_int(c, ty);
    unsigned w = 8 * ptx_type_size(ty);
    dst_open(c, in, ty);
    cg_printf(c, "cb_div_%s%u(", is_signed(ty) ? "s" : "u", w < 16 ? 16 : w);
    rd(c, in, 1, ty);
    cg_puts(c, ", ");
    rd(c, in, 2, ty);
    cg_puts(c, ")");
    dst_close(c, in, ty);
}

void c_emit_rem(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    need_int(c, ty);
    unsigned w = 8 * ptx_type_size(ty);
    dst_open(c, in, ty);
    cg_printf(c, "cb_rem_%s%u(", is_signed(ty) ? "s" : "u", w < 16 ? 16 : w);
    rd(c, in, 1, ty);
    cg_puts(c, ", ");
    rd(c, in, 2, ty);
    cg_puts(c, ")");
    dst_close(c, in, ty);
}

void c_emit_abs(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    dst_open(c, in, ty);
    if (is_int(ty)) {
        need_int(c, ty);
        cg_printf(c, "({ %s cb_x = ", cg_ctype(ty));
        rd(c, in, 1, ty);
        cg_printf(c, "; (%s)(cb_x < 0 ? 0u - (%s)cb_x : (%s)cb_x); })", cg_ctype(ty), utype(ty), utype(ty));
    } else {
        need_float(c, ty);
        ares_open(c, in, ty);
        cg_puts(c, ty == PTX_TYPE_f32 ? "fabsf(" : "cb_abs64(");
        rd(c, in, 1, ty);
        cg_puts(c, ")");
        ares_close(c, in, ty);
    }
    dst_close(c, in, ty);
}

void c_emit_neg(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    dst_open(c, in, ty);
    if (is_int(ty)) {
        need_int(c, ty);
        cg_printf(c, "0u - (%s)", utype(ty));
        rd(c, in, 1, ty);
    } else {
        need_float(c, ty);
        ares_open(c, in, ty);
        cg_puts(c, ty == PTX_TYPE_f32 ? "-(" : "cb_neg64(");
        rd(c, in, 1, ty);
        cg_puts(c, ")");
        ares_close(c, in, ty);
    }
    dst_close(c, in, ty);
}

static void emit_minmax(cg *c, const ptx_instr *in, int is_max)
{
    ptx_type ty = ty0(in);
    if (cg_emit_int_minmax(c, in, is_max))
        return;
    if (ty == PTX_TYPE_f32 && (ptx_has(in, PTX_MOD_NaN) || ptx_has(in, PTX_MOD_xorsign))) {
        if (ptx_has(in, PTX_MOD_xorsign) != ptx_has(in, PTX_MOD_abs))
            cg_fail(c, ".xorsign goes with .abs");
        dst_open(c, in, ty);
        fres_open(c, in, ty);
        cg_printf(c, "cb_fminmax32x(%d, ", is_max);
        rd(c, in, 1, ty);
        cg_puts(c, ", ");
        rd(c, in, 2, ty);
        cg_printf(c, ", %s%s0)", ptx_has(in, PTX_MOD_NaN) ? "CB_H_NAN | " : "",
                  ptx_has(in, PTX_MOD_xorsign) ? "CB_H_XORSIGN | " : "");
        fres_close(c, in, ty);
        dst_close(c, in, ty);
        return;
    }
    dst_open(c, in, ty);
    if (is_int(ty)) {
        need_int(c, ty);
        cg_printf(c, "({ %s cb_x = ", cg_ctype(ty));
        rd(c, in, 1, ty);
        cg_printf(c, ", cb_y = ");
        rd(c, in, 2, ty);
        cg_printf(c, "; cb_x %s cb_y ? cb_x : cb_y; })", is_max ? ">" : "<");
    } else {
        need_float(c, ty);
        fres_open(c, in, ty);
        cg_printf(c, "cb_f%s_%s(", is_max ? "max" : "min", cg_tname(ty));
        rd(c, in, 1, ty);
        cg_puts(c, ", ");
        rd(c, in, 2, ty);
        cg_puts(c, ")");
        fres_close(c, in, ty);
    }
    dst_close(c, in, ty);
}

void c_emit_min(cg *c, const ptx_instr *in) { emit_minmax(c, in, 0); }
void c_emit_max(cg *c, const ptx_instr *in) { emit_minmax(c, in, 1); }

void c_emit_sad(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    need_int(c, ty);
    dst_open(c, in, ty);
    cg_printf(c, "({ %s cb_x = ", cg_ctype(ty));
    rd(c, in, 1, ty);
    cg_puts(c, ", cb_y = ");
    rd(c, in, 2, ty);
    cg_printf(c, "; (%s)((%s)", utype(ty), utype(ty));
    rd(c, in, 3, ty);
    cg_printf(c, " + (cb_x > cb_y ? (%s)cb_x - (%s)cb_y : (%s)cb_y - (%s)cb_x)); })", utype(ty), utype(ty),
              utype(ty), utype(ty));
    dst_close(c, in, ty);
}

void c_emit_copysign(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    need_float(c, ty);
    dst_open(c, in, ty);
    cg_puts(c, ty == PTX_TYPE_f32 ? "copysignf(" : "copysign(");
    rd(c, in, 2, ty);
    cg_puts(c, ", ");
    rd(c, in, 1, ty);
    cg_puts(c, ")");
    dst_close(c, in, ty);
}

/* d = f(a) for the float unary functions. exact_helper is the directed-rounding form. */
static void emit_unary_float(cg *c, const ptx_instr *in, const char *f32, const char *f64, const char *rhelper)
{
    ptx_type ty = ty0(in);
    need_float(c, ty);
    const char *mode = fround(in);
    dst_open(c, in, ty);
    ares_open(c, in, ty);
    if (mode && rhelper) {
        cg_printf(c, "%s%s(", rhelper, ty == PTX_TYPE_f32 ? "32" : "64");
        rd(c, in, 1, ty);
        cg_printf(c, ", 0, 0, %s)", mode);
    } else {
        cg_printf(c, "%s(", ty == PTX_TYPE_f32 ? f32 : f64);
        rd(c, in, 1, ty);
        cg_puts(c, ")");
    }
    ares_close(c, in, ty);
    dst_close(c, in, ty);
}

/* the approximate f32 forms by their own helpers, which a dialect may map to the target's own
 * approximation (the OpenCL dialect on NVIDIA: the PTX instruction) */
static int approx32(const ptx_instr *in) { return ty0(in) == PTX_TYPE_f32 && ptx_has(in, PTX_MOD_approx); }

void c_emit_rcp(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    need_float(c, ty);
    const char *mode = fround(in);
    dst_open(c, in, ty);
    ares_open(c, in, ty);
    if (mode)
        cg_printf(c, "cb_div_r%s(1, ", ty == PTX_TYPE_f32 ? "32" : "64");
    else if (approx32(in))
        cg_puts(c, "cb_rcp_approx32(");
    else
        cg_puts(c, ty == PTX_TYPE_f32 ? "1.0f / (" : "1.0 / (");
    rd(c, in, 1, ty);
    if (mode)
        cg_printf(c, ", 0, %s)", mode);
    else
        cg_puts(c, ")");
    ares_close(c, in, ty);
    dst_close(c, in, ty);
}

void c_emit_sqrt(cg *c, const ptx_instr *in)
{
    emit_unary_float(c, in, approx32(in) ? "cb_sqrt_approx32" : "sqrtf", "sqrt", "cb_sqrt_r");
}
void c_emit_rsqrt(cg *c, const ptx_instr *in) { emit_unary_float(c, in, "cb_rsqrt32", "cb_rsqrt64", NULL); }
void c_emit_sin(cg *c, const ptx_instr *in) { emit_unary_float(c, in, "sinf", "sin", NULL); }
void c_emit_cos(cg *c, const ptx_instr *in) { emit_unary_float(c, in, "cosf", "cos", NULL); }
void c_emit_lg2(cg *c, const ptx_instr *in) { emit_unary_float(c, in, "log2f", "log2", NULL); }
void c_emit_ex2(cg *c, const ptx_instr *in) { emit_unary_float(c, in, "exp2f", "exp2", NULL); }
void c_emit_tanh(cg *c, const ptx_instr *in) { emit_unary_float(c, in, "tanhf", "tanh", NULL); }

void c_emit_testp(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    need_float(c, ty);
    const char *test = ptx_has(in, PTX_MOD_finite) ? "isfinite" : ptx_has(in, PTX_MOD_infinite) ? "isinf"
                       : ptx_has(in, PTX_MOD_number) ? "!isnan" : ptx_has(in, PTX_MOD_notanumber) ? "isnan"
                       : NULL;
    dst_open(c, in, PTX_TYPE_pred);
    if (test) {
        cg_printf(c, "%s(", test);
        cg_read(c, &in->ops[1], ty);
        cg_puts(c, ")");
    } else if (ptx_has(in, PTX_MOD_subnormal) || ptx_has(in, PTX_MOD_normal)) {
        /* by the bits (cb_codegen_c_prelude_both): the GPU counts zero as normal */
        int wide = ty == PTX_TYPE_f64;
        cg_printf(c, "%s(%s(", ptx_has(in, PTX_MOD_normal) ? "cb_testp_normal" : "cb_testp_sub",
                  wide ? "cb_bits64" : "cb_bits32");
        cg_read(c, &in->ops[1], ty);
        cg_printf(c, "), %s)", wide ? "11, 52" : "8, 23");
    } else {
        cg_fail(c, "testp needs a test");
    }
    dst_close(c, in, PTX_TYPE_pred);
}
