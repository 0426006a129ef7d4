/* runtime_converge.c: warp convergence points (cb_runtime.converge).
 *
 * A site (activemask, vote/shfl without .sync, ld/st.volatile of shared or
 * generic memory) returns the set of lanes that execute it together. Every
 * lane runs on its own fiber, so "together" is decided here, from the
 * position each lane hands in (a cb_conv_frame chain, kernel_abi.h):
 *
 *   - a lane at a site parks until every lane of its warp that has not
 *     exited is parked (at a site, a barrier, a warp collective or an
 *     mbarrier): until then another lane may still be on its way to the
 *     same place;
 *   - the parked lanes at sites form groups of equal positions (same site,
 *     same iteration of each loop around it, same calls on the way);
 *   - a group waits while another parked group's position comes before its
 *     own (an earlier iteration of a loop both are in, or a node that
 *     reaches its node: the lanes there will come this way, as at a GPU's
 *     reconvergence point); every other group goes on, its mask being its
 *     lanes. Groups on the two sides of a branch are not ordered: both go.
 *
 * Lanes parked elsewhere (barriers, .sync collectives, mbarriers) hold no
 * group back. The rules, and what real GPUs do, are in docs/cpu-backend.md.
 */
#include <string.h>

#include "backend/cpu/cpu_internal.h"

#define CONV_MAX_DEPTH 64    /* call frames compared; deeper chains are unordered */
#define CONV_MAX_NEST 256    /* loops around a node */

/* Whether every lane of warp w that has not exited is parked: at a
 * convergence point, or waiting at a barrier, a warp collective or an
 * mbarrier. The lanes after `from` are looked at first: lanes tend to
 * arrive in order, so the first one still running is found at once. */
static int warp_parked(const cpu_block *b, uint32_t w, uint32_t from)
{
    const cpu_warp *wp = &b->warps[w];
    uint32_t width = cpu_warp_lanes(b->launch);
    const cpu_thread *base = &b->threads[w * width];
    uint64_t live = wp->present & ~wp->exited;
    for (uint32_t i = 1; i <= width; i++) {
        uint32_t l = (from + i) & (width - 1);
        if (!(live >> l & 1))
            continue;
        int st = base[l].state;
        if (st != THREAD_WAIT_CONV && st != THREAD_WAIT_BAR && st != THREAD_WAIT_WARP && st != THREAD_WAIT_MBAR &&
            st != THREAD_WAIT_CLUSTER)
            return 0;
    }
    return 1;
}

/* ---- positions ------------------------------------------------------------ */

/* The order of siblings x and y of level `level` (-1: the top): -1 when x
 * reaches y (x's lanes come first), 1 when y reaches x, 2 when neither. */
static int sibling_order(const cb_conv_fn *fn, int32_t level, uint32_t x, uint32_t y)
{
    uint32_t sx = fn->sibling[x], sy = fn->sibling[y];
    if (!fn->reach)
        return sx < sy ? -1 : 1;
    uint32_t n = fn->nchild[level + 1], off = fn->reach_off[level + 1];
    uint32_t bxy = off + sx * n + sy, byx = off + sy * n + sx;
    int xy = fn->reach[bxy >> 3] >> (bxy & 7) & 1, yx = fn->reach[byx >> 3] >> (byx & 7) & 1;
    if (xy != yx)
        return xy ? -1 : 1;
    return 2;
}

/* Nodes a and b of one function with loop counters ca and cb: -1 when a's
 * instance comes first, 1 when b's does, 0 when they are the same
 * instance, 2 when they are not ordered. */
static int node_order(const cb_conv_fn *fn, uint32_t a, const uint32_t *ca, uint32_t b, const uint32_t *cb)
{
    if (a >= fn->nnodes || b >= fn->nnodes || (fn->flags & CB_CONV_UNORDERED))
        return a == b ? 0 : 2;
    int32_t pa[CONV_MAX_NEST], pb[CONV_MAX_NEST];
    uint32_t na = 0, nb = 0;
    for (int32_t x = (int32_t)a; x >= 0; x = fn->parent[x]) {
        if (na == CONV_MAX_NEST)
            return 2;
        pa[na++] = x;
    }
    for (int32_t y = (int32_t)b; y >= 0; y = fn->parent[y]) {
        if (nb == CONV_MAX_NEST)
            return 2;
        pb[nb++] = y;
    }
    /* from the outermost level in: equal entries are loops around both */
    while (na > 0 && nb > 0) {
        int32_t x = pa[--na], y = pb[--nb];
        if (x != y)
            return sibling_order(fn, fn->parent[x], (uint32_t)x, (uint32_t)y);
        if (na == 0 || nb == 0)
            return 0;   /* x is a itself (and b) */
        uint32_t ix = ca[fn->counter[x]], iy = cb[fn->counter[x]];
        if (ix != iy)
            return ix < iy ? -1 : 1;
    }
    return 0;
}

/* f's chain of frames, outermost first, in out; 0 when longer than
 * CONV_MAX_DEPTH. */
static uint32_t frame_chain(const cb_conv_frame *f, const cb_conv_frame **out)
{
    uint32_t n = 0;
    for (const cb_conv_frame *p = f; p; p = p->parent)
        if (++n > CONV_MAX_DEPTH)
            return 0;
    uint32_t i = n;
    for (const cb_conv_frame *p = f; p; p = p->parent)
        out[--i] = p;
    return n;
}

/* Two lanes' positions, as node_order. NULL positions are one instance,
 * unordered with the others. */
static int position_order(const cb_conv_frame *a, const cb_conv_frame *b)
{
    if (!a || !b)
        return a == b ? 0 : 2;
    if (!a->parent && !b->parent)   /* the common case: both in the kernel itself */
        return a->fn == b->fn ? node_order(a->fn, a->node, a->counters, b->node, b->counters) : 2;
    const cb_conv_frame *fa[CONV_MAX_DEPTH], *fb[CONV_MAX_DEPTH];
    uint32_t na = frame_chain(a, fa), nb = frame_chain(b, fb);
    if (!na || !nb)
        return 2;
    for (uint32_t k = 0; k < na && k < nb; k++) {
        if (fa[k]->fn != fb[k]->fn)
            return 2;   /* an indirect call that went two ways */
        int r = node_order(fa[k]->fn, fa[k]->node, fa[k]->counters, fb[k]->node, fb[k]->counters);
        if (r)
            return r;
    }
    return na == nb ? 0 : 2;
}

/* ---- release ---------------------------------------------------------------- */

/* Once warp w is parked, lets the groups of lanes at sites go that no other
 * group comes before; self (if among them) keeps running. Called whenever a
 * lane parks or exits, so no release is ever missed. */
void cb_cpu_warp_converge_check(cpu_block *b, uint32_t w, uint32_t lane)
{
    if (b->warps[w].converging)
        cb_cpu_warp_converge_release(b, w, lane, NULL);
}

void cb_cpu_warp_converge_release(cpu_block *b, uint32_t w, uint32_t lane, cpu_thread *self)
{
    cpu_warp *wp = &b->warps[w];
    if (!wp->converging || !warp_parked(b, w, lane))
        return;
    cpu_thread *base = &b->threads[w << b->launch->warp_shift];
    uint64_t lanes = wp->converging, group[64];
    uint32_t ngroups = 0, rep[64];
    /* groups of equal positions, in lane order */
    for (uint64_t left = lanes; left;) {
        uint32_t l = (uint32_t)__builtin_ctzll(left);
        uint64_t g = 1ull << l;
        for (uint64_t rest = left & ~g; rest; rest &= rest - 1) {
            uint32_t k = (uint32_t)__builtin_ctzll(rest);
            if (position_order(base[l].conv_at, base[k].conv_at) == 0)
                g |= 1ull << k;
        }
        rep[ngroups] = l;
        group[ngroups++] = g;
        left &= ~g;
    }
    uint64_t go = 0;
    if (ngroups == 1) {
        go = lanes;
    } else {
        for (uint32_t i = 0; i < ngroups; i++) {
            int held = 0;
            for (uint32_t j = 0; j < ngroups && !held; j++)
                held = j != i && position_order(base[rep[j]].conv_at, base[rep[i]].conv_at) == -1;
            if (!held)
                go |= group[i];
        }
        if (!go)   /* a cycle cannot happen with a consistent order; never hang on one */
            go = lanes;
    }
    wp->converging &= ~go;
    for (uint32_t i = 0; i < ngroups; i++) {
        if (!(group[i] & go))
            continue;
        for (uint64_t rest = group[i]; rest; rest &= rest - 1) {
            cpu_thread *x = &base[__builtin_ctzll(rest)];
            x->conv_result = group[i];
            if (x == self)
                self->state = THREAD_RUNNING;
            else
                cb_cpu_block_wake(b, x);
        }
    }
}

uint32_t cb_cpu_converge(cb_thread *t, const cb_conv_frame *fr)
{
    cpu_block *b = cpu_block_of(t);
    if (!b->fiber_mode)   /* one lane at a time: nothing to line up with */
        return (uint32_t)cpu_warp_present(b->launch, b->nthreads, t->warp);
    cpu_thread *th = cpu_thread_of(t);
    cpu_warp *w = &b->warps[t->warp];
    uint64_t bit = 1ull << t->lane;
    int alone = (w->converging & ~bit) == 0;
    th->conv_at = fr;
    th->conv_result = bit;
    w->converging |= bit;
    th->state = THREAD_WAIT_CONV;
    cb_cpu_warp_converge_release(b, t->warp, t->lane, th);
    if (th->state == THREAD_WAIT_CONV)
        cb_cpu_block_wait(b, th);
    else if (alone)
        cb_cpu_yield(t);   /* nobody to line up with: maybe a spin on a flag another warp sets */
    return (uint32_t)th->conv_result;   /* 64-lane warps: the low 32 bits */
}

void cb_cpu_warp_converge(cb_thread *t)
{
    cb_cpu_converge(t, NULL);
}

uint32_t cb_cpu_activemask(cb_thread *t)
{
    return cb_cpu_converge(t, NULL);
}
