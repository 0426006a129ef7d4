/* uniform.c: pass_uniform -- where a kernel's control flow is uniform over
 * its block.
 *
 * A dialect without warps of its own (OpenCL on a device without 32-wide
 * subgroups) can run a warp collective through the block's local memory and
 * a work-group barrier, and OpenCL defines a barrier only where every
 * work-item of the work-group reaches it. This pass says where that holds:
 * ptx_func.uniform[i] is 1 when instruction i of a kernel is executed by all
 * of the block's threads together or by none (docs/opencl.md). It is a
 * divergence analysis in the usual two halves, iterated to a fixed point:
 *
 *   - values: a register is uniform when every definition of it is an
 *     instruction whose sources are uniform (immediates, symbol addresses,
 *     %ntid, %nctaid, %ctaid and the like, the kernel's own .param words,
 *     .const/.nc loads at uniform addresses), that is not guarded by a
 *     divergent predicate, and that does not lie in divergent control flow;
 *     %tid, %laneid, loads of writable memory, atomics, collectives and call
 *     results are divergent;
 *   - control: a conditional branch (or a guarded exit, ret, trap) on a
 *     divergent predicate is divergent, and so is every instruction from its
 *     successors up to, not including, its immediate post-dominator (a virtual
 *     exit after ret/exit/trap: lanes that leave early make everything after
 *     them divergent, since OpenCL counts them as never arriving).
 *
 * It also finds lock-step regions (ptx_func.pred_region; regions.c):
 * code after a split in uniform control flow (a branch or exit on a
 * divergent value) that holds a collective, up to the kernel's end where that
 * is allowed (no block barrier after it), else up to the split's immediate
 * post-dominator P. The OpenCL dialect runs such a region in lock-step
 * (codegen/opencl/target.c): every thread runs every instruction of it in
 * code order, those not on its path as inactive (absent) lanes, and every
 * loop in it again while a thread of the block wants another trip, so that
 * the collectives' barriers stay uniform: "if (warp < nwarps) { shfl ... }",
 * if/else with a collective on each side, loops with per-lane trip counts,
 * grid-stride loops that threads leave at different trips, lanes that
 * returned early.
 *
 * A kernel's warp convergence points (activemask, ld/st.volatile) are the
 * dialect's to place (in uniform code and regions), so its ptx_func.conv,
 * which only the C dialect's runtime reads, is cleared here.
 *
 * Only kernels that hold a collective or convergence point are analysed, and
 * only their own bodies (a .func is not: it may be called from divergent
 * code). Functions with more than UN_MAX_INSTRS instructions, or that need
 * more than UN_MAX_WORK steps, are left unanalysed (NULL: nothing known to
 * be uniform).
 */
#include "passes/passes.h"
#include "passes/uniform.h"

#include <stdlib.h>
#include <string.h>

#define UN_MAX_INSTRS 200000u
/* Region markings (instructions visited) per kernel before the analysis gives up: nothing is then known
 * to be uniform, which only refuses more. */
#define UN_MAX_WORK (256u << 20)

int un_ends_thread(const ptx_instr *in)
{
    return in->op == PTX_OP_ret || in->op == PTX_OP_exit || in->op == PTX_OP_trap;
}

/* The successors of instruction k: the next one, a branch target, the exit. */
static int un_successors(const ptx_func *f, uint32_t k, uint32_t out[2])
{
    const ptx_instr *in = &f->instrs[k];
    int n = 0;
    int through = in->guard >= 0 || (in->op != PTX_OP_bra && !un_ends_thread(in));
    if (through)
        out[n++] = k + 1 < f->ninstrs ? k + 1 : f->ninstrs;
    if (in->op == PTX_OP_bra) {
        uint32_t t = f->labels[in->ops[0].sym.index].instr;
        if (t > f->ninstrs)
            t = f->ninstrs;
        if (n == 0 || out[0] != t)
            out[n++] = t;
    } else if (un_ends_thread(in) && (n == 0 || out[0] != f->ninstrs)) {
        out[n++] = f->ninstrs;
    }
    return n;
}

static void un_cfg_free(un_cfg *g)
{
    free(g->succ);
    free(g->nsucc);
    free(g->pred_start);
    free(g->preds);
}

static int un_cfg_build(const ptx_func *f, un_cfg *g)
{
    uint32_t n = f->ninstrs;
    memset(g, 0, sizeof *g);
    g->n = n;
    g->succ = malloc(sizeof(uint32_t) * 2 * (n + 1));
    g->nsucc = calloc(n + 1, 1);
    g->pred_start = calloc(n + 2, sizeof(uint32_t));
    g->preds = malloc(sizeof(uint32_t) * 2 * (n + 1));
    if (!g->succ || !g->nsucc || !g->pred_start || !g->preds)
        return -1;
    for (uint32_t k = 0; k < n; k++) {
        g->nsucc[k] = (uint8_t)un_successors(f, k, &g->succ[2 * k]);
        for (int i = 0; i < g->nsucc[k]; i++)
            g->pred_start[g->succ[2 * k + i] + 1]++;
    }
    for (uint32_t k = 0; k <= n; k++)
        g->pred_start[k + 1] += g->pred_start[k];
    uint32_t *fill = calloc(n + 1, sizeof(uint32_t));
    if (!fill)
        return -1;
    for (uint32_t k = 0; k < n; k++)
        for (int i = 0; i < g->nsucc[k]; i++) {
            uint32_t t = g->succ[2 * k + i];
            g->preds[g->pred_start[t] + fill[t]++] = k;
        }
    free(fill);
    return 0;
}

/* Immediate post-dominators (Cooper, Harvey and Kennedy's iteration on the
 * reverse CFG, rooted at the exit): ipdom[k], or UINT32_MAX for an
 * instruction from which the exit cannot be reached (an endless loop). */
static int un_postdominators(const un_cfg *g, uint32_t *ipdom)
{
    uint32_t n = g->n, root = n;
    uint32_t *order = malloc(sizeof(uint32_t) * (n + 1)), *num = malloc(sizeof(uint32_t) * (n + 1));
    uint32_t *stack = malloc(sizeof(uint32_t) * (n + 1)), *next = calloc(n + 1, sizeof(uint32_t));
    if (!order || !num || !stack || !next) {
        free(order), free(num), free(stack), free(next);
        return -1;
    }
    for (uint32_t k = 0; k <= n; k++) {
        num[k] = UINT32_MAX;
        ipdom[k] = UINT32_MAX;
    }
    /* postorder of the reverse graph (edges: a node to its predecessors) */
    uint32_t sp = 0, nord = 0;
    stack[sp++] = root;
    num[root] = 0;
    while (sp) {
        uint32_t x = stack[sp - 1];
        uint32_t deg = g->pred_start[x + 1] - g->pred_start[x];
        if (next[x] < deg) {
            uint32_t p = g->preds[g->pred_start[x] + next[x]++];
            if (num[p] == UINT32_MAX) {
                num[p] = 0;
                stack[sp++] = p;
            }
        } else {
            num[x] = nord;
            order[nord++] = x;
            sp--;
        }
    }
    ipdom[root] = root;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t o = nord - 1; o-- > 0;) {   /* reverse postorder, the root (last) left out */
            uint32_t x = order[o], best = UINT32_MAX;
            for (int s = 0; s < g->nsucc[x]; s++) {
                uint32_t y = g->succ[2 * x + s];
                if (ipdom[y] == UINT32_MAX)
                    continue;
                if (best == UINT32_MAX) {
                    best = y;
                    continue;
                }
                uint32_t a = best, b = y;
                while (a != b) {
                    while (num[a] < num[b])
                        a = ipdom[a];
                    while (num[b] < num[a])
                        b = ipdom[b];
                }
                best = a;
            }
            if (best != UINT32_MAX && ipdom[x] != best) {
                ipdom[x] = best;
                changed = 1;
            }
        }
    }
    free(order), free(num), free(stack), free(next);
    return 0;
}

/* ---- values -------------------------------------------------------------------------- */

static int special_uniform(int s)
{
    switch (s) {
    case PTX_SREG_ntid: case PTX_SREG_ctaid: case PTX_SREG_nctaid: case PTX_SREG_nwarpid:
    case PTX_SREG_dynamic_smem_size: case PTX_SREG_total_smem_size: case PTX_SREG_warpsize:
    case PTX_SREG_envreg: case PTX_SREG_gridid: case PTX_SREG_nsmid: case PTX_SREG_clusterid:
    case PTX_SREG_nclusterid: case PTX_SREG_cluster_ctaid: case PTX_SREG_cluster_nctaid:
    case PTX_SREG_cluster_ctarank: case PTX_SREG_cluster_nctarank: case PTX_SREG_is_explicit_cluster:
    case PTX_SREG_aggr_smem_size:
        return 1;
    default:
        return 0;
    }
}

/* Whether source operand o is uniform (divergent registers in div[]). */
static int operand_uniform(const ptx_operand *o, const unsigned char *div)
{
    switch (o->kind) {
    case PTX_OPD_reg: return !div[o->reg];
    case PTX_OPD_special: return special_uniform(o->special);
    case PTX_OPD_mem: return o->reg < 0 || !div[o->reg];
    case PTX_OPD_vec:
    case PTX_OPD_list:
        for (uint32_t i = 0; i < o->nelems; i++)
            if (!operand_uniform(&o->elems[i], div))
                return 0;
        return 1;
    default: return 1;   /* immediates, symbols, sinks */
    }
}

/* Whether a load reads memory that no thread writes while the kernel runs, at
 * a uniform address: the kernel's own .param words, .const, .nc/ldu. */
static int load_uniform(const ptx_func *f, const ptx_instr *in, const unsigned char *div)
{
    const ptx_operand *a = &in->ops[1];
    if (a->kind != PTX_OPD_mem || !operand_uniform(a, div))
        return 0;
    switch (ptx_instr_space(in)) {
    case PTX_SPACE_param:
        return a->reg < 0 && a->sym.kind == PTX_SYM_func_var && a->sym.index >= 0 &&
               (uint32_t)a->sym.index >= f->nrets && (uint32_t)a->sym.index < f->nrets + f->nparams;
    case PTX_SPACE_const: return 1;
    case PTX_SPACE_global: return in->op == PTX_OP_ldu || ptx_has(in, PTX_MOD_nc);
    default: return 0;
    }
}

/* Whether the value instruction in defines is uniform, its sources and
 * guard being what div[] says, and it lying in uniform control flow. */
static int def_uniform(const ptx_func *f, const ptx_instr *in, const unsigned char *div)
{
    unsigned flags = ptx_instr_flags(in);
    if (in->guard >= 0 && div[in->guard])
        return 0;
    if (flags & (PTX_OPF_COLLECTIVE | PTX_OPF_CALL | PTX_OPF_TEXTURE | PTX_OPF_CONVERGE | PTX_OPF_PARKS))
        return 0;
    if (in->op == PTX_OP_ld || in->op == PTX_OP_ldu)
        return load_uniform(f, in, div);
    if (flags & PTX_OPF_MEM)
        return 0;   /* atomics, and anything else that reads memory */
    switch (in->op) {
    case PTX_OP_activemask: case PTX_OP_match: case PTX_OP_redux: case PTX_OP_elect: case PTX_OP_atom:
    case PTX_OP_cp: case PTX_OP_mbarrier:
        return 0;
    default: break;
    }
    for (int i = 1; i < in->nops; i++)
        if (!operand_uniform(&in->ops[i], div))
            return 0;
    return 1;
}

/* Marks the registers that operand d (a destination) writes divergent; 1 if any changed. */
int un_mark_dest(const ptx_operand *d, unsigned char *div)
{
    int changed = 0;
    if (d->kind == PTX_OPD_reg || d->kind == PTX_OPD_mem) {
        if (d->reg >= 0 && !div[d->reg])
            div[d->reg] = 1, changed = 1;
        if (d->reg2 >= 0 && !div[d->reg2])
            div[d->reg2] = 1, changed = 1;
    } else if (d->kind == PTX_OPD_vec || d->kind == PTX_OPD_list) {
        for (uint32_t i = 0; i < d->nelems; i++)
            changed |= un_mark_dest(&d->elems[i], div);
    }
    return changed;
}

/* Instruction k leaves the block's threads on different paths: a branch or
 * an early end on a divergent predicate. */
int un_splits(const ptx_instr *in, const unsigned char *div)
{
    return in->guard >= 0 && div[in->guard] && (in->op == PTX_OP_bra || un_ends_thread(in));
}

/* Marks in dcf[] every node from the successors of k up to its immediate
 * post-dominator; 1 if any changed. */
static int mark_region(const un_cfg *g, uint32_t k, const uint32_t *ipdom, unsigned char *dcf, uint32_t *stack,
                       unsigned char *seen)
{
    uint32_t stop = ipdom[k], sp = 0;
    int changed = 0;
    memset(seen, 0, g->n + 1);
    for (int s = 0; s < g->nsucc[k]; s++)
        if (g->succ[2 * k + s] != stop && !seen[g->succ[2 * k + s]]) {
            seen[g->succ[2 * k + s]] = 1;
            stack[sp++] = g->succ[2 * k + s];
        }
    while (sp) {
        uint32_t x = stack[--sp];
        if (x >= g->n)
            continue;
        if (!dcf[x])
            dcf[x] = 1, changed = 1;
        for (int s = 0; s < g->nsucc[x]; s++) {
            uint32_t y = g->succ[2 * x + s];
            if (y != stop && !seen[y]) {
                seen[y] = 1;
                stack[sp++] = y;
            }
        }
    }
    return changed;
}

static int has_collective(const ptx_func *f)
{
    for (uint32_t i = 0; i < f->ninstrs; i++)
        if ((ptx_instr_flags(&f->instrs[i]) & (PTX_OPF_COLLECTIVE | PTX_OPF_CONVERGE)) ||
            f->instrs[i].op == PTX_OP_activemask)
            return 1;
    return 0;
}

static int analyse(ptx_module *m, ptx_func *f)
{
    uint32_t n = f->ninstrs;
    un_cfg g;
    memset(&g, 0, sizeof g);
    int rc = -1;
    uint32_t *ipdom = malloc(sizeof(uint32_t) * (n + 1)), *stack = malloc(sizeof(uint32_t) * (n + 2));
    unsigned char *div = calloc(f->nregs + 1, 1), *dcf = calloc(n + 1, 1), *seen = calloc(n + 1, 1);
    unsigned char *reached = calloc(n + 1, 1);
    if (!ipdom || !stack || !div || !dcf || !seen || !reached || un_cfg_build(f, &g) < 0 ||
        un_postdominators(&g, ipdom) < 0)
        goto done;
    /* reachable from the entry: an unreachable instruction is reached by no thread */
    uint32_t sp = 0;
    if (n) {
        stack[sp++] = 0;
        reached[0] = 1;
    }
    while (sp) {
        uint32_t x = stack[--sp];
        for (int s = 0; s < g.nsucc[x]; s++) {
            uint32_t y = g.succ[2 * x + s];
            if (y < n && !reached[y]) {
                reached[y] = 1;
                stack[sp++] = y;
            }
        }
    }
    uint64_t work = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t k = 0; k < n; k++) {
            if (work > UN_MAX_WORK)
                goto done;   /* too costly: rc -1, nothing is known to be uniform */
            const ptx_instr *in = &f->instrs[k];
            if (!reached[k])
                continue;
            if ((ptx_instr_flags(in) & PTX_OPF_DST) && in->nops > 0 && (dcf[k] || !def_uniform(f, in, div)))
                changed |= un_mark_dest(&in->ops[0], div);
            if (un_splits(in, div)) {
                if (ipdom[k] == UINT32_MAX) {   /* no way out: everything it reaches diverges */
                    ipdom[k] = n + 1;
                }
                changed |= mark_region(&g, k, ipdom, dcf, stack, seen);
                work += n;
            }
        }
    }
    f->uniform = ptx_arena_alloc(&m->arena, n + 1);
    if (!f->uniform)
        goto done;
    for (uint32_t k = 0; k < n; k++)
        f->uniform[k] = reached[k] && !dcf[k] && !(f->instrs[k].guard >= 0 && div[f->instrs[k].guard]);
    if (un_find_regions(m, f, &g, ipdom, div, dcf, reached) < 0 || un_find_barrier_joins(m, f, &g, stack, seen) < 0)
        goto done;
    rc = 0;
done:
    un_cfg_free(&g);
    free(ipdom), free(stack), free(div), free(dcf), free(seen), free(reached);
    return rc;
}

int pass_uniform(ptx_module *m, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    for (uint32_t k = 0; k < m->nkernels; k++) {
        ptx_func *f = &m->funcs[m->kernels[k]->func];
        f->uniform = NULL;
        f->pred_region = NULL;
        f->region_refusal = NULL;
        f->barrier_join = NULL;
        f->conv = NULL;   /* the dialect places a kernel's convergence points itself (codegen/opencl/warp.c) */
        if (f->ninstrs == 0 || f->ninstrs > UN_MAX_INSTRS || !has_collective(f))
            continue;
        if (analyse(m, f) < 0)
            f->uniform = NULL, f->pred_region = NULL, f->barrier_join = NULL;   /* out of memory: nothing is known to be uniform, which only refuses more */
    }
    return 0;
}
