/* cluster_exec.c: thread block clusters (sm_90): the blocks of a cluster
 * run at the same time, may read and write each other's shared memory and
 * meet at the cluster's barrier (barrier.cluster, cluster.sync()).
 *
 * A worker claims a whole cluster and keeps all its blocks resident (each
 * with its shared memory, fibers and stacks), running them in turns: a block
 * runs until none of its threads can go on -- they are done, or wait for
 * something another block of the cluster must do (the cluster barrier, an
 * mbarrier another block arrives on) -- and the worker moves to the next.
 * The blocks share one OS thread, so they touch each other's state (run
 * queues, mbarriers, shared memory) without locks. A launch without a
 * cluster shape runs every block as a cluster of one, whose barrier is a
 * barrier of the block's threads.
 *
 * The barrier: barrier.cluster.arrive counts the thread in for the current
 * phase; when every thread of the cluster that has not exited has arrived,
 * the phase completes and the threads waiting in barrier.cluster.wait go
 * on. A thread that exits no longer counts (the ISA: "all non-exited
 * threads"), and its arrival, if pending, is withdrawn.
 *
 * When a whole round over the cluster's blocks runs no thread, the time
 * limits of mbarrier waits expire (runtime_mbarrier.c); when that cannot
 * help either, the cluster is deadlocked and the launch fails, naming what
 * its blocks wait for.
 */
#include <stdio.h>
#include <string.h>

#include "backend/cpu/cpu_internal.h"

/* ---- membership ------------------------------------------------------------- */

void cb_cpu_cluster_single(cpu_block *b)
{
    cpu_cluster *c = &b->own_cluster;
    memset(c, 0, sizeof *c);
    c->n = 1;
    c->blocks[0] = b;
    c->shared[0] = b->blk.shared;
    c->live = b->nthreads;
    b->cluster = c;
    b->blk.cluster_dim = (cb_dim3){1, 1, 1};
    b->blk.cluster_ctaid = (cb_dim3){0, 0, 0};
    b->blk.cluster_rank = 0;
    b->blk.cluster_explicit = (uint32_t)b->launch->cluster_explicit;
    b->blk.cluster_shared = c->shared;
}

cpu_block *cb_cpu_cluster_block_of(cpu_block *b, const void *addr)
{
    const cpu_cluster *c = b->cluster;
    uintptr_t a = (uintptr_t)addr;
    for (uint32_t r = 0; r < c->n; r++) {
        const cpu_block *o = c->blocks[r];
        uintptr_t base = (uintptr_t)o->blk.shared;
        if (a >= base && a - base < (uintptr_t)o->launch->static_smem + o->launch->dynamic_smem)
            return c->blocks[r];
    }
    return NULL;
}

/* ---- the barrier -------------------------------------------------------------- */

/* The phase completes: every waiting thread of every block goes on. */
static void cluster_release(cpu_cluster *c)
{
    c->phase++;
    c->arrived = 0;
    for (uint32_t r = 0; r < c->n && c->waiting; r++) {
        cpu_block *b = c->blocks[r];
        for (uint32_t i = 0; i < b->nthreads && c->waiting; i++)
            if (b->threads[i].state == THREAD_WAIT_CLUSTER) {
                c->waiting--;
                b->mbar.events++;   /* progress, for the mbarrier time limits */
                cb_cpu_block_wake(b, &b->threads[i]);
            }
    }
}

void cb_cpu_cluster_arrive(cb_thread *t)
{
    cpu_block *b = cpu_block_of(t);
    cpu_thread *th = cpu_thread_of(t);
    if (!b->fiber_mode)
        cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED,
                           "barrier.cluster in a kernel translated without needs_fibers (a translator bug)");
    if (th->cluster_arrived)
        cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED,
                           "barrier.cluster.arrive twice without a barrier.cluster.wait in between");
    cpu_cluster *c = b->cluster;
    th->cluster_arrived = 1;
    th->cluster_phase = c->phase;
    if (++c->arrived == c->live)
        cluster_release(c);
}

void cb_cpu_cluster_wait(cb_thread *t)
{
    cpu_block *b = cpu_block_of(t);
    cpu_thread *th = cpu_thread_of(t);
    if (!th->cluster_arrived)
        cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED, "barrier.cluster.wait without a barrier.cluster.arrive");
    cpu_cluster *c = b->cluster;
    while (c->phase == th->cluster_phase) {
        th->state = THREAD_WAIT_CLUSTER;
        c->waiting++;
        cb_cpu_warp_converge_check(b, t->warp, t->lane);
        cb_cpu_block_wait(b, th);
    }
    th->cluster_arrived = 0;
}

void cb_cpu_cluster_thread_exited(cpu_block *b, cpu_thread *th)
{
    cpu_cluster *c = b->cluster;
    c->live--;
    if (th->cluster_arrived && th->cluster_phase == c->phase)
        c->arrived--;
    th->cluster_arrived = 0;
    if (c->arrived && c->arrived == c->live)
        cluster_release(c);
}

/* ---- running clusters ------------------------------------------------------------ */

/* Sets up cluster number `index` of L on w's block slots 0 .. n-1. Returns 0,
 * or -1 with the launch failed. */
static int cluster_begin(cpu_worker *w, cpu_launch *L, uint64_t index, cpu_cluster *c)
{
    cb_dim3 cd = L->cluster, g = L->grid;
    uint32_t ncx = g.x / cd.x, ncy = g.y / cd.y;
    uint32_t cx = (uint32_t)(index % ncx), cy = (uint32_t)(index / ncx % ncy), cz = (uint32_t)(index / ((uint64_t)ncx * ncy));
    memset(c, 0, sizeof *c);
    c->n = L->cluster_blocks;
    for (uint32_t r = 0; r < c->n; r++) {
        uint32_t rx = r % cd.x, ry = r / cd.x % cd.y, rz = r / (cd.x * cd.y);
        uint64_t x = (uint64_t)cx * cd.x + rx, y = (uint64_t)cy * cd.y + ry, z = (uint64_t)cz * cd.z + rz;
        cpu_block *b = cb_cpu_worker_block(w, r);
        if (!b) {
            cb_cpu_launch_fail(L, CUDA_ERROR_OUT_OF_MEMORY, "kernel %s: out of host memory for a cluster's blocks",
                               L->info->name);
            return -1;
        }
        if (cb_cpu_block_begin(w, b, L, x + y * g.x + z * (uint64_t)g.x * g.y) != 0)
            return -1;
        c->blocks[r] = b;
        c->shared[r] = b->blk.shared;
        c->live += b->nthreads;
    }
    for (uint32_t r = 0; r < c->n; r++) {
        cpu_block *b = c->blocks[r];
        b->cluster = c;
        b->blk.cluster_dim = cd;
        b->blk.cluster_ctaid = (cb_dim3){r % cd.x, r / cd.x % cd.y, r / (cd.x * cd.y)};
        b->blk.cluster_rank = r;
        b->blk.cluster_explicit = 1;
        b->blk.cluster_shared = c->shared;
    }
    return 0;
}

/* What the blocks of a stuck cluster wait for. */
static void cluster_describe(cpu_cluster *c, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%u threads wait at barrier.cluster.wait (%u of %u arrivals)", c->waiting,
                                   c->arrived, c->live);
    for (uint32_t r = 0; r < c->n && used < len; r++) {
        cpu_block *b = c->blocks[r];
        if (b->nexited == b->nthreads)
            continue;
        char why[256];
        cb_cpu_sync_describe_deadlock(b, why, sizeof why);
        used += (size_t)snprintf(buf + used, len - used, "; block (%u,%u,%u): %s", b->blk.ctaid.x, b->blk.ctaid.y,
                                 b->blk.ctaid.z, why);
    }
}

/* Runs one cluster's blocks in turns until all are done; 0, or -1 when the
 * launch failed. */
static int cluster_run(cpu_launch *L, cpu_cluster *c)
{
    uint32_t done = 0;
    unsigned char finished[CPU_CLUSTER_MAX] = {0};
    while (done < c->n) {
        uint64_t before = c->progress;
        for (uint32_t r = 0; r < c->n; r++) {
            if (finished[r])
                continue;
            int status = cb_cpu_block_resume(c->blocks[r]);
            if (status == CPU_BLOCK_STOPPED || atomic_load(&L->failed))
                return -1;
            if (status == CPU_BLOCK_DONE) {
                finished[r] = 1;
                done++;
            }
        }
        if (done == c->n || c->progress != before)
            continue;
        /* a whole round without running a thread: mbarrier waits time out, else it is a deadlock */
        int woken = 0;
        for (uint32_t r = 0; r < c->n; r++)
            if (!finished[r])
                woken |= cb_cpu_mbar_expire(c->blocks[r]);
        if (woken)
            continue;
        char why[480];
        cluster_describe(c, why, sizeof why);
        cb_cpu_launch_fail(L, CUDA_ERROR_LAUNCH_FAILED,
                           "kernel %s, cluster of block (%u,%u,%u): deadlock: no thread of its %u blocks can proceed: %s",
                           L->info->name, c->blocks[0]->blk.ctaid.x, c->blocks[0]->blk.ctaid.y,
                           c->blocks[0]->blk.ctaid.z, c->n, why);
        return -1;
    }
    return 0;
}

void cb_cpu_cluster_work(cpu_worker *w, cpu_launch *L)
{
    uint64_t nclusters = L->nblocks / L->cluster_blocks;
    cpu_cluster c;
    for (;;) {
        if (atomic_load_explicit(&L->failed, memory_order_relaxed))
            return;
        uint64_t index = atomic_fetch_add(&L->next_block, 1);
        if (index >= nclusters)
            return;
        if (cluster_begin(w, L, index, &c) != 0 || cluster_run(L, &c) != 0)
            return;
    }
}
