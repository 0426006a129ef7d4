/* lanes.c: pass_lanes -- can a kernel's block run as SIMD lanes, and what
 * the lanes code generator (src/codegen/c/lanes.c) needs to know to do it.
 *
 * The lanes code runs all threads of a block together: every PTX register
 * that may differ between threads is an array over the block's lanes, every
 * instruction a loop over the lanes that execute it, and a block barrier a
 * point all of them reach together. What this pass computes, per kernel:
 *
 * - **Uniformity** (`ptx_kernel.varying`). A register is uniform when every
 *   thread of the block holds the same value in it wherever it is read: all
 *   its definitions read only uniform values (parameters, %ctaid, %ntid,
 *   constants, memory at a uniform address) and lie in blocks that every
 *   live lane executes together. Everything else varies (%tid, %laneid, loads
 *   from per-thread memory, atomics' results, shuffles ...). Uniform
 *   registers become plain C scalars, computed once for the block.
 * - **Divergence** (`ptx_bb.divergent`). A block is divergent when a branch
 *   whose condition varies decides whether a lane gets there: it lies
 *   between such a branch and the branch's immediate post-dominator
 *   (control dependence, Ferrante, Ottenstein and Warren 1987). A branch of
 *   which one side is a *tail* (pass_cfg: code that ends the thread) only
 *   lets lanes leave: the lanes that stay are all lanes still alive, so it
 *   makes nothing divergent (`if (i >= n) return;`, a grid-stride loop whose
 *   exit is `ret`). The two facts feed each other; they are iterated to a
 *   fixed point (a uniformity analysis in the manner of Karrenberg and
 *   Hack's whole-function vectorisation, 2011, and PoCL's
 *   VariableUniformityAnalysis).
 * - **Liveness** of registers at the end of each block (`live_out`), and
 *   whether some register may be read before it is written
 *   (`live_in_entry`), so that the generated code keeps only what is needed.
 * - **Whether it can** (`lanes`, else `lanes_why`). The lanes code handles
 *   block barriers (`bar.sync 0`, `bar.red`), `.sync` shuffles and votes,
 *   `bar.warp.sync`, `mma` and `wmma.mma` in blocks that are not divergent
 *   and with uniform masks (wmma.load/store run per lane);
 *   the calls of the runtime (vprintf, malloc, free, __assertfail); every
 *   other instruction that runs per thread. Kernels with calls of .func
 *   code, warp convergence points (volatile shared accesses, activemask,
 *   vote/shfl without .sync), parking (mbarrier waits, nanosleep), named or
 *   counted barriers, carry chains, ldmatrix/stmatrix, the async-copy
 *   family, an irreducible loop or a loop that never ends keep the general
 *   code (fibers or the per-thread block entry), which the runtime then runs
 *   instead.
 */
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

/* ---- the registers an instruction reads and writes ------------------------------ */

static void operand_regs(const ptx_operand *o, int32_t *out, uint32_t *n, uint32_t max)
{
    switch (o->kind) {
    case PTX_OPD_reg:
        if (o->reg >= 0 && *n < max)
            out[(*n)++] = o->reg;
        if (o->reg2 >= 0 && *n < max)
            out[(*n)++] = o->reg2;
        return;
    case PTX_OPD_mem:
        if (o->reg >= 0 && *n < max)
            out[(*n)++] = o->reg;
        for (uint32_t i = 0; i < o->nelems; i++)
            operand_regs(&o->elems[i], out, n, max);
        return;
    case PTX_OPD_vec:
    case PTX_OPD_list:
        for (uint32_t i = 0; i < o->nelems; i++)
            operand_regs(&o->elems[i], out, n, max);
        if (o->reg2 >= 0 && *n < max)   /* {d0, d1, d2, d3}|p of a texture fetch */
            out[(*n)++] = o->reg2;
        return;
    default:
        return;
    }
}

void pass_instr_regs(const ptx_instr *in, int32_t *defs, uint32_t *ndefs, int32_t *uses, uint32_t *nuses,
                     uint32_t max)
{
    *ndefs = *nuses = 0;
    /* wmma's row has no DST (its forms differ): wmma.load and wmma.mma write their first operand */
    int wmma_dst = in->op == PTX_OP_wmma && !ptx_has(in, PTX_MOD_store);
    int has_dst = ((ptx_ops[in->op].flags & PTX_OPF_DST) || wmma_dst) && in->nops > 0;
    for (uint32_t i = 0; i < in->nops; i++) {
        if (i == 0 && has_dst)
            operand_regs(&in->ops[0], defs, ndefs, max);
        else
            operand_regs(&in->ops[i], uses, nuses, max);
    }
    if (in->guard >= 0 && *nuses < max)
        uses[(*nuses)++] = in->guard;
    /* a guarded write keeps the old value where the guard is false: a read too */
    for (uint32_t i = 0; in->guard >= 0 && i < *ndefs && *nuses < max; i++)
        uses[(*nuses)++] = defs[i];
}

/* ---- what an instruction is to the lanes code ------------------------------------ */

/* A variable of the function that each thread has its own of: a .local
 * depot or a call-scope .param buffer (its .shared variables are the block's). */
static int per_thread_var(const ptx_var *v)
{
    return v->role == PTX_ROLE_body && (v->space == PTX_SPACE_local || v->space == PTX_SPACE_param);
}

/* 1 when the instruction's results differ between lanes whatever its inputs;
 * multi: the lanes span several blocks (ptx_kernel.lanes_multi), so %ctaid.x
 * differs too. */
static int varies_by_itself(const ptx_func *f, const ptx_instr *in, int multi)
{
    for (uint32_t i = 0; i < in->nops; i++) {
        const ptx_operand *o = &in->ops[i];
        if (o->kind == PTX_OPD_special && multi && o->special == PTX_SREG_ctaid && o->comp == 1)
            return 1;
        if (o->kind == PTX_OPD_special)
            switch (o->special) {
            case PTX_SREG_tid: case PTX_SREG_laneid: case PTX_SREG_warpid: case PTX_SREG_lanemask_eq:
            case PTX_SREG_lanemask_le: case PTX_SREG_lanemask_lt: case PTX_SREG_lanemask_ge:
            case PTX_SREG_lanemask_gt: case PTX_SREG_clock: case PTX_SREG_clock_hi: case PTX_SREG_clock64:
            case PTX_SREG_globaltimer: case PTX_SREG_globaltimer_lo: case PTX_SREG_globaltimer_hi:
                return 1;
            default:
                break;
            }
        /* the function's own variables (.local depots, call-scope .param) are per thread */
        if ((o->kind == PTX_OPD_sym || o->kind == PTX_OPD_mem) && o->sym.kind == PTX_SYM_func_var &&
            per_thread_var(&f->vars[o->sym.index]))
            return 1;
    }
    switch (in->op) {
    case PTX_OP_ld:
    case PTX_OP_ldu:
        return ptx_instr_space(in) == PTX_SPACE_local;
    case PTX_OP_atom: case PTX_OP_shfl: case PTX_OP_vote: case PTX_OP_activemask: case PTX_OP_match:
    case PTX_OP_redux: case PTX_OP_elect: case PTX_OP_isspacep: case PTX_OP_tex: case PTX_OP_tld4:
    case PTX_OP_suld: case PTX_OP_txq: case PTX_OP_mma: case PTX_OP_wmma: case PTX_OP_ldmatrix:
        return 1;
    default:
        return 0;
    }
}

static int is_runtime_call(const ptx_module *m, const ptx_instr *in)
{
    if (in->op != PTX_OP_call || in->ops[1].kind != PTX_OPD_sym)
        return 0;
    const ptx_func *g = &m->funcs[in->ops[1].sym.index];
    if (g->defined)
        return 0;
    return !strcmp(g->name, "vprintf") || !strcmp(g->name, "malloc") || !strcmp(g->name, "free") ||
           !strcmp(g->name, "__assertfail");
}

/* A block barrier the lanes code can take: bar.sync / barrier.sync / bar.red
 * on barrier 0 with no thread count. */
static int plain_barrier(const ptx_instr *in)
{
    if (ptx_has(in, PTX_MOD_warp) || ptx_has(in, PTX_MOD_arrive))
        return 0;
    int red = ptx_has(in, PTX_MOD_red);
    uint32_t id = red ? 1 : 0, nops = red ? 3 : 1;
    return in->nops == nops && in->ops[id].kind == PTX_OPD_int && in->ops[id].imm == 0;
}

/* Why the lanes code cannot run instruction in (NULL: it can). */
static const char *unsupported(const ptx_module *m, const ptx_instr *in)
{
    unsigned fl = ptx_instr_flags(in);
    if (fl & PTX_OPF_CONVERGE)
        return "a warp convergence point (volatile shared access, activemask, vote or shfl without .sync)";
    if (fl & PTX_OPF_PARKS)
        return "an instruction that parks the thread (mbarrier wait, nanosleep)";
    if ((fl & PTX_OPF_CARRY) || ptx_has(in, PTX_MOD_cc))
        return "a carry chain";
    switch (in->op) {
    case PTX_OP_call:
        return is_runtime_call(m, in) ? NULL : "a call of a .func";
    case PTX_OP_bar:
    case PTX_OP_barrier:
        if (ptx_has(in, PTX_MOD_warp))
            return in->nops == 1 ? NULL : "bar.warp.sync without a mask";
        return plain_barrier(in) ? NULL : "a named, counted or arrive-only barrier";
    case PTX_OP_shfl:
    case PTX_OP_vote:
        return ptx_has(in, PTX_MOD_sync) ? NULL : "vote or shfl without .sync";
    case PTX_OP_mma: case PTX_OP_wmma:   /* c/mma.c: c_lanes_emit_matrix; wmma.load/store run per lane */
        return NULL;
    case PTX_OP_match: case PTX_OP_redux: case PTX_OP_elect: case PTX_OP_ldmatrix: case PTX_OP_stmatrix:
        return "a warp-matrix or warp-exchange instruction";
    case PTX_OP_cp: case PTX_OP_mbarrier:
        return "an asynchronous copy or mbarrier";
    case PTX_OP_activemask:
        return "activemask";
    default:
        return fl & PTX_OPF_COLLECTIVE ? "a collective" : NULL;
    }
}

/* The operand of a warp collective that holds its member mask (-1: none). */
static int mask_operand(const ptx_instr *in)
{
    switch (in->op) {
    case PTX_OP_shfl: return 4;
    case PTX_OP_vote: return 2;
    case PTX_OP_bar:
    case PTX_OP_barrier: return ptx_has(in, PTX_MOD_warp) ? 0 : -1;
    default: return -1;
    }
}

/* ---- the analysis ---------------------------------------------------------------- */

#define REGS_MAX 160   /* an instruction names at most this many registers (mma: ~40) */
/* Modules with more kernels get no lanes entries: the C of a thousand lanes
 * entries takes the host compiler many minutes (tests/cuda/shared_per_kernel:
 * 1,503 kernels, 44 MB of C, 6.5 minutes at -O3 on the 2-core machine). */
#define PASS_LANES_MODULE_MAX 256
/* Nor do kernels longer than this: their lanes entries are large C (about
 * 400 bytes per instruction; thrust's and CUB's sorts and scans have 400 to
 * 1,100 instructions and tripled the C of their modules) and cost the host
 * compiler more than they save. The kernels of bench/suite have 22 to 165. */
#define PASS_LANES_KERNEL_MAX 320

typedef struct lanes_ctx {
    const ptx_module *m;
    const ptx_func *f;
    ptx_cfg *g;
    uint8_t *varying;
    uint8_t *div;        /* per block */
    uint8_t *pred_var;   /* per block: its conditional branch varies */
    int multi;           /* the lanes span a run of blocks: %ctaid.x varies */
} lanes_ctx;

/* A conditional terminator whose one side is a tail (or the exit) only lets lanes leave. */
static int is_kill(const ptx_cfg *g, const ptx_bb *bb)
{
    if (bb->term == PTX_TERM_CEXIT)
        return 1;
    if (bb->term != PTX_TERM_CBRA)
        return 0;
    for (int s = 0; s < 2; s++)
        if (bb->succ[s] == PTX_BB_EXIT || g->bbs[bb->succ[s]].tail)
            return 1;
    return 0;
}

/* One round of uniformity over every instruction; returns 1 when it changed something. */
static int propagate_registers(lanes_ctx *x)
{
    int changed = 0;
    int32_t defs[REGS_MAX], uses[REGS_MAX];
    uint32_t nd, nu;
    for (uint32_t o = 0; o < x->g->norder; o++) {
        uint32_t b = x->g->order[o];
        const ptx_bb *bb = &x->g->bbs[b];
        for (uint32_t i = bb->first; i < bb->end; i++) {
            const ptx_instr *in = &x->f->instrs[i];
            pass_instr_regs(in, defs, &nd, uses, &nu, REGS_MAX);
            if (!nd)
                continue;
            int v = x->div[b] || varies_by_itself(x->f, in, x->multi);
            /* bar.red's result is the block's: the same in every lane */
            int block_result = (in->op == PTX_OP_bar || in->op == PTX_OP_barrier) && ptx_has(in, PTX_MOD_red);
            for (uint32_t u = 0; u < nu && !v; u++)
                v = x->varying[uses[u]] && !(block_result && uses[u] != in->guard);
            for (uint32_t d = 0; d < nd && v; d++)
                if (!x->varying[defs[d]]) {
                    x->varying[defs[d]] = 1;
                    changed = 1;
                }
        }
    }
    return changed;
}

/* Recomputes divergence from the branches whose conditions vary; 1 when it changed. */
static int propagate_blocks(lanes_ctx *x)
{
    ptx_cfg *g = x->g;
    uint8_t *nd = calloc(g->nbbs, 1);
    if (!nd)
        return 0;
    for (uint32_t o = 0; o < g->norder; o++) {
        uint32_t b = g->order[o];
        ptx_bb *bb = &g->bbs[b];
        if (bb->term != PTX_TERM_CBRA && bb->term != PTX_TERM_CEXIT)
            continue;
        const ptx_instr *last = &x->f->instrs[bb->end - 1];
        if (!x->varying[last->guard])
            continue;
        if (is_kill(g, bb)) {
            /* the leaving lanes run the tail alone */
            for (int s = 0; s < 2; s++)
                if (bb->succ[s] != PTX_BB_EXIT && g->bbs[bb->succ[s]].tail)
                    nd[bb->succ[s]] = 1;
            continue;
        }
        for (int s = 0; s < bb->nsucc; s++)
            for (uint32_t y = bb->succ[s]; y != PTX_BB_EXIT && y != bb->ipdom; y = g->bbs[y].ipdom)
                nd[y] = 1;
    }
    /* a block divergent before stays so: divergence only grows with uniformity */
    int changed = 0;
    for (uint32_t b = 0; b < g->nbbs; b++)
        if (nd[b] && !x->div[b]) {
            x->div[b] = 1;
            changed = 1;
        }
    free(nd);
    return changed;
}

/* ---- affinity in %tid.x ------------------------------------------------------------ */

#define STRIDE_UNKNOWN INT64_MIN
#define STRIDE_NONE (INT64_MIN + 1)
#define STRIDE_MAX ((int64_t)1 << 40)

static int int_type(ptx_type t)
{
    char k = ptx_type_kind(t);
    unsigned s = ptx_type_size(t);
    return (k == 'b' || k == 'u' || k == 's') && (s == 4 || s == 8);
}

int pass_lanes_widens(const ptx_instr *in, ptx_type *src)
{
    if ((in->op == PTX_OP_mul || in->op == PTX_OP_mad) && ptx_has(in, PTX_MOD_wide) && in->ntypes >= 1) {
        *src = in->types[0];
        return 1;
    }
    if (in->op == PTX_OP_cvt && in->ntypes == 2 && int_type(in->types[0]) && int_type(in->types[1]) &&
        ptx_type_size(in->types[0]) > ptx_type_size(in->types[1])) {
        *src = in->types[1];
        return 1;
    }
    return 0;
}

typedef struct aff_ctx {
    lanes_ctx *x;
    int64_t *stride;
    uint8_t *status;     /* PTX_AFF_* once known */
} aff_ctx;

/* The stride of operand o (STRIDE_NONE: not affine; STRIDE_UNKNOWN: not yet known). */
static int64_t operand_stride(const aff_ctx *a, const ptx_operand *o, int *verify)
{
    switch (o->kind) {
    case PTX_OPD_int:
        return 0;
    case PTX_OPD_reg:
        if (!a->x->varying[o->reg])
            return 0;
        if (a->status[o->reg] == PTX_AFF_VERIFY)
            *verify = 1;
        return a->stride[o->reg];
    case PTX_OPD_special:
        switch (o->special) {
        case PTX_SREG_tid: return o->comp == 1 ? 1 : 0;   /* a row holds one tid.y and tid.z */
        case PTX_SREG_ntid: case PTX_SREG_ctaid: case PTX_SREG_nctaid: case PTX_SREG_nwarpid: case PTX_SREG_smid:
        case PTX_SREG_nsmid: case PTX_SREG_gridid: case PTX_SREG_warpsize: case PTX_SREG_dynamic_smem_size:
        case PTX_SREG_total_smem_size: case PTX_SREG_envreg:
            return 0;
        default:
            return STRIDE_NONE;
        }
    case PTX_OPD_sym:
        return o->sym.kind == PTX_SYM_func_var && per_thread_var(&a->x->f->vars[o->sym.index]) ? STRIDE_NONE : 0;
    default:
        return STRIDE_NONE;
    }
}

static int64_t stride_combine(int64_t a, int64_t b, int64_t v)
{
    if (a == STRIDE_NONE || b == STRIDE_NONE)
        return STRIDE_NONE;
    if (a == STRIDE_UNKNOWN || b == STRIDE_UNKNOWN)
        return STRIDE_UNKNOWN;
    return v > STRIDE_MAX || v < -STRIDE_MAX ? STRIDE_NONE : v;
}

/* a + b (a - b when neg), and a * k: the sentinels as stride_combine says,
 * a product that overflows int64 has no stride (no arithmetic on the
 * sentinels: they are INT64_MIN and its neighbour). */
static int64_t stride_sum(int64_t a, int64_t b, int neg)
{
    if (a <= STRIDE_NONE || b <= STRIDE_NONE)
        return stride_combine(a, b, 0);
    return stride_combine(a, b, neg ? a - b : a + b);
}

static int64_t stride_scale(int64_t a, int64_t k)
{
    int64_t v;
    if (a <= STRIDE_NONE)
        return stride_combine(a, 0, 0);
    return __builtin_mul_overflow(a, k, &v) ? STRIDE_NONE : stride_combine(a, 0, v);
}

/* The product a * b: an immediate times anything, or two values uniform along a row. */
static int64_t stride_product(const ptx_operand *oa, int64_t a, const ptx_operand *ob, int64_t b)
{
    if (oa->kind == PTX_OPD_int && ob->kind == PTX_OPD_int)
        return 0;
    if (oa->kind == PTX_OPD_int)
        return stride_scale(b, (int64_t)oa->imm);
    if (ob->kind == PTX_OPD_int)
        return stride_scale(a, (int64_t)ob->imm);
    if (a == 0 && b == 0)
        return 0;
    return stride_combine(a, b, STRIDE_NONE);
}

/* The stride an instruction gives its destination. */
static int64_t def_stride(const aff_ctx *a, const ptx_instr *in, int *verify)
{
    if (in->nops < 2 || in->ops[0].kind != PTX_OPD_reg || in->ops[0].reg2 >= 0)
        return STRIDE_NONE;
    ptx_type t = in->ntypes ? in->types[0] : PTX_TYPE_none;
    const ptx_operand *o = in->ops;
    ptx_type src;
    switch (in->op) {
    case PTX_OP_mov:
    case PTX_OP_cvta:
        if (!int_type(t) || (o[1].kind == PTX_OPD_reg && !int_type(a->x->f->regs[o[1].reg].type)))
            return STRIDE_NONE;
        return operand_stride(a, &o[1], verify);
    case PTX_OP_add:
    case PTX_OP_sub: {
        if (!int_type(t) || ptx_has(in, PTX_MOD_sat) || in->nops != 3)
            return STRIDE_NONE;
        int64_t x = operand_stride(a, &o[1], verify), y = operand_stride(a, &o[2], verify);
        return stride_sum(x, y, in->op == PTX_OP_sub);
    }
    case PTX_OP_mul:
    case PTX_OP_mad: {
        if (!int_type(t) && !(pass_lanes_widens(in, &src) && ptx_type_size(src) == 4))
            return STRIDE_NONE;
        if (!ptx_has(in, PTX_MOD_lo) && !ptx_has(in, PTX_MOD_wide))
            return STRIDE_NONE;
        if (ptx_has(in, PTX_MOD_sat) || in->nops != (in->op == PTX_OP_mad ? 4u : 3u))
            return STRIDE_NONE;
        int64_t x = operand_stride(a, &o[1], verify), y = operand_stride(a, &o[2], verify);
        if (pass_lanes_widens(in, &src) && ((x != 0 && o[1].kind == PTX_OPD_reg) || (y != 0 && o[2].kind == PTX_OPD_reg)))
            *verify = 1;   /* holds where the sources do not wrap */
        int64_t p = stride_product(&o[1], x, &o[2], y);
        if (in->op == PTX_OP_mul)
            return p;
        int64_t z = operand_stride(a, &o[3], verify);
        return stride_sum(p, z, 0);
    }
    case PTX_OP_shl: {
        if (!int_type(t) || o[2].kind != PTX_OPD_int || o[2].imm >= 32)
            return STRIDE_NONE;
        int64_t x = operand_stride(a, &o[1], verify);
        return stride_scale(x, (int64_t)1 << o[2].imm);
    }
    case PTX_OP_cvt: {
        if (in->ntypes != 2 || !int_type(in->types[0]) || !int_type(in->types[1]) || ptx_has(in, PTX_MOD_sat))
            return STRIDE_NONE;
        int64_t x = operand_stride(a, &o[1], verify);
        if (pass_lanes_widens(in, &src) && x != 0)
            *verify = 1;
        return x;
    }
    default:
        return STRIDE_NONE;
    }
}

/* The affine registers (ptx_kernel.affine, .stride), to a fixed point. */
static int affinity(ptx_module *m, ptx_kernel *k, lanes_ctx *x)
{
    uint32_t n = x->f->nregs ? x->f->nregs : 1;
    aff_ctx a = {x, ptx_arena_alloc(&m->arena, n * sizeof(int64_t)), ptx_arena_alloc(&m->arena, n)};
    if (!a.stride || !a.status)
        return -1;
    for (uint32_t r = 0; r < x->f->nregs; r++)
        a.stride[r] = x->varying[r] ? STRIDE_UNKNOWN : 0;
    int32_t defs[REGS_MAX], uses[REGS_MAX];
    uint32_t nd, nu;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t o = 0; o < x->g->norder; o++) {
            const ptx_bb *bb = &x->g->bbs[x->g->order[o]];
            for (uint32_t i = bb->first; i < bb->end; i++) {
                const ptx_instr *in = &x->f->instrs[i];
                pass_instr_regs(in, defs, &nd, uses, &nu, REGS_MAX);
                for (uint32_t d = 0; d < nd; d++) {
                    int32_t r = defs[d];
                    if (!x->varying[r] || a.stride[r] == STRIDE_NONE)
                        continue;
                    int verify = 0;
                    int64_t s = nd == 1 && !(in->guard >= 0 && x->varying[in->guard]) ? def_stride(&a, in, &verify)
                                                                                      : STRIDE_NONE;
                    uint8_t st = verify || bb->divergent ? PTX_AFF_VERIFY : PTX_AFF_EXACT;
                    if (s == STRIDE_UNKNOWN)
                        continue;
                    if (a.stride[r] == STRIDE_UNKNOWN) {
                        a.stride[r] = s;
                        a.status[r] = st;
                        changed = 1;
                    } else if (a.stride[r] != s) {
                        a.stride[r] = STRIDE_NONE;
                        changed = 1;
                    } else if (st > a.status[r]) {
                        a.status[r] = st;
                        changed = 1;
                    }
                }
            }
        }
    }
    for (uint32_t r = 0; r < x->f->nregs; r++) {
        if (!x->varying[r] || a.stride[r] == STRIDE_NONE || a.stride[r] == STRIDE_UNKNOWN) {
            a.status[r] = PTX_AFF_NONE;
            a.stride[r] = 0;
        }
    }
    k->affine = a.status;
    k->stride = a.stride;
    return 0;
}

/* Why kernel f cannot run as lanes whatever its uniformity (its size, its loops, its registers,
 * an instruction the lanes code does not take), or NULL. */
static const char *check_structure(const ptx_module *m, const ptx_func *f)
{
    const ptx_cfg *g = f->cfg;
    if (m->nkernels > PASS_LANES_MODULE_MAX)
        return "the module has more kernels than a lanes entry each would compile in reasonable time";
    if (f->ninstrs > PASS_LANES_KERNEL_MAX)
        return "more instructions than a lanes entry would compile in reasonable time";
    if (g->irreducible)
        return "an irreducible loop";
    if (g->stuck)
        return "a loop that never reaches the exit";
    for (uint32_t r = 0; r < f->nregs; r++)
        if (ptx_type_size(f->regs[r].type) > 8)
            return "a register wider than 64 bits";
    for (uint32_t o = 0; o < g->norder; o++)
        for (uint32_t i = g->bbs[g->order[o]].first; i < g->bbs[g->order[o]].end; i++) {
            const char *why = unsupported(m, &f->instrs[i]);
            if (why)
                return why;
        }
    return NULL;
}

/* Why the kernel's uniformity keeps it from running as lanes (a collective where its lanes
 * may differ), or NULL. */
static const char *check_collectives(lanes_ctx *x)
{
    const ptx_cfg *g = x->g;
    for (uint32_t o = 0; o < g->norder; o++) {
        uint32_t b = g->order[o];
        const ptx_bb *bb = &g->bbs[b];
        for (uint32_t i = bb->first; i < bb->end; i++) {
            const ptx_instr *in = &x->f->instrs[i];
            if (!(ptx_instr_flags(in) & PTX_OPF_COLLECTIVE))
                continue;
            if (bb->divergent)
                return "a barrier or warp collective under a branch that differs between threads";
            if (in->guard >= 0)
                return "a guarded barrier or warp collective";
            int mo = mask_operand(in);
            if (mo >= 0 && in->ops[mo].kind == PTX_OPD_reg && x->varying[in->ops[mo].reg])
                return "a warp collective whose mask differs between threads";
        }
    }
    return NULL;
}

/* Backward liveness over the blocks: live_out per block, and the registers
 * live at the entry. */
static int liveness(const ptx_module *m, ptx_kernel *k, const ptx_func *f, const ptx_cfg *g)
{
    uint32_t w = (f->nregs + 63) / 64, nb = g->nbbs;
    if (!w)
        w = 1;
    uint64_t *gen = calloc((size_t)nb * w, 8), *kill = calloc((size_t)nb * w, 8), *in = calloc((size_t)nb * w, 8);
    k->live_out = ptx_arena_alloc((ptx_arena *)&m->arena, (size_t)nb * w * 8);
    k->live_words = w;
    if (!gen || !kill || !in || !k->live_out) {
        free(gen);
        free(kill);
        free(in);
        return -1;
    }
    int32_t defs[REGS_MAX], uses[REGS_MAX];
    uint32_t nd, nu;
    for (uint32_t b = 0; b < nb; b++) {
        const ptx_bb *bb = &g->bbs[b];
        uint64_t *gb = gen + (size_t)b * w, *kb = kill + (size_t)b * w;
        for (uint32_t i = bb->first; i < bb->end; i++) {
            pass_instr_regs(&f->instrs[i], defs, &nd, uses, &nu, REGS_MAX);
            for (uint32_t u = 0; u < nu; u++)
                if (!(kb[uses[u] / 64] >> (uses[u] % 64) & 1))
                    gb[uses[u] / 64] |= 1ull << (uses[u] % 64);
            if (f->instrs[i].guard < 0)
                for (uint32_t d = 0; d < nd; d++)
                    kb[defs[d] / 64] |= 1ull << (defs[d] % 64);
        }
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t o = g->norder; o-- > 0;) {
            uint32_t b = g->order[o];
            const ptx_bb *bb = &g->bbs[b];
            uint64_t *out = k->live_out + (size_t)b * w, *ib = in + (size_t)b * w;
            for (uint32_t j = 0; j < w; j++) {
                uint64_t v = 0;
                for (int s = 0; s < bb->nsucc; s++)
                    if (bb->succ[s] != PTX_BB_EXIT)
                        v |= in[(size_t)bb->succ[s] * w + j];
                out[j] = v;
                uint64_t nv = gen[(size_t)b * w + j] | (v & ~kill[(size_t)b * w + j]);
                if (nv != ib[j]) {
                    ib[j] = nv;
                    changed = 1;
                }
            }
        }
    }
    k->live_in_entry = 0;
    for (uint32_t j = 0; j < w; j++)
        k->live_in_entry |= in[j] != 0;
    free(gen);
    free(kill);
    free(in);
    return 0;
}

/* Whether the kernel loops (a back edge in reverse post-order). Only a loop gains from a run
 * of blocks: a grid-stride loop then walks several blocks' KiB of each array at a time instead
 * of one block's 1 KiB; a kernel without one already touches neighbouring memory block after
 * block, and its lanes' arrays would only outgrow the L1 (bench/RESULTS.md, 2026-12-02). */
static int has_loop(const ptx_cfg *g)
{
    for (uint32_t b = 0; b < g->nbbs; b++)
        for (int s = 0; s < g->bbs[b].nsucc; s++)
            if (g->bbs[b].rpo != PTX_BB_EXIT && g->bbs[b].succ[s] != PTX_BB_EXIT &&
                g->bbs[g->bbs[b].succ[s]].rpo <= g->bbs[b].rpo)
                return 1;
    return 0;
}

/* Whether a run of the kernel's blocks may run as one set of lanes (ptx_kernel.lanes_multi):
 * its blocks share nothing the lanes code would merge. No shared memory (no .shared variable,
 * no access, cvta or mapa through the .shared spaces), no block barrier (a bar.red would count
 * the run's threads), no cluster registers. The runtime adds the rest: a run only of blocks of
 * one row of the grid, whole warps per block, no cooperative or cluster launch. And it loops
 * (has_loop). */
static int multi_ok(const ptx_kernel *k, const ptx_func *f)
{
    if (k->nshared || k->dynamic_smem || k->static_smem || !has_loop(f->cfg))
        return 0;
    for (uint32_t i = 0; i < f->ninstrs; i++) {
        const ptx_instr *in = &f->instrs[i];
        ptx_space sp = ptx_instr_space(in);
        if (sp == PTX_SPACE_shared || sp == PTX_SPACE_shared_cluster || in->op == PTX_OP_mapa)
            return 0;
        if ((in->op == PTX_OP_bar || in->op == PTX_OP_barrier) && !ptx_has(in, PTX_MOD_warp))
            return 0;
        for (uint32_t o = 0; o < in->nops; o++)
            if (in->ops[o].kind == PTX_OPD_special)
                switch (in->ops[o].special) {
                case PTX_SREG_clusterid: case PTX_SREG_nclusterid: case PTX_SREG_cluster_ctaid:
                case PTX_SREG_cluster_nctaid: case PTX_SREG_cluster_ctarank: case PTX_SREG_cluster_nctarank:
                case PTX_SREG_is_explicit_cluster: case PTX_SREG_aggr_smem_size:
                    return 0;
                default:
                    break;
                }
    }
    return 1;
}

/* Uniformity, divergence, liveness and affinity of kernel k, with %ctaid.x varying when multi;
 * structure: check_structure's reason. */
static int analyse(ptx_module *m, ptx_kernel *k, int multi, const char *structure)
{
    const ptx_func *f = &m->funcs[k->func];
    ptx_cfg *g = f->cfg;
    lanes_ctx x = {m, f, g, NULL, NULL, NULL, multi};
    x.varying = ptx_arena_alloc(&m->arena, f->nregs ? f->nregs : 1);
    x.div = calloc(g->nbbs, 1);
    if (!x.varying || !x.div) {
        free(x.div);
        return -1;
    }
    while (propagate_registers(&x) | propagate_blocks(&x)) {
    }
    for (uint32_t b = 0; b < g->nbbs; b++)
        g->bbs[b].divergent = x.div[b];
    free(x.div);
    k->varying = x.varying;
    if (liveness(m, k, f, g) < 0 || affinity(m, k, &x) < 0)
        return -1;
    k->lanes_why = structure ? structure : check_collectives(&x);
    k->lanes = k->lanes_why == NULL;
    k->lanes_multi = multi && k->lanes;
    return 0;
}

/* A kernel that can run as lanes and whose blocks share nothing is analysed for runs of blocks
 * first; where %ctaid.x varying makes it refuse (a collective under a branch on the block's
 * index), again for one block at a time. */
static int analyse_kernel(ptx_module *m, ptx_kernel *k)
{
    const ptx_func *f = &m->funcs[k->func];
    const char *structure = check_structure(m, f);
    int multi = !structure && multi_ok(k, f);
    if (analyse(m, k, multi, structure) < 0)
        return -1;
    return multi && !k->lanes && analyse(m, k, 0, NULL) < 0 ? -1 : 0;
}

int pass_lanes(ptx_module *m, char *err, size_t errlen)
{
    if (!m->want_lanes) {   /* a first-tier unit: no analysis, no lanes entries */
        for (uint32_t i = 0; i < m->nkernels; i++) {
            m->kernels[i]->lanes = 0;
            m->kernels[i]->lanes_why = "not asked for (a first-tier unit: CUBRIDGE_CODEGEN=tiered)";
        }
        return 0;
    }
    for (uint32_t i = 0; i < m->nkernels; i++)
        if (analyse_kernel(m, m->kernels[i]) < 0) {
            ptx_format_error(err, errlen, m->file, 0, NULL, 0, "out of memory");
            return -1;
        }
    return 0;
}
