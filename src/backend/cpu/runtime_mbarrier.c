/* runtime_mbarrier.c: threads parked on mbarriers, the time limit of their
 * waits, and telling a deadlock from a wait that is merely long.
 *
 * The generated code keeps the mbarrier object itself (its layout is in
 * kernel_abi.h, its semantics in src/codegen/c/mbarrier.c). A
 * thread whose mbarrier.test_wait/try_wait finds its phase incomplete calls
 * mbar_wait and parks (THREAD_WAIT_MBAR) instead of spinning; an arrive that
 * completes a phase calls mbar_signal(addr, 1), which makes the threads
 * parked on addr runnable again.
 *
 * The ISA lets a wait return "not complete" after a system-dependent time
 * limit. Here the limit expires when no thread of the block can run: then
 * every parked thread is resumed, tests once more and (in a wait loop)
 * parks again. That keeps programs correct that test a phase and go on to
 * do what completes it. A wait that can never complete would expire
 * forever, so the expiries are counted: when 8 in a row pass with no
 * progress in between -- no arrive-on operation, no barrier or warp
 * collective released, no thread exited -- nothing that a parked thread
 * could be waiting for can happen any more, and the launch fails as a
 * deadlock naming the mbarriers and their counts. (A thread that polls
 * memory written by another block between its waits is the case this
 * cannot see; see docs/cpu-backend.md.)
 */
#include <stdio.h>
#include <string.h>

#include "backend/cpu/cpu_internal.h"

/* Expiries in a row without progress before the block counts as deadlocked:
 * a few rounds let writes that woken threads make to memory reach the
 * threads that poll it. */
#define MBAR_IDLE_ROUNDS 8

void cb_cpu_mbar_wait(cb_thread *t, const void *addr)
{
    cpu_block *b = cpu_block_of(t);
    if (!b->fiber_mode)
        cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED,
                           "mbarrier wait in a kernel translated without needs_fibers (a translator bug)");
    cpu_thread *th = cpu_thread_of(t);
    th->state = THREAD_WAIT_MBAR;
    th->mbar_addr = addr;
    b->mbar.waiting++;
    cb_cpu_warp_converge_check(b, t->warp, t->lane);
    cb_cpu_block_wait(b, th);
}

/* Makes every thread parked on addr (any address when addr is NULL) runnable. */
static void wake_parked(cpu_block *b, const void *addr)
{
    for (uint32_t i = 0; i < b->nthreads && b->mbar.waiting; i++) {
        cpu_thread *th = &b->threads[i];
        if (th->state != THREAD_WAIT_MBAR || (addr && th->mbar_addr != addr))
            continue;
        b->mbar.waiting--;
        cb_cpu_block_wake(b, th);
    }
}

void cb_cpu_mbar_signal(cb_thread *t, const void *addr, uint32_t completed)
{
    cpu_block *b = cpu_block_of(t);
    if (b->cluster->n > 1) {   /* the mbarrier may be another block's (distributed shared memory) */
        cpu_block *o = cb_cpu_cluster_block_of(b, addr);
        b = o ? o : b;
    }
    if (!b->fiber_mode)
        return;   /* nobody can be parked */
    b->mbar.events++;
    if (completed && b->mbar.waiting)
        wake_parked(b, addr);
}

void cb_cpu_fail(cb_thread *t, const char *what)
{
    cb_cpu_thread_fail(t, CUDA_ERROR_LAUNCH_FAILED, "%s", what ? what : "failed");
}

int cb_cpu_mbar_expire(cpu_block *b)
{
    if (!b->fiber_mode || b->mbar.waiting == 0)
        return 0;
    uint64_t progress = b->mbar.events + b->nexited;
    if (progress != b->mbar.seen) {
        b->mbar.seen = progress;
        b->mbar.idle_rounds = 0;
    } else if (++b->mbar.idle_rounds >= MBAR_IDLE_ROUNDS) {
        return 0;
    }
    wake_parked(b, NULL);
    return 1;
}

size_t cb_cpu_mbar_describe(const cpu_block *b, char *buf, size_t len, size_t used)
{
    /* One entry per distinct address, in thread order; at most 4 named. */
    uint32_t named = 0;
    for (uint32_t i = 0; i < b->nthreads && used < len; i++) {
        const cpu_thread *th = &b->threads[i];
        if (th->state != THREAD_WAIT_MBAR)
            continue;
        int first = 1;
        uint32_t count = 0;
        for (uint32_t k = 0; k < b->nthreads; k++) {
            const cpu_thread *o = &b->threads[k];
            if (o->state != THREAD_WAIT_MBAR || o->mbar_addr != th->mbar_addr)
                continue;
            if (k < i)
                first = 0;
            count++;
        }
        if (!first)
            continue;
        if (++named > 4) {
            used += (size_t)snprintf(buf + used, len - used, "%smore mbarriers", used ? "; " : "");
            break;
        }
        const unsigned char *p = th->mbar_addr;
        uint64_t w;
        memcpy(&w, p, sizeof w);
        uint64_t off = (uint64_t)(p - b->blk.shared);
        used += (size_t)snprintf(buf + used, len - used,
                                 "%s%u thread%s (first (%u,%u,%u)) wait on the mbarrier at shared offset 0x%llx "
                                 "(phase %u mod 4, %u of %u arrivals pending, tx-count %d%s)",
                                 used ? "; " : "", count, count == 1 ? "" : "s", th->t.tid.x, th->t.tid.y,
                                 th->t.tid.z, (unsigned long long)off, CB_MBAR_PHASE(w), CB_MBAR_PENDING(w),
                                 CB_MBAR_EXPECTED(w), CB_MBAR_TX(w), (w & CB_MBAR_VALID) ? "" : ", invalid");
    }
    return used < len ? used : len;
}
