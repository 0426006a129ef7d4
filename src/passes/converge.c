/* converge.c: pass_converge -- positions of warp convergence points.
 *
 * A convergence point ("site", PTX_OPF_CONVERGE) is an instruction whose
 * effect depends on which lanes of the warp execute it together: activemask,
 * vote and shfl without .sync (their mask is that set of lanes), and
 * ld/st.volatile of shared or generic memory (legacy warp-synchronous code).
 * The CPU runtime runs every lane on its own fiber and decides at a site
 * which lanes are together from each lane's position (a chain of frames, one
 * per function on its call stack: the node it is at and its loop counters;
 * cb_runtime.converge in kernel_abi.h). This pass computes the static half,
 * per function that reaches a site (ptx_func.conv):
 *
 *   - the CFG of its instructions; loops are the natural loops of the back
 *     edges of a depth-first walk from the entry (when a back edge's target
 *     does not dominate its source the CFG is irreducible: the function is
 *     `unordered` and gets no counters);
 *   - nodes: every site, every call that can reach a site, and every loop
 *     that contains one of those ("counted": its counter is incremented on
 *     its back edges, and the counters of the counted loops inside it are
 *     reset there, so each counts iterations since its loop was entered);
 *   - per level (each counted loop's body, and the function's top level),
 *     which of the nodes directly inside it can reach which within one
 *     iteration: that loop's own back edges removed, inner loops taken whole.
 *
 * The runtime orders two lanes by the first difference of their positions:
 * an earlier iteration of a loop both are in comes first; else, at the
 * level where they part, node X comes first if X reaches Y (Y lies past the
 * point where X's lanes rejoin Y's, as at a GPU's reconvergence point), and
 * neither does if neither reaches the other (the two sides of a branch).
 * docs/cpu-backend.md ("Warp convergence points") states the rules.
 */
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

#define BIT_GET(s, i) ((s)[(i) >> 3] >> ((i) & 7) & 1u)
#define BIT_SET(s, i) ((s)[(i) >> 3] |= (unsigned char)(1u << ((i) & 7)))

/* Reachability is computed per level while it stays cheap; beyond these,
 * nodes of a level are ordered by their place in the code (documented). */
#define CV_MAX_REACH_BITS (1u << 20)
#define CV_MAX_REACH_WORK (32u << 20)

/* ---- which functions reach a site ------------------------------------------------ */

/* The functions with a site, or a call that can reach one (a call through a
 * register can reach any .func). */
static int mark_functions(const ptx_module *m, unsigned char *conv)
{
    int any_func = 0;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ptx_func *fn = &m->funcs[f];
        for (uint32_t i = 0; i < fn->ninstrs && !conv[f]; i++)
            conv[f] = (ptx_instr_flags(&fn->instrs[i]) & PTX_OPF_CONVERGE) != 0;
        any_func |= conv[f] && !fn->is_entry;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t f = 0; f < m->nfuncs; f++) {
            const ptx_func *fn = &m->funcs[f];
            for (uint32_t i = 0; i < fn->ninstrs && !conv[f]; i++) {
                const ptx_instr *in = &fn->instrs[i];
                if (in->op != PTX_OP_call)
                    continue;
                if ((in->ops[1].kind == PTX_OPD_reg && any_func) ||
                    (in->ops[1].kind == PTX_OPD_sym && m->funcs[in->ops[1].sym.index].defined &&
                     conv[in->ops[1].sym.index])) {
                    conv[f] = 1;
                    changed = 1;
                    any_func |= !fn->is_entry;
                }
            }
        }
    }
    return any_func;
}

/* Whether instruction in of a module where conv[] marks the functions that
 * reach a site (any_func: some .func does) is a node: a site or such a call. */
static int is_node_instr(const ptx_module *m, const unsigned char *conv, int any_func, const ptx_instr *in)
{
    if (ptx_instr_flags(in) & PTX_OPF_CONVERGE)
        return 1;
    if (in->op != PTX_OP_call)
        return 0;
    if (in->ops[1].kind == PTX_OPD_reg)
        return any_func;
    return in->ops[1].kind == PTX_OPD_sym && m->funcs[in->ops[1].sym.index].defined && conv[in->ops[1].sym.index];
}

/* ---- the CFG ------------------------------------------------------------------------ */

static uint32_t branch_target(const ptx_func *f, const ptx_instr *in)
{
    return f->labels[in->ops[0].sym.index].instr;
}

static int falls_through(const ptx_instr *in)
{
    if (in->guard >= 0)
        return 1;
    return in->op != PTX_OP_bra && in->op != PTX_OP_ret && in->op != PTX_OP_exit;
}

/* The successors of instruction k (at most two); returns how many. */
static int successors(const ptx_func *f, uint32_t k, uint32_t out[2])
{
    const ptx_instr *in = &f->instrs[k];
    int n = 0;
    if (falls_through(in) && k + 1 < f->ninstrs)
        out[n++] = k + 1;
    if (in->op == PTX_OP_bra) {
        uint32_t t = branch_target(f, in);
        if (t < f->ninstrs && (n == 0 || out[0] != t))
            out[n++] = t;
    }
    return n;
}

typedef struct cv_cfg {
    uint32_t n;
    uint32_t *succ;          /* 2 per instruction */
    uint8_t *nsucc;
    uint32_t *pred_start, *preds;
    unsigned char *reached;  /* from the entry */
    uint32_t *back_from, *back_to;
    uint32_t nback;
} cv_cfg;

static void cfg_free(cv_cfg *g)
{
    free(g->succ);
    free(g->nsucc);
    free(g->pred_start);
    free(g->preds);
    free(g->reached);
    free(g->back_from);
    free(g->back_to);
    memset(g, 0, sizeof *g);
}

/* Successors, predecessors, and the back edges of a DFS from the entry. */
static int cfg_build(const ptx_func *f, cv_cfg *g)
{
    uint32_t n = f->ninstrs;
    memset(g, 0, sizeof *g);
    g->n = n;
    g->succ = malloc(sizeof(uint32_t) * 2 * (n + 1));
    g->nsucc = calloc(n + 1, 1);
    g->pred_start = calloc(n + 2, sizeof(uint32_t));
    g->preds = malloc(sizeof(uint32_t) * 2 * (n + 1));
    g->reached = calloc(n + 1, 1);
    g->back_from = malloc(sizeof(uint32_t) * 2 * (n + 1));
    g->back_to = malloc(sizeof(uint32_t) * 2 * (n + 1));
    uint32_t *stack = malloc(sizeof(uint32_t) * (n + 1)), *next = calloc(n + 1, sizeof(uint32_t));
    uint32_t *fill = calloc(n + 1, sizeof(uint32_t));
    unsigned char *state = calloc(n + 1, 1);
    int ok = g->succ && g->nsucc && g->pred_start && g->preds && g->reached && g->back_from && g->back_to && stack &&
             next && fill && state;
    if (ok && n) {
        for (uint32_t k = 0; k < n; k++)
            g->nsucc[k] = (uint8_t)successors(f, k, &g->succ[2 * k]);
        for (uint32_t k = 0; k < n; k++)
            for (int i = 0; i < g->nsucc[k]; i++)
                g->pred_start[g->succ[2 * k + i] + 1]++;
        for (uint32_t k = 0; k < n; k++)
            g->pred_start[k + 1] += g->pred_start[k];
        for (uint32_t k = 0; k < n; k++)
            for (int i = 0; i < g->nsucc[k]; i++) {
                uint32_t t = g->succ[2 * k + i];
                g->preds[g->pred_start[t] + fill[t]++] = k;
            }
        /* iterative DFS: state 1 = on the stack, 2 = done */
        uint32_t top = 0;
        stack[top++] = 0;
        state[0] = 1;
        g->reached[0] = 1;
        while (top) {
            uint32_t k = stack[top - 1];
            if (next[k] < g->nsucc[k]) {
                uint32_t t = g->succ[2 * k + next[k]++];
                if (state[t] == 0) {
                    state[t] = 1;
                    g->reached[t] = 1;
                    stack[top++] = t;
                } else if (state[t] == 1) {
                    g->back_from[g->nback] = k;
                    g->back_to[g->nback++] = t;
                }
            } else {
                state[k] = 2;
                top--;
            }
        }
    }
    free(stack);
    free(next);
    free(fill);
    free(state);
    return ok ? 0 : -1;
}

/* ---- loops and nodes ---------------------------------------------------------------- */

typedef struct cv_loop {
    uint32_t header;
    unsigned char *body;     /* bitset over instructions */
    uint32_t size;           /* instructions in body */
    int counted;
    int32_t node;            /* its node when counted, else -1 */
} cv_loop;

/* One function's analysis while it is made. */
typedef struct cv_func {
    const ptx_func *f;
    cv_cfg g;
    cv_loop *loops;
    uint32_t nloops;
    ptx_conv *out;           /* in the module's arena */
} cv_func;

static void func_free(cv_func *v)
{
    for (uint32_t i = 0; i < v->nloops; i++)
        free(v->loops[i].body);
    free(v->loops);
    cfg_free(&v->g);
}

/* Adds the natural loop of back edge s -> h to loop L's body. Returns 1
 * when it reaches the entry without passing h (h does not dominate s: the
 * CFG is irreducible), else 0; -1 when out of memory. */
static int natural_loop(const cv_cfg *g, uint32_t s, uint32_t h, cv_loop *L, uint32_t *work)
{
    int irreducible = 0;
    uint32_t top = 0;
    BIT_SET(L->body, h);
    if (!BIT_GET(L->body, s)) {
        BIT_SET(L->body, s);
        work[top++] = s;
    }
    while (top) {
        uint32_t x = work[--top];
        if (x == 0 && h != 0)
            irreducible = 1;
        for (uint32_t p = g->pred_start[x]; p < g->pred_start[x + 1]; p++) {
            uint32_t y = g->preds[p];
            if (g->reached[y] && !BIT_GET(L->body, y)) {
                BIT_SET(L->body, y);
                work[top++] = y;
            }
        }
    }
    return irreducible;
}

/* The natural loops (one per header), their sizes, and which are counted. */
static int find_loops(cv_func *v)
{
    const cv_cfg *g = &v->g;
    uint32_t bytes = (g->n + 8) / 8;
    uint32_t *work = malloc(sizeof(uint32_t) * (g->n + 1));
    v->loops = calloc(g->nback ? g->nback : 1, sizeof *v->loops);
    if (!work || !v->loops) {
        free(work);
        return -1;
    }
    for (uint32_t e = 0; e < g->nback; e++) {
        uint32_t h = g->back_to[e];
        cv_loop *L = NULL;
        for (uint32_t i = 0; i < v->nloops && !L; i++)
            if (v->loops[i].header == h)
                L = &v->loops[i];
        if (!L) {
            L = &v->loops[v->nloops++];
            L->header = h;
            L->node = -1;
            if (!(L->body = calloc(bytes, 1))) {
                free(work);
                return -1;
            }
        }
        if (natural_loop(g, g->back_from[e], h, L, work))
            v->out->unordered = 1;
    }
    free(work);
    for (uint32_t i = 0; i < v->nloops; i++)
        for (uint32_t b = 0; b < bytes; b++)
            v->loops[i].size += (uint32_t)__builtin_popcount(v->loops[i].body[b]);
    if (v->out->unordered)   /* irreducible: no counters, every node at the top */
        return 0;
    for (uint32_t k = 0; k < g->n; k++) {   /* a loop is counted when it holds a node */
        if (v->out->node_of[k] < 0)
            continue;
        for (uint32_t i = 0; i < v->nloops; i++)
            v->loops[i].counted |= (int)BIT_GET(v->loops[i].body, k);
    }
    return 0;
}

/* The smallest counted loop (other than skip) whose body holds instruction k, or -1. */
static int32_t innermost_counted(const cv_func *v, uint32_t k, int32_t skip)
{
    int32_t best = -1;
    for (uint32_t i = 0; i < v->nloops; i++) {
        const cv_loop *L = &v->loops[i];
        if (!L->counted || (int32_t)i == skip || !BIT_GET(L->body, k))
            continue;
        if (best < 0 || L->size < v->loops[best].size)
            best = (int32_t)i;
    }
    return best;
}

/* Numbers the nodes in code order (a loop before a site at its header),
 * with their parents and sibling indices. */
static int number_nodes(ptx_module *m, cv_func *v)
{
    ptx_conv *o = v->out;
    uint32_t n = 0, *count;
    for (uint32_t k = 0; k < v->g.n; k++)
        n += o->node_of[k] >= 0;
    for (uint32_t i = 0; i < v->nloops; i++)
        n += v->loops[i].counted != 0;
    o->nodes = ptx_arena_alloc(&m->arena, sizeof *o->nodes * (n ? n : 1));
    if (!o->nodes)
        return -1;
    for (uint32_t k = 0; k < v->g.n; k++) {
        for (uint32_t i = 0; i < v->nloops; i++)
            if (v->loops[i].counted && v->loops[i].header == k) {
                ptx_conv_node *d = &o->nodes[o->nnodes];
                d->is_loop = 1;
                d->instr = k;
                d->counter = o->ncounters++;
                v->loops[i].node = (int32_t)o->nnodes++;
            }
        if (o->node_of[k] >= 0) {
            o->nodes[o->nnodes].instr = k;
            o->node_of[k] = (int32_t)o->nnodes++;
        }
    }
    if (!(count = calloc(o->nnodes + 1, sizeof(uint32_t))))
        return -1;
    for (uint32_t i = 0; i < o->nnodes; i++) {
        ptx_conv_node *d = &o->nodes[i];
        int32_t self = -1;
        for (uint32_t l = 0; d->is_loop && l < v->nloops; l++)
            if (v->loops[l].node == (int32_t)i)
                self = (int32_t)l;
        int32_t in = innermost_counted(v, d->instr, self);
        d->parent = in >= 0 ? v->loops[in].node : -1;
        d->sibling = count[d->parent + 1]++;
    }
    free(count);
    return 0;
}

/* The counted loops whose back edges the instructions' branches and
 * fall-throughs are. */
static void mark_back_edges(cv_func *v)
{
    const ptx_func *f = v->f;
    ptx_conv *o = v->out;
    for (uint32_t e = 0; e < v->g.nback; e++) {
        uint32_t s = v->g.back_from[e], h = v->g.back_to[e];
        int32_t node = -1;
        for (uint32_t i = 0; i < v->nloops; i++)
            if (v->loops[i].header == h && v->loops[i].counted)
                node = v->loops[i].node;
        if (node < 0)
            continue;
        const ptx_instr *in = &f->instrs[s];
        if (in->op == PTX_OP_bra && branch_target(f, in) == h)
            o->branch_back[s] = node;
        if (falls_through(in) && s + 1 == h)
            o->fall_back[h] = node;
    }
}

/* ---- reachability between the nodes of one level -------------------------------------- */

/* Marks in seen what node i's lanes can reach within the level of loop node
 * `level` (-1: the top), without that loop's back edges. */
static void walk_from(const cv_func *v, int32_t level, uint32_t i, unsigned char *seen, uint32_t *work)
{
    const ptx_conv *o = v->out;
    const cv_cfg *g = &v->g;
    const cv_loop *L = NULL;
    for (uint32_t l = 0; level >= 0 && l < v->nloops && !L; l++)
        if (v->loops[l].node == level)
            L = &v->loops[l];
    const ptx_conv_node *d = &o->nodes[i];
    uint32_t top = 0;
    memset(seen, 0, (g->n + 8) / 8);
#define CV_VISIT(y)                                                                                \
    do {                                                                                           \
        uint32_t y_ = (y);                                                                         \
        if (!BIT_GET(seen, y_) && (!L || (BIT_GET(L->body, y_) && y_ != L->header))) {             \
            BIT_SET(seen, y_);                                                                     \
            work[top++] = y_;                                                                      \
        }                                                                                          \
    } while (0)
    if (d->is_loop)
        CV_VISIT(d->instr);
    else
        for (int s = 0; s < g->nsucc[d->instr]; s++)
            CV_VISIT(g->succ[2 * d->instr + s]);
    while (top) {
        uint32_t x = work[--top];
        for (int s = 0; s < g->nsucc[x]; s++)
            CV_VISIT(g->succ[2 * x + s]);
    }
#undef CV_VISIT
}

/* The levels' sizes, and their reach matrices unless too large. */
static int find_reach(ptx_module *m, cv_func *v)
{
    ptx_conv *o = v->out;
    uint32_t nn = o->nnodes;
    o->nchild = ptx_arena_alloc(&m->arena, sizeof(uint32_t) * (nn + 1));
    o->reach_off = ptx_arena_alloc(&m->arena, sizeof(uint32_t) * (nn + 1));
    if (!o->nchild || !o->reach_off)
        return -1;
    for (uint32_t i = 0; i < nn; i++)
        o->nchild[o->nodes[i].parent + 1]++;
    uint64_t bits = 0, work_est = 0;
    for (uint32_t lv = 0; lv <= nn; lv++) {
        o->reach_off[lv] = (uint32_t)(bits < 0xffffffffu ? bits : 0xffffffffu);
        bits += (uint64_t)o->nchild[lv] * o->nchild[lv];
        uint64_t body = v->g.n;
        for (uint32_t l = 0; lv > 0 && l < v->nloops; l++)
            if (v->loops[l].node == (int32_t)lv - 1)
                body = v->loops[l].size;
        work_est += o->nchild[lv] > 1 ? (uint64_t)o->nchild[lv] * body : 0;
    }
    if (o->unordered || bits > CV_MAX_REACH_BITS || work_est > CV_MAX_REACH_WORK)
        return 0;   /* o->reach stays NULL: siblings in code order */
    o->reach_bits = (uint32_t)bits;
    o->reach = ptx_arena_alloc(&m->arena, (size_t)(bits + 8) / 8);
    unsigned char *seen = malloc((v->g.n + 8) / 8 + 1);
    uint32_t *work = malloc(sizeof(uint32_t) * (v->g.n + 1));
    int rc = o->reach && seen && work ? 0 : -1;
    for (uint32_t i = 0; rc == 0 && i < nn; i++) {
        int32_t lv = o->nodes[i].parent;
        uint32_t n = o->nchild[lv + 1];
        if (n < 2)
            continue;
        walk_from(v, lv, i, seen, work);
        for (uint32_t j = 0; j < nn; j++)
            if (j != i && o->nodes[j].parent == lv && BIT_GET(seen, o->nodes[j].instr)) {
                uint32_t b = o->reach_off[lv + 1] + o->nodes[i].sibling * n + o->nodes[j].sibling;
                BIT_SET(o->reach, b);
            }
    }
    free(seen);
    free(work);
    return rc;
}

/* ---- the pass -------------------------------------------------------------------------- */

static int analyse(ptx_module *m, const unsigned char *conv, int any_func, ptx_func *f)
{
    cv_func v;
    memset(&v, 0, sizeof v);
    v.f = f;
    uint32_t n = f->ninstrs + 1;
    ptx_conv *o = v.out = ptx_arena_alloc(&m->arena, sizeof *o);
    if (!o || !(o->node_of = ptx_arena_alloc(&m->arena, sizeof(int32_t) * n)) ||
        !(o->branch_back = ptx_arena_alloc(&m->arena, sizeof(int32_t) * n)) ||
        !(o->fall_back = ptx_arena_alloc(&m->arena, sizeof(int32_t) * n)))
        return -1;
    for (uint32_t k = 0; k < n; k++) {
        o->node_of[k] = k < f->ninstrs && is_node_instr(m, conv, any_func, &f->instrs[k]) ? 0 : -1;
        o->branch_back[k] = o->fall_back[k] = -1;
    }
    int rc = cfg_build(f, &v.g) == 0 && find_loops(&v) == 0 && number_nodes(m, &v) == 0 ? 0 : -1;
    if (rc == 0) {
        mark_back_edges(&v);
        rc = find_reach(m, &v);
    }
    func_free(&v);
    if (rc == 0)
        f->conv = o;
    return rc;
}

int pass_converge(ptx_module *m, char *err, size_t errlen)
{
    unsigned char *conv = calloc(m->nfuncs ? m->nfuncs : 1, 1);
    int rc = conv ? 0 : -1;
    if (conv) {
        int any_func = mark_functions(m, conv);
        for (uint32_t f = 0; f < m->nfuncs && rc == 0; f++)
            if (conv[f] && m->funcs[f].defined)
                rc = analyse(m, conv, any_func, &m->funcs[f]);
    }
    free(conv);
    if (rc < 0)
        ptx_format_error(err, errlen, m->file, 0, NULL, 0, "out of memory");
    return rc;
}
