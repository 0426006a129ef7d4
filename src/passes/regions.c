/* regions.c: pass_uniform's lock-step regions (uniform.c, uniform.h).
 *
 * From a split in uniform control flow that a warp collective or
 * convergence point not uniform over the block follows, every thread runs
 * every instruction of the region, those off the path as inactive lanes
 * (codegen/opencl/target.c), in a schedule that keeps each loop's blocks
 * together; and the uniform joins after barrier code, where the OpenCL
 * dialect puts a barrier (PoCL 3.1). The divergence analysis that finds the
 * splits is uniform.c's; uniform.c's header comment states the rules.
 */
#include "passes/passes.h"
#include "passes/uniform.h"

#include <stdlib.h>
#include <string.h>

/* ---- lock-step regions ------------------------------------------------------------------ */

/* A block barrier (bar.sync, bar.red, barrier.cta: not .warp), which a region may not hold. */
static int block_barrier(const ptx_instr *in)
{
    return (in->op == PTX_OP_bar || in->op == PTX_OP_barrier) && !ptx_has(in, PTX_MOD_warp);
}

/* A site that the OpenCL dialect runs through its work-group exchange: a warp collective
 * (not a block barrier), activemask, or a warp convergence point (ld/st.volatile). */
static int region_site(const ptx_instr *in)
{
    switch (in->op) {
    case PTX_OP_shfl: case PTX_OP_vote: case PTX_OP_match: case PTX_OP_redux: case PTX_OP_elect:
    case PTX_OP_activemask:
        return 1;
    case PTX_OP_bar: case PTX_OP_barrier:
        return ptx_has(in, PTX_MOD_warp);
    default:
        return (ptx_instr_flags(in) & PTX_OPF_CONVERGE) != 0;
    }
}

/* Whether a call may lie in a region: printf, assert, or a defined .func that holds no collective,
 * barrier or convergence point and makes no further call. */
static int region_call_ok(const ptx_module *m, const ptx_instr *in)
{
    if (in->ops[1].kind != PTX_OPD_sym || in->ops[1].sym.kind != PTX_SYM_func)
        return 0;
    const ptx_func *callee = &m->funcs[in->ops[1].sym.index];
    if (!callee->defined)
        return !strcmp(callee->name, "vprintf") || !strcmp(callee->name, "__assertfail");
    for (uint32_t k = 0; k < callee->ninstrs; k++)
        if ((ptx_instr_flags(&callee->instrs[k]) & PTX_OPF_WAITS) || callee->instrs[k].op == PTX_OP_call)
            return 0;
    return 1;
}

/* Whether source operand o reads a register marked in taint[]. */
static int operand_tainted(const ptx_operand *o, const unsigned char *taint)
{
    switch (o->kind) {
    case PTX_OPD_reg: case PTX_OPD_mem: return o->reg >= 0 && taint[o->reg];
    case PTX_OPD_vec: case PTX_OPD_list:
        for (uint32_t i = 0; i < o->nelems; i++)
            if (operand_tainted(&o->elems[i], taint))
                return 1;
        return 0;
    default: return 0;
    }
}

/* Registers that carry a value read through an atomic, a volatile, relaxed or acquire load (what a
 * thread waiting for another one reads), or computed from one: a loop that such a value ends may be a
 * wait, which the lock-step run would never let go (the thread it waits for waits for the loop). */
static void find_waits(const ptx_func *f, unsigned char *taint)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t k = 0; k < f->ninstrs; k++) {
            const ptx_instr *in = &f->instrs[k];
            if (!(ptx_instr_flags(in) & PTX_OPF_DST) || in->nops == 0)
                continue;
            int t = in->op == PTX_OP_atom ||
                    ((in->op == PTX_OP_ld || in->op == PTX_OP_ldu) &&
                     (ptx_has(in, PTX_MOD_volatile) || ptx_has(in, PTX_MOD_relaxed) || ptx_has(in, PTX_MOD_acquire)));
            for (int i = 1; i < in->nops && !t; i++)
                t = operand_tainted(&in->ops[i], taint);
            if (t)
                changed |= un_mark_dest(&in->ops[0], taint);
        }
    }
}

/* ---- a region's schedule -------------------------------------------------------------------- */

#define UN_MAX_LOOPS 64        /* loops per region */
#define UN_MAX_BLOCKS 8192u    /* blocks per region (the schedule is quadratic in them) */

/* A region under construction: its instructions S (those a thread can reach from the split b before
 * the end e), their blocks, loops and schedule. Arrays have n + 1 entries, indexed by instruction. */
typedef struct un_region {
    const ptx_func *f;
    const un_cfg *g;
    uint32_t n, b, e;
    int virt;              /* b is no split but S's first instruction, a loop's head entered in uniform flow */
    const unsigned char *dcf, *reached;   /* pass_uniform's: divergent control flow, reached at all */
    unsigned char *in;     /* in S */
    unsigned char *lead;   /* the first instruction of a block of S */
    uint32_t *blk;         /* the block (its first instruction) holding each instruction of S */
    uint32_t *last;        /* for a block, its last instruction */
    int32_t *loop;         /* for a block, the header of the innermost loop holding it, or -1 */
    int32_t *parent;       /* for a header, the header of the loop around its loop, or -1 */
    uint32_t *indeg;       /* for an item of a level of the schedule: its predecessors not yet scheduled */
    uint32_t *heap, nheap; /* the items ready, least instruction first */
    uint32_t *order, norder;   /* the schedule: blocks */
    int32_t *loops, *outer; /* at a loop's last instruction, its head; at a head, the next loop out ending there */
    uint32_t *stack;
    uint32_t nblocks;
} un_region;

/* The item that block x is at the level of loop l (-1: the region): x itself, the header of the
 * loop directly inside l that holds x, or UINT32_MAX when x lies outside l. */
static uint32_t level_item(const un_region *r, uint32_t x, int32_t l)
{
    int32_t h = r->loop[x];
    if (h == l)
        return x;
    while (h >= 0 && r->parent[h] != l)
        h = r->parent[h];
    return h < 0 ? UINT32_MAX : (uint32_t)h;
}

static void heap_push(un_region *r, uint32_t v)
{
    uint32_t i = r->nheap++;
    r->heap[i] = v;
    while (i && r->heap[(i - 1) / 2] > r->heap[i]) {
        uint32_t p = (i - 1) / 2, t = r->heap[p];
        r->heap[p] = r->heap[i];
        r->heap[i] = t;
        i = p;
    }
}

static uint32_t heap_pop(un_region *r)
{
    uint32_t top = r->heap[0], i = 0;
    r->heap[0] = r->heap[--r->nheap];
    for (;;) {
        uint32_t a = 2 * i + 1, b = a + 1, m = i;
        if (a < r->nheap && r->heap[a] < r->heap[m])
            m = a;
        if (b < r->nheap && r->heap[b] < r->heap[m])
            m = b;
        if (m == i)
            break;
        uint32_t t = r->heap[m];
        r->heap[m] = r->heap[i];
        r->heap[i] = t;
        i = m;
    }
    return top;
}

/* Runs body for each successor block y of block x inside S. */
#define UN_EACH_SUCC(r, x, y, body)                                                         \
    do {                                                                                    \
        uint32_t l_ = (r)->last[x];                                                         \
        for (int s_ = 0; s_ < (r)->g->nsucc[l_]; s_++) {                                    \
            uint32_t y = (r)->g->succ[2 * l_ + s_];                                         \
            if (y < (r)->n && (r)->in[y]) { body; }                                         \
        }                                                                                   \
    } while (0)

/* Whether block-level item it of level l is the header of a loop inside l (not l's own head). */
static int inner_loop(const un_region *r, uint32_t it, int32_t l)
{
    return r->loop[it] == (int32_t)it && (int32_t)it != l;
}

/* Appends the schedule of loop l (-1: the whole region) to r->order: its items (its blocks, and the
 * loops directly inside it, each as all its blocks together) in a topological order of the edges
 * between them (l's back edges left out), least instruction first among the ready ones. Returns
 * NULL, or why not. */
static const char *schedule_level(un_region *r, int32_t l)
{
    uint32_t n = r->n, items = 0, done = 0;
    for (uint32_t x = 0; x < n; x++)
        if (r->in[x] && r->lead[x] && level_item(r, x, l) != UINT32_MAX)
            r->indeg[level_item(r, x, l)] = 0;
    for (uint32_t x = 0; x < n; x++) {
        uint32_t ix;
        if (!r->in[x] || !r->lead[x] || (ix = level_item(r, x, l)) == UINT32_MAX)
            continue;
        items += ix == x;   /* a block of l, or the head of a loop inside it */
        UN_EACH_SUCC(r, x, y, {
            uint32_t iy = level_item(r, y, l);
            if (iy != UINT32_MAX && iy != ix && (l < 0 || y != (uint32_t)l))
                r->indeg[iy]++;
        });
    }
    r->nheap = 0;
    for (uint32_t x = 0; x < n; x++)
        if (r->in[x] && r->lead[x] && level_item(r, x, l) == x && r->indeg[x] == 0)
            heap_push(r, x);
    const char *why = NULL;
    while (r->nheap && !why) {
        uint32_t it = heap_pop(r);
        done++;
        if (inner_loop(r, it, l)) {   /* its blocks, together; then this level's ready items again */
            uint32_t nstash = r->nheap, *stash = malloc(sizeof(uint32_t) * (nstash + 1));
            if (!stash)
                return "out of memory";
            memcpy(stash, r->heap, sizeof(uint32_t) * nstash);
            why = schedule_level(r, (int32_t)it);
            r->nheap = 0;
            for (uint32_t i = 0; i < nstash; i++)
                heap_push(r, stash[i]);
            free(stash);
            /* indeg[] of this level's items: schedule_level(it) only touched the items inside it */
        } else {
            r->order[r->norder++] = it;
        }
        for (uint32_t x = 0; x < n && !why; x++) {   /* the items that it enters */
            if (!r->in[x] || !r->lead[x] || level_item(r, x, l) != it)
                continue;
            UN_EACH_SUCC(r, x, y, {
                uint32_t iy = level_item(r, y, l);
                if (iy != UINT32_MAX && iy != it && (l < 0 || y != (uint32_t)l) && --r->indeg[iy] == 0)
                    heap_push(r, iy);
            });
        }
    }
    if (why)
        return why;
    if (done != items)
        return "its control flow is irreducible (a loop entered other than through its head)";
    if (l >= 0) {   /* after the last block of loop l: its test for another trip (innermost first) */
        uint32_t x = r->last[r->order[r->norder - 1]];
        if (r->loops[x] < 0) {
            r->loops[x] = l;
        } else {
            int32_t h = r->loops[x];
            while (r->outer[h] >= 0)
                h = r->outer[h];
            r->outer[h] = l;
        }
    }
    return NULL;
}

/* Finds S, the blocks and the loops of region (b, e), checks them, and schedules them (r->order).
 * Returns NULL, or why the region cannot run in lock-step. */
static const char *region_build(const ptx_module *m, un_region *r, const unsigned char *taint)
{
    const ptx_func *f = r->f;
    const un_cfg *g = r->g;
    uint32_t n = r->n, b = r->b, e = r->e, sp = 0;
    /* S: what b's successors reach before e (with b, where b is a loop's head) */
    if (r->virt) {
        r->in[b] = 1;
        r->stack[sp++] = b;
    }
    for (int s = 0; s < g->nsucc[b] && !r->virt; s++) {
        uint32_t t = g->succ[2 * b + s];
        if (t < n && t != e && !r->in[t]) {
            r->in[t] = 1;
            r->stack[sp++] = t;
        }
    }
    while (sp) {
        uint32_t x = r->stack[--sp];
        if (x == b && !r->virt)
            return "the divergent branch lies in a loop that would have to start the region (a loop whose exit diverges, entered without a branch before it)";
        for (int s = 0; s < g->nsucc[x]; s++) {
            uint32_t y = g->succ[2 * x + s];
            if (y >= n && e != n)
                return "a thread exits inside it";
            if (y < n && y != e && !r->in[y]) {
                r->in[y] = 1;
                r->stack[sp++] = y;
            }
        }
    }
    if (r->in[b] && !r->virt)
        return "the divergent branch lies in a loop that would have to start the region (a loop whose exit diverges, entered without a branch before it)";
    int sites = 0;
    r->nblocks = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (!r->in[k])
            continue;
        const ptx_instr *x = &f->instrs[k];
        if (block_barrier(x))
            return "it holds a block barrier (bar.sync, __syncthreads), which only the whole block may reach";
        if ((ptx_instr_flags(x) & PTX_OPF_PARKS) && x->op != PTX_OP_nanosleep)   /* (a sleep in a loop: below) */
            return "it holds an mbarrier wait";
        if (x->op == PTX_OP_call && !region_call_ok(m, x))
            return "it calls a function that holds collectives, barriers or calls of its own";
        if (region_site(x)) {
            if (x->guard >= 0)
                return "a collective in it is guarded by a predicate";
            sites++;
        }
        int branch_in = 0;
        for (uint32_t p = g->pred_start[k]; p < g->pred_start[k + 1]; p++) {
            uint32_t q = g->preds[p];
            if (r->virt && k == b && !r->in[q]) {   /* the loop's entry: from uniform flow only */
                if (r->dcf[q] || !r->reached[q])
                    return "the loop that would start it is entered from divergent code";
            } else if (q != b && !r->in[q]) {
                return "it is entered from outside";
            }
            branch_in |= q != k - 1 || f->instrs[q].op == PTX_OP_bra;
        }
        r->lead[k] = k == 0 || !r->in[k - 1] || branch_in || f->instrs[k - 1].op == PTX_OP_bra ||
                     un_ends_thread(&f->instrs[k - 1]);
        if (r->lead[k] && ++r->nblocks > UN_MAX_BLOCKS)
            return "it has too many blocks";
    }
    if (!sites)
        return "it holds no collective";
    for (uint32_t k = 0, cur = 0; k < n; k++)
        if (r->in[k]) {
            if (r->lead[k])
                cur = k;
            r->blk[k] = cur;
            r->last[cur] = k;
        }
    /* back edges (to a block on the depth-first path from the entries): the loops they close */
    unsigned char *state = calloc(n + 1, 1), *body = NULL;
    uint32_t *next_succ = calloc(n + 1, sizeof(uint32_t)), nloops = 0, nback = 0;
    uint32_t heads[UN_MAX_LOOPS], size[UN_MAX_LOOPS], back_from[4 * UN_MAX_LOOPS], back_to[4 * UN_MAX_LOOPS];
    const char *why = NULL;
    if (!state || !next_succ)
        why = "out of memory";
    for (int s0 = 0; s0 < (r->virt ? 1 : g->nsucc[b]) && !why; s0++) {
        uint32_t root = r->virt ? b : g->succ[2 * b + s0];
        if (root >= n || !r->in[root] || state[root])
            continue;
        sp = 0;
        r->stack[sp++] = root;
        state[root] = 1;
        while (sp && !why) {
            uint32_t x = r->stack[sp - 1], l = r->last[x];
            if (next_succ[x] < g->nsucc[l]) {
                uint32_t y = g->succ[2 * l + next_succ[x]++];
                if (y >= n || !r->in[y])
                    continue;
                if (state[y] == 1) {   /* x -> y closes a loop headed by y */
                    uint32_t i = 0;
                    while (i < nloops && heads[i] != y)
                        i++;
                    if (i == nloops && nloops < UN_MAX_LOOPS)
                        heads[nloops++] = y;
                    if (i == UN_MAX_LOOPS || nback == 4 * UN_MAX_LOOPS) {
                        why = "it has too many loops";
                    } else {
                        back_from[nback] = x;
                        back_to[nback++] = y;
                    }
                } else if (!state[y]) {
                    state[y] = 1;
                    r->stack[sp++] = y;
                }
            } else {
                state[x] = 2;
                sp--;
            }
        }
    }
    /* each loop's body: what reaches its back edges' sources without passing its head; reaching the
     * region's entry on the way means a second way into the loop */
    if (!why && nloops && !(body = calloc((size_t)(n + 1) * nloops, 1)))
        why = "out of memory";
    for (uint32_t i = 0; i < nloops && !why; i++) {
        uint32_t h = heads[i];
        unsigned char *in_l = body + (size_t)i * (n + 1);
        in_l[h] = 1;
        size[i] = 1;
        sp = 0;
        for (uint32_t j = 0; j < nback; j++)
            if (back_to[j] == h && !in_l[back_from[j]]) {
                in_l[back_from[j]] = 1;
                size[i]++;
                r->stack[sp++] = back_from[j];
            }
        while (sp && !why) {
            uint32_t x = r->stack[--sp];
            for (uint32_t p = g->pred_start[x]; p < g->pred_start[x + 1] && !why; p++) {
                uint32_t q = g->preds[p];
                if ((q == b && !r->virt) || !r->in[q]) {
                    why = "its control flow is irreducible (a loop entered other than through its head)";
                    break;
                }
                uint32_t qb = r->blk[q];
                if (!in_l[qb]) {
                    in_l[qb] = 1;
                    size[i]++;
                    r->stack[sp++] = qb;
                }
            }
        }
    }
    /* the innermost loop of each block, largest loops first: properly nested, or refused */
    for (uint32_t k = 0; k < n; k++)
        r->loop[k] = r->parent[k] = -1;
    unsigned char *used = calloc(nloops + 1, 1);
    if (!why && !used)
        why = "out of memory";
    for (uint32_t c = 0; c < nloops && !why; c++) {
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < nloops; i++)
            if (!used[i] && (best == UINT32_MAX || size[i] > size[best]))
                best = i;
        used[best] = 1;
        uint32_t h = heads[best];
        const unsigned char *in_l = body + (size_t)best * (n + 1);
        int32_t around = r->loop[h];
        r->parent[h] = around;
        for (uint32_t x = 0; x < n && !why; x++) {
            if (!in_l[x])
                continue;
            if (r->loop[x] != around)
                why = "its loops are not properly nested";
            r->loop[x] = (int32_t)h;
        }
        /* a loop that a wait value ends (find_waits), or that sleeps: refused */
        for (uint32_t x = 0; x < n && !why; x++) {
            if (!r->in[x] || !in_l[r->blk[x]])
                continue;
            const ptx_instr *in = &f->instrs[x];
            if (in->op == PTX_OP_nanosleep)
                why = "a loop in it sleeps (a wait for another thread, which lock-step would never end)";
            if (in->guard < 0 || !taint[in->guard] || (in->op != PTX_OP_bra && !un_ends_thread(in)))
                continue;
            for (int s = 0; s < g->nsucc[x]; s++) {
                uint32_t t = g->succ[2 * x + s];
                if (t >= n || !r->in[t] || !in_l[t] || t == h)
                    why = "a loop in it ends on a value read through an atomic, volatile or acquire access (a wait "
                          "for another thread, which lock-step would never end)";
            }
        }
    }
    free(used);
    free(body);
    free(state);
    free(next_succ);
    if (!why)
        why = schedule_level(r, -1);
    return why;
}

/* Runs region_build for (b, e) and, where it succeeds, marks the region in f: pred_region,
 * region_mark, region_next, region_loop, region_outer (ir.h). Returns NULL (marked), why not, or
 * "out of memory". */
static const char *region_try(ptx_module *m, ptx_func *f, const un_cfg *g, uint32_t b, uint32_t e, int virt,
                              const unsigned char *taint, const unsigned char *dcf, const unsigned char *reached)
{
    uint32_t n = f->ninstrs;
    un_region r;
    memset(&r, 0, sizeof r);
    r.f = f;
    r.g = g;
    r.n = n;
    r.b = b;
    r.e = e;
    r.virt = virt;
    r.dcf = dcf;
    r.reached = reached;
    r.in = calloc(n + 1, 1);
    r.lead = calloc(n + 1, 1);
    r.blk = calloc(n + 1, sizeof(uint32_t));
    r.last = calloc(n + 1, sizeof(uint32_t));
    r.loop = malloc(sizeof(int32_t) * (n + 1));
    r.parent = malloc(sizeof(int32_t) * (n + 1));
    r.indeg = calloc(n + 1, sizeof(uint32_t));
    r.heap = malloc(sizeof(uint32_t) * (n + 1));
    r.order = malloc(sizeof(uint32_t) * (n + 1));
    r.stack = malloc(sizeof(uint32_t) * (2 * n + 2));
    r.loops = malloc(sizeof(int32_t) * (n + 1));
    r.outer = malloc(sizeof(int32_t) * (n + 1));
    const char *why = "out of memory";
    if (r.in && r.lead && r.blk && r.last && r.loop && r.parent && r.indeg && r.heap && r.order && r.stack &&
        r.loops && r.outer) {
        for (uint32_t k = 0; k <= n; k++)
            r.loops[k] = r.outer[k] = -1;
        why = region_build(m, &r, taint);
    }
    if (!why && !f->pred_region) {
        f->pred_region = ptx_arena_alloc(&m->arena, sizeof(int32_t) * (n + 1));
        f->region_next = ptx_arena_alloc(&m->arena, sizeof(int32_t) * (n + 1));
        f->region_loop = ptx_arena_alloc(&m->arena, sizeof(int32_t) * (n + 1));
        f->region_outer = ptx_arena_alloc(&m->arena, sizeof(int32_t) * (n + 1));
        f->region_mark = ptx_arena_alloc(&m->arena, n + 1);
        if (!f->pred_region || !f->region_next || !f->region_loop || !f->region_outer || !f->region_mark) {
            f->pred_region = NULL;
            why = "out of memory";
        } else {
            for (uint32_t k = 0; k <= n; k++)
                f->pred_region[k] = f->region_next[k] = f->region_loop[k] = f->region_outer[k] = -1;
            memset(f->region_mark, 0, n + 1);
        }
    }
    if (!why) {
        f->pred_region[b] = (int32_t)b;
        if (e < n) {
            f->pred_region[e] = (int32_t)b;
            f->region_mark[e] |= PTX_REGION_END;
        }
        if (virt)
            f->region_mark[b] |= PTX_REGION_VIRTUAL;
        else
            f->region_next[b] = (int32_t)r.order[0];
        for (uint32_t i = 0; i < r.norder; i++) {
            uint32_t x = r.order[i], l = r.last[x];
            for (uint32_t k = x; k <= l; k++)
                f->pred_region[k] = (int32_t)b;
            f->region_mark[x] |= PTX_REGION_JOIN;
            f->region_next[l] = i + 1 < r.norder ? (int32_t)r.order[i + 1] : e < n ? (int32_t)e : PTX_REGION_RETURN;
            f->region_loop[l] = r.loops[l];
        }
        for (uint32_t k = 0; k < n; k++)
            if (r.outer[k] >= 0)
                f->region_outer[k] = r.outer[k];
    }
    free(r.in), free(r.lead), free(r.blk), free(r.last), free(r.loop), free(r.parent), free(r.indeg);
    free(r.heap), free(r.order), free(r.stack), free(r.loops), free(r.outer);
    return why;
}

/* Fills f->pred_region for the kernel's lock-step regions: from each split in uniform control flow
 * that a site not uniform over the block follows (and no earlier region holds), to the kernel's end
 * where region_build allows it (so that lanes that leave early stay absent lanes of the later
 * collectives), else to its immediate post-dominator. */
int un_find_regions(ptx_module *m, ptx_func *f, const un_cfg *g, uint32_t *ipdom, const unsigned char *div,
                        const unsigned char *dcf, const unsigned char *reached)
{
    uint32_t n = f->ninstrs;
    unsigned char *taint = calloc(f->nregs + 1, 1);
    if (!taint)
        return -1;
    find_waits(f, taint);
    int rc = 0;
    uint32_t why_b = UINT32_MAX;
    for (uint32_t b = 0; b < n; b++) {
        if (!un_splits(&f->instrs[b], div) || !reached[b] || (f->pred_region && f->pred_region[b] >= 0))
            continue;
        /* a split in divergent flow: the back edge of a loop whose exit diverges (a do-while loop), whose
         * head, entered in uniform flow, may start the region */
        uint32_t head = b;
        int virt = 0;
        if (dcf[b]) {
            const ptx_instr *in = &f->instrs[b];
            uint32_t t = in->op == PTX_OP_bra ? f->labels[in->ops[0].sym.index].instr : n;
            if (t >= b || (f->pred_region && f->pred_region[t] >= 0))
                continue;
            head = t;
            virt = 1;
        }
        int wanted = 0;
        for (uint32_t k = 0; k < n && !wanted; k++)
            wanted = region_site(&f->instrs[k]) && !f->uniform[k] && !(f->pred_region && f->pred_region[k] >= 0);
        if (!wanted)
            break;
        uint32_t p = ipdom[b], ends[2] = {n, p};
        for (int i = 0; i < 2; i++) {
            if (ends[i] > n || (i == 1 && p == n))
                continue;
            const char *why = region_try(m, f, g, head, ends[i], virt, taint, dcf, reached);
            if (!why)
                break;
            if (!strcmp(why, "out of memory")) {
                rc = -1;
                break;
            }
            /* why not, for the reason text: the first split's, its end P's over the kernel's end */
            if (strcmp(why, "it holds no collective") && (!f->region_refusal || (i == 1 && why_b == b))) {
                f->region_refusal = why;
                why_b = b;
            }
        }
        if (rc < 0)
            break;
    }
    if (!f->region_refusal)   /* every split the sites follow lies in divergent flow: a loop of its own */
        f->region_refusal = "the divergent branch lies in a loop that would have to start the region (a loop whose "
                            "exit diverges, entered without a branch before it)";
    free(taint);
    return rc;
}

/* Whether the OpenCL dialect emits a work-group barrier for in: a block barrier, a warp collective,
 * activemask or a convergence point. */
static int emits_barrier(const ptx_instr *in)
{
    return in->op == PTX_OP_bar || in->op == PTX_OP_barrier || region_site(in);
}

/* Fills f->barrier_join: the instructions in uniform control flow where paths join (two or more
 * predecessors) that code after a work-group barrier reaches before another one. With barriers on
 * the sides of a branch on the block size (Numba's reduction) and a store after the join, PoCL 3.1
 * lost the store: the code after the join, shared by the two barriers' tails, ran wrongly. A barrier
 * at the join, which the whole block reaches, ends both tails there (tests/cuda/warp_divergent_regions,
 * uniform_sides). */
int un_find_barrier_joins(ptx_module *m, ptx_func *f, const un_cfg *g, uint32_t *stack, unsigned char *after)
{
    uint32_t n = f->ninstrs, sp = 0;
    memset(after, 0, n + 1);
    for (uint32_t k = 0; k < n; k++)   /* after[x]: reached from a barrier before the next one */
        if (emits_barrier(&f->instrs[k]))
            for (int s = 0; s < g->nsucc[k]; s++) {
                uint32_t y = g->succ[2 * k + s];
                if (y < n && !after[y]) {
                    after[y] = 1;
                    stack[sp++] = y;
                }
            }
    while (sp) {
        uint32_t x = stack[--sp];
        if (emits_barrier(&f->instrs[x]))
            continue;
        for (int s = 0; s < g->nsucc[x]; s++) {
            uint32_t y = g->succ[2 * x + s];
            if (y < n && !after[y]) {
                after[y] = 1;
                stack[sp++] = y;
            }
        }
    }
    for (uint32_t x = 0; x < n; x++) {
        if (!after[x] || !f->uniform[x] || g->pred_start[x + 1] - g->pred_start[x] < 2 || emits_barrier(&f->instrs[x]))
            continue;
        if (!f->barrier_join) {
            f->barrier_join = ptx_arena_alloc(&m->arena, n + 1);
            if (!f->barrier_join)
                return -1;
            memset(f->barrier_join, 0, n + 1);
        }
        f->barrier_join[x] = 1;
    }
    return 0;
}

