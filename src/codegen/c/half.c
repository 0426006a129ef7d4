/* half.c: the C emitters for f16, bf16, f16x2 and bf16x2
 * (arithmetic, min/max, neg/abs, comparisons, conversions, ex2/tanh) and for
 * cvt to .tf32. cg_emit_half is the dialect's by_type hook (target.c), which
 * sees every instruction first; the helpers the generated code calls are in
 * prelude_half.c.
 */
#include "codegen/c/ops.h"

#include <stdio.h>
#include <string.h>

/* 0 for f16/f16x2, 1 for bf16/bf16x2, -1 for anything else. */
static int hfmt(ptx_type t)
{
    if (t == PTX_TYPE_f16 || t == PTX_TYPE_f16x2)
        return 0;
    if (t == PTX_TYPE_bf16 || t == PTX_TYPE_bf16x2)
        return 1;
    return -1;
}

static int is_pair(ptx_type t) { return t == PTX_TYPE_f16x2 || t == PTX_TYPE_bf16x2; }

/* The CB_H_* flags for the modifiers an instruction carries. */
static void flags(cg *c, const ptx_instr *in)
{
    static const struct { ptx_mod mod; const char *name; } f[] = {
        {PTX_MOD_ftz, "CB_H_FTZ"}, {PTX_MOD_sat, "CB_H_SAT"}, {PTX_MOD_relu, "CB_H_RELU"},
        {PTX_MOD_NaN, "CB_H_NAN"}, {PTX_MOD_xorsign, "CB_H_XORSIGN"}, {PTX_MOD_satfinite, "CB_H_SATFINITE"},
    };
    int any = 0;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (ptx_has(in, f[i].mod)) {
            cg_printf(c, "%s%s", any ? " | " : "", f[i].name);
            any = 1;
        }
    if (!any)
        cg_puts(c, "0");
}

/* Rounding mode number for cb_round_fmt: rn 0, rz 1, rm 2, rp 3, rna 4. */
static int rmode(const ptx_instr *in)
{
    if (ptx_has(in, PTX_MOD_rz)) return 1;
    if (ptx_has(in, PTX_MOD_rm)) return 2;
    if (ptx_has(in, PTX_MOD_rp)) return 3;
    if (ptx_has(in, PTX_MOD_rna)) return 4;
    return 0;
}

static void bits(cg *c, const ptx_instr *in, int i, int pair)
{
    cg_read(c, &in->ops[i], pair ? PTX_TYPE_b32 : PTX_TYPE_b16);
}


/* add/sub/mul/fma: op 0..3 of cb_harith. */
static void emit_harith(cg *c, const ptx_instr *in, int op)
{
    ptx_type ty = in->types[0];
    int t = hfmt(ty), pair = is_pair(ty);
    if (rmode(in) != 0)
        cg_fail(c, "half-precision arithmetic rounds to nearest only (.rn)");
    if (t == 1 && (ptx_has(in, PTX_MOD_ftz) || ptx_has(in, PTX_MOD_sat)))
        cg_fail(c, ".ftz and .sat do not apply to bf16");
    dst_open(c, in, ty);
    cg_printf(c, "cb_harith%s(%d, %d, ", pair ? "2" : "", t, op);
    bits(c, in, 1, pair);
    cg_puts(c, ", ");
    bits(c, in, 2, pair);
    cg_puts(c, ", ");
    if (op == 3)
        bits(c, in, 3, pair);
    else
        cg_puts(c, "0");
    cg_puts(c, ", ");
    flags(c, in);
    cg_puts(c, ")");
    dst_close(c, in, ty);
}

static void emit_hminmax(cg *c, const ptx_instr *in, int mx)
{
    ptx_type ty = in->types[0];
    int pair = is_pair(ty);
    if (ptx_has(in, PTX_MOD_xorsign) != ptx_has(in, PTX_MOD_abs))
        cg_fail(c, ".xorsign goes with .abs");
    dst_open(c, in, ty);
    cg_printf(c, "cb_hminmax%s(%d, %d, ", pair ? "2" : "", hfmt(ty), mx);
    bits(c, in, 1, pair);
    cg_puts(c, ", ");
    bits(c, in, 2, pair);
    cg_puts(c, ", ");
    flags(c, in);
    cg_puts(c, ")");
    dst_close(c, in, ty);
}

/* neg, abs, ex2, tanh: one operand, applied to each half of a pair. */
static void emit_hunary(cg *c, const ptx_instr *in, const char *fn)
{
    ptx_type ty = in->types[0];
    int t = hfmt(ty);
    dst_open(c, in, ty);
    if (is_pair(ty)) {
        cg_puts(c, "({ uint32_t cb_x = ");
        bits(c, in, 1, 1);
        cg_printf(c, "; (uint32_t)%s(%d, (uint16_t)cb_x, ", fn, t);
        flags(c, in);
        cg_printf(c, ") | (uint32_t)%s(%d, (uint16_t)(cb_x >> 16), ", fn, t);
        flags(c, in);
        cg_puts(c, ") << 16; })");
    } else {
        cg_printf(c, "%s(%d, ", fn, t);
        bits(c, in, 1, 0);
        cg_puts(c, ", ");
        flags(c, in);
        cg_puts(c, ")");
    }
    dst_close(c, in, ty);
}

/* Declares int cb_r0 (and cb_r1 for a pair: the upper halves) comparing operands 1 and 2. */
static void emit_hcompare(cg *c, const ptx_instr *in, ptx_type st)
{
    int t = hfmt(st), pair = is_pair(st);
    const char *fmt = cg_compare_fmt(c, in, 1);
    int ftz = ptx_has(in, PTX_MOD_ftz);
    cg_puts(c, "uint32_t cb_a = ");
    bits(c, in, 1, pair);
    cg_puts(c, ", cb_b = ");
    bits(c, in, 2, pair);
    cg_puts(c, ";\n");
    for (int k = 0; k < (pair ? 2 : 1); k++) {
        const char *sh = k ? " >> 16" : "";
        cg_printf(c, "    int cb_r%d = ({ double A = cb_hd(%d, cb_hpost(%d, (uint16_t)(cb_a%s), %d)), "
                     "B = cb_hd(%d, cb_hpost(%d, (uint16_t)(cb_b%s), %d)); %s; });\n",
                  k, t, t, sh, ftz, t, t, sh, ftz, fmt);
    }
}

/* The boolean combinator of set/setp and its third operand ("1"/"0" if none). */
static const char *bool_comb(cg *c, const ptx_instr *in)
{
    const char *op = ptx_has(in, PTX_MOD_and) ? "&" : ptx_has(in, PTX_MOD_or) ? "|" : ptx_has(in, PTX_MOD_xor) ? "^"
                     : NULL;
    if ((op != NULL) != (in->nops == 4))
        cg_fail(c, "a boolean operation needs a third source predicate");
    cg_puts(c, "    int cb_c = ");
    if (op)
        cg_read(c, &in->ops[3], PTX_TYPE_pred);
    else
        cg_puts(c, "0");
    cg_puts(c, ";\n    ");
    return op ? op : "|";
}

static void emit_hsetp(cg *c, const ptx_instr *in)
{
    ptx_type st = in->types[0];
    int pair = is_pair(st);
    emit_hcompare(c, in, st);
    const char *op = bool_comb(c, in);
    if (pair && in->ops[0].reg2 < 0)
        cg_fail(c, "setp on a pair writes two predicates (p|q)");
    cg_dst_open(c, &in->ops[0], PTX_TYPE_pred);
    cg_printf(c, "cb_r0 %s cb_c", op);
    cg_dst_close(c, &in->ops[0], PTX_TYPE_pred);
    if (in->ops[0].reg2 >= 0) {
        ptx_operand q = in->ops[0];
        q.reg = q.reg2;
        cg_puts(c, "    ");
        cg_dst_open(c, &q, PTX_TYPE_pred);
        cg_printf(c, "%s %s cb_c", pair ? "cb_r1" : "(!cb_r0)", op);
        cg_dst_close(c, &q, PTX_TYPE_pred);
    }
}

/* set.cmp.dtype.stype: true is 1.0 in a float or half dtype, all ones in an integer one;
 * a pair source gives one result per half. */
static void emit_hset(cg *c, const ptx_instr *in)
{
    ptx_type dt = in->types[0], st = in->ntypes > 1 ? in->types[1] : in->types[0];
    if (hfmt(st) < 0)
        cg_fail(c, "unsupported set types");
    int pair = is_pair(st);
    emit_hcompare(c, in, st);
    const char *op = bool_comb(c, in);
    const char *one;
    if (hfmt(dt) == 0)
        one = "0x3c00u";
    else if (hfmt(dt) == 1)
        one = "0x3f80u";
    else if (dt == PTX_TYPE_f32 && !pair)
        one = "0x3f800000u";
    else if ((ptx_type_kind(dt) == 'u' || ptx_type_kind(dt) == 's' || ptx_type_kind(dt) == 'b') &&
             ptx_type_size(dt) <= 4)
        one = pair ? "0xffffu" : "0xffffffffu";
    else
        cg_fail(c, "unsupported set types");
    if (pair != is_pair(dt) && ptx_type_size(dt) != 4)
        cg_fail(c, "a pair comparison writes a 32-bit result");
    ptx_type bt = ptx_type_size(dt) == 2 ? PTX_TYPE_b16 : PTX_TYPE_b32;
    dst_open(c, in, bt);
    cg_printf(c, "((cb_r0 %s cb_c) ? %s : 0u)", op, one);
    if (pair)
        cg_printf(c, " | ((cb_r1 %s cb_c) ? (uint32_t)%s << 16 : 0u)", op, one);
    dst_close(c, in, bt);
}

/* An expression of type double holding operand i of type st exactly (or rounded to
 * odd for 64-bit integers), for a later rounding to a half. */
static void read_as_double(cg *c, const ptx_instr *in, int i, ptx_type st)
{
    if (hfmt(st) >= 0 && !is_pair(st)) {
        cg_printf(c, "cb_hd(%d, ", hfmt(st));
        bits(c, in, i, 0);
        cg_puts(c, ")");
    } else if (st == PTX_TYPE_f32 || st == PTX_TYPE_f64) {
        int ftz = st == PTX_TYPE_f32 && ptx_has(in, PTX_MOD_ftz);
        cg_printf(c, "(double)%s(", ftz ? "cb_ftz32" : "");
        cg_read(c, &in->ops[i], st);
        cg_puts(c, ")");
    } else if (ptx_type_size(st) == 8 && ptx_type_kind(st) != 'p') {
        cg_printf(c, "cb_%s64_odd(", ptx_type_kind(st) == 's' ? "s" : "u");
        cg_read(c, &in->ops[i], st);
        cg_puts(c, ")");
    } else if (ptx_type_kind(st) == 'u' || ptx_type_kind(st) == 's' || ptx_type_kind(st) == 'b') {
        cg_puts(c, "(double)");
        cg_read(c, &in->ops[i], st);
    } else {
        cg_fail(c, "unsupported conversion");
    }
}

/* cvt to f16/bf16 (one value, or a pair from two f32 with the first operand in the upper half). */
static void emit_cvt_to_half(cg *c, const ptx_instr *in, ptx_type dt, ptx_type st)
{
    int t = hfmt(dt), m = rmode(in);
    if (is_pair(dt)) {
        if (in->nops != 3 || st != PTX_TYPE_f32)
            cg_fail(c, "cvt to a pair takes two .f32 sources");
        dst_open(c, in, dt);
        for (int k = 1; k <= 2; k++) {
            cg_printf(c, "%s(uint32_t)cb_hpost(%d, cb_dh%s(%d, ", k == 2 ? " | " : "", t, st == PTX_TYPE_f64 ? "64" : "", t);
            read_as_double(c, in, k, st);
            cg_printf(c, ", %d), ", m);
            flags(c, in);
            cg_printf(c, ")%s", k == 1 ? " << 16" : "");
        }
        dst_close(c, in, dt);
        return;
    }
    if (in->nops != 2)
        cg_fail(c, "wrong number of operands");
    const char *rint = ptx_has(in, PTX_MOD_rni) ? "rint" : ptx_has(in, PTX_MOD_rzi) ? "trunc"
                       : ptx_has(in, PTX_MOD_rmi) ? "floor" : ptx_has(in, PTX_MOD_rpi) ? "ceil" : "";
    if (*rint && dt != st)
        cg_fail(c, "integer rounding needs the same source and destination type");
    dst_open(c, in, dt);
    cg_printf(c, "cb_hpost(%d, cb_dh%s(%d, %s(", t, st == PTX_TYPE_f64 ? "64" : "", t, rint);
    read_as_double(c, in, 1, st);
    cg_printf(c, "), %d), ", m);
    flags(c, in);
    cg_puts(c, ")");
    dst_close(c, in, dt);
}

/* cvt from f16/bf16 to f32/f64 (exact) or to an integer (rounded as asked, saturated). */
static void emit_cvt_from_half(cg *c, const ptx_instr *in, ptx_type dt, ptx_type st)
{
    int t = hfmt(st);
    if (is_pair(st) || in->nops != 2)
        cg_fail(c, "unsupported conversion");
    dst_open(c, in, dt);
    if (dt == PTX_TYPE_f32 || dt == PTX_TYPE_f64) {
        /* .ftz applies to an f32 result: a bf16 subnormal stays subnormal in f32 and is flushed */
        const char *sat = ptx_has(in, PTX_MOD_sat) ? (dt == PTX_TYPE_f32 ? "cb_sat32" : "cb_sat64") : "";
        int ftz = dt == PTX_TYPE_f32 && ptx_has(in, PTX_MOD_ftz);
        /* with .ftz a NaN becomes the canonical one (bf16 -> f32 otherwise keeps the payload) */
        cg_printf(c, "%s%s(cb_h2%s(%d, ", ftz ? "cb_cn32(cb_ftz32(" : "", sat, cg_tname(dt), t);
        bits(c, in, 1, 0);
        cg_puts(c, ftz ? "))))" : "))");
    } else if (ptx_type_kind(dt) == 'u' || ptx_type_kind(dt) == 's') {
        const char *rnd = ptx_has(in, PTX_MOD_rni) ? "rint" : ptx_has(in, PTX_MOD_rmi) ? "floor"
                          : ptx_has(in, PTX_MOD_rpi) ? "ceil" : "trunc";
        unsigned ds = ptx_type_size(dt);
        int sg = ptx_type_kind(dt) == 's';
        cg_printf(c, "cb_f2%s%s(%s(cb_hd(%d, ", sg ? "s" : "u", ds == 8 ? "64" : "_n", rnd, t);
        bits(c, in, 1, 0);
        cg_puts(c, "))");
        if (ds < 8 && sg)
            cg_printf(c, ", %lld, %lld", -(1ll << (8 * ds - 1)), (1ll << (8 * ds - 1)) - 1);
        else if (ds < 8)
            cg_printf(c, ", %lluull", (1ull << (8 * ds)) - 1);
        cg_f2i_nan(c, dt, st);
        cg_puts(c, ")");
    } else {
        cg_fail(c, "unsupported conversion");
    }
    dst_close(c, in, dt);
}

/* cvt.rna{.satfinite}.tf32.f32: f32 bits rounded to 10 fraction bits. */
static void emit_cvt_tf32(cg *c, const ptx_instr *in, ptx_type st)
{
    if (st != PTX_TYPE_f32)
        cg_fail(c, "cvt to .tf32 takes an .f32 source");
    int m = rmode(in);
    dst_open(c, in, PTX_TYPE_b32);
    cg_puts(c, "({ uint32_t cb_b = ");
    cg_read(c, &in->ops[1], PTX_TYPE_b32);
    cg_puts(c, "; double cb_x = ");
    read_as_double(c, in, 1, st);
    /* a NaN keeps its bits (truncated, not quieted); with .satfinite the H200 then takes one
       tf32 unit off the magnitude, as it does for an infinity (0x7fc000e5 -> 0x7fbfe000) */
    int sf = ptx_has(in, PTX_MOD_satfinite);
    cg_printf(c, "; cb_x != cb_x ? (cb_b & ~0x1fffu)%s : (uint32_t)cb_round_fmt(%scb_x, 8, 10, %d, 0) << 13; })",
              sf ? " - 0x2000u" : "",
              sf ? "fabs(cb_x) > 3.40116213e38 ? copysign(3.40116213e38, cb_x) : " : "", m);
    dst_close(c, in, PTX_TYPE_b32);
}

/* 0 for e4m3x2, 1 for e5m2x2, -1 for anything else. */
static int fp8fmt(ptx_type t) { return t == PTX_TYPE_e4m3x2 ? 0 : t == PTX_TYPE_e5m2x2 ? 1 : -1; }

/* cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b (a to the upper byte) or
 * .f16x2 d, a (element order kept); cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a. */
static void emit_cvt_fp8(cg *c, const ptx_instr *in, ptx_type dt, ptx_type st)
{
    int relu = ptx_has(in, PTX_MOD_relu);
    if (!ptx_has(in, PTX_MOD_rn) || rmode(in) != 0)
        cg_fail(c, "fp8 conversions round to nearest (.rn)");
    if (fp8fmt(st) >= 0) {
        if (dt != PTX_TYPE_f16x2 || in->nops != 2)
            cg_fail(c, "cvt from an fp8 pair gives .f16x2");
        dst_open(c, in, dt);
        cg_printf(c, "cb_fp8x2_h2(%d, ", fp8fmt(st));
        bits(c, in, 1, 0);
        cg_printf(c, ", %d)", relu);
        dst_close(c, in, dt);
        return;
    }
    if (!ptx_has(in, PTX_MOD_satfinite))
        cg_fail(c, "cvt to an fp8 pair needs .satfinite");
    int f = fp8fmt(dt);
    dst_open(c, in, dt);
    if (st == PTX_TYPE_f32 && in->nops == 3) {
        cg_printf(c, "(uint16_t)(cb_d2fp8(%d, ", f);
        read_as_double(c, in, 1, st);
        cg_printf(c, ", %d) << 8 | cb_d2fp8(%d, ", relu, f);
        read_as_double(c, in, 2, st);
        cg_printf(c, ", %d))", relu);
    } else if (st == PTX_TYPE_f16x2 && in->nops == 2) {
        cg_puts(c, "({ uint32_t cb_x = ");
        bits(c, in, 1, 1);
        cg_printf(c, "; (uint16_t)(cb_d2fp8(%d, cb_hd(0, (uint16_t)(cb_x >> 16)), %d) << 8 | "
                     "cb_d2fp8(%d, cb_hd(0, (uint16_t)cb_x), %d)); })", f, relu, f, relu);
    } else {
        cg_fail(c, "cvt to an fp8 pair takes two .f32 or one .f16x2");
    }
    dst_close(c, in, dt);
}

static int emit_hcvt(cg *c, const ptx_instr *in)
{
    if (in->ntypes != 2)
        return 0;
    ptx_type dt = in->types[0], st = in->types[1];
    if (fp8fmt(dt) >= 0 || fp8fmt(st) >= 0) {
        emit_cvt_fp8(c, in, dt, st);
        return 1;
    }
    if (dt == PTX_TYPE_tf32) {
        emit_cvt_tf32(c, in, st);
        return 1;
    }
    if (hfmt(dt) >= 0) {
        emit_cvt_to_half(c, in, dt, st);
        return 1;
    }
    if (hfmt(st) >= 0) {
        emit_cvt_from_half(c, in, dt, st);
        return 1;
    }
    return 0;
}

int cg_emit_half(cg *c, const ptx_instr *in)
{
    if (ptx_ops[in->op].flags & PTX_OPF_FRAGMENT)   /* their half types name fragments, not arithmetic */
        return 0;
    if (in->op == PTX_OP_cvt)
        return emit_hcvt(c, in);
    if (in->ntypes == 0)
        return 0;
    ptx_type ty = in->types[0];
    if (in->op == PTX_OP_set && (hfmt(ty) >= 0 || (in->ntypes > 1 && hfmt(in->types[1]) >= 0))) {
        emit_hset(c, in);
        return 1;
    }
    if (hfmt(ty) < 0)
        return 0;
    switch (in->op) {
    case PTX_OP_add: emit_harith(c, in, 0); return 1;
    case PTX_OP_sub: emit_harith(c, in, 1); return 1;
    case PTX_OP_mul: emit_harith(c, in, 2); return 1;
    case PTX_OP_fma: emit_harith(c, in, 3); return 1;
    case PTX_OP_min: emit_hminmax(c, in, 0); return 1;
    case PTX_OP_max: emit_hminmax(c, in, 1); return 1;
    case PTX_OP_neg: emit_hunary(c, in, "cb_hneg"); return 1;
    case PTX_OP_abs: emit_hunary(c, in, "cb_habs"); return 1;
    case PTX_OP_ex2: emit_hunary(c, in, "cb_hex2"); return 1;
    case PTX_OP_tanh: emit_hunary(c, in, "cb_htanh"); return 1;
    case PTX_OP_setp: emit_hsetp(c, in); return 1;
    case PTX_OP_atom: case PTX_OP_red: return 0;   /* half atomics: atom.c */
    default:
        if (ptx_ops[in->op].flags & PTX_OPF_BITS)
            return 0;   /* plain bits */
        cg_fail(c, "this instruction does not take a half-precision type");
    }
}
