/* runtime_sync.c: block barriers and warp collectives, with the PTX ISA's
 * semantics.
 *
 * Barriers: 16 named barriers per block. bar.sync/bar.red with count 0 (or
 * the block size) wait for every thread, and threads that have exited count
 * as arrived, as on hardware; an explicit count waits for that many
 * arrivals (bar.arrive counts without waiting).
 *
 * Warp collectives: a warp is 32 lanes of consecutive flat thread ids (64
 * under CUBRIDGE_WARP_SIZE=64: then bit i of a PTX b32 membermask names lanes
 * i and i + 32, results that are lane masks are the low 32 bits of the
 * 64-lane mask, and shfl works across the 64 lanes: docs/cpu-backend.md,
 * "64-lane warps"; masks are 64 bits wide here, a bit per lane). The
 * lanes of a collective are those named in its mask that exist in the block
 * (a partial last warp has fewer). The caller must be in its mask; every
 * named lane that has not exited must reach a collective with the same mask
 * and kind; one that never arrives shows up as a deadlock. A named lane
 * that has exited, or exits while the others wait, counts as arrived (the
 * PTX ISA and CUDA's "all non-exited threads named in mask"): it takes no
 * part, a shfl reading it gets the reader's own value, its ballot bit is 0,
 * and the launch records a warning. Lanes outside the mask take no part. A
 * shfl whose source lane is valid but not taking part returns the caller's
 * own value (hardware leaves it undefined).
 *
 * Warp convergence points (activemask, volatile accesses) are in
 * runtime_converge.c.
 */
#include <stdio.h>
#include <string.h>

#include "backend/cpu/cpu_internal.h"

static const char *warp_kind_name(int kind, int mode)
{
    static const char *shfl[] = {"shfl.sync.up", "shfl.sync.down", "shfl.sync.bfly", "shfl.sync.idx"};
    static const char *vote[] = {"vote.sync.all", "vote.sync.any", "vote.sync.uni", "vote.sync.ballot"};
    if (kind == WARP_SHFL)
        return mode >= 0 && mode < 4 ? shfl[mode] : "shfl.sync";
    if (kind == WARP_VOTE)
        return mode >= 0 && mode < 4 ? vote[mode] : "vote.sync";
    if (kind == WARP_EXCHANGE)
        return "warp collective (match/redux/elect/mma/ldmatrix)";
    return "bar.warp.sync";
}


void cb_cpu_yield(cb_thread *t)
{
    cpu_block *b = cpu_block_of(t);
    if (b->coop) {
        cb_cpu_spin(t, NULL);
        return;
    }
    if (!b->fiber_mode || b->runq_count == 0)
        return;
    cpu_thread *th = cpu_thread_of(t);
    cb_cpu_block_wake(b, th);   /* to the back of the queue */
    cb_cpu_block_wait(b, th);
}

/* A spin point of a cooperative launch (always fiber mode): the block's
 * other runnable threads go first; once every one of them has had a turn
 * since the worker resumed the block (more spin points than runnable
 * threads), the worker gets control to run its other resident blocks. */
void cb_cpu_spin(cb_thread *t, const void *addr)
{
    cpu_block *b = cpu_block_of(t);
    if (!b->coop)
        return;
    const unsigned char *ws = (const unsigned char *)b->launch->grid_ws, *p = addr;
    int on_ws = p && p >= ws && p < ws + CPU_GRID_WS_BYTES;
    if (!on_ws)
        b->only_ws = 0;
    cpu_thread *th = cpu_thread_of(t);
    if (++b->spins > b->runq_count) {
        cb_cpu_block_hand_back(b, th, on_ws);
        return;
    }
    cb_cpu_block_wake(b, th);   /* to the back of the queue */
    th->spun_ws = on_ws;
    cb_cpu_block_wait(b, th);
}

/* ---- barriers ------------------------------------------------------------ */

static uint32_t barrier_result(const cpu_barrier *bar, int op)
{
    switch (op) {
    case CB_RED_POPC: return bar->red_popc;
    case CB_RED_AND: return bar->red_and;
    case CB_RED_OR: return bar->red_or;
    default: return 0;
    }
}

static int barrier_complete(const cpu_block *b, const cpu_barrier *bar)
{
    return bar->arrived + (bar->whole_block ? b->nexited : 0) >= bar->expected;
}

/* Lets everyone waiting at barrier id go; self (the last arriver, if any)
 * keeps running. */
static void barrier_release(cpu_block *b, uint32_t id, cpu_thread *self)
{
    cpu_barrier *bar = &b->bars[id];
    b->mbar.events++;   /* progress, for the mbarrier time limit */
    for (uint32_t i = 0; i < b->nthreads; i++) {
        cpu_thread *th = &b->threads[i];
        if (th->state != THREAD_WAIT_BAR || th->bar != id)
            continue;
        th->result = barrier_result(bar, (int)th->arg_a);
        if (th == self)
            th->state = THREAD_RUNNING;
        else
            cb_cpu_block_wake(b, th);
    }
    memset(bar, 0, sizeof *bar);
}

/* One arrival at barrier id; waits unless wait is 0. Returns the reduction
 * for op (-1: none). */
static uint32_t barrier_arrive(cb_thread *t, uint32_t id, uint32_t count, int op, uint32_t pred, int wait,
                               const char *what)
{
    cpu_block *b = cpu_block_of(t);
    if (id >= 16)
        cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED, "%s: barrier %u is out of range (0..15)", what, id);
    if (!b->fiber_mode) {
        if (b->nthreads == 1)
            return op == CB_RED_AND || op == CB_RED_OR || op == CB_RED_POPC ? pred != 0 : 0;
        cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED,
                           "%s in a kernel translated without needs_fibers (a translator bug)", what);
    }
    cpu_thread *th = cpu_thread_of(t);
    cpu_barrier *bar = &b->bars[id];
    int whole = count == 0 || count >= b->nthreads;
    uint32_t expected = whole ? b->nthreads : count;
    if (bar->arrived == 0) {
        bar->expected = expected;
        bar->whole_block = whole;
        bar->red_popc = 0;
        bar->red_and = 1;
        bar->red_or = 0;
    } else if (bar->expected != expected) {
        cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED,
                           "%s %u: thread count %u differs from the %u of the threads already there", what, id,
                           expected, bar->expected);
    }
    bar->arrived++;
    bar->red_popc += pred != 0;
    bar->red_and &= pred != 0;
    bar->red_or |= pred != 0;
    th->arg_a = (uint32_t)op;
    th->result = 0;
    if (wait) {
        th->state = THREAD_WAIT_BAR;
        th->bar = id;
    }
    if (barrier_complete(b, bar))
        barrier_release(b, id, th);
    if (wait && th->state == THREAD_WAIT_BAR) {
        cb_cpu_warp_converge_check(b, t->warp, t->lane);
        cb_cpu_block_wait(b, th);
    }
    return th->result;
}

void cb_cpu_bar_sync(cb_thread *t, uint32_t barrier, uint32_t count)
{
    barrier_arrive(t, barrier, count, -1, 0, 1, "bar.sync");
}

void cb_cpu_bar_arrive(cb_thread *t, uint32_t barrier, uint32_t count)
{
    barrier_arrive(t, barrier, count, -1, 0, 0, "bar.arrive");
}

uint32_t cb_cpu_bar_red(cb_thread *t, uint32_t barrier, uint32_t count, int op, uint32_t pred)
{
    if (op != CB_RED_POPC && op != CB_RED_AND && op != CB_RED_OR)
        cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED, "bar.red: unknown operation %d", op);
    return barrier_arrive(t, barrier, count, op, pred, 1, "bar.red");
}

/* ---- warp collectives ---------------------------------------------------- */

/* shfl's source lane for lane: the PTX ISA's clamp/segment rule. Sets
 * *valid. Under 64-lane warps (shift 6) lanes and b are 6 bits; the clamp
 * value 31 (the default) is 63; a segment mask of 0 is the whole warp, and
 * one below 32 gains bit 5, so that nvcc's c = ((32 - w) << 8) | 0x1f (it
 * folds warpSize to 32) still gives segments of w lanes; 32 (from
 * ((64 - 32) << 8), a width computed from WARP_SZ) is segments of 32. */
static uint32_t shfl_source(int mode, uint32_t lane, uint32_t b, uint32_t c, uint32_t shift, uint32_t *valid)
{
    uint32_t bval = b & 31, cval = c & 31, segmask = (c >> 8) & 31;
    if (shift == 6) {
        bval = b & 63;
        cval = cval == 31 ? 63 : cval;
        segmask = (c >> 8) & 63;
        segmask = segmask && segmask < 32 ? segmask | 32 : segmask;
    }
    uint32_t max_lane = (lane & segmask) | (cval & ~segmask);
    uint32_t min_lane = lane & segmask;
    int64_t j;
    switch (mode) {
    case CB_SHFL_UP: j = (int64_t)lane - bval; *valid = j >= (int64_t)max_lane; break;
    case CB_SHFL_DOWN: j = (int64_t)lane + bval; *valid = j <= (int64_t)max_lane; break;
    case CB_SHFL_BFLY: j = lane ^ bval; *valid = j <= (int64_t)max_lane; break;
    default: j = min_lane | (bval & ~segmask); *valid = j <= (int64_t)max_lane; break;
    }
    return *valid ? (uint32_t)j : lane;
}

/* Runs a complete warp_exchange over lanes `lanes` of the warp whose lane 0
 * is threads[0]: every lane must have passed the same fn. Returns 0, or -1
 * (nothing run) when they did not. */
static int warp_exchange_compute(cpu_thread *threads, uint64_t lanes)
{
    void *data[64] = {0};   /* 64-lane warps: fn finds its lanes from data[] (warp.c) */
    cb_warp_fn fn = NULL;
    for (uint64_t rest = lanes; rest; rest &= rest - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(rest);
        if (fn && threads[l].arg_fn != fn)
            return -1;
        fn = threads[l].arg_fn;
        data[l] = threads[l].arg_data;
    }
    if (fn)
        fn(data, (uint32_t)lanes);
    return 0;
}

/* The results of a complete collective over lanes `lanes` of the warp whose
 * lane 0 is threads[0]. */
static void warp_compute(cpu_thread *threads, uint64_t lanes, int kind, int mode, uint32_t shift)
{
    uint64_t ballot = 0;
    for (uint64_t rest = lanes; rest; rest &= rest - 1)
        if (threads[__builtin_ctzll(rest)].arg_pred)
            ballot |= rest & -rest;
    for (uint64_t rest = lanes; rest; rest &= rest - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(rest);
        cpu_thread *x = &threads[l];
        if (kind == WARP_SHFL) {
            uint32_t valid;
            uint32_t j = shfl_source(mode, l, x->arg_b, x->arg_c, shift, &valid);
            x->result = (lanes >> j & 1) ? threads[j].arg_a : x->arg_a;
            x->result_pred = valid;
        } else if (kind == WARP_VOTE) {
            switch (mode) {
            case CB_VOTE_ALL: x->result = ballot == lanes; break;
            case CB_VOTE_ANY: x->result = ballot != 0; break;
            case CB_VOTE_UNI: x->result = ballot == 0 || ballot == lanes; break;
            default: x->result = (uint32_t)ballot; break;   /* 64 lanes: the low 32 bits */
            }
        }
    }
}

/* Records, once per launch, that lanes `gone` of warp w had exited while
 * named in group g, and counts every such collective. */
static void note_exited_lanes(cpu_block *b, uint32_t w, const cpu_warp_group *g, uint64_t gone)
{
    cpu_launch *L = b->launch;
    if (atomic_fetch_add(&L->exited_named, 1) != 0)
        return;
    const char *value = g->kind == WARP_SHFL ? "; a shfl from them reads the reader's own value"
                        : g->kind == WARP_VOTE ? "; their vote is false (ballot bit 0)"
                        : g->kind == WARP_EXCHANGE ? "; they take no part" : "";
    cb_mutex_lock(&L->error_lock);
    snprintf(L->warning, sizeof L->warning,
             "block (%u,%u,%u), warp %u: lanes 0x%0*llx had exited while named in the mask 0x%0*llx of %s "
             "(counted as arrived%s)",
             b->blk.ctaid.x, b->blk.ctaid.y, b->blk.ctaid.z, w, (int)cpu_warp_lanes(L) / 4, (unsigned long long)gone,
             (int)cpu_warp_lanes(L) / 4, (unsigned long long)g->mask,
             warp_kind_name(g->kind, g->mode), value);
    cb_mutex_unlock(&L->error_lock);
}

/* Whether every named lane of group g that has not exited has arrived. */
static int group_ready(const cpu_warp *wp, const cpu_warp_group *g)
{
    uint64_t need = g->mask & ~wp->exited;
    return (g->arrived & need) == need;
}

/* Computes a ready group's results and lets its lanes go; self (if one of
 * them) keeps running. Returns 0, or -1 with the launch failed when its
 * lanes reached different warp_exchange functions. */
static int group_release(cpu_block *b, uint32_t w, cpu_warp_group *g, cpu_thread *self)
{
    cpu_warp *wp = &b->warps[w];
    cpu_thread *base = &b->threads[w << b->launch->warp_shift];
    uint64_t lanes = g->arrived, gone = g->mask & wp->exited;
    if (g->kind == WARP_EXCHANGE) {
        if (warp_exchange_compute(base, lanes) != 0) {
            cb_cpu_launch_fail(b->launch, CUDA_ERROR_LAUNCH_FAILED,
                               "kernel %s, block (%u,%u,%u): lanes 0x%0*llx of warp %u reached different warp "
                               "collectives together",
                               b->launch->info->name, b->blk.ctaid.x, b->blk.ctaid.y, b->blk.ctaid.z,
                               (int)cpu_warp_lanes(b->launch) / 4, (unsigned long long)lanes, w);
            return -1;
        }
    } else {
        warp_compute(base, lanes, g->kind, g->mode, b->launch->warp_shift);
    }
    if (gone)
        note_exited_lanes(b, w, g, gone);
    g->mask = 0;
    wp->groups_used &= ~(1ull << (uint32_t)(g - wp->groups));
    b->mbar.events++;   /* progress, for the mbarrier time limit */
    for (uint64_t rest = lanes; rest; rest &= rest - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(rest);
        if (&base[l] == self)
            self->state = THREAD_RUNNING;
        else
            cb_cpu_block_wake(b, &base[l]);
    }
    return 0;
}

/* Plain mode: a collective that only the calling lane may take part in
 * (its arguments in `alone`). Out of line: its array stays off the fiber
 * path's stack frame. */
static __attribute__((noinline)) void warp_collective_alone(cb_thread *t, cpu_thread *alone, int kind, int mode,
                                                            uint32_t mask, const char *what)
{
    cpu_block *b = cpu_block_of(t);
    cpu_launch *L = b->launch;
    uint64_t bit = 1ull << t->lane;
    uint64_t lanes = cpu_warp_mask(L, mask) & cpu_warp_present(L, b->nthreads, t->warp);
    if (lanes != bit)
        cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED,
                           "%s with mask 0x%08x in a kernel translated without needs_fibers (a translator bug)", what,
                           mask);
    /* Only this lane takes part: it is lane `t->lane` of a one-lane group. */
    cpu_thread lanes_arr[64];
    lanes_arr[t->lane] = *alone;
    if (kind == WARP_EXCHANGE)
        warp_exchange_compute(lanes_arr, bit);
    else
        warp_compute(lanes_arr, bit, kind, mode, L->warp_shift);
    *alone = lanes_arr[t->lane];
}

/* The calling thread's collective, arguments already in its cpu_thread
 * (or in `alone` in plain mode). Returns when every lane has arrived. */
static void warp_collective(cb_thread *t, cpu_thread *alone, int kind, int mode, uint32_t mask)
{
    cpu_block *b = cpu_block_of(t);
    uint64_t bit = 1ull << t->lane, wide = cpu_warp_mask(b->launch, mask);
    if (!(wide & bit))
        cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED, "%s: the calling lane %u is not in its mask 0x%08x",
                           warp_kind_name(kind, mode), t->lane, mask);
    if (!b->fiber_mode) {
        warp_collective_alone(t, alone, kind, mode, mask, warp_kind_name(kind, mode));
        return;
    }
    cpu_thread *th = cpu_thread_of(t);
    cpu_warp *w = &b->warps[t->warp];
    uint64_t lanes = wide & w->present;
    cpu_warp_group *g = NULL;
    for (uint64_t used = w->groups_used; used && !g; used &= used - 1)
        if (w->groups[__builtin_ctzll(used)].mask == lanes)
            g = &w->groups[__builtin_ctzll(used)];
    if (g && (g->kind != kind || g->mode != mode))
        cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED,
                           "lanes of warp %u with mask 0x%0*llx reached different collectives: %s and %s", t->warp,
                           (int)cpu_warp_lanes(b->launch) / 4, (unsigned long long)lanes,
                           warp_kind_name(g->kind, g->mode), warp_kind_name(kind, mode));
    if (!g) {   /* at most 64 lanes wait, so at most 64 groups are pending */
        uint32_t slot = (uint32_t)__builtin_ctzll(~w->groups_used);
        w->groups_used |= 1ull << slot;
        g = &w->groups[slot];
        g->mask = lanes;
        g->arrived = 0;
        g->kind = kind;
        g->mode = mode;
    }
    g->arrived |= bit;
    th->state = THREAD_WAIT_WARP;
    if (!group_ready(w, g)) {
        cb_cpu_warp_converge_check(b, t->warp, t->lane);
        cb_cpu_block_wait(b, th);
        return;
    }
    if (group_release(b, t->warp, g, th) != 0)
        cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED, "warp collective failed");
}

/* The argument slots of the caller: its cpu_thread, or a stand-in. */
static cpu_thread *collective_args(cb_thread *t, cpu_thread *standin)
{
    cpu_thread *th = standin;
    if (cpu_block_of(t)->fiber_mode)
        th = cpu_thread_of(t);
    else
        memset(standin, 0, sizeof *standin);
    th->arg_a = th->arg_b = th->arg_c = th->arg_pred = 0;
    return th;
}

void cb_cpu_warp_sync(cb_thread *t, uint32_t mask)
{
    cpu_thread standin;
    cpu_thread *th = collective_args(t, &standin);
    warp_collective(t, th, WARP_SYNC, 0, mask);
}

uint32_t cb_cpu_shfl(cb_thread *t, int mode, uint32_t a, uint32_t b, uint32_t c, uint32_t mask, uint32_t *pred_out)
{
    if (mode < CB_SHFL_UP || mode > CB_SHFL_IDX)
        cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED, "shfl.sync: unknown mode %d", mode);
    cpu_thread standin;
    cpu_thread *th = collective_args(t, &standin);
    th->arg_a = a;
    th->arg_b = b;
    th->arg_c = c;
    warp_collective(t, th, WARP_SHFL, mode, mask);
    if (pred_out)
        *pred_out = th->result_pred;
    return th->result;
}

uint32_t cb_cpu_vote(cb_thread *t, int mode, uint32_t pred, uint32_t mask)
{
    if (mode < CB_VOTE_ALL || mode > CB_VOTE_BALLOT)
        cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED, "vote.sync: unknown mode %d", mode);
    cpu_thread standin;
    cpu_thread *th = collective_args(t, &standin);
    th->arg_pred = pred != 0;
    warp_collective(t, th, WARP_VOTE, mode, mask);
    return th->result;
}

void cb_cpu_warp_exchange(cb_thread *t, uint32_t mask, void *data, cb_warp_fn fn)
{
    cpu_thread standin;
    cpu_thread *th = collective_args(t, &standin);
    th->arg_data = data;
    th->arg_fn = fn;
    warp_collective(t, th, WARP_EXCHANGE, 0, mask);
}

/* ---- exits and deadlocks ------------------------------------------------- */

int cb_cpu_sync_thread_exited(cpu_block *b, cpu_thread *th)
{
    b->nexited++;
    for (uint32_t id = 0; id < 16; id++) {
        cpu_barrier *bar = &b->bars[id];
        if (bar->arrived > 0 && bar->whole_block && barrier_complete(b, bar))
            barrier_release(b, id, NULL);
    }
    cpu_warp *w = &b->warps[th->t.warp];
    uint64_t bit = 1ull << th->t.lane;
    w->exited |= bit;
    /* it counts as arrived: the collectives that waited only for it complete */
    for (uint64_t used = w->groups_used; used; used &= used - 1) {
        cpu_warp_group *g = &w->groups[__builtin_ctzll(used)];
        if ((g->mask & bit) && group_ready(w, g) && group_release(b, th->t.warp, g, NULL) != 0)
            return -1;
    }
    cb_cpu_warp_converge_check(b, th->t.warp, th->t.lane);
    return 0;
}

void cb_cpu_sync_describe_deadlock(cpu_block *b, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
#define APPEND(...)                                                                  \
    do {                                                                             \
        if (used < len)                                                              \
            used += (size_t)snprintf(buf + used, len - used, __VA_ARGS__);           \
    } while (0)
    for (uint32_t id = 0; id < 16; id++) {
        const cpu_barrier *bar = &b->bars[id];
        if (bar->arrived)
            APPEND("%sbarrier %u has %u of %u arrivals", used ? "; " : "", id,
                   bar->arrived + (bar->whole_block ? b->nexited : 0), bar->expected);
    }
    int hex = (int)cpu_warp_lanes(b->launch) / 4;
    for (uint32_t w = 0; w < b->nwarps; w++)
        for (uint64_t pend = b->warps[w].groups_used; pend; pend &= pend - 1) {
            const cpu_warp_group *g = &b->warps[w].groups[__builtin_ctzll(pend)];
            if (g->mask)
                APPEND("%swarp %u %s with mask 0x%0*llx waits for lanes 0x%0*llx", used ? "; " : "", w,
                       warp_kind_name(g->kind, g->mode), hex, (unsigned long long)g->mask, hex,
                       (unsigned long long)(g->mask & ~g->arrived & ~b->warps[w].exited));
        }
    for (uint32_t w = 0; w < b->nwarps; w++)
        if (b->warps[w].converging)
            APPEND("%swarp %u lanes 0x%0*llx wait at a convergence point (activemask, volatile access)", used ? "; " : "",
                   w, hex, (unsigned long long)b->warps[w].converging);
#undef APPEND
    used = cb_cpu_mbar_describe(b, buf, len, used);
    if (!used)
        snprintf(buf, len, "no thread is runnable");
}

/* ---- the lanes entry's collectives (kernel ABI 11) ------------------------ */

/* Named lanes that had exited: they count as arrived, as for the fibers
 * (note_exited_lanes): the launch records the warning once. */
void cb_cpu_warp_gone(cb_thread *t, uint32_t warp, uint32_t mask, uint32_t gone, int kind, int mode)
{
    cpu_block *b = cpu_block_of(t);
    cpu_warp_group g;
    memset(&g, 0, sizeof g);
    g.mask = mask;
    g.kind = kind == CB_COLL_SHFL ? WARP_SHFL : kind == CB_COLL_VOTE ? WARP_VOTE
             : kind == CB_COLL_EXCHANGE ? WARP_EXCHANGE : WARP_SYNC;
    g.mode = mode;
    note_exited_lanes(b, warp, &g, gone);
}

void cb_cpu_warp_not_member(cb_thread *t, uint32_t mask, int kind, int mode)
{
    cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED, "%s: the calling lane %u is not in its mask 0x%08x",
                       warp_kind_name(kind, mode), t->lane, mask);
}
