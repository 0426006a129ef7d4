/* cfg.c: pass_cfg -- the basic blocks of every kernel, their order and
 * post-dominators (ptx_func.cfg, ir.h).
 *
 * A block starts at the first instruction, at a label and after a branch, ret
 * or exit. Its successors follow from its last instruction; falling off the
 * end of the function is the exit. Blocks are numbered in code order; `order`
 * lists the reachable ones in reverse post-order of a depth-first walk from
 * the entry (every block after its predecessors, but for loop back edges).
 * Dominators (Cooper, Harvey and Kennedy's iterative algorithm, "A Simple,
 * Fast Dominance Algorithm", 2001) tell a loop entered only through its
 * header (reducible) from one that is not; post-dominators, the same
 * algorithm on the reversed graph with one exit node, give each block the
 * point where the paths through it meet again (pass_lanes' divergence).
 */
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

typedef struct cfg_work {
    uint32_t *preds, *npreds, *pred_at; /* predecessor lists (CSR) */
    uint32_t *idom;
    uint32_t *stack, *iter;
} cfg_work;

static int is_branch_end(const ptx_instr *in)
{
    return in->op == PTX_OP_bra || in->op == PTX_OP_ret || in->op == PTX_OP_exit;
}

/* The block a branch to label l lands in (the exit past the last instruction). */
static uint32_t label_block(const ptx_func *f, const ptx_cfg *g, int32_t l)
{
    if (l < 0 || (uint32_t)l >= f->nlabels || f->labels[l].instr >= f->ninstrs)
        return PTX_BB_EXIT;
    return g->bb_of[f->labels[l].instr];
}

static int split_blocks(ptx_arena *a, const ptx_func *f, ptx_cfg *g)
{
    uint32_t n = f->ninstrs;
    unsigned char *leader = calloc(n + 1, 1);
    if (!leader)
        return -1;
    leader[0] = 1;
    for (uint32_t i = 0; i < f->nlabels; i++)
        if (f->labels[i].instr < n)
            leader[f->labels[i].instr] = 1;
    for (uint32_t i = 0; i < n; i++)
        if (is_branch_end(&f->instrs[i]))
            leader[i + 1] = 1;
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++)
        nb += leader[i];
    if (nb == 0)
        nb = 1;   /* an empty body: one empty block */
    g->bbs = ptx_arena_alloc(a, nb * sizeof *g->bbs);
    g->bb_of = ptx_arena_alloc(a, (n ? n : 1) * sizeof *g->bb_of);
    g->order = ptx_arena_alloc(a, nb * sizeof *g->order);
    if (!g->bbs || !g->bb_of || !g->order) {
        free(leader);
        return -1;
    }
    g->nbbs = nb;
    uint32_t b = 0;
    g->bbs[0].first = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i] && i > 0) {
            g->bbs[b].end = i;
            g->bbs[++b].first = i;
        }
        g->bb_of[i] = b;
    }
    g->bbs[b].end = n;
    free(leader);
    for (b = 0; b < nb; b++) {
        ptx_bb *bb = &g->bbs[b];
        uint32_t next = b + 1 < nb ? b + 1 : PTX_BB_EXIT;
        bb->rpo = bb->ipdom = PTX_BB_EXIT;
        const ptx_instr *last = bb->end > bb->first ? &f->instrs[bb->end - 1] : NULL;
        if (last && last->op == PTX_OP_bra) {
            bb->succ[0] = label_block(f, g, last->ops[0].sym.index);
            bb->term = last->guard >= 0 ? PTX_TERM_CBRA : PTX_TERM_BRA;
            bb->succ[1] = next;
            bb->nsucc = last->guard >= 0 ? 2 : 1;
        } else if (last && (last->op == PTX_OP_ret || last->op == PTX_OP_exit)) {
            bb->term = last->guard >= 0 ? PTX_TERM_CEXIT : PTX_TERM_EXIT;
            bb->succ[0] = PTX_BB_EXIT;
            bb->succ[1] = next;
            bb->nsucc = last->guard >= 0 ? 2 : 1;
        } else {
            bb->term = PTX_TERM_FALL;
            bb->succ[0] = next;
            bb->nsucc = 1;
        }
    }
    return 0;
}

/* Reverse post-order from the entry (iterative depth-first walk). */
static void number_blocks(ptx_cfg *g, cfg_work *w)
{
    uint32_t nb = g->nbbs, top = 0, npost = 0;
    unsigned char *seen = (unsigned char *)w->idom;   /* borrowed: idom is filled later */
    memset(seen, 0, nb);
    uint32_t *post = g->order;
    w->stack[top] = 0;
    w->iter[top++] = 0;
    seen[0] = 1;
    while (top) {
        uint32_t b = w->stack[top - 1];
        ptx_bb *bb = &g->bbs[b];
        if (w->iter[top - 1] < bb->nsucc) {
            uint32_t s = bb->succ[w->iter[top - 1]++];
            if (s != PTX_BB_EXIT && !seen[s]) {
                seen[s] = 1;
                w->stack[top] = s;
                w->iter[top++] = 0;
            }
            continue;
        }
        post[npost++] = b;
        top--;
    }
    g->norder = npost;
    for (uint32_t i = 0; i < npost / 2; i++) {
        uint32_t t = post[i];
        post[i] = post[npost - 1 - i];
        post[npost - 1 - i] = t;
    }
    for (uint32_t i = 0; i < npost; i++)
        g->bbs[g->order[i]].rpo = i;
}

static int build_preds(ptx_cfg *g, cfg_work *w)
{
    uint32_t nb = g->nbbs;
    memset(w->npreds, 0, nb * sizeof *w->npreds);
    for (uint32_t i = 0; i < g->norder; i++) {
        ptx_bb *bb = &g->bbs[g->order[i]];
        for (int s = 0; s < bb->nsucc; s++)
            if (bb->succ[s] != PTX_BB_EXIT)
                w->npreds[bb->succ[s]]++;
    }
    uint32_t at = 0;
    for (uint32_t b = 0; b < nb; b++) {
        w->pred_at[b] = at;
        at += w->npreds[b];
        w->npreds[b] = 0;
    }
    w->preds = malloc((at ? at : 1) * sizeof *w->preds);
    if (!w->preds)
        return -1;
    for (uint32_t i = 0; i < g->norder; i++) {
        uint32_t b = g->order[i];
        ptx_bb *bb = &g->bbs[b];
        for (int s = 0; s < bb->nsucc; s++)
            if (bb->succ[s] != PTX_BB_EXIT)
                w->preds[w->pred_at[bb->succ[s]] + w->npreds[bb->succ[s]]++] = b;
    }
    return 0;
}

/* idom over reverse-post-order numbers (the entry is number 0). */
static uint32_t dom_meet(const uint32_t *idom, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (a > b)
            a = idom[a];
        while (b > a)
            b = idom[b];
    }
    return a;
}

/* Dominators of the reachable blocks; a retreating edge u -> v whose v does
 * not dominate u makes the graph irreducible. */
static void check_reducible(ptx_cfg *g, cfg_work *w)
{
    uint32_t n = g->norder, *idom = w->idom;
    for (uint32_t i = 0; i < n; i++)
        idom[i] = PTX_BB_EXIT;
    idom[0] = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = 1; i < n; i++) {
            uint32_t b = g->order[i], nd = PTX_BB_EXIT;
            for (uint32_t p = 0; p < w->npreds[b]; p++) {
                uint32_t q = g->bbs[w->preds[w->pred_at[b] + p]].rpo;
                if (idom[q] == PTX_BB_EXIT)
                    continue;
                nd = nd == PTX_BB_EXIT ? q : dom_meet(idom, q, nd);
            }
            if (nd != idom[i]) {
                idom[i] = nd;
                changed = 1;
            }
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        ptx_bb *bb = &g->bbs[g->order[i]];
        for (int s = 0; s < bb->nsucc; s++) {
            if (bb->succ[s] == PTX_BB_EXIT)
                continue;
            uint32_t v = g->bbs[bb->succ[s]].rpo, u = i;
            if (v > u)
                continue;
            while (u != v && u != 0)
                u = idom[u];
            if (u != v)
                g->irreducible = 1;
        }
    }
}

/* Post-dominators: the dominators of the reversed graph, whose entry is the
 * exit (number 0 here), numbered by a walk from the exit over predecessors. */
static int post_dominators(ptx_cfg *g, cfg_work *w)
{
    uint32_t nb = g->nbbs, n = 0, top = 0;
    uint32_t *num = malloc((nb + 1) * sizeof *num), *node = malloc((nb + 1) * sizeof *node);
    uint32_t *ipd = malloc((nb + 1) * sizeof *ipd);
    if (!num || !node || !ipd) {
        free(num);
        free(node);
        free(ipd);
        return -1;
    }
    for (uint32_t b = 0; b < nb; b++)
        num[b] = PTX_BB_EXIT;
    /* Walk from the exit: its reverse successors are the blocks that can end the thread. */
    uint32_t *post = malloc((nb + 1) * sizeof *post), npost = 0;
    if (!post) {
        free(num);
        free(node);
        free(ipd);
        return -1;
    }
    for (uint32_t i = 0; i < g->norder; i++) {
        uint32_t b = g->order[i];
        ptx_bb *bb = &g->bbs[b];
        int exits = 0;
        for (int s = 0; s < bb->nsucc; s++)
            exits |= bb->succ[s] == PTX_BB_EXIT;
        if (!exits || num[b] != PTX_BB_EXIT)
            continue;
        num[b] = 0;   /* seen */
        w->stack[top] = b;
        w->iter[top++] = 0;
        while (top) {
            uint32_t x = w->stack[top - 1];
            if (w->iter[top - 1] < w->npreds[x]) {
                uint32_t p = w->preds[w->pred_at[x] + w->iter[top - 1]++];
                if (num[p] == PTX_BB_EXIT) {
                    num[p] = 0;
                    w->stack[top] = p;
                    w->iter[top++] = 0;
                }
                continue;
            }
            post[npost++] = x;
            top--;
        }
    }
    /* reverse post-order of the reversed graph: the exit is 0, then the blocks */
    n = npost + 1;
    for (uint32_t i = 0; i < npost; i++) {
        node[i + 1] = post[npost - 1 - i];
        num[node[i + 1]] = i + 1;
    }
    free(post);
    if (npost < g->norder)
        g->stuck = 1;
    for (uint32_t i = 0; i < n; i++)
        ipd[i] = PTX_BB_EXIT;
    ipd[0] = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = 1; i < n; i++) {
            ptx_bb *bb = &g->bbs[node[i]];
            uint32_t nd = PTX_BB_EXIT;
            for (int s = 0; s < bb->nsucc; s++) {
                uint32_t q = bb->succ[s] == PTX_BB_EXIT ? 0 : num[bb->succ[s]];
                if (q == PTX_BB_EXIT || ipd[q] == PTX_BB_EXIT)
                    continue;
                nd = nd == PTX_BB_EXIT ? q : dom_meet(ipd, q, nd);
            }
            if (nd != ipd[i]) {
                ipd[i] = nd;
                changed = 1;
            }
        }
    }
    for (uint32_t i = 1; i < n; i++)
        g->bbs[node[i]].ipdom = ipd[i] == 0 || ipd[i] == PTX_BB_EXIT ? PTX_BB_EXIT : node[ipd[i]];
    free(num);
    free(node);
    free(ipd);
    return 0;
}

/* A tail ends the thread: its last instruction is an unguarded ret or exit
 * (or it falls off the end) and nothing in it waits for other threads. */
static void mark_tails(const ptx_func *f, ptx_cfg *g)
{
    for (uint32_t b = 0; b < g->nbbs; b++) {
        ptx_bb *bb = &g->bbs[b];
        int ends = bb->term == PTX_TERM_EXIT || (bb->term == PTX_TERM_FALL && bb->succ[0] == PTX_BB_EXIT);
        for (uint32_t i = bb->first; ends && i < bb->end; i++) {
            const ptx_instr *in = &f->instrs[i];
            if ((ptx_instr_flags(in) & PTX_OPF_WAITS) || in->op == PTX_OP_call)
                ends = 0;
        }
        bb->tail = (uint8_t)ends;
    }
}

static int build_cfg(ptx_module *m, ptx_func *f)
{
    ptx_cfg *g = ptx_arena_alloc(&m->arena, sizeof *g);
    if (!g || split_blocks(&m->arena, f, g) < 0)
        return -1;
    uint32_t nb = g->nbbs;
    cfg_work w = {0};
    w.npreds = malloc(nb * sizeof *w.npreds);
    w.pred_at = malloc(nb * sizeof *w.pred_at);
    w.idom = malloc((nb + 1) * sizeof *w.idom);
    w.stack = malloc((nb + 1) * sizeof *w.stack);
    w.iter = malloc((nb + 1) * sizeof *w.iter);
    int rc = -1;
    if (w.npreds && w.pred_at && w.idom && w.stack && w.iter) {
        number_blocks(g, &w);
        if (build_preds(g, &w) == 0) {
            check_reducible(g, &w);
            rc = post_dominators(g, &w);
        }
    }
    mark_tails(f, g);
    free(w.preds);
    free(w.npreds);
    free(w.pred_at);
    free(w.idom);
    free(w.stack);
    free(w.iter);
    f->cfg = g;
    return rc;
}

int pass_cfg(ptx_module *m, char *err, size_t errlen)
{
    for (uint32_t k = 0; k < m->nkernels; k++)
        if (build_cfg(m, &m->funcs[m->kernels[k]->func]) < 0) {
            ptx_format_error(err, errlen, m->file, 0, NULL, 0, "out of memory");
            return -1;
        }
    return 0;
}
