/* int.c: emitters for the integer instructions added to ops.def
 * after the core set: mul24, mad24, dp4a, dp2a, bmsk, szext, packed
 * 16-bit (u16x2/s16x2) and .relu min/max, prmt modes and cvt.pack.sat. Helpers: prelude_int.c.
 */
#include "codegen/c/ops.h"

#include <stdio.h>
#include <string.h>

static void read_u32(cg *c, const ptx_instr *in, int i)
{
    cg_puts(c, "(uint32_t)");
    cg_read(c, &in->ops[i], PTX_TYPE_u32);
}

static void need_32(cg *c, const ptx_instr *in)
{
    ptx_type t = ty0(in);
    if (t != PTX_TYPE_u32 && t != PTX_TYPE_s32)
        cg_fail(c, "needs .u32 or .s32");
}

/* The 24-bit product term: .hi is bits 16..47, .lo bits 0..31 of the 48-bit product. */
static void product24(cg *c, const ptx_instr *in)
{
    int s = ty0(in) == PTX_TYPE_s32, hi = ptx_has(in, PTX_MOD_hi);
    if (hi == ptx_has(in, PTX_MOD_lo))
        cg_fail(c, "needs .hi or .lo");
    cg_printf(c, "(uint32_t)((uint64_t)cb_mul24_%s(", s ? "s" : "u");
    read_u32(c, in, 1);
    cg_puts(c, ", ");
    read_u32(c, in, 2);
    cg_printf(c, ") >> %d)", hi ? 16 : 0);
}

void c_emit_mul24(cg *c, const ptx_instr *in)
{
    need_32(c, in);
    cg_dst_open(c, &in->ops[0], PTX_TYPE_u32);
    product24(c, in);
    cg_dst_close(c, &in->ops[0], PTX_TYPE_u32);
}

void c_emit_mad24(cg *c, const ptx_instr *in)
{
    need_32(c, in);
    int sat = ptx_has(in, PTX_MOD_sat);
    if (sat && (ty0(in) != PTX_TYPE_s32 || !ptx_has(in, PTX_MOD_hi)))
        cg_fail(c, "mad24.sat needs .hi.s32");
    cg_dst_open(c, &in->ops[0], PTX_TYPE_u32);
    if (sat) {
        cg_puts(c, "(uint32_t)cb_sat_s32((int64_t)(int32_t)");
        product24(c, in);
        cg_puts(c, " + (int64_t)(int32_t)");
        read_u32(c, in, 3);
        cg_puts(c, ")");
    } else {
        product24(c, in);
        cg_puts(c, " + ");
        read_u32(c, in, 3);
    }
    cg_dst_close(c, &in->ops[0], PTX_TYPE_u32);
}

/* dp4a/dp2a: types are the signedness of a and b; d is .s32 if either is signed. */
static void emit_dp(cg *c, const ptx_instr *in, int two)
{
    ptx_type ta = in->types[0], tb = in->types[1];
    if ((ta != PTX_TYPE_u32 && ta != PTX_TYPE_s32) || (tb != PTX_TYPE_u32 && tb != PTX_TYPE_s32))
        cg_fail(c, "dp4a/dp2a take .u32/.s32 types");
    int hi = ptx_has(in, PTX_MOD_hi);
    if (two && hi == ptx_has(in, PTX_MOD_lo))
        cg_fail(c, "dp2a needs .lo or .hi");
    cg_dst_open(c, &in->ops[0], PTX_TYPE_u32);
    cg_printf(c, "cb_dp%da(", two ? 2 : 4);
    for (int i = 1; i <= 3; i++) {
        read_u32(c, in, i);
        cg_puts(c, ", ");
    }
    cg_printf(c, "%d, %d", ta == PTX_TYPE_s32, tb == PTX_TYPE_s32);
    if (two)
        cg_printf(c, ", %d", hi);
    cg_puts(c, ")");
    cg_dst_close(c, &in->ops[0], PTX_TYPE_u32);
}

void c_emit_dp4a(cg *c, const ptx_instr *in) { emit_dp(c, in, 0); }
void c_emit_dp2a(cg *c, const ptx_instr *in) { emit_dp(c, in, 1); }

/* .wrap or .clamp, exactly one. */
static int wrap_mode(cg *c, const ptx_instr *in)
{
    int wrap = ptx_has(in, PTX_MOD_wrap);
    if (wrap == ptx_has(in, PTX_MOD_clamp))
        cg_fail(c, "needs .clamp or .wrap");
    return wrap;
}

void c_emit_bmsk(cg *c, const ptx_instr *in)
{
    if (ty0(in) != PTX_TYPE_b32)
        cg_fail(c, "bmsk needs .b32");
    int wrap = wrap_mode(c, in);
    cg_dst_open(c, &in->ops[0], PTX_TYPE_u32);
    cg_puts(c, "cb_bmsk(");
    read_u32(c, in, 1);
    cg_puts(c, ", ");
    read_u32(c, in, 2);
    cg_printf(c, ", %d)", wrap);
    cg_dst_close(c, &in->ops[0], PTX_TYPE_u32);
}

void c_emit_szext(cg *c, const ptx_instr *in)
{
    need_32(c, in);
    int wrap = wrap_mode(c, in);
    cg_dst_open(c, &in->ops[0], PTX_TYPE_u32);
    cg_puts(c, "cb_szext(");
    read_u32(c, in, 1);
    cg_puts(c, ", ");
    read_u32(c, in, 2);
    cg_printf(c, ", %d, %d)", wrap, ty0(in) == PTX_TYPE_s32);
    cg_dst_close(c, &in->ops[0], PTX_TYPE_u32);
}

int cg_emit_int_minmax(cg *c, const ptx_instr *in, int is_max)
{
    ptx_type ty = ty0(in);
    int relu = ptx_has(in, PTX_MOD_relu);
    if (ty == PTX_TYPE_u16x2 || ty == PTX_TYPE_s16x2) {
        if (relu && ty != PTX_TYPE_s16x2)
            cg_fail(c, ".relu needs .s16x2 or .s32");
        cg_dst_open(c, &in->ops[0], PTX_TYPE_u32);
        cg_puts(c, "cb_minmax16x2(");
        read_u32(c, in, 1);
        cg_puts(c, ", ");
        read_u32(c, in, 2);
        cg_printf(c, ", %d, %d, %d)", is_max, ty == PTX_TYPE_s16x2, relu);
        cg_dst_close(c, &in->ops[0], PTX_TYPE_u32);
        return 1;
    }
    if (!relu)
        return 0;
    if (ty != PTX_TYPE_s32)
        cg_fail(c, ".relu needs .s16x2 or .s32");
    cg_dst_open(c, &in->ops[0], PTX_TYPE_s32);
    cg_puts(c, "({ int32_t cb_x = ");
    cg_read(c, &in->ops[1], PTX_TYPE_s32);
    cg_puts(c, ", cb_y = ");
    cg_read(c, &in->ops[2], PTX_TYPE_s32);
    cg_printf(c, "; int32_t cb_v = cb_x %s cb_y ? cb_x : cb_y; cb_v < 0 ? 0 : cb_v; })", is_max ? ">" : "<");
    cg_dst_close(c, &in->ops[0], PTX_TYPE_s32);
    return 1;
}

/* prmt with a mode: the selector comes from the mode and c & 3. */
int cg_emit_prmt_mode(cg *c, const ptx_instr *in)
{
    static const ptx_mod modes[] = {PTX_MOD_f4e, PTX_MOD_b4e, PTX_MOD_rc8, PTX_MOD_ecl, PTX_MOD_ecr, PTX_MOD_rc16};
    for (int m = 0; m < 6; m++) {
        if (!ptx_has(in, modes[m]))
            continue;
        cg_dst_open(c, &in->ops[0], PTX_TYPE_u32);
        cg_puts(c, "cb_prmt_mode(");
        for (int i = 1; i <= 3; i++) {
            read_u32(c, in, i);
            cg_puts(c, ", ");
        }
        cg_printf(c, "%d)", m);
        cg_dst_close(c, &in->ops[0], PTX_TYPE_u32);
        return 1;
    }
    return 0;
}

/* cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u8,s8,u4,s4}.s32.b32 d, a, b, c:
 * a and b saturated to the narrow type, b in the low bits, a above it, then c
 * shifted left past both. */
int cg_emit_cvt_pack(cg *c, const ptx_instr *in)
{
    if (!ptx_has(in, PTX_MOD_pack))
        return 0;
    ptx_type dt = in->types[0];
    int bits = dt == PTX_TYPE_u16 || dt == PTX_TYPE_s16 ? 16 : dt == PTX_TYPE_u8 || dt == PTX_TYPE_s8 ? 8
               : dt == PTX_TYPE_u4 || dt == PTX_TYPE_s4 ? 4 : 0;
    int sg = dt == PTX_TYPE_s16 || dt == PTX_TYPE_s8 || dt == PTX_TYPE_s4;
    if (!bits || !ptx_has(in, PTX_MOD_sat) || in->ntypes < 2 || in->types[1] != PTX_TYPE_s32 ||
        (bits == 16 ? in->nops != 3 || in->ntypes != 2
                    : in->nops != 4 || in->ntypes != 3 || in->types[2] != PTX_TYPE_b32))
        cg_fail(c, "cvt.pack takes .sat.{u16,s16}.s32 d, a, b or .sat.{u8,s8,u4,s4}.s32.b32 d, a, b, c");
    cg_dst_open(c, &in->ops[0], PTX_TYPE_u32);
    cg_printf(c, "cb_cvt_pack(%d, %d", bits, sg);
    for (int i = 1; i < in->nops; i++) {
        cg_puts(c, ", ");
        read_u32(c, in, i);
    }
    cg_puts(c, in->nops == 3 ? ", 0)" : ")");
    cg_dst_close(c, &in->ops[0], PTX_TYPE_u32);
    return 1;
}
