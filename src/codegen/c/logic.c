/* logic.c: the C emitters of bit and logic operations, comparison and
 * selection (and or xor not cnot lop3 shl shr shf popc clz brev bfind bfe
 * bfi prmt setp set selp slct; CB_DIALECT_C).
 */
#include "codegen/c/ops.h"

#include <stdio.h>
#include <string.h>

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
