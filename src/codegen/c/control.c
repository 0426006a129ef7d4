/* control.c: the C emitters of control flow and of the block and warp
 * collectives that go through the runtime (bra call ret exit trap pmevent
 * bar barrier shfl vote activemask; CB_DIALECT_C).
 */
#include "codegen/c/ops.h"

#include <stdio.h>
#include <string.h>

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
    if (!strcmp(name, "cudaGraphSetConditional") && args->nelems == 2 && rets->nelems == 0) {
        /* the device side of conditional graph nodes: the handle is a cb_graph_cond (kernel_abi.h) */
        cg_puts(c, "cb_graph_cond *cb_h = (cb_graph_cond *)(uintptr_t)");
        param_value(c, &args->elems[0], "uint64_t", "u64");
        cg_puts(c, ";\n    if (!cb_h || __atomic_load_n(&cb_h->magic, __ATOMIC_ACQUIRE) != CB_GRAPH_COND_MAGIC)\n"
                   "        t->blk->rt->fail(t, \"cudaGraphSetConditional: the handle is not a live conditional "
                   "handle (cuGraphConditionalHandleCreate)\");\n"
                   "    __atomic_store_n(&cb_h->value, ");
        param_value(c, &args->elems[1], "uint32_t", "u32");
        cg_puts(c, ", __ATOMIC_RELEASE);\n");
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
        cg_puts(c, c->m->nfunc_slots ? "((void (*)(cb_thread *, int *, const uint32_t *" : "((void (*)(cb_thread *, int *");
        for (uint32_t i = 0; i < in->ops[0].nelems + in->ops[2].nelems; i++)
            cg_puts(c, ", unsigned char *");
        cg_puts(c, "))(uintptr_t)");
        cg_read(c, &in->ops[1], PTX_TYPE_u64);
        cg_puts(c, c->m->nfunc_slots ? ")(t, cb_x, cb_so" : ")(t, cb_x");
    } else {
        const ptx_func *callee = &c->m->funcs[in->ops[1].sym.index];
        if (!callee->defined)
            return emit_builtin_call(c, in, callee->name);
        cg_printf(c, "%s(t, cb_x%s", callee->cname, c->m->nfunc_slots ? ", cb_so" : "");
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

/* brkpt: a breakpoint. With no debugger attached to stop in, the launch
 * fails, naming it. */
void c_emit_brkpt(cg *c, const ptx_instr *in)
{
    (void)in;
    cg_puts(c, "t->blk->rt->fail(t, \"brkpt: a breakpoint instruction (__brkpt), and no debugger to stop in\");\n");
}

/* setmaxnreg.{inc,dec}.sync.aligned.u32 n (sm_90a): asks the hardware to
 * grow or shrink the warp's register file; registers are C locals here, so
 * there is nothing to do. */
void c_emit_setmaxnreg(cg *c, const ptx_instr *in)
{
    const ptx_operand *n = &in->ops[0];
    if (ptx_has(in, PTX_MOD_inc) == ptx_has(in, PTX_MOD_dec) || !ptx_has(in, PTX_MOD_sync) ||
        !ptx_has(in, PTX_MOD_aligned) || ty0(in) != PTX_TYPE_u32 || n->kind != PTX_OPD_int || n->imm < 24 ||
        n->imm > 256 || n->imm % 8)
        cg_fail(c, "setmaxnreg needs .inc or .dec, .sync.aligned.u32 and a count of 24..256, a multiple of 8");
    cg_puts(c, "/* setmaxnreg: registers are C locals on the CPU */\n");
}

/* alloca{.local}.u32/.u64 ptr, size{, align}: memory on the C stack, which
 * lives until the function returns (the ISA: until it returns or a
 * stackrestore releases it). stackrestore therefore releases nothing, and
 * stacksave gives the frame address, which only stackrestore reads. */
void c_emit_alloca(cg *c, const ptx_instr *in)
{
    ptx_type ty = ty0(in);
    uint64_t align = 8;
    if (ty != PTX_TYPE_u32 && ty != PTX_TYPE_u64)
        cg_fail(c, "alloca takes .u32 or .u64");
    if (in->nops == 3) {
        if (in->ops[2].kind != PTX_OPD_int || !in->ops[2].imm || (in->ops[2].imm & (in->ops[2].imm - 1)) ||
            in->ops[2].imm > 4096)
            cg_fail(c, "alloca's alignment is a constant power of two (at most 4096)");
        align = in->ops[2].imm;
    }
    cg_puts(c, "uint64_t cb_n = (uint64_t)");
    cg_read(c, &in->ops[1], ty);
    cg_printf(c, ";\n    uintptr_t cb_s = (uintptr_t)__builtin_alloca(cb_n + %llu);\n    ", (unsigned long long)align);
    cg_dst_open(c, &in->ops[0], PTX_TYPE_u64);
    cg_printf(c, "(uint64_t)((cb_s + %lluu) & ~(uintptr_t)%lluu)", (unsigned long long)(align - 1),
              (unsigned long long)(align - 1));
    cg_dst_close(c, &in->ops[0], PTX_TYPE_u64);
}

void c_emit_stacksave(cg *c, const ptx_instr *in)
{
    if (ty0(in) != PTX_TYPE_u32 && ty0(in) != PTX_TYPE_u64)
        cg_fail(c, "stacksave takes .u32 or .u64");
    cg_dst_open(c, &in->ops[0], PTX_TYPE_u64);
    cg_puts(c, "(uint64_t)(uintptr_t)__builtin_frame_address(0)");
    cg_dst_close(c, &in->ops[0], PTX_TYPE_u64);
}

void c_emit_stackrestore(cg *c, const ptx_instr *in)
{
    if (ty0(in) != PTX_TYPE_u32 && ty0(in) != PTX_TYPE_u64)
        cg_fail(c, "stackrestore takes .u32 or .u64");
    cg_puts(c, "/* stackrestore: alloca memory goes when the function returns */\n");
}

/* griddepcontrol.wait / .launch_dependents (programmatic dependent launch).
 * A grid launched with programmatic stream serialization may start before
 * the grid it depends on ends, and .wait holds it until that grid has
 * completed and its memory is visible. The CPU backend starts a grid only
 * after the previous one in its stream has completed (which the attribute
 * permits: it allows overlap, it does not require it), so there is nothing
 * to wait for, and .launch_dependents (a hint that dependents may start) has
 * no effect. */
void c_emit_griddepcontrol(cg *c, const ptx_instr *in)
{
    int wait = ptx_has(in, PTX_MOD_wait), launch = ptx_has(in, PTX_MOD_launch_dependents), nmods = 0;
    for (int w = 0; w < PTX_MOD_WORDS; w++)
        nmods += __builtin_popcountll(in->mods[w]);
    if (wait == launch || nmods != 1)
        cg_fail(c, "griddepcontrol needs exactly one of .wait and .launch_dependents");
    cg_puts(c, wait ? "/* griddepcontrol.wait: the grid before this one in its stream has completed */\n"
                    : "/* griddepcontrol.launch_dependents: no effect */\n");
}

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
    if (in->nops < 1 || in->nops > 2)
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

/* barrier.cluster.arrive{.release|.relaxed}{.aligned} and
 * barrier.cluster.wait{.acquire}{.aligned}: the cluster's barrier, through
 * the runtime (kernel ABI 8). Every fence and atomic is sequentially
 * consistent here, so .relaxed needs nothing less. */
static void emit_cluster_barrier(cg *c, const ptx_instr *in)
{
    int arrive = ptx_has(in, PTX_MOD_arrive), wait = ptx_has(in, PTX_MOD_wait);
    if (arrive == wait || in->nops != 0 || (wait && (ptx_has(in, PTX_MOD_release) || ptx_has(in, PTX_MOD_relaxed))) ||
        (arrive && ptx_has(in, PTX_MOD_acquire)))
        cg_fail(c, "barrier.cluster takes .arrive{.release|.relaxed} or .wait{.acquire}, and no operands");
    cg_puts(c, "__atomic_thread_fence(__ATOMIC_SEQ_CST);\n    ");
    cg_puts(c, arrive ? "t->blk->rt->cluster_arrive(t);\n" : "t->blk->rt->cluster_wait(t);\n");
    if (wait)
        cg_puts(c, "    __atomic_thread_fence(__ATOMIC_SEQ_CST);\n");
}

void c_emit_barrier(cg *c, const ptx_instr *in)
{
    if (ptx_has(in, PTX_MOD_cluster))
        return emit_cluster_barrier(c, in);
    c_emit_bar(c, in);
}

void c_emit_shfl(cg *c, const ptx_instr *in)
{
    const char *mode = ptx_has(in, PTX_MOD_up) ? "CB_SHFL_UP" : ptx_has(in, PTX_MOD_down) ? "CB_SHFL_DOWN"
                       : ptx_has(in, PTX_MOD_bfly) ? "CB_SHFL_BFLY" : ptx_has(in, PTX_MOD_idx) ? "CB_SHFL_IDX" : NULL;
    int sync = ptx_has(in, PTX_MOD_sync);
    if (!mode || in->nops != (sync ? 5 : 4) || ptx_type_size(ty0(in)) != 4)
        cg_fail(c, "bad shfl");
    if (!sync)   /* over the lanes that execute it together */
        cg_emit_converge(c, "uint32_t cb_am = ");
    cg_puts(c, "uint32_t cb_p = 0; uint32_t cb_r = t->blk->rt->shfl(t, ");
    cg_printf(c, "%s, ", mode);
    for (int i = 1; i <= 3; i++) {
        cg_read(c, &in->ops[i], PTX_TYPE_b32);
        cg_puts(c, ", ");
    }
    if (sync)
        cg_read(c, &in->ops[4], PTX_TYPE_b32);
    else
        cg_puts(c, "cb_am");
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
    if (!sync)   /* over the lanes that execute it together */
        cg_emit_converge(c, "uint32_t cb_am = ");
    dst_open(c, in, rt);
    cg_printf(c, "t->blk->rt->vote(t, %s, (uint32_t)", mode);
    cg_read(c, &in->ops[1], PTX_TYPE_pred);
    cg_puts(c, ", ");
    if (sync)
        cg_read(c, &in->ops[2], PTX_TYPE_u32);
    else
        cg_puts(c, "cb_am");
    cg_puts(c, ")");
    dst_close(c, in, rt);
}

void c_emit_activemask(cg *c, const ptx_instr *in)
{
    cg_emit_converge(c, "uint32_t cb_am = ");
    dst_open(c, in, PTX_TYPE_b32);
    cg_puts(c, "cb_am");
    dst_close(c, in, PTX_TYPE_b32);
}
