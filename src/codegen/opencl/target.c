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
 *
 * It also writes the lock-step regions of pass_uniform (below) and the barriers at the joins
 * after barrier code (ptx_func.barrier_join).
 */
#include "codegen/opencl/opencl.h"

#include <stdio.h>
#include <stdlib.h>
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

/* Refuses the instruction whose text starts at start when it holds what OpenCL C cannot run (denied). */
static void check_denied(cg *c, size_t start)
{
    for (size_t i = 0; i < sizeof denied / sizeof denied[0]; i++)
        if (c->buf && strstr(c->buf + start, denied[i].text)) {
            c->len = start;
            c->buf[start] = 0;
            cg_unsupported(c, denied[i].why);
        }
}

/* ---- lock-step regions (pass_uniform: ptx_func.pred_region) ----------------------------------
 *
 * Every thread of the block runs a region's blocks in the order of its schedule (region_next),
 * which is the order they are written in, after the region's head; cb_act says whether the thread
 * is on the path there. A branch of an active thread parks it: cb_pc = its target (CB_GONE for an exit),
 * cb_act = 0; each block starts by activating the threads parked for it (cb_sb<k>). After a loop's
 * last block the threads still active are parked for where they go, and the block goes back to the
 * loop's head while a thread is parked for it (CB_ANY: a count behind work-group barriers that every
 * thread reaches, CB_ANY). The sites (warp.c) run in every thread, the inactive ones as absent lanes
 * (exited ones after CB_GONE), so their barriers stay uniform. The body has written `if (guard) { `
 * (or `{ `) before an instruction and closes it after: region code closes it at once, tests the
 * guard itself and opens a block for the closing brace. */

/* The guard of in as a C condition ("1u" when it has none). */
static void guard_cond(cg *c, const ptx_instr *in)
{
    if (in->guard >= 0)
        cg_printf(c, "%s%s", in->guard_neg ? "!" : "", c->f->regs[in->guard].cname);
    else
        cg_puts(c, "1u");
}

/* Whether in has an effect that another thread can see (memory, printf, calls, a trap). */
static int has_effect(const ptx_instr *in)
{
    switch (in->op) {
    case PTX_OP_st: case PTX_OP_atom: case PTX_OP_red: case PTX_OP_call: case PTX_OP_trap: case PTX_OP_cp:
    case PTX_OP_mbarrier: case PTX_OP_prefetch:
        return 1;
    default:
        return 0;
    }
}

/* Parks the active threads for instruction t (the kernel's end: they have exited). */
static void park(cg *c, uint32_t t)
{
    if (t >= c->f->ninstrs)
        cg_puts(c, "cb_pc = CB_GONE; cb_act = 0u;");
    else
        cg_printf(c, "cb_pc = %uu; cb_act = 0u;", t);
}

/* Copies the text written since start back with each "return;" (a callee's exit, an assert) made
 * the thread's exit in the region. */
static void exits_in_region(cg *c, size_t start)
{
    if (!c->buf || !strstr(c->buf + start, "return;"))
        return;
    size_t len = c->len - start;
    char *text = malloc(len + 1);
    if (!text)
        cg_fail(c, "out of memory");
    memcpy(text, c->buf + start, len + 1);
    c->len = start;
    c->buf[start] = 0;
    for (char *p = text, *q; *p; p = q + 7) {
        q = strstr(p, "return;");
        if (!q) {
            cg_puts(c, p);
            break;
        }
        cg_printf(c, "%.*s{ cb_pc = CB_GONE; cb_act = 0u; }", (int)(q - p), p);
    }
    free(text);
}

/* After instruction k, the last of a block: the uniform jump to the region's end after its last
 * block (the blocks themselves are written in the schedule's order). */
static void goto_next(cg *c, uint32_t k)
{
    int32_t next = c->f->region_next[k];
    if (next == PTX_REGION_RETURN)
        cg_puts(c, "    return; /* the region ends the kernel: every thread is done */\n");
    else if (next >= 0 && (c->f->region_mark[next] & PTX_REGION_END))
        cg_printf(c, "    goto cb_sb%d;\n", next);
}

/* The branch target of bra in. */
static uint32_t target_of(cg *c, const ptx_instr *in)
{
    return c->f->labels[in->ops[0].sym.index].instr;
}

static int region_instr(cg *c, const ptx_instr *in, uint32_t k, int32_t r, size_t *start);

/* Emits the head of a region (in its guard: the threads that branch or leave are parked; a loop's
 * head that starts a region is its first block instead), then the region's blocks in the order of the schedule (region_next), so that the code runs them one after
 * the other, and only the loops jump back. The body's own pass over them writes nothing. */
static void region_head(cg *c, const ptx_instr *in, uint32_t k)
{
    const ptx_func *f = c->f;
    int virt = (f->region_mark[k] & PTX_REGION_VIRTUAL) != 0;
    cg_puts(c, "/* a lock-step region (pass_uniform), its blocks in the order they run */ ");
    if (!virt) {
        if (in->op == PTX_OP_trap)
            cg_puts(c, "cb_trap(cb_heap); ");
        park(c, in->op == PTX_OP_bra ? target_of(c, in) : f->ninstrs);
    }
    cg_puts(c, "\n    }\n");
    if (!virt && f->region_next[k] != (int32_t)k + 1) {   /* the threads that go on wait for their block too */
        cg_puts(c, "    if (cb_act) { ");
        park(c, k + 1);
        cg_puts(c, " }\n");
    }
    const ptx_instr *saved = c->in;
    for (int32_t x = virt ? (int32_t)k : f->region_next[k]; x >= 0 && !(f->region_mark[x] & PTX_REGION_END);) {
        uint32_t y = (uint32_t)x;
        for (;; y++) {
            size_t start = c->len;
            c->in = &f->instrs[y];
            cg_printf(c, "    /* %u (line %u) */\n    { ", y, f->instrs[y].line);
            region_instr(c, &f->instrs[y], y, (int32_t)k, &start);
            cg_puts(c, "    }\n");
            check_denied(c, start);
            if (f->region_next[y] != -1)
                break;
        }
        x = f->region_next[y];
    }
    c->in = saved;
    cg_puts(c, "    { ");
}

/* Emits instruction k of a region (its body, or its end E). Returns 1 when it wrote the instruction
 * itself, 0 when the caller emits it as usual (E, after the region's end code). */
static int region_instr(cg *c, const ptx_instr *in, uint32_t k, int32_t r, size_t *start)
{
    const ptx_func *f = c->f;
    unsigned char mark = f->region_mark[k];
    (void)r;
    cg_puts(c, "}\n    ");   /* the body's `if (guard) {` */
    if (mark & PTX_REGION_END) {   /* every thread goes on (those that owe a collective are checked on) */
        cg_printf(c, "cb_sb%u: ; cb_act = 1u; cb_pc = CB_NONE; /* the end of the lock-step region */\n    ", k);
        if (in->guard >= 0) {
            cg_puts(c, "if (");
            guard_cond(c, in);
            cg_puts(c, ") ");
        }
        cg_puts(c, "{ ");
        *start = c->len;
        return 0;
    }
    if (mark & PTX_REGION_JOIN)
        cg_printf(c, "cb_sb%u: ; if (cb_pc == %uu) { cb_act = 1u; cb_pc = CB_NONE; }\n    ", k, k);
    if (in->op == PTX_OP_bra || in->op == PTX_OP_ret || in->op == PTX_OP_exit || in->op == PTX_OP_trap) {
        cg_puts(c, "if (cb_act && ");
        guard_cond(c, in);
        cg_puts(c, ") { ");
        if (in->op == PTX_OP_trap)
            cg_puts(c, "cb_trap(cb_heap); ");
        park(c, in->op == PTX_OP_bra ? target_of(c, in) : f->ninstrs);
        cg_puts(c, " }\n");
    } else if (ocl_is_collective(in) || in->op == PTX_OP_activemask || (ptx_instr_flags(in) & PTX_OPF_CONVERGE)) {
        /* in every thread (unguarded: pass_uniform); an active one that owes a collective fails */
        cg_puts(c, "if (cb_act && (cb_ws & 2u)) cb_wfail(cb_heap, 0xffffffffu, cb_ws >> 2);\n    { ");
        size_t s0 = c->len;
        if (in->op == PTX_OP_ld || in->op == PTX_OP_st)
            ocl_emit_volatile_site(c, in, c->target->op[in->op]);
        else
            c->target->op[in->op](c, in);
        exits_in_region(c, s0);
        cg_puts(c, "    }\n");
    } else {
        cg_puts(c, "if (cb_act && ");
        guard_cond(c, in);
        cg_puts(c, ") {\n    ");
        if (has_effect(in))
            cg_puts(c, "if (cb_ws & 2u) cb_wfail(cb_heap, 0xffffffffu, cb_ws >> 2);\n    ");
        size_t s0 = c->len;
        if (ocl_is_half_instr(in))
            emit_half(c, in);
        else if (!cg_emit_cvt_narrow(c, in) && !cg_emit_packed(c, in))
            c->target->op[in->op](c, in);
        exits_in_region(c, s0);
        cg_puts(c, "    }\n");
    }
    int32_t next = f->region_next[k];
    if (next != -1) {   /* the end of a block */
        int falls = in->guard >= 0 || (in->op != PTX_OP_bra && in->op != PTX_OP_ret && in->op != PTX_OP_exit &&
                                       in->op != PTX_OP_trap);
        if (falls && ((uint32_t)next != k + 1 || f->region_loop[k] >= 0)) {
            cg_puts(c, "    if (cb_act) { ");
            park(c, k + 1);
            cg_puts(c, " }\n");
        }
        for (int32_t h = f->region_loop[k]; h >= 0; h = f->region_outer[h])   /* the loops: another trip? */
            cg_printf(c, "    { uint cb_n; CB_ANY(cb_pc == %uu, cb_n); if (cb_n != 0u) goto cb_sb%d; }\n", (unsigned)h, h);
        goto_next(c, k);
    }
    cg_puts(c, "    { ");   /* for the body's closing brace */
    return 1;
}

static int opencl_by_type(cg *c, const ptx_instr *in)
{
    int half = ocl_is_half_instr(in);
    size_t start = c->len;
    const ptx_func *f = c->f;
    uint32_t k = (uint32_t)(in - f->instrs);
    int32_t r = f->pred_region && k < f->ninstrs ? f->pred_region[k] : -1;
    if (f->barrier_join && k < f->ninstrs && f->barrier_join[k] &&
        (r < 0 || (uint32_t)r == k || (f->region_mark[k] & PTX_REGION_END))) {
        /* the join of a uniform branch with barriers on its sides (pass_uniform): a barrier here too */
        cg_puts(c, in->guard >= 0 ? "}\n    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); /* a join (pass_uniform) */\n    if ("
                                  : "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); /* a join (pass_uniform) */\n    ");
        if (in->guard >= 0) {
            guard_cond(c, in);
            cg_puts(c, ") { ");
        }
        start = c->len;
    }
    if (r >= 0 && (uint32_t)r == k) {   /* the head writes the region */
        region_head(c, in, k);
        return 1;
    }
    if (r >= 0 && !(f->region_mark[k] & PTX_REGION_END))   /* written after its head */
        return 1;
    if (r >= 0)
        region_instr(c, in, k, r, &start);
    if (f->pred_region && (has_effect(in) || ocl_is_collective(in) || (ptx_instr_flags(in) & PTX_OPF_CONVERGE) ||
                           in->op == PTX_OP_bar || in->op == PTX_OP_barrier)) {
        /* after a region: a lane that owes a collective must leave without effects (warp.c) */
        cg_puts(c, "if (cb_ws & 2u) cb_wfail(cb_heap, 0xffffffffu, cb_ws >> 2);\n    ");
        start = c->len;
    }
    /* the C dialect's order (c/target.c): the fp4/fp6 pairs, half precision, then the packed integer,
     * f32x2 and video forms (c/simd.c, whose helpers, cb_codegen_c_prelude_simd, are OpenCL C too) */
    if (cg_emit_cvt_narrow(c, in))
        ;
    else if (half)
        emit_half(c, in);
    else if ((in->op == PTX_OP_ld || in->op == PTX_OP_st) && (ptx_instr_flags(in) & PTX_OPF_CONVERGE))
        ocl_emit_volatile_site(c, in, c->target->op[in->op]);
    else if (!cg_emit_packed(c, in))
        c->target->op[in->op](c, in);
    check_denied(c, start);
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
