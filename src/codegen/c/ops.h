/* ops.h: small helpers of the C dialect's instruction files (arith.c,
 * memory.c, logic.c, control.c, int.c, half.c), all static inline.
 *
 * Integer arithmetic is done in unsigned types so that overflow wraps without
 * undefined behaviour; float arithmetic stays in the PTX type (float for f32)
 * and is never contracted.
 */
#ifndef CB_CODEGEN_C_OPS_H
#define CB_CODEGEN_C_OPS_H

#include "codegen/c/c.h"

/* ---- small pieces ------------------------------------------------------------------- */

static inline ptx_type ty0(const ptx_instr *in) { return in->ntypes ? in->types[0] : PTX_TYPE_b32; }

static inline const char *utype(ptx_type t) { return ptx_type_size(t) > 4 ? "uint64_t" : "uint32_t"; }

static inline int is_signed(ptx_type t) { return ptx_type_kind(t) == 's'; }

static inline int is_int(ptx_type t)
{
    char k = ptx_type_kind(t);
    return k == 'b' || k == 'u' || k == 's';
}

static inline void need_int(cg *c, ptx_type t)
{
    if (!is_int(t) || ptx_type_size(t) > 8)
        cg_fail(c, "unsupported type for this instruction");
}

static inline void need_float(cg *c, ptx_type t)
{
    if (t == PTX_TYPE_f16 || t == PTX_TYPE_bf16 || ptx_type_kind(t) == 'h')
        cg_fail(c, "this instruction does not take a half-precision type");
    if (!ptx_type_is_float(t))
        cg_fail(c, "unsupported type for this instruction");
}

/* Reads operand i as ty, flushing f32 subnormals when the instruction says .ftz. */
static inline void rd(cg *c, const ptx_instr *in, int i, ptx_type ty)
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
static inline void fres_open(cg *c, const ptx_instr *in, ptx_type ty)
{
    if ((ty == PTX_TYPE_f32 || ty == PTX_TYPE_f64) && ptx_has(in, PTX_MOD_ftz))
        cg_puts(c, ty == PTX_TYPE_f32 ? "cb_ftz32(" : "cb_ftz64(");
    if (ptx_has(in, PTX_MOD_sat))
        cg_puts(c, ty == PTX_TYPE_f32 ? "cb_sat32(" : "cb_sat64(");
}

/* fres_open/close for arithmetic results, which also make an f32 NaN canonical
 * (f64 NaNs propagate as on the host: the first NaN operand, quieted, or 0xfff8...):
 * cb_cna32, which a dialect whose target computes so already defines as nothing
 * (the OpenCL dialect on NVIDIA). */
static inline void ares_open(cg *c, const ptx_instr *in, ptx_type ty)
{
    /* a result no read sees the bits of needs no canonical NaN (passes/nan.c) */
    int blind = c->f && c->f->nan_blind && in->nops && in->ops[0].kind == PTX_OPD_reg && in->ops[0].reg >= 0 &&
                c->f->nan_blind[in->ops[0].reg];
    cg_puts(c, ty == PTX_TYPE_f32 && !blind ? "cb_cna32(" : "(");
    fres_open(c, in, ty);
}

static inline void fres_close(cg *c, const ptx_instr *in, ptx_type ty);

static inline void ares_close(cg *c, const ptx_instr *in, ptx_type ty)
{
    fres_close(c, in, ty);
    cg_puts(c, ")");
}

static inline void fres_close(cg *c, const ptx_instr *in, ptx_type ty)
{
    if (ptx_has(in, PTX_MOD_sat))
        cg_puts(c, ")");
    if ((ty == PTX_TYPE_f32 || ty == PTX_TYPE_f64) && ptx_has(in, PTX_MOD_ftz))
        cg_puts(c, ")");
}

/* The directed rounding mode of an instruction, as a <fenv.h> macro; NULL for .rn or none. */
static inline const char *fround(const ptx_instr *in)
{
    if (ptx_has(in, PTX_MOD_rz) || ptx_has(in, PTX_MOD_rzi)) return "FE_TOWARDZERO";
    if (ptx_has(in, PTX_MOD_rm) || ptx_has(in, PTX_MOD_rmi)) return "FE_DOWNWARD";
    if (ptx_has(in, PTX_MOD_rp) || ptx_has(in, PTX_MOD_rpi)) return "FE_UPWARD";
    return NULL;
}

static inline void dst_open(cg *c, const ptx_instr *in, ptx_type ty) { cg_dst_open(c, &in->ops[0], ty); }
static inline void dst_close(cg *c, const ptx_instr *in, ptx_type ty) { cg_dst_close(c, &in->ops[0], ty); }

#endif
