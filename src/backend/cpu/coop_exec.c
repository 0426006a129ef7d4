/* coop_exec.c: cooperative launches (cuLaunchCooperativeKernel), whose
 * blocks may wait for each other at a grid-wide barrier.
 *
 * Every block of a cooperative grid must make progress while others spin
 * at the barrier, whatever the number of workers. A worker therefore keeps
 * every block it claims resident (each with its own shared memory, fibers
 * and stacks: cpu_block) and runs them in turn. A block runs until its
 * threads are all done or a spin point (cb_runtime.spin: an ordered load or
 * atom.cas/exch of global memory, or nanosleep) finds nothing else of the
 * block to run; the worker then resumes its next resident block. After
 * each round over its blocks it claims one more block while any are left,
 * so with a single worker all blocks end up resident on it.
 *
 * A grid barrier that can never complete (a block exited without reaching
 * it) would spin forever. A block whose last turn ended polling the grid
 * workspace, with no other spin point in the turn and only threads queued
 * by such polls left runnable (each of them ran in the turn: a spin point
 * hands the worker back only after every queued thread had a go), is
 * "parked"; it is "stable" when the workspace's barrier word did not change
 * during that turn: its polls saw that word and found the barrier
 * incomplete, and it did not arrive anywhere (an arrival changes the word). When every block has been
 * claimed and every live block is stable at the current word, none of them
 * can ever change it: the launch fails with CUDA_ERROR_LAUNCH_FAILED
 * saying so. A block counts as neither while its turn runs.
 */
#include <string.h>

#include "backend/cpu/cpu_internal.h"

void cb_cpu_coop_init(cpu_launch *L)
{
    memset(L->grid_ws, 0, sizeof L->grid_ws);
    L->grid_ws[0] = CPU_GRID_WS_BYTES;   /* grid_workspace.wsSize */
    cb_mutex_init(&L->coop_lock);
}

void cb_cpu_coop_fini(cpu_launch *L) { cb_mutex_destroy(&L->coop_lock); }

static uint32_t barrier_word(cpu_launch *L)
{
    return __atomic_load_n(&L->grid_ws[1], __ATOMIC_ACQUIRE);
}

/* Claims the next block and makes it resident as w's block slot i.
 * Returns 1 when it did, 0 when none are left, -1 on failure. */
static int coop_claim(cpu_worker *w, cpu_launch *L, uint32_t i)
{
    if (atomic_load_explicit(&L->failed, memory_order_relaxed))
        return 0;
    uint64_t index = atomic_fetch_add(&L->next_block, 1);
    if (index >= L->nblocks)
        return 0;
    cb_mutex_lock(&L->coop_lock);
    L->coop_live++;
    cb_mutex_unlock(&L->coop_lock);
    cpu_block *b = cb_cpu_worker_block(w, i);
    if (!b) {
        cb_cpu_launch_fail(L, CUDA_ERROR_OUT_OF_MEMORY, "kernel %s: out of host memory for a resident block",
                           L->info->name);
        return -1;
    }
    return cb_cpu_block_begin(w, b, L, index) == 0 ? 1 : -1;
}

/* b's turn starts: while it runs it is neither parked nor stable, so that
 * "every live block is stable" never holds while one of them may be making
 * progress. Returns the barrier word before the turn. */
static uint32_t coop_turn_begin(cpu_launch *L, cpu_block *b)
{
    if (b->parked) {
        cb_mutex_lock(&L->coop_lock);
        if (b->stable_gen && b->stable_gen == L->stable_gen)
            L->stable_count--;
        b->parked = 0;
        b->stable_gen = 0;
        cb_mutex_unlock(&L->coop_lock);
    }
    return barrier_word(L);
}

/* Records how b's turn ended (status from cb_cpu_block_resume; word: the
 * barrier word before it) and fails L when its grid barrier can never
 * complete: every block claimed, and every live block stable at the
 * current barrier word. */
static void coop_turn_end(cpu_launch *L, cpu_block *b, int status, uint32_t word)
{
    int parked = status == CPU_BLOCK_SPINNING && b->only_ws;
    int stable = parked && barrier_word(L) == word;
    cb_mutex_lock(&L->coop_lock);
    if (status != CPU_BLOCK_SPINNING) {
        L->coop_live--;
        L->coop_exited += status == CPU_BLOCK_DONE;
    }
    b->parked = parked;
    if (stable) {
        if (L->stable_gen == 0 || L->stable_word != word) {
            L->stable_gen++;
            L->stable_word = word;
            L->stable_count = 0;
        }
        b->stable_gen = L->stable_gen;
        L->stable_count++;
        if (L->stable_count == L->coop_live && barrier_word(L) == word &&
            atomic_load_explicit(&L->next_block, memory_order_relaxed) >= L->nblocks)
            cb_cpu_launch_fail(L, CUDA_ERROR_LAUNCH_FAILED,
                               "kernel %s: grid-wide barrier deadlock (cooperative groups grid.sync): %u of %llu "
                               "blocks wait at a grid barrier that can never complete, and %u exited without "
                               "reaching it",
                               L->info->name, L->coop_live, (unsigned long long)L->nblocks, L->coop_exited);
    }
    cb_mutex_unlock(&L->coop_lock);
}

void cb_cpu_coop_work(cpu_worker *w, cpu_launch *L)
{
    uint32_t nres = 0;   /* resident blocks: w->blocks[0 .. nres) */
    for (;;) {
        int all_parked = 1;
        for (uint32_t i = 0; i < nres && !atomic_load_explicit(&L->failed, memory_order_relaxed);) {
            cpu_block *b = w->blocks[i];
            uint32_t word = coop_turn_begin(L, b);
            int status = cb_cpu_block_resume(b);
            coop_turn_end(L, b, status, word);
            if (status == CPU_BLOCK_SPINNING) {
                all_parked &= b->only_ws;
                i++;
                continue;
            }
            /* Finished: the last resident block takes its slot. */
            w->blocks[i] = w->blocks[nres - 1];
            w->blocks[nres - 1] = b;
            nres--;
        }
        if (atomic_load(&L->failed))
            return;
        int claimed = coop_claim(w, L, nres);
        if (claimed < 0)
            return;
        nres += (uint32_t)claimed;
        if (nres == 0)
            return;
        if (!claimed && all_parked)
            cb_thread_yield();   /* waiting for blocks on other workers: let them have the CPU */
    }
}
