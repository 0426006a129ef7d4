/* target.c: the OpenCL C dialect's table (CB_DIALECT_OPENCL, opencl.h).
 *
 * It starts from the C dialect's table, the way a PoCL device starts from
 * pocl_basic's ops, and overrides what differs: the unit and kernels
 * (unit.c), memory, atomics, barriers and calls (memory.c), and the rows it
 * cannot express yet, which refuse (cg_unsupported: NOT_SUPPORTED at load).
 * Every instruction goes through by_type below, which emits half precision
 * through the C dialect's emitters (c/half.c, whose helpers, c/prelude_half.c,
 * are OpenCL C too: integer bit work and double arithmetic, so the results are
 * the CPU backend's bit for bit; they need cl_khr_fp64), else the row, and
 * then checks the text the shared emitters wrote for what has no OpenCL C
 * form (directed rounding, the CPU runtime): such an instruction is refused
 * with the reason, never emitted as different code.
 */
#include "codegen/opencl/opencl.h"

#include <stdio.h>
#include <string.h>

static void refuse(cg *c, const ptx_instr *in)
{
    char msg[200];
    snprintf(msg, sizeof msg, "'%s' is not supported by the OpenCL dialect yet", ptx_ops[in->op].name);
    cg_unsupported(c, msg);
}

/* What the shared emitters may write that OpenCL C cannot run, and why. */
static const struct {
    const char *text, *why;
} denied[] = {
    {"t->", "needs the CPU runtime (no OpenCL form yet)"},
    {"cb_conv", "a warp convergence point is not supported by the OpenCL dialect yet"},
    {"memcpy", "needs memcpy (no OpenCL form)"},
    {"cb_u128", "128-bit registers (.b128) need 128-bit integers, which OpenCL C does not have: not supported "
                "by the OpenCL dialect yet"},
    {"cb_fma_r64(", "fma.f64 with a directed rounding mode is not supported by the OpenCL dialect yet (the "
                    "error of a fused f64 product and sum has no exact sign test in double arithmetic)"},
    {"cb_d2narrow", "conversions to fp4, fp6 and ue8m0 are not supported by the OpenCL dialect yet"},
    {"cb_narrow2h", "conversions from fp4, fp6 and ue8m0 are not supported by the OpenCL dialect yet"},
    {"ue8m0", "conversions to or from ue8m0 are not supported by the OpenCL dialect yet"},
    {"cb_redux_f32", "redux.sync on f32 is not supported by the OpenCL dialect yet"},
};

static int is_half(ptx_type t)
{
    return t == PTX_TYPE_f16 || t == PTX_TYPE_bf16 || ptx_type_kind(t) == 'h' || t == PTX_TYPE_tf32;
}

/* The fp8 pairs are bits to every instruction but cvt, which converts them through half precision. */
static int is_fp8(ptx_type t)
{
    return t == PTX_TYPE_e4m3x2 || t == PTX_TYPE_e5m2x2 || t == PTX_TYPE_e4m3 || t == PTX_TYPE_e5m2;
}

int ocl_is_half_instr(const ptx_instr *in)
{
    if (ptx_ops[in->op].flags & (PTX_OPF_BITS | PTX_OPF_FRAGMENT))
        return 0;
    for (int i = 0; i < in->ntypes; i++)
        if (is_half(in->types[i]) || (in->op == PTX_OP_cvt && is_fp8(in->types[i])))
            return 1;
    return 0;
}

/* A half-precision instruction through the C dialect's emitters (c/half.c); what they do not
 * take (half atomics, packed forms) is refused. */
static void emit_half(cg *c, const ptx_instr *in)
{
    if (in->op == PTX_OP_atom || in->op == PTX_OP_red) {   /* memory.c: CAS loops on 32-bit words */
        c->target->op[in->op](c, in);
        return;
    }
    if (!cg_emit_half(c, in))
        cg_unsupported(c, "this half-precision (f16/bf16) form is not supported by the OpenCL dialect yet");
}

static int opencl_by_type(cg *c, const ptx_instr *in)
{
    int half = ocl_is_half_instr(in);
    size_t start = c->len;
    const ptx_func *f = c->f;
    uint32_t k = (uint32_t)(in - f->instrs);
    int32_t r = f->pred_region && k < f->ninstrs ? f->pred_region[k] : -1;
    int wrap = 0;
    if (r >= 0 && (uint32_t)r == k) {   /* the head "@p bra P": the lanes that branch go on as inactive */
        cg_puts(c, "cb_act = 0u; /* a predicated region (pass_uniform): these lanes only take part in its "
                   "collectives, as absent lanes */\n");
        return 1;
    }
    if (r >= 0 && (k + 1 >= f->ninstrs || f->pred_region[k + 1] != r)) {
        cg_puts(c, "cb_act = 1u; /* the end of the predicated region */\n    ");   /* P: unguarded (pass_uniform) */
    } else if (r >= 0 && in->op != PTX_OP_bra && !ocl_is_collective(in)) {
        cg_puts(c, "if (cb_act) {\n    ");
        wrap = 1;
    }
    /* the C dialect's order (c/target.c): the fp4/fp6 pairs, half precision, then the packed integer,
     * f32x2 and video forms (c/simd.c, whose helpers, cb_codegen_c_prelude_simd, are OpenCL C too) */
    if (cg_emit_cvt_narrow(c, in))
        ;
    else if (half)
        emit_half(c, in);
    else if (!cg_emit_packed(c, in))
        c->target->op[in->op](c, in);
    if (wrap)
        cg_puts(c, "    }\n");
    for (size_t i = 0; i < sizeof denied / sizeof denied[0]; i++)
        if (c->buf && strstr(c->buf + start, denied[i].text)) {
            c->len = start;
            c->buf[start] = 0;
            cg_unsupported(c, denied[i].why);
        }
    return 1;
}

void cg_target_opencl_init(cg_target *t)
{
    cg_target_c_init(t);
    t->name = "opencl";
    t->checks_access = 0;   /* device addresses are offsets into the heap buffer: nothing else is reachable */
    t->begin = ocl_unit_begin;
    t->declare = ocl_unit_declare;
    t->tables = ocl_unit_tables;
    t->function = ocl_unit_function;
    t->kernel = ocl_unit_kernel;
    t->by_type = opencl_by_type;
    t->special = ocl_special;
    t->symbol = ocl_symbol;
    t->locals = ocl_locals;
    t->op[PTX_OP_ld] = ocl_emit_ld;
    t->op[PTX_OP_ldu] = ocl_emit_ld;
    t->op[PTX_OP_st] = ocl_emit_st;
    t->op[PTX_OP_cvta] = ocl_emit_cvta;
    t->op[PTX_OP_isspacep] = ocl_emit_isspacep;
    t->op[PTX_OP_atom] = ocl_emit_atom;
    t->op[PTX_OP_red] = ocl_emit_red;
    t->op[PTX_OP_membar] = ocl_emit_membar;
    t->op[PTX_OP_fence] = ocl_emit_membar;
    t->op[PTX_OP_nanosleep] = ocl_emit_nanosleep;
    t->op[PTX_OP_bar] = ocl_emit_bar;
    t->op[PTX_OP_barrier] = ocl_emit_bar;
    t->op[PTX_OP_call] = ocl_emit_call;
    t->op[PTX_OP_exit] = ocl_emit_exit;
    t->op[PTX_OP_trap] = ocl_emit_trap;
    t->op[PTX_OP_shfl] = ocl_emit_shfl;
    t->op[PTX_OP_vote] = ocl_emit_vote;
    t->op[PTX_OP_activemask] = ocl_emit_activemask;
    t->op[PTX_OP_match] = ocl_emit_match;
    t->op[PTX_OP_redux] = ocl_emit_redux;
    t->op[PTX_OP_elect] = ocl_emit_elect;
    /* tex tld4 txq suld sust: the C dialect's emitters, on descriptors in the heap (tex.c) */
    t->tex_ctx = "cb_heap";
    t->trap_returns = 1;
    /* not yet: runtime services, matrices, async copies */
    static const ptx_opcode no[] = {
        PTX_OP_mma, PTX_OP_wmma, PTX_OP_ldmatrix, PTX_OP_stmatrix, PTX_OP_cp, PTX_OP_mbarrier,
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        t->op[no[i]] = refuse;
}
