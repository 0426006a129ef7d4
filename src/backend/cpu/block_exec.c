/* block_exec.c: running one block on a worker.
 *
 * Kernels without barriers or warp collectives (needs_fibers == 0) run as a
 * plain loop over the block's threads, each call running one CUDA thread to
 * completion. The others run each thread on its own fiber: a thread that
 * must wait (barrier, warp collective) switches straight to the next
 * runnable thread of the block, and control comes back to the worker's own
 * context only when no thread can run: the block is done, it deadlocked, or
 * the launch failed.
 *
 * Kernel code always runs inside cb_fault_run: a fault, an assert, a trap or
 * a runtime error lands back here and abandons the block (fibers that were
 * waiting are simply never resumed; their stacks are reused).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/cpu_internal.h"

/* ---- messages ------------------------------------------------------------ */

void cb_cpu_describe(const cb_thread *t, char *buf, size_t len)
{
    const cb_block *blk = t->blk;
    const cpu_block *b = blk->rt_block;
    snprintf(buf, len, "kernel %s, block (%u,%u,%u), thread (%u,%u,%u)", b->launch->info->name, blk->ctaid.x,
             blk->ctaid.y, blk->ctaid.z, t->tid.x, t->tid.y, t->tid.z);
}

void cb_cpu_thread_fail(cb_thread *t, CUresult result, const char *fmt, ...)
{
    cpu_block *b = cpu_block_of(t);
    char who[384], what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    cb_cpu_describe(t, who, sizeof who);
    cb_cpu_launch_fail(b->launch, result, "%s: %s", who, what);
    b->aborted = 1;
    cb_fault_unwind();
}

static void report_fault(cpu_block *b, const cb_thread *t, const cb_fault_scope *scope)
{
    char who[384];
    cb_cpu_describe(t, who, sizeof who);
    cb_cpu_launch_fail_at(b->launch, (uint64_t)(uintptr_t)scope->addr, CUDA_ERROR_ILLEGAL_ADDRESS,
                          "%s: illegal address %p (%s)", who, scope->addr, cb_fault_signal_name(scope->signo));
    b->aborted = 1;
}

/* ---- block resources ----------------------------------------------------- */

/* Grows b's buffers for a block of L. Returns 0, or -1 when memory ran
 * out. */
static int block_reserve(cpu_block *b, const cpu_launch *L, int fibers)
{
    size_t smem = (size_t)L->static_smem + L->dynamic_smem;
    if (smem < 16)
        smem = 16;
    if (smem > b->smem_cap) {
        free(b->smem);
        b->smem = aligned_alloc(64, (smem + 63) / 64 * 64);
        b->smem_cap = b->smem ? smem : 0;
        if (!b->smem)
            return -1;
        memset(b->smem, 0, smem);
    }
    if (!fibers || L->nthreads <= b->threads_cap)
        return 0;
    uint32_t n = L->nthreads;
    uint32_t nwarps = (n + 31) / 32;   /* enough for 32-lane warps, so for 64 too */
    cpu_thread *threads = realloc(b->thread_buf, n * sizeof *threads);
    if (threads)
        b->thread_buf = threads;
    uint32_t *runq = realloc(b->runq, n * sizeof *runq);
    if (runq)
        b->runq = runq;
    cpu_warp *warps = realloc(b->warps, nwarps * sizeof *warps);
    if (warps)
        b->warps = warps;
    cb_fiber_stack *stacks = realloc(b->stacks, n * sizeof *stacks);
    if (stacks) {
        memset(stacks + b->nstacks, 0, (n - b->nstacks) * sizeof *stacks);
        b->stacks = stacks;
        b->nstacks = n;
    }
    if (!threads || !runq || !warps || !stacks)
        return -1;
    b->threads_cap = n;
    return 0;
}

static void block_free(cpu_block *b)
{
    for (uint32_t i = 0; i < b->nstacks; i++)
        cb_fiber_stack_free(&b->stacks[i]);
    free(b->stacks);
    free(b->thread_buf);
    free(b->runq);
    free(b->warps);
    free(b->smem);
    free(b->lanes_scratch);
    free(b);
}

cpu_block *cb_cpu_worker_block(cpu_worker *w, uint32_t i)
{
    if (i < w->nblocks)
        return w->blocks[i];
    if (i != w->nblocks)
        return NULL;
    cpu_block **blocks = realloc(w->blocks, (i + 1) * sizeof *blocks);
    if (!blocks)
        return NULL;
    w->blocks = blocks;
    if (!(blocks[i] = calloc(1, sizeof *blocks[i])))
        return NULL;
    w->nblocks = i + 1;
    return blocks[i];
}

void cb_cpu_worker_release(cpu_worker *w)
{
    for (uint32_t i = 0; i < w->nblocks; i++)
        block_free(w->blocks[i]);
    free(w->blocks);
    /* Only the resources: handle, pool and index stay for the join. */
    w->blocks = NULL;
    w->nblocks = 0;
}

/* ---- plain mode ---------------------------------------------------------- */

/* Runs threads [first, end) of a block whose threads all have tid.y/.z
 * already set, advancing tid.x by one per thread: the 1-D hot loop. Returns
 * 1 when the launch failed meanwhile. */
static int plain_row(cpu_launch *L, cb_thread *t, cb_kernel_entry entry, uint32_t first, uint32_t nx)
{
    for (uint32_t x = 0; x < nx; x++) {
        uint32_t flat = first + x;
        t->tid.x = x;
        t->flat = flat;
        t->lane = flat & (cpu_warp_lanes(L) - 1);
        t->warp = flat >> L->warp_shift;
        entry(t);
        if ((flat & 255) == 255 && atomic_load_explicit(&L->failed, memory_order_relaxed))
            return 1;
    }
    return 0;
}

/* Runs the block through the kernel's block entry (kernel_abi.h, ABI 7),
 * 256 threads a call, checking for a failed launch between calls. */
static void plain_chunks(cpu_launch *L, cb_thread *t)
{
    for (uint32_t first = 0; first < L->nthreads; first += 256) {
        uint32_t n = L->nthreads - first < 256 ? L->nthreads - first : 256;
        L->block_entry(t, first, n);
        if (atomic_load_explicit(&L->failed, memory_order_relaxed))
            return;
    }
}

static void plain_body(void *arg)
{
    cpu_block *b = arg;
    cpu_launch *L = b->launch;
    cb_thread *t = &b->plain;
    b->stack_top = (uint64_t)(uintptr_t)__builtin_frame_address(0);
    if (L->block_entry) {
        plain_chunks(L, t);
        return;
    }
    cb_kernel_entry entry = L->entry;
    uint32_t flat = 0;
    for (uint32_t z = 0; z < L->block.z; z++)
        for (uint32_t y = 0; y < L->block.y; y++, flat += L->block.x) {
            t->tid.y = y;
            t->tid.z = z;
            if (plain_row(L, t, entry, flat, L->block.x))
                return;
        }
}

static void run_plain(cpu_block *b)
{
    cb_fault_scope scope;
    memset(&b->plain, 0, sizeof b->plain);
    b->plain.blk = &b->blk;
    if (cb_fault_run(&scope, plain_body, b) == CB_FAULT_SIGNAL)
        report_fault(b, &b->plain, &scope);
}

/* ---- lanes mode ----------------------------------------------------------- */

static void lanes_body(void *arg)
{
    cpu_block *b = arg;
    b->launch->lanes_entry(&b->plain, b->lanes_scratch);
}

/* The whole block through the kernel's lanes entry (kernel_abi.h, ABI 11). */
static void run_lanes(cpu_block *b)
{
    cpu_launch *L = b->launch;
    if (L->lanes_bytes > b->lanes_cap) {
        free(b->lanes_scratch);
        size_t cap = (L->lanes_bytes + 4095) / 4096 * 4096;
        b->lanes_scratch = aligned_alloc(64, cap);
        b->lanes_cap = b->lanes_scratch ? cap : 0;
        if (!b->lanes_scratch) {
            cb_cpu_launch_fail(L, CUDA_ERROR_OUT_OF_MEMORY, "kernel %s: out of host memory for a block's lanes",
                               L->info->name);
            return;
        }
    }
    cb_fault_scope scope;
    memset(&b->plain, 0, sizeof b->plain);
    b->plain.blk = &b->blk;
    if (cb_fault_run(&scope, lanes_body, b) == CB_FAULT_SIGNAL)
        report_fault(b, &b->plain, &scope);
}

/* ---- fiber mode ---------------------------------------------------------- */

static void runq_push(cpu_block *b, uint32_t i)
{
    b->runq[(b->runq_head + b->runq_count) % b->nthreads] = i;
    b->runq_count++;
}

static cpu_thread *runq_pop(cpu_block *b)
{
    if (b->runq_count == 0)
        return NULL;
    uint32_t i = b->runq[b->runq_head];
    b->runq_head = (b->runq_head + 1) % b->nthreads;
    b->runq_count--;
    return &b->threads[i];
}

void cb_cpu_block_wake(cpu_block *b, cpu_thread *th)
{
    th->state = THREAD_RUNNABLE;
    th->spun_ws = 0;
    runq_push(b, th->t.flat);
}

/* Switches from th to the next runnable thread, or to the worker when there
 * is none or the block must stop. */
static void block_leave(cpu_block *b, cpu_thread *th, int final)
{
    cpu_thread *next = NULL;
    if (!b->aborted && !atomic_load_explicit(&b->launch->failed, memory_order_relaxed))
        next = runq_pop(b);
    cb_fiber *to = &b->worker->sched;
    if (next) {
        next->state = THREAD_RUNNING;
        to = &next->fiber;
        b->cluster->progress++;
    }
    /* Arm the resumed thread's scope only once its cb_fault_run is live. */
    cb_fault_arm(next && next->in_kernel ? &next->scope : NULL);
    if (final)
        cb_fiber_switch_final(&th->fiber, to);
    else
        cb_fiber_switch(&th->fiber, to);
}

void cb_cpu_block_wait(cpu_block *b, cpu_thread *th)
{
    block_leave(b, th, 0);
}

void cb_cpu_block_hand_back(cpu_block *b, cpu_thread *th, int on_ws)
{
    cb_cpu_block_wake(b, th);
    th->spun_ws = on_ws;
    for (uint32_t i = 0; i < b->runq_count && b->only_ws; i++)
        b->only_ws = b->threads[b->runq[(b->runq_head + i) % b->nthreads]].spun_ws;
    b->spin_leave = 1;
    cb_fault_arm(NULL);
    cb_fiber_switch(&th->fiber, &b->worker->sched);
}

static void fiber_kernel(void *arg)
{
    cpu_thread *th = arg;
    th->in_kernel = 1;
    th->block->launch->entry(&th->t);
    th->in_kernel = 0;
}

static void fiber_main(void *arg)
{
    cpu_thread *th = arg;
    cpu_block *b = th->block;
    int rc = cb_fault_run(&th->scope, fiber_kernel, th);
    cb_fault_arm(NULL);
    th->in_kernel = 0;
    th->state = THREAD_EXITED;
    if (rc == CB_FAULT_SIGNAL) {
        cb_fiber_forget_frames(&th->fiber);
        report_fault(b, &th->t, &th->scope);
    } else if (rc == CB_FAULT_UNWIND) {
        b->aborted = 1;
    } else if (cb_cpu_sync_thread_exited(b, th) != 0) {
        b->aborted = 1;
    } else {
        cb_cpu_cluster_thread_exited(b, th);
    }
    block_leave(b, th, 1);
}

/* Sets up the block's threads as fresh fibers, all runnable. Returns 0, or
 * -1 when a stack could not be mapped. */
static int fibers_prepare(cpu_worker *w, cpu_block *b)
{
    cpu_launch *L = b->launch;
    b->threads = b->thread_buf;
    b->runq_head = b->runq_count = 0;
    b->nexited = 0;
    memset(b->bars, 0, sizeof b->bars);
    memset(&b->mbar, 0, sizeof b->mbar);
    b->nwarps = (b->nthreads + cpu_warp_lanes(L) - 1) >> L->warp_shift;
    for (uint32_t i = 0; i < b->nwarps; i++) {
        cpu_warp *wp = &b->warps[i];   /* groups[] are set up as they are taken (groups_used) */
        wp->present = cpu_warp_present(L, b->nthreads, i);
        wp->exited = wp->groups_used = wp->converging = 0;
    }
    uint32_t flat = 0;
    for (uint32_t z = 0; z < L->block.z; z++)
        for (uint32_t y = 0; y < L->block.y; y++)
            for (uint32_t x = 0; x < L->block.x; x++, flat++) {
                cpu_thread *th = &b->threads[flat];
                if (!b->stacks[flat].map && cb_fiber_stack_alloc(&b->stacks[flat], w->pool->stack_size) != 0)
                    return -1;
                memset(&th->t, 0, sizeof th->t);
                th->t.tid.x = x;
                th->t.tid.y = y;
                th->t.tid.z = z;
                th->t.flat = flat;
                th->t.lane = flat & (cpu_warp_lanes(L) - 1);
                th->t.warp = flat >> L->warp_shift;
                th->t.blk = &b->blk;
                th->t.rt_thread = th;
                th->block = b;
                th->in_kernel = 0;
                th->spun_ws = 0;
                th->cluster_arrived = 0;
                th->state = THREAD_RUNNABLE;
                cb_fiber_init(&th->fiber, &b->stacks[flat], fiber_main, th);
                runq_push(b, flat);
            }
    return 0;
}

int cb_cpu_block_resume(cpu_block *b)
{
    cpu_launch *L = b->launch;
    cpu_thread *th;
    b->spin_leave = 0;
    b->spins = 0;
    b->only_ws = 1;
    do {
        while (!b->aborted && !atomic_load_explicit(&L->failed, memory_order_relaxed) && (th = runq_pop(b))) {
            th->state = THREAD_RUNNING;
            b->cluster->progress++;
            cb_fault_arm(th->in_kernel ? &th->scope : NULL);
            cb_fiber_switch(&b->worker->sched, &th->fiber);
            cb_fault_arm(NULL);
            if (b->spin_leave)
                return atomic_load(&L->failed) ? CPU_BLOCK_STOPPED : CPU_BLOCK_SPINNING;
        }
        /* nobody can run: threads parked on mbarriers see their time limit expire (in a cluster of
         * several blocks, once the whole cluster is stuck: cluster_exec.c) */
    } while (!b->aborted && !atomic_load(&L->failed) && b->nexited < b->nthreads && b->cluster->n == 1 &&
             cb_cpu_mbar_expire(b));
    if (b->aborted || atomic_load(&L->failed))
        return CPU_BLOCK_STOPPED;
    if (b->nexited == b->nthreads)
        return CPU_BLOCK_DONE;
    if (b->cluster->n > 1)
        return CPU_BLOCK_BLOCKED;
    char why[400];
    cb_cpu_sync_describe_deadlock(b, why, sizeof why);
    if (b->cluster->waiting && strlen(why) + 64 < sizeof why)
        snprintf(why + strlen(why), sizeof why - strlen(why), "; %u threads wait at barrier.cluster.wait",
                 b->cluster->waiting);
    cb_cpu_launch_fail(L, CUDA_ERROR_LAUNCH_FAILED,
                       "kernel %s, block (%u,%u,%u): deadlock: %u of %u threads are blocked and none can proceed: %s",
                       L->info->name, b->blk.ctaid.x, b->blk.ctaid.y, b->blk.ctaid.z, b->nthreads - b->nexited,
                       b->nthreads, why);
    return CPU_BLOCK_STOPPED;
}

/* ---- a block ------------------------------------------------------------- */

/* Fills b for block `index` of L on w; fibers: run it as fibers. Returns
 * 0, or -1 with the launch failed. */
static int block_setup(cpu_worker *w, cpu_block *b, cpu_launch *L, uint64_t index, int fibers)
{
    if (block_reserve(b, L, fibers) != 0) {
        cb_cpu_launch_fail(L, CUDA_ERROR_OUT_OF_MEMORY, "kernel %s: out of host memory for a block", L->info->name);
        return -1;
    }
    b->launch = L;
    b->worker = w;
    b->nthreads = L->nthreads;
    b->fiber_mode = fibers;
    b->aborted = 0;
    b->coop = L->cooperative;
    b->spin_leave = 0;
    b->parked = 0;
    b->stable_gen = 0;
    cb_block *blk = &b->blk;
    blk->ntid = L->block;
    blk->nctaid = L->grid;
    blk->ctaid.x = (uint32_t)(index % L->grid.x);
    blk->ctaid.y = (uint32_t)(index / L->grid.x % L->grid.y);
    blk->ctaid.z = (uint32_t)(index / ((uint64_t)L->grid.x * L->grid.y));
    blk->shared = b->smem;
    blk->static_smem = L->static_smem;
    blk->dynamic_smem = L->dynamic_smem;
    blk->params = L->params;
    blk->rt = &cb_cpu_runtime;
    blk->rt_block = b;
    /* Caller slots (index >= nworkers) share %smid values with the workers,
     * as blocks share an SM: %smid stays below %nsmid. */
    blk->smid = (uint32_t)(w->index % w->pool->nworkers);
    blk->nsmid = (uint32_t)w->pool->nworkers;
    blk->gridid = L->gridid;
    blk->grid_ws = L->cooperative ? (uint64_t)(uintptr_t)L->grid_ws : 0;
    cb_cpu_cluster_single(b);   /* a cluster launch puts the block in its cluster afterwards */
    if (fibers && fibers_prepare(w, b) != 0) {
        cb_cpu_launch_fail(L, CUDA_ERROR_OUT_OF_MEMORY,
                           "kernel %s: cannot map %zu-byte fiber stacks for %u threads%s", L->info->name,
                           w->pool->stack_size, b->nthreads,
                           L->cooperative ? " (every thread of a cooperative grid has its own stack, two memory "
                                            "mappings; see vm.max_map_count)"
                                          : "");
        return -1;
    }
    return 0;
}

int cb_cpu_block_begin(cpu_worker *w, cpu_block *b, cpu_launch *L, uint64_t index)
{
    return block_setup(w, b, L, index, 1);
}

void cb_cpu_run_blocks(cpu_worker *w, cpu_launch *L, uint64_t index, uint32_t count)
{
    if (count > L->lanes_blocks) {   /* more than one call of the lanes entry takes: one at a time */
        for (uint32_t i = 0; i < count && !atomic_load_explicit(&L->failed, memory_order_relaxed); i++)
            cb_cpu_run_blocks(w, L, index + i, 1);
        return;
    }
    cpu_block *b = cb_cpu_worker_block(w, 0);
    if (!b) {
        cb_cpu_launch_fail(L, CUDA_ERROR_OUT_OF_MEMORY, "kernel %s: out of host memory for a block", L->info->name);
        return;
    }
    int fibers = L->info->needs_fibers != 0 && !L->lanes_entry;
    if (block_setup(w, b, L, index, fibers) != 0)
        return;
    b->blk.lanes_blocks = count;
    if (L->lanes_entry)
        run_lanes(b);
    else if (fibers)
        cb_cpu_block_resume(b);
    else
        run_plain(b);
}
