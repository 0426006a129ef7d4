/* codegen_c_ops.c: one C emitter per row of ops.def (CB_DIALECT_C).
 *
 * Each emit_<op> writes the body of one "{ ... }" block; the guard and the
 * comment around it come from codegen_c.c. Integer arithmetic is done in
 * unsigned types so that overflow wraps without undefined behaviour; float
 * arithmetic stays in the PTX type (float for f32) and is never contracted.
 */
#include "codegen/c/c.h"

#include <stdio.h>
#include <string.h>

/* ---- small pieces ------------------------------------------------------------------- */

static ptx_type ty0(const ptx_instr *in) { return in->ntypes ? in->types[0] : PTX_TYPE_b32; }

static const char *utype(ptx_type t) { return ptx_type_size(t) > 4 ? "uint64_t" : "uint32_t"; }

static int is_signed(ptx_type t) { return ptx_type_kind(t) == 's'; }

static int is_int(ptx_type t)
{
    char k = ptx_type_kind(t);
    return k == 'b' || k == 'u' || k == 's';
}

static void need_int(cg *c, ptx_type t)
{
    if (!is_int(t) || ptx_type_size(t) > 8)
        cg_fail(c, "unsupported type for this instruction");
}

static void need_float(cg *c, ptx_type t)
{
    if (t == PTX_TYPE_f16 || t == PTX_TYPE_bf16 || ptx_type_kind(t) == 'h')
        cg_fail(c, "this instruction does not take a half-precision type");
    if (!ptx_type_is_float(t))
        cg_fail(c, "unsupported type for this instruction");
}

/* Reads operand i as ty, flushing f32 subnormals when the instruction says .ftz. */
static void rd(cg *c, const ptx_instr *in, int i, ptx_type ty)
{
    /* .ftz on f64 exists only on rcp/rsqrt.approx, which flush inputs and results alike */
    int ftz = (ty == PTX_TYPE_f32 || ty == PTX_TYPE_f64) && ptx_has(in, PTX_MOD_ftz);
    if (ftz)
        cg_puts(c, ty == PTX_TYPE_f32 ? "cb_ftz32(" : "cb_ftz64(");
    cg_read(c, &in->ops[i], ty);
    if (ftz)
        cg_puts(c, ")");
}

/* Wraps a float result: saturation, then flush. Call open before the value, close after. */
static void fres_open(cg *c, const ptx_instr *in, ptx_type ty)
{
    if ((ty == PTX_TYPE_f32 || ty == PTX_TYPE_f64) && ptx_has(in, PTX_MOD_ftz))
        cg_puts(c, ty == PTX_TYPE_f32 ? "cb_ftz32(" : "cb_ftz64(");
    if (ptx_has(in, PTX_MOD_sat))
        cg_puts(c, ty == PTX_TYPE_f32 ? "cb_sat32(" : "cb_sat64(");
}

/* fres_open/close for arithmetic results, which also make an f32 NaN canonical
 * (f64 NaNs propagate as on the host: the first NaN operand, quieted, or 0xfff8...). */
static void ares_open(cg *c, const ptx_instr *in, ptx_type ty)
{
    cg_puts(c, ty == PTX_TYPE_f32 ? "cb_cn32(" : "(");
    fres_open(c, in, ty);
}

static void fres_close(cg *c, const ptx_instr *in, ptx_type ty);

static void ares_close(cg *c, const ptx_instr *in, ptx_type ty)
{
    fres_close(c, in, ty);
    cg_puts(c, ")");
}

static void fres_close(cg *c, const ptx_instr *in, ptx_type ty)
{
    if (ptx_has(in, PTX_MOD_sat))
        cg_puts(c, ")");
    if ((ty == PTX_TYPE_f32 || ty == PTX_TYPE_f64) && ptx_has(in, PTX_MOD_ftz))
        cg_puts(c, ")");
}

/* The directed rounding mode of an instruction, as a <fenv.h> macro; NULL for .rn or none. */
static const char *fround(const ptx_instr *in)
{
    if (ptx_has(in, PTX_MOD_rz) || ptx_has(in, PTX_MOD_rzi)) return "FE_TOWARDZERO";
    if (ptx_has(in, PTX_MOD_rm) || ptx_has(in, PTX_MOD_rmi)) return "FE_DOWNWARD";
    if (ptx_has(in, PTX_MOD_rp) || ptx_has(in, PTX_MOD_rpi)) return "FE_UPWARD";
    return NULL;
}

static void dst_open(cg *c, const ptx_instr *in, ptx_type ty) { cg_dst_open(c, &in->ops[0], ty); }
static void dst_close(cg *c, const ptx_instr *in, ptx_type ty) { cg_dst_close(c, &in->ops[0], ty); }

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
    const char *U = wide ? "uint64_t" : "uint32_t", *W = wide ? "cb_u128" : "uint64_t";
    cg_printf(c, "%s cb_a = (%s)", U, U);
    rd(c, in, 1, ty);
    cg_printf(c, ", cb_b = (%s)", U);
    rd(c, in, 2, ty);
    cg_printf(c, "; %s cb_s = (%s)cb_a %s cb_b%s; ", W, W, sub ? "-" : "+",
              carry_in ? (sub ? " - cb_cf" : " + cb_cf") : "");
    dst_open(c, in, ty);
    cg_printf(c, "(%s)cb_s", U);
    dst_close(c, in, ty);
    if (ptx_has(in, PTX_MOD_cc))
        cg_printf(c, "    cb_cf = (uint32_t)(cb_s >> %d) & 1u;\n", wide ? 64 : 32);
}

/* ---- data movement ---------------------------------------------------------------- */

void c_emit_mov(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    const ptx_operand *d = &in->ops[0], *s = &in->ops[1];
    if (d->kind == PTX_OPD_vec || s->kind == PTX_OPD_vec) {
        const ptx_operand *v = d->kind == PTX_OPD_vec ? d : s;
        unsigned size = ptx_type_size(ty), es = size / v->nelems;
        if (!is_int(ty) && ty != PTX_TYPE_f32 && ty != PTX_TYPE_f64)
            cg_fail(c, "bad vector mov");
        if ((es != 1 && es != 2 && es != 4) || (d->kind == PTX_OPD_vec && s->kind == PTX_OPD_vec))
            cg_fail(c, "bad vector mov");
        ptx_type et = es == 1 ? PTX_TYPE_u8 : es == 2 ? PTX_TYPE_u16 : PTX_TYPE_u32;
        ptx_type bt = size == 8 ? PTX_TYPE_u64 : size == 4 ? PTX_TYPE_u32 : PTX_TYPE_u16;
        if (d->kind == PTX_OPD_vec) {   /* unpack */
            cg_printf(c, "%s cb_v = ", utype(bt));
            cg_read(c, s, bt);
            cg_puts(c, ";\n");
            for (uint32_t i = 0; i < v->nelems; i++) {
                if (v->elems[i].kind == PTX_OPD_sink)
                    continue;
                cg_puts(c, "    ");
                cg_dst_open(c, &v->elems[i], et);
                cg_printf(c, "cb_v >> %u", 8 * es * i);
                cg_dst_close(c, &v->elems[i], et);
            }
        } else {                         /* pack */
            dst_open(c, in, bt);
            cg_puts(c, "0");
            for (uint32_t i = 0; i < v->nelems; i++) {
                cg_printf(c, " | ((%s)", utype(bt));
                cg_read(c, &v->elems[i], et);
                cg_printf(c, " << %u)", 8 * es * i);
            }
            dst_close(c, in, bt);
        }
        return;
    }
    dst_open(c, in, ty);
    cg_read(c, s, ty);
    dst_close(c, in, ty);
}

static int vec_width(const ptx_instr *in)
{
    return ptx_has(in, PTX_MOD_v4) ? 4 : ptx_has(in, PTX_MOD_v2) ? 2 : 1;
}

static int ordered_access(const ptx_instr *in)
{
    return ptx_has(in, PTX_MOD_volatile) || ptx_has(in, PTX_MOD_relaxed) || ptx_has(in, PTX_MOD_acquire) ||
           ptx_has(in, PTX_MOD_release);
}

/* Whether in may poll memory that another block writes: an ordered load or
 * an atom.cas/atom.exch of global or generic memory (see cb_runtime.spin). */
static int is_spin_point(const ptx_instr *in)
{
    ptx_space sp = ptx_instr_space(in);
    if (sp != PTX_SPACE_global && sp != PTX_SPACE_none)
        return 0;
    if (in->op == PTX_OP_ld)
        return ordered_access(in);
    return in->op == PTX_OP_atom && (ptx_has(in, PTX_MOD_cas) || ptx_has(in, PTX_MOD_exch));
}

/* The spin point before in, whose address is operand a: one test outside
 * cooperative launches. */
static void emit_spin_point(cg *c, const ptx_instr *in, const ptx_operand *a)
{
    if (!is_spin_point(in))
        return;
    cg_puts(c, "if (t->blk->grid_ws) t->blk->rt->spin(t, ");
    cg_address(c, a, ptx_instr_space(in));
    cg_puts(c, ");\n    ");
}

static void emit_load(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    int n = vec_width(in);
    if (ptx_type_size(ty) > 8 || ptx_type_kind(ty) == 'p')
        cg_fail(c, "unsupported load type");
    const char *ld = ordered_access(in) ? "cb_ldv_" : "cb_ld_";
    const ptx_operand *d = &in->ops[0];
    if ((n > 1) != (d->kind == PTX_OPD_vec) || (n > 1 && d->nelems != (uint32_t)n))
        cg_fail(c, "vector width does not match the operand");
    if (ptx_instr_flags(in) & PTX_OPF_CONVERGE)
        cg_puts(c, "t->blk->rt->warp_converge(t);\n    ");
    emit_spin_point(c, in, &in->ops[1]);
    cg_puts(c, "unsigned char *cb_p = ");
    cg_address(c, &in->ops[1], ptx_instr_space(in));
    cg_puts(c, ";\n");
    for (int i = 0; i < n; i++) {
        const ptx_operand *e = n > 1 ? &d->elems[i] : d;
        if (e->kind == PTX_OPD_sink)
            continue;
        cg_puts(c, "    ");
        cg_dst_open(c, e, ty);
        cg_printf(c, "%s%s(cb_p + %u)", ld, cg_tname(ty), i * ptx_type_size(ty));
        cg_dst_close(c, e, ty);
    }
}

void c_emit_ld(cg *c, const ptx_instr *in) { emit_load(c, in); }
void c_emit_ldu(cg *c, const ptx_instr *in) { emit_load(c, in); }

void c_emit_st(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    int n = vec_width(in);
    if (ptx_type_size(ty) > 8 || ptx_type_kind(ty) == 'p')
        cg_fail(c, "unsupported store type");
    const ptx_operand *v = &in->ops[1];
    if ((n > 1) != (v->kind == PTX_OPD_vec) || (n > 1 && v->nelems != (uint32_t)n))
        cg_fail(c, "vector width does not match the operand");
    const char *st = ordered_access(in) ? "cb_stv_" : "cb_st_";
    if (ptx_instr_flags(in) & PTX_OPF_CONVERGE)
        cg_puts(c, "t->blk->rt->warp_converge(t);\n    ");
    cg_puts(c, "unsigned char *cb_p = ");
    cg_address(c, &in->ops[0], ptx_instr_space(in));
    cg_puts(c, ";\n");
    for (int i = 0; i < n; i++) {
        const ptx_operand *e = n > 1 ? &v->elems[i] : v;
        if (e->kind == PTX_OPD_sink)
            cg_fail(c, "cannot store a sink");
        cg_printf(c, "    %s%s(cb_p + %u, ", st, cg_tname(ty), i * ptx_type_size(ty));
        cg_read(c, e, ty);
        cg_puts(c, ");\n");
    }
}

void c_emit_cvta(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    dst_open(c, in, ty);
    if (ptx_instr_space(in) == PTX_SPACE_shared) {
        if (ptx_has(in, PTX_MOD_to)) {
            cg_read(c, &in->ops[1], PTX_TYPE_u64);
            cg_puts(c, " - (uint64_t)(uintptr_t)t->blk->shared");
        } else {
            cg_puts(c, "(uint64_t)(uintptr_t)(t->blk->shared + (uint32_t)");
            cg_read(c, &in->ops[1], PTX_TYPE_u64);
            cg_puts(c, ")");
        }
    } else {
        cg_read(c, &in->ops[1], PTX_TYPE_u64);   /* global, const, local, param: host addresses */
    }
    dst_close(c, in, ty);
}

/* The bytes of kernel parameters: the largest kernel's (t->blk->params holds the running one's). */
static uint64_t max_param_bytes(const ptx_module *m)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        for (uint32_t k = 0; m->funcs[i].is_entry && k < m->funcs[i].nparams; k++) {
            const ptx_var *v = &m->funcs[i].vars[m->funcs[i].nrets + k];
            n = v->offset + v->size > n ? v->offset + v->size : n;
        }
    return n;
}

/* isspacep: shared is the block's window, const the module's .const variables,
 * param the kernel parameter buffer, local this function's .local depots;
 * global is everything else. */
void c_emit_isspacep(cg *c, const ptx_instr *in)
{
    ptx_space sp = ptx_instr_space(in);
    cg_puts(c, "uint64_t cb_a = ");
    cg_read(c, &in->ops[1], PTX_TYPE_u64);
    cg_puts(c, ";\n    int cb_local = 0");
    for (uint32_t i = 0; i < c->f->nvars; i++)
        if (c->f->vars[i].space == PTX_SPACE_local)
            cg_printf(c, " || cb_a - (uint64_t)(uintptr_t)%s < %lluu", c->f->vars[i].cname,
                      (unsigned long long)c->f->vars[i].size);
    cg_printf(c, ";\n    int cb_param = cb_a - (uint64_t)(uintptr_t)t->blk->params < %lluu;\n    ",
              (unsigned long long)max_param_bytes(c->m));
    dst_open(c, in, PTX_TYPE_pred);
    switch (sp) {
    case PTX_SPACE_shared: cg_puts(c, "cb_in_shared(t, cb_a)"); break;
    case PTX_SPACE_const: cg_puts(c, "cb_in_const(cb_a)"); break;
    case PTX_SPACE_param: cg_puts(c, "cb_param"); break;
    case PTX_SPACE_local: cg_puts(c, "cb_local"); break;
    case PTX_SPACE_global: cg_puts(c, "!cb_in_shared(t, cb_a) && !cb_in_const(cb_a) && !cb_param && !cb_local"); break;
    default: cg_fail(c, "isspacep needs a state space");
    }
    dst_close(c, in, PTX_TYPE_pred);
}

void c_emit_prefetch(cg *c, const ptx_instr *in) { (void)in; cg_puts(c, "/* no effect on the CPU */\n"); }

/* createpolicy: a cache policy for .L2::cache_hint accesses; they ignore it on the CPU. */
void c_emit_createpolicy(cg *c, const ptx_instr *in)
{
    dst_open(c, in, PTX_TYPE_b64);
    cg_puts(c, "0");
    dst_close(c, in, PTX_TYPE_b64);
}
void c_emit_prefetchu(cg *c, const ptx_instr *in) { c_emit_prefetch(c, in); }

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
    /* conversions to or from f16/bf16/tf32 are in codegen_c_half.c */
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
    const char *U = wide ? "uint64_t" : "uint32_t", *W = wide ? "cb_u128" : "uint64_t";
    cg_printf(c, "%s cb_m = (%s)", U, U);
    int_product(c, in, ty, &rt);
    cg_printf(c, "; %s cb_s = (%s)cb_m + (%s)", W, W, U);
    rd(c, in, 3, rt);
    cg_printf(c, "%s; ", carry_in ? " + cb_cf" : "");
    dst_open(c, in, rt);
    cg_printf(c, "(%s)cb_s", U);
    dst_close(c, in, rt);
    if (ptx_has(in, PTX_MOD_cc))
        cg_printf(c, "    cb_cf = (uint32_t)(cb_s >> %d) & 1u;\n", wide ? 64 : 32);
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
    if (ty == PTX_TYPE_f32 && ptx_has(in, PTX_MOD_approx)) {
        /* a * (1/b): for 2^126 < |b| < 2^128 the reciprocal is 0, so the result is 0 (NaN for a infinite) */
        dst_open(c, in, ty);
        ares_open(c, in, ty);
        cg_puts(c, "cb_div_approx32(");
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

void c_emit_rcp(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    need_float(c, ty);
    const char *mode = fround(in);
    dst_open(c, in, ty);
    ares_open(c, in, ty);
    if (mode)
        cg_printf(c, "cb_div_r%s(1, ", ty == PTX_TYPE_f32 ? "32" : "64");
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

void c_emit_sqrt(cg *c, const ptx_instr *in) { emit_unary_float(c, in, "sqrtf", "sqrt", "cb_sqrt_r"); }
void c_emit_rsqrt(cg *c, const ptx_instr *in) { emit_unary_float(c, in, "1.0f / sqrtf", "1.0 / sqrt", NULL); }
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
        /* the GPU counts zero as normal: normal is finite and not subnormal */
        cg_printf(c, "({ %s cb_x = ", cg_ctype(ty));
        cg_read(c, &in->ops[1], ty);
        cg_printf(c, "; %s; })", ptx_has(in, PTX_MOD_normal) ? "isfinite(cb_x) && fpclassify(cb_x) != FP_SUBNORMAL"
                                                              : "fpclassify(cb_x) == FP_SUBNORMAL");
    } else {
        cg_fail(c, "testp needs a test");
    }
    dst_close(c, in, PTX_TYPE_pred);
}

/* ---- bits and logic ----------------------------------------------------------------------- */

static void emit_logic(cg *c, const ptx_instr *in, const char *op)
{
    ptx_type ty = ty0(in);
    if (ty == PTX_TYPE_pred) {
        dst_open(c, in, ty);
        cg_read(c, &in->ops[1], ty);
        cg_printf(c, " %s ", op);
        cg_read(c, &in->ops[2], ty);
        dst_close(c, in, ty);
        return;
    }
    need_int(c, ty);
    dst_open(c, in, ty);
    cg_printf(c, "(%s)", utype(ty));
    cg_read(c, &in->ops[1], ty);
    cg_printf(c, " %s (%s)", op, utype(ty));
    cg_read(c, &in->ops[2], ty);
    dst_close(c, in, ty);
}

void c_emit_and(cg *c, const ptx_instr *in) { emit_logic(c, in, "&"); }
void c_emit_or(cg *c, const ptx_instr *in) { emit_logic(c, in, "|"); }
void c_emit_xor(cg *c, const ptx_instr *in) { emit_logic(c, in, "^"); }

void c_emit_not(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    dst_open(c, in, ty);
    if (ty == PTX_TYPE_pred) {
        cg_puts(c, "!");
        cg_read(c, &in->ops[1], ty);
    } else {
        need_int(c, ty);
        cg_printf(c, "~(%s)", utype(ty));
        cg_read(c, &in->ops[1], ty);
    }
    dst_close(c, in, ty);
}

void c_emit_cnot(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    need_int(c, ty);
    dst_open(c, in, ty);
    cg_puts(c, "(");
    cg_read(c, &in->ops[1], ty);
    cg_puts(c, " == 0)");
    dst_close(c, in, ty);
}

void c_emit_lop3(cg *c, const ptx_instr *in)
{
    dst_open(c, in, PTX_TYPE_b32);
    cg_puts(c, "cb_lop3(");
    for (int i = 1; i <= 4; i++) {
        cg_read(c, &in->ops[i], PTX_TYPE_b32);
        cg_puts(c, i < 4 ? ", " : ")");
    }
    dst_close(c, in, PTX_TYPE_b32);
}

static void emit_shift(cg *c, const ptx_instr *in, const char *kind)
{
    ptx_type ty = ty0(in);
    need_int(c, ty);
    unsigned w = 8 * ptx_type_size(ty);
    if (w < 16)
        cg_fail(c, "unsupported shift width");
    dst_open(c, in, ty);
    if (!strcmp(kind, "shr"))
        cg_printf(c, "cb_shr_%s%u(", is_signed(ty) ? "s" : "u", w);
    else
        cg_printf(c, "cb_shl%u(", w);
    cg_read(c, &in->ops[1], ty);
    cg_puts(c, ", ");
    cg_read(c, &in->ops[2], PTX_TYPE_u32);
    cg_puts(c, ")");
    dst_close(c, in, ty);
}

void c_emit_shl(cg *c, const ptx_instr *in) { emit_shift(c, in, "shl"); }
void c_emit_shr(cg *c, const ptx_instr *in) { emit_shift(c, in, "shr"); }

void c_emit_shf(cg *c, const ptx_instr *in)
{
    int left = ptx_has(in, PTX_MOD_l);
    if (!left && !ptx_has(in, PTX_MOD_r))
        cg_fail(c, "shf needs .l or .r");
    dst_open(c, in, PTX_TYPE_b32);
    cg_printf(c, "({ uint32_t cb_n = ");
    cg_read(c, &in->ops[3], PTX_TYPE_u32);
    cg_printf(c, "; cb_n = %s; cb_shf_%s(", ptx_has(in, PTX_MOD_clamp) ? "cb_n > 32u ? 32u : cb_n" : "cb_n & 31u",
              left ? "l" : "r");
    cg_read(c, &in->ops[1], PTX_TYPE_b32);
    cg_puts(c, ", ");
    cg_read(c, &in->ops[2], PTX_TYPE_b32);
    cg_puts(c, ", cb_n); })");
    dst_close(c, in, PTX_TYPE_b32);
}

/* popc/clz/bfind read ty and write u32. */
static void emit_bitcount(cg *c, const ptx_instr *in, const char *name)
{
    ptx_type ty = ty0(in);
    need_int(c, ty);
    unsigned w = 8 * ptx_type_size(ty);
    if (w != 32 && w != 64)
        cg_fail(c, "needs a 32- or 64-bit type");
    dst_open(c, in, PTX_TYPE_u32);
    if (!strcmp(name, "bfind")) {
        if (ptx_has(in, PTX_MOD_shiftamt))
            cg_puts(c, "cb_shiftamt(");
        cg_printf(c, "cb_bfind_%s%u(", is_signed(ty) ? "s" : "u", w);
        cg_read(c, &in->ops[1], ty);
        cg_puts(c, ")");
        if (ptx_has(in, PTX_MOD_shiftamt))
            cg_printf(c, ", %u)", w);
    } else {
        cg_printf(c, "cb_%s%u(", name, w);
        cg_read(c, &in->ops[1], ty);
        cg_puts(c, ")");
    }
    dst_close(c, in, PTX_TYPE_u32);
}

void c_emit_popc(cg *c, const ptx_instr *in) { emit_bitcount(c, in, "popc"); }
void c_emit_clz(cg *c, const ptx_instr *in) { emit_bitcount(c, in, "clz"); }
void c_emit_bfind(cg *c, const ptx_instr *in) { emit_bitcount(c, in, "bfind"); }

void c_emit_brev(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    unsigned w = 8 * ptx_type_size(ty);
    if (w != 32 && w != 64)
        cg_fail(c, "brev needs .b32 or .b64");
    dst_open(c, in, ty);
    cg_printf(c, "cb_brev%u(", w);
    cg_read(c, &in->ops[1], ty);
    cg_puts(c, ")");
    dst_close(c, in, ty);
}

void c_emit_bfe(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    need_int(c, ty);
    unsigned w = 8 * ptx_type_size(ty);
    if (w != 32 && w != 64)
        cg_fail(c, "bfe needs a 32- or 64-bit type");
    dst_open(c, in, ty);
    cg_printf(c, "cb_bfe_%s%u(", is_signed(ty) ? "s" : "u", w);
    cg_read(c, &in->ops[1], ty);
    cg_puts(c, ", ");
    cg_read(c, &in->ops[2], PTX_TYPE_u32);
    cg_puts(c, ", ");
    cg_read(c, &in->ops[3], PTX_TYPE_u32);
    cg_puts(c, ")");
    dst_close(c, in, ty);
}

void c_emit_bfi(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    unsigned w = 8 * ptx_type_size(ty);
    if (w != 32 && w != 64)
        cg_fail(c, "bfi needs .b32 or .b64");
    dst_open(c, in, ty);
    cg_printf(c, "cb_bfi%u(", w);
    cg_read(c, &in->ops[1], ty);
    cg_puts(c, ", ");
    cg_read(c, &in->ops[2], ty);
    cg_puts(c, ", ");
    cg_read(c, &in->ops[3], PTX_TYPE_u32);
    cg_puts(c, ", ");
    cg_read(c, &in->ops[4], PTX_TYPE_u32);
    cg_puts(c, ")");
    dst_close(c, in, ty);
}

void c_emit_prmt(cg *c, const ptx_instr *in)
{
    if (cg_emit_prmt_mode(c, in))
        return;
    dst_open(c, in, PTX_TYPE_b32);
    cg_puts(c, "cb_prmt(");
    for (int i = 1; i <= 3; i++) {
        cg_read(c, &in->ops[i], PTX_TYPE_b32);
        cg_puts(c, i < 3 ? ", " : ")");
    }
    dst_close(c, in, PTX_TYPE_b32);
}

/* ---- comparison and selection -------------------------------------------------------- */

const char *cg_compare_fmt(cg *c, const ptx_instr *in, int is_float)
{
    static const struct { ptx_mod mod; const char *fmt; } cmps[] = {
        {PTX_MOD_eq, "(A == B)"}, {PTX_MOD_ne, "(A < B || A > B)"}, {PTX_MOD_lt, "(A < B)"},
        {PTX_MOD_le, "(A <= B)"}, {PTX_MOD_gt, "(A > B)"}, {PTX_MOD_ge, "(A >= B)"},
        {PTX_MOD_lo, "(A < B)"}, {PTX_MOD_ls, "(A <= B)"}, {PTX_MOD_hi, "(A > B)"}, {PTX_MOD_hs, "(A >= B)"},
        {PTX_MOD_equ, "!(A < B || A > B)"}, {PTX_MOD_neu, "(A != B)"}, {PTX_MOD_ltu, "!(A >= B)"},
        {PTX_MOD_leu, "!(A > B)"}, {PTX_MOD_gtu, "!(A <= B)"}, {PTX_MOD_geu, "!(A < B)"},
        {PTX_MOD_num, "(A == A && B == B)"}, {PTX_MOD_nan, "(A != A || B != B)"},
    };
    const char *fmt = NULL;
    for (size_t i = 0; i < sizeof cmps / sizeof cmps[0]; i++)
        if (ptx_has(in, cmps[i].mod))
            fmt = cmps[i].fmt;
    if (!fmt)
        cg_fail(c, "missing comparison operator");
    if (!is_float && (fmt[0] == '!' || ptx_has(in, PTX_MOD_num) || ptx_has(in, PTX_MOD_nan)))
        cg_fail(c, "unordered comparison on integers");
    if (is_float && (ptx_has(in, PTX_MOD_lo) || ptx_has(in, PTX_MOD_ls) || ptx_has(in, PTX_MOD_hi) ||
                     ptx_has(in, PTX_MOD_hs)))
        cg_fail(c, "lo/ls/hi/hs compare unsigned integers");
    return fmt;
}

/* A C expression (int 0/1) comparing operands 1 and 2 as ty. */
static void emit_compare(cg *c, const ptx_instr *in, ptx_type ty)
{
    const char *fmt = cg_compare_fmt(c, in, ptx_type_is_float(ty));
    int fl = ptx_type_is_float(ty);
    if (ty == PTX_TYPE_pred && !ptx_has(in, PTX_MOD_eq) && !ptx_has(in, PTX_MOD_ne))
        cg_fail(c, "predicates compare only with eq/ne");
    if (!fl && !is_int(ty) && ty != PTX_TYPE_pred)
        need_float(c, ty);
    if (ty != PTX_TYPE_pred && !fl)
        need_int(c, ty);
    if (ptx_has(in, PTX_MOD_lo) || ptx_has(in, PTX_MOD_ls) || ptx_has(in, PTX_MOD_hi) || ptx_has(in, PTX_MOD_hs))
        if (is_signed(ty) || fl)
            cg_fail(c, "lo/ls/hi/hs compare unsigned integers");
    cg_printf(c, "({ %s A = ", cg_ctype(ty));
    rd(c, in, 1, ty);
    cg_printf(c, ", B = ");
    rd(c, in, 2, ty);
    cg_printf(c, "; %s; })", fmt);
}

static const char *bool_op(cg *c, const ptx_instr *in, int nops_with_c)
{
    const char *op = ptx_has(in, PTX_MOD_and) ? "&" : ptx_has(in, PTX_MOD_or) ? "|" : ptx_has(in, PTX_MOD_xor) ? "^"
                     : NULL;
    if ((op != NULL) != (in->nops == nops_with_c))
        cg_fail(c, "a boolean operation needs a third source predicate");
    return op;
}

void c_emit_setp(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    const char *op = bool_op(c, in, 4);
    cg_puts(c, "int cb_r = ");
    emit_compare(c, in, ty);
    cg_puts(c, ";\n    int cb_c = ");
    if (op)
        cg_read(c, &in->ops[3], PTX_TYPE_pred);
    else
        cg_puts(c, ptx_has(in, PTX_MOD_and) ? "1" : "0");
    cg_puts(c, ";\n    ");
    const char *comb = op ? op : "|";
    if (in->ops[0].kind == PTX_OPD_reg && cg_class(c->f->regs[in->ops[0].reg].type) != 'p')
        cg_fail(c, "setp writes a predicate");
    cg_dst_open(c, &in->ops[0], PTX_TYPE_pred);
    cg_printf(c, "cb_r %s cb_c", comb);
    cg_dst_close(c, &in->ops[0], PTX_TYPE_pred);
    if (in->ops[0].reg2 >= 0) {
        ptx_operand q = in->ops[0];
        q.reg = q.reg2;
        cg_puts(c, "    ");
        cg_dst_open(c, &q, PTX_TYPE_pred);
        cg_printf(c, "(!cb_r) %s cb_c", comb);
        cg_dst_close(c, &q, PTX_TYPE_pred);
    }
}

void c_emit_set(cg *c, const ptx_instr *in)
{
    ptx_type dt = in->types[0], st = in->types[1];
    const char *op = bool_op(c, in, 4);
    cg_puts(c, "int cb_r = ");
    emit_compare(c, in, st);
    if (op) {
        cg_printf(c, " %s ", op);
        cg_read(c, &in->ops[3], PTX_TYPE_pred);
    }
    cg_puts(c, ";\n    ");
    dst_open(c, in, dt);
    if (dt == PTX_TYPE_f32)
        cg_puts(c, "cb_r ? 1.0f : 0.0f");
    else if (is_int(dt) && ptx_type_size(dt) == 4)
        cg_puts(c, "cb_r ? 0xffffffffu : 0u");
    else
        cg_fail(c, "set writes .u32, .s32 or .f32");
    dst_close(c, in, dt);
}

void c_emit_selp(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    dst_open(c, in, ty);
    cg_read(c, &in->ops[3], PTX_TYPE_pred);
    cg_puts(c, " ? ");
    cg_read(c, &in->ops[1], ty);
    cg_puts(c, " : ");
    cg_read(c, &in->ops[2], ty);
    dst_close(c, in, ty);
}

void c_emit_slct(cg *c, const ptx_instr *in)
{
    ptx_type dt = in->types[0], st = in->types[1];
    if (st != PTX_TYPE_s32 && st != PTX_TYPE_f32)
        cg_fail(c, "slct compares .s32 or .f32");
    dst_open(c, in, dt);
    cg_puts(c, "(");
    rd(c, in, 3, st);
    cg_puts(c, " >= 0) ? ");
    cg_read(c, &in->ops[1], dt);
    cg_puts(c, " : ");
    cg_read(c, &in->ops[2], dt);
    dst_close(c, in, dt);
}

/* ---- control flow --------------------------------------------------------------------- */

void c_emit_bra(cg *c, const ptx_instr *in)
{
    cg_printf(c, "goto %s;\n", c->f->labels[in->ops[0].sym.index].cname);
}

/* Reads a u64/u32 from a call-scope .param buffer. */
static void param_value(cg *c, const ptx_operand *o, const char *ctype, const char *tname)
{
    cg_printf(c, "(%s)cb_ld_%s(%s)", ctype, tname, c->f->vars[o->sym.index].cname);
}

static void emit_builtin_call(cg *c, const ptx_instr *in, const char *name)
{
    const ptx_operand *rets = &in->ops[0], *args = &in->ops[2];
    if (!strcmp(name, "vprintf") && args->nelems == 2 && rets->nelems <= 1) {
        cg_puts(c, "int32_t cb_r = t->blk->rt->vprintf(t, (const char *)(uintptr_t)");
        param_value(c, &args->elems[0], "uint64_t", "u64");
        cg_puts(c, ", (const void *)(uintptr_t)");
        param_value(c, &args->elems[1], "uint64_t", "u64");
        cg_puts(c, ");\n");
        if (rets->nelems)
            cg_printf(c, "    cb_st_s32(%s, cb_r);\n", c->f->vars[rets->elems[0].sym.index].cname);
        else
            cg_puts(c, "    (void)cb_r;\n");
        return;
    }
    if (!strcmp(name, "__assertfail") && args->nelems == 5) {
        cg_puts(c, "t->blk->rt->assert_fail(t, (const char *)(uintptr_t)");
        param_value(c, &args->elems[0], "uint64_t", "u64");
        cg_puts(c, ", (const char *)(uintptr_t)");
        param_value(c, &args->elems[1], "uint64_t", "u64");
        cg_puts(c, ", ");
        param_value(c, &args->elems[2], "uint32_t", "u32");
        cg_puts(c, ", (const char *)(uintptr_t)");
        param_value(c, &args->elems[3], "uint64_t", "u64");
        cg_puts(c, ", ");
        param_value(c, &args->elems[4], "uint64_t", "u64");
        cg_puts(c, ");\n");
        return;
    }
    if (!strcmp(name, "malloc") && args->nelems == 1 && rets->nelems == 1) {
        cg_printf(c, "cb_st_u64(%s, (uint64_t)(uintptr_t)t->blk->rt->malloc(t, ",
                  c->f->vars[rets->elems[0].sym.index].cname);
        param_value(c, &args->elems[0], "uint64_t", "u64");
        cg_puts(c, "));\n");
        return;
    }
    if (!strcmp(name, "free") && args->nelems == 1 && rets->nelems == 0) {
        cg_puts(c, "t->blk->rt->free(t, (void *)(uintptr_t)");
        param_value(c, &args->elems[0], "uint64_t", "u64");
        cg_puts(c, ");\n");
        return;
    }
    char msg[200];
    snprintf(msg, sizeof msg, "call to undefined function '%.120s'", name);
    cg_fail(c, msg);
}

/* A direct call, or an indirect one through a function pointer register (whose
 * C type comes from the call's buffers). Returns when the callee executed exit. */
void c_emit_call(cg *c, const ptx_instr *in)
{
    if (in->ops[1].kind == PTX_OPD_reg) {
        cg_puts(c, "((void (*)(cb_thread *, int *");
        for (uint32_t i = 0; i < in->ops[0].nelems + in->ops[2].nelems; i++)
            cg_puts(c, ", unsigned char *");
        cg_puts(c, "))(uintptr_t)");
        cg_read(c, &in->ops[1], PTX_TYPE_u64);
        cg_puts(c, ")(t, cb_x");
    } else {
        const ptx_func *callee = &c->m->funcs[in->ops[1].sym.index];
        if (!callee->defined)
            return emit_builtin_call(c, in, callee->name);
        cg_printf(c, "%s(t, cb_x", callee->cname);
    }
    for (int l = 0; l <= 2; l += 2)
        for (uint32_t i = 0; i < in->ops[l].nelems; i++)
            cg_printf(c, ", %s", c->f->vars[in->ops[l].elems[i].sym.index].cname);
    cg_puts(c, ");\n    if (*cb_x) return;\n");
}

void c_emit_ret(cg *c, const ptx_instr *in) { (void)in; cg_puts(c, "return;\n"); }

/* exit: a kernel returns; a .func sets the flag that every caller tests after the call. */
void c_emit_exit(cg *c, const ptx_instr *in)
{
    (void)in;
    cg_puts(c, c->f->is_entry ? "return;\n" : "*cb_x = 1; return;\n");
}

void c_emit_trap(cg *c, const ptx_instr *in) { (void)in; cg_puts(c, "t->blk->rt->trap(t);\n"); }
void c_emit_pmevent(cg *c, const ptx_instr *in) { (void)in; cg_puts(c, "/* pmevent: no effect */\n"); }

/* ---- atomics ---------------------------------------------------------------------------- */

static const char *atom_op(const ptx_instr *in)
{
    static const struct { ptx_mod mod; const char *name; } ops[] = {
        {PTX_MOD_add, "add"}, {PTX_MOD_min, "min"}, {PTX_MOD_max, "max"}, {PTX_MOD_inc, "inc"},
        {PTX_MOD_dec, "dec"}, {PTX_MOD_cas, "cas"}, {PTX_MOD_exch, "exch"}, {PTX_MOD_and, "and"},
        {PTX_MOD_or, "or"}, {PTX_MOD_xor, "xor"},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (ptx_has(in, ops[i].mod))
            return ops[i].name;
    return NULL;
}

/* The helper type suffix for an atomic, or NULL if the combination does not exist. */
static const char *atom_type(const char *op, ptx_type ty)
{
    int bitwise = !strcmp(op, "and") || !strcmp(op, "or") || !strcmp(op, "xor") || !strcmp(op, "exch") ||
                  !strcmp(op, "cas");
    switch (ty) {
    case PTX_TYPE_b32: return bitwise ? "u32" : NULL;
    case PTX_TYPE_b64: return bitwise ? "u64" : NULL;
    case PTX_TYPE_u32: return "u32";
    case PTX_TYPE_s32: return strcmp(op, "inc") && strcmp(op, "dec") ? "s32" : NULL;
    case PTX_TYPE_u64: return strcmp(op, "inc") && strcmp(op, "dec") ? "u64" : NULL;
    case PTX_TYPE_s64: return strcmp(op, "inc") && strcmp(op, "dec") ? "s64" : NULL;
    case PTX_TYPE_f32: return !strcmp(op, "add") || !strcmp(op, "exch") ? "f32" : NULL;
    case PTX_TYPE_f64: return !strcmp(op, "add") ? "f64" : NULL;
    default: return NULL;
    }
}

static void emit_atomic(cg *c, const ptx_instr *in, int has_dst)
{
    ptx_type ty = ty0(in);
    const char *op = atom_op(in);
    const char *tn = op ? atom_type(op, ty) : NULL;
    if (!op || !tn || vec_width(in) > 1)
        cg_fail(c, "unsupported atomic operation");
    int m = has_dst ? 1 : 0, ncas = !strcmp(op, "cas");
    if (in->nops != m + 2 + ncas)
        cg_fail(c, "wrong number of operands");
    ptx_type vt = ptx_type_from_name(tn, 3);
    emit_spin_point(c, in, &in->ops[m]);
    if (has_dst)
        dst_open(c, in, vt);
    else
        cg_puts(c, "(void)(");
    cg_printf(c, "cb_atom_%s_%s(", op, tn);
    cg_address(c, &in->ops[m], ptx_instr_space(in));
    for (int i = m + 1; i < in->nops; i++) {
        cg_puts(c, ", ");
        cg_read(c, &in->ops[i], vt);
    }
    cg_puts(c, ")");
    if (has_dst)
        dst_close(c, in, vt);
    else
        cg_puts(c, ");\n");
}

void c_emit_atom(cg *c, const ptx_instr *in) { emit_atomic(c, in, 1); }
void c_emit_red(cg *c, const ptx_instr *in) { emit_atomic(c, in, 0); }

void c_emit_membar(cg *c, const ptx_instr *in)
{
    (void)in;
    cg_puts(c, "__atomic_thread_fence(__ATOMIC_SEQ_CST);\n");
}

void c_emit_fence(cg *c, const ptx_instr *in) { c_emit_membar(c, in); }

/* ---- collectives ------------------------------------------------------------------------ */

void c_emit_bar(cg *c, const ptx_instr *in)
{
    if (ptx_has(in, PTX_MOD_warp)) {
        if (in->nops != 1)
            cg_fail(c, "bar.warp.sync takes a mask");
        cg_puts(c, "t->blk->rt->warp_sync(t, ");
        cg_read(c, &in->ops[0], PTX_TYPE_u32);
        cg_puts(c, ");\n");
        return;
    }
    if (ptx_has(in, PTX_MOD_red)) {
        const char *mode = ptx_has(in, PTX_MOD_popc) ? "CB_RED_POPC" : ptx_has(in, PTX_MOD_and) ? "CB_RED_AND"
                           : ptx_has(in, PTX_MOD_or) ? "CB_RED_OR" : NULL;
        if (!mode || in->nops < 3 || in->nops > 4)
            cg_fail(c, "bad bar.red");
        ptx_type rt = ptx_has(in, PTX_MOD_popc) ? PTX_TYPE_u32 : PTX_TYPE_pred;
        dst_open(c, in, rt);
        cg_puts(c, "t->blk->rt->bar_red(t, ");
        cg_read(c, &in->ops[1], PTX_TYPE_u32);
        cg_puts(c, ", ");
        if (in->nops == 4)
            cg_read(c, &in->ops[2], PTX_TYPE_u32);
        else
            cg_puts(c, "0");
        cg_printf(c, ", %s, (uint32_t)", mode);
        cg_read(c, &in->ops[in->nops - 1], PTX_TYPE_pred);
        cg_puts(c, ")");
        dst_close(c, in, rt);
        return;
    }
    if (in->nops > 2)
        cg_fail(c, "wrong number of operands");
    cg_printf(c, "t->blk->rt->%s(t, ", ptx_has(in, PTX_MOD_arrive) ? "bar_arrive" : "bar_sync");
    cg_read(c, &in->ops[0], PTX_TYPE_u32);
    cg_puts(c, ", ");
    if (in->nops == 2)
        cg_read(c, &in->ops[1], PTX_TYPE_u32);
    else
        cg_puts(c, "0");
    cg_puts(c, ");\n");
}

void c_emit_barrier(cg *c, const ptx_instr *in) { c_emit_bar(c, in); }

void c_emit_shfl(cg *c, const ptx_instr *in)
{
    const char *mode = ptx_has(in, PTX_MOD_up) ? "CB_SHFL_UP" : ptx_has(in, PTX_MOD_down) ? "CB_SHFL_DOWN"
                       : ptx_has(in, PTX_MOD_bfly) ? "CB_SHFL_BFLY" : ptx_has(in, PTX_MOD_idx) ? "CB_SHFL_IDX" : NULL;
    int sync = ptx_has(in, PTX_MOD_sync);
    if (!mode || in->nops != (sync ? 5 : 4) || ptx_type_size(ty0(in)) != 4)
        cg_fail(c, "bad shfl");
    cg_puts(c, "uint32_t cb_p = 0; uint32_t cb_r = t->blk->rt->shfl(t, ");
    cg_printf(c, "%s, ", mode);
    for (int i = 1; i <= 3; i++) {
        cg_read(c, &in->ops[i], PTX_TYPE_b32);
        cg_puts(c, ", ");
    }
    if (sync)
        cg_read(c, &in->ops[4], PTX_TYPE_b32);
    else
        cg_puts(c, "0xffffffffu");
    cg_puts(c, ", &cb_p);\n    ");
    dst_open(c, in, PTX_TYPE_b32);
    cg_puts(c, "cb_r");
    dst_close(c, in, PTX_TYPE_b32);
    if (in->ops[0].reg2 >= 0) {
        ptx_operand q = in->ops[0];
        q.reg = q.reg2;
        cg_puts(c, "    ");
        cg_dst_open(c, &q, PTX_TYPE_pred);
        cg_puts(c, "cb_p");
        cg_dst_close(c, &q, PTX_TYPE_pred);
    } else {
        cg_puts(c, "    (void)cb_p;\n");
    }
}

void c_emit_vote(cg *c, const ptx_instr *in)
{
    const char *mode = ptx_has(in, PTX_MOD_all) ? "CB_VOTE_ALL" : ptx_has(in, PTX_MOD_any) ? "CB_VOTE_ANY"
                       : ptx_has(in, PTX_MOD_uni) ? "CB_VOTE_UNI" : ptx_has(in, PTX_MOD_ballot) ? "CB_VOTE_BALLOT"
                       : NULL;
    int sync = ptx_has(in, PTX_MOD_sync);
    if (!mode || in->nops != (sync ? 3 : 2))
        cg_fail(c, "bad vote");
    ptx_type rt = ptx_has(in, PTX_MOD_ballot) ? PTX_TYPE_b32 : PTX_TYPE_pred;
    dst_open(c, in, rt);
    cg_printf(c, "t->blk->rt->vote(t, %s, (uint32_t)", mode);
    cg_read(c, &in->ops[1], PTX_TYPE_pred);
    cg_puts(c, ", ");
    if (sync)
        cg_read(c, &in->ops[2], PTX_TYPE_u32);
    else
        cg_puts(c, "t->blk->rt->activemask(t)");
    cg_puts(c, ")");
    dst_close(c, in, rt);
}

void c_emit_activemask(cg *c, const ptx_instr *in)
{
    dst_open(c, in, PTX_TYPE_b32);
    cg_puts(c, "t->blk->rt->activemask(t)");
    dst_close(c, in, PTX_TYPE_b32);
}
