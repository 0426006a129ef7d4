/* scheduler.c: the worker pool and the block scheduler.
 *
 * A launch is queued on the pool; every worker that finds it takes blocks
 * from its atomic counter until none are left (or the launch failed), so the
 * blocks of one grid spread over all workers and several launches (from
 * several stream threads) share the pool first come, first served. How a
 * block runs is block_exec.c's business: a faster path for barrier kernels
 * slots in there without touching this file.
 *
 * Latency (see docs/cpu-backend.md, "Performance"): the thread that calls
 * cb_cpu_pool_run runs blocks too, through one of a few caller slots (a
 * cpu_worker kept for reuse), and wakes only as many workers as there are
 * blocks beyond its own, so a one-block launch wakes nobody; at most
 * nworkers threads, the caller included, run one launch. Workers that run
 * out of work spin a little before they sleep, and the caller spins a little
 * before it sleeps on the launch's completion.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/cpu_internal.h"
#include "backend/cpu/watchdog.h"

#define POOL_CALLER_SLOTS 8
#define POOL_SPIN 4000          /* polls before a worker or caller sleeps */

/* The pool with the scheduler's private parts; pool is first. */
typedef struct pool_ext {
    cpu_pool pool;
    cpu_worker callers[POOL_CALLER_SLOTS];  /* reused by calling threads */
    _Atomic int caller_busy[POOL_CALLER_SLOTS];
    _Atomic uint64_t enqueued;              /* launches queued so far (spinning workers watch it) */
    _Atomic int stopping;                   /* shutting_down, for spinning workers */
    int sleeping;                           /* workers in cond_wait (pool lock) */
    cb_watchdog *watchdog;                  /* NULL: CUBRIDGE_KERNEL_TIMEOUT unset */
} pool_ext;

static pool_ext *ext_of(cpu_pool *pool) { return (pool_ext *)pool; }

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void launch_vfail(cpu_launch *L, uint64_t addr, CUresult result, const char *fmt, va_list ap)
{
    cb_mutex_lock(&L->error_lock);
    if (!atomic_load(&L->failed)) {
        L->result = result;
        L->fault_addr = addr;
        vsnprintf(L->message, sizeof L->message, fmt, ap);
        atomic_store(&L->failed, 1);
    }
    cb_mutex_unlock(&L->error_lock);
}

void cb_cpu_launch_fail(cpu_launch *L, CUresult result, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    launch_vfail(L, 0, result, fmt, ap);
    va_end(ap);
}

void cb_cpu_launch_fail_at(cpu_launch *L, uint64_t addr, CUresult result, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    launch_vfail(L, addr, result, fmt, ap);
    va_end(ap);
}

/* Takes the next run of blocks, [*first, *first + n), and returns n; 0 when
 * none are left or the launch failed. A run is a share of what is left
 * (1/4 per worker, at most 64 blocks): neighbouring blocks, which touch
 * neighbouring memory, run on one core, one atomic serves many small
 * blocks, and the runs shrink to single blocks as the grid drains so the
 * last blocks still spread over the workers. */
static uint64_t launch_claim(cpu_launch *L, int nworkers, uint64_t *first)
{
    if (atomic_load_explicit(&L->failed, memory_order_relaxed))
        return 0;
    uint64_t next = atomic_load_explicit(&L->next_block, memory_order_relaxed);
    if (next >= L->nblocks)
        return 0;
    uint64_t n = (L->nblocks - next) / (4 * (uint64_t)(nworkers > 0 ? nworkers : 1));
    n = n < 1 ? 1 : n > 64 ? 64 : n;
    uint64_t i = atomic_fetch_add(&L->next_block, n);
    if (i >= L->nblocks)
        return 0;
    *first = i;
    return n < L->nblocks - i ? n : L->nblocks - i;
}

/* Runs blocks of L on w until none are left. */
static void launch_work(pool_ext *px, cpu_worker *w, cpu_launch *L)
{
    uint64_t first = 0, n;
    cb_watchdog_enter(px->watchdog, w, L);
    if (L->cooperative)
        cb_cpu_coop_work(w, L);
    else if (L->cluster_blocks > 1)
        cb_cpu_cluster_work(w, L);
    else
        while ((n = launch_claim(L, px->pool.nworkers, &first)) > 0)
            for (uint64_t b = first, k; b < first + n; b += k) {
                if (atomic_load_explicit(&L->failed, memory_order_relaxed))
                    break;
                /* a lanes entry that takes runs of blocks gets those of the claim in one grid row */
                k = 1;
                if (L->lanes_blocks > 1) {
                    uint64_t row_left = L->grid.x - b % L->grid.x;
                    k = first + n - b < row_left ? first + n - b : row_left;
                    k = k < L->lanes_blocks ? k : L->lanes_blocks;
                }
                cb_cpu_run_blocks(w, L, b, (uint32_t)k);
            }
    cb_watchdog_leave(px->watchdog, w);
}

/* Unlinks L from the queue (pool lock held). */
static void queue_remove(cpu_pool *pool, cpu_launch *L)
{
    cpu_launch **p = &pool->head;
    pool->tail = NULL;
    while (*p) {
        if (*p == L)
            *p = L->next;
        else {
            pool->tail = *p;
            p = &(*p)->next;
        }
    }
    L->next = NULL;
    L->queued = 0;
}

/* A worker leaves L (pool lock held): the last one out finishes it. */
static void launch_leave(pool_ext *px, cpu_launch *L)
{
    if (L->queued)
        queue_remove(&px->pool, L);
    if (--L->active == 0) {
        __atomic_store_n(&L->finished, 1, __ATOMIC_RELEASE);   /* read unlocked by launch_wait's spin */
        cb_cond_broadcast(&L->done);
    }
}

/* The first queued launch that still takes workers (pool lock held): at
 * most nworkers threads, its caller included, run one launch, so a caller
 * that runs blocks does not oversubscribe the CPUs. */
static cpu_launch *queue_joinable(cpu_pool *pool)
{
    for (cpu_launch *L = pool->head; L; L = L->next)
        if (L->active < pool->nworkers)
            return L;
    return NULL;
}

/* Spins a while for a new launch (enqueued moving past gen) or shutdown; 1
 * when one came. */
static int worker_spin(pool_ext *px, uint64_t gen)
{
    for (int i = 0; i < POOL_SPIN; i++) {
        if (atomic_load_explicit(&px->enqueued, memory_order_relaxed) != gen ||
            atomic_load_explicit(&px->stopping, memory_order_relaxed))
            return 1;
        cpu_relax();
    }
    return 0;
}

static void *worker_main(void *arg)
{
    cpu_worker *w = arg;
    cpu_pool *pool = w->pool;
    pool_ext *px = ext_of(pool);
    if (cb_fault_thread_init() != 0)
        cb_log(CB_LOG_WARN, "worker %d: no alternate signal stack; kernel stack overflows will crash", w->index);
    cb_fiber_init_main(&w->sched);
    cb_mutex_lock(&pool->lock);
    while (!pool->shutting_down) {
        cpu_launch *L = queue_joinable(pool);
        if (L) {
            L->active++;
            cb_mutex_unlock(&pool->lock);
            launch_work(px, w, L);
            cb_mutex_lock(&pool->lock);
            launch_leave(px, L);
            continue;
        }
        uint64_t gen = atomic_load(&px->enqueued);
        cb_mutex_unlock(&pool->lock);
        int found = worker_spin(px, gen);
        cb_mutex_lock(&pool->lock);
        if (found || pool->shutting_down || atomic_load(&px->enqueued) != gen)
            continue;
        px->sleeping++;
        cb_cond_wait(&pool->work, &pool->lock);   /* enqueues signal under the lock: none is lost */
        px->sleeping--;
    }
    cb_mutex_unlock(&pool->lock);
    cb_cpu_worker_release(w);
    cb_fault_thread_fini();
    return NULL;
}

cpu_pool *cb_cpu_pool_create(int nworkers, size_t stack_size)
{
    pool_ext *px = calloc(1, sizeof *px);
    if (!px)
        return NULL;
    cpu_pool *pool = &px->pool;
    pool->workers = calloc((size_t)nworkers, sizeof *pool->workers);
    if (!pool->workers) {
        free(px);
        return NULL;
    }
    pool->stack_size = stack_size;
    cb_mutex_init(&pool->lock);
    cb_cond_init(&pool->work);
    for (int i = 0; i < POOL_CALLER_SLOTS; i++) {
        px->callers[i].pool = pool;
        px->callers[i].index = nworkers + i;
    }
    px->watchdog = cb_watchdog_start_from_env();
    for (int i = 0; i < nworkers; i++) {
        cpu_worker *w = &pool->workers[i];
        w->pool = pool;
        w->index = i;
        if (cb_thread_start(&w->handle, worker_main, w) != 0) {
            cb_log(CB_LOG_ERROR, "cannot start CPU worker %d", i);
            break;
        }
        pool->nworkers++;
    }
    if (pool->nworkers == 0) {
        cb_cpu_pool_destroy(pool);
        return NULL;
    }
    return pool;
}

void cb_cpu_pool_destroy(cpu_pool *pool)
{
    if (!pool)
        return;
    pool_ext *px = ext_of(pool);
    cb_mutex_lock(&pool->lock);
    pool->shutting_down = 1;
    atomic_store(&px->stopping, 1);
    cb_cond_broadcast(&pool->work);
    cb_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->nworkers; i++)
        cb_thread_join(pool->workers[i].handle);
    cb_watchdog_stop(px->watchdog);
    for (int i = 0; i < POOL_CALLER_SLOTS; i++)
        cb_cpu_worker_release(&px->callers[i]);
    cb_cond_destroy(&pool->work);
    cb_mutex_destroy(&pool->lock);
    free(pool->workers);
    free(px);
}

/* A free caller slot for the calling thread, or NULL when all are taken
 * (the caller then only waits) or the thread has no alternate signal stack
 * for fault recovery. */
static cpu_worker *caller_acquire(pool_ext *px)
{
    if (cb_fault_thread_ensure() != 0)
        return NULL;
    for (int i = 0; i < POOL_CALLER_SLOTS; i++) {
        int expect = 0;
        if (atomic_load_explicit(&px->caller_busy[i], memory_order_relaxed) == 0 &&
            atomic_compare_exchange_strong(&px->caller_busy[i], &expect, 1)) {
            cpu_worker *w = &px->callers[i];
            cb_fiber_init_main(&w->sched);
            return w;
        }
    }
    return NULL;
}

static void caller_release(pool_ext *px, cpu_worker *w)
{
    atomic_store(&px->caller_busy[w - px->callers], 0);
}

/* Waits until every worker has left L: spins first, then sleeps. */
static void launch_wait(pool_ext *px, cpu_launch *L)
{
    for (int i = 0; i < POOL_SPIN; i++) {
        if (__atomic_load_n(&L->finished, __ATOMIC_ACQUIRE))
            break;
        cpu_relax();
    }
    cpu_pool *pool = &px->pool;
    cb_mutex_lock(&pool->lock);
    while (!__atomic_load_n(&L->finished, __ATOMIC_RELAXED))
        cb_cond_wait(&L->done, &pool->lock);
    cb_mutex_unlock(&pool->lock);
}

void cb_cpu_pool_run(cpu_pool *pool, cpu_launch *L)
{
    pool_ext *px = ext_of(pool);
    cpu_worker *self = caller_acquire(px);
    cb_cond_init(&L->done);
    L->gridid = atomic_fetch_add(&pool->launches, 1) + 1;
    /* Workers to wake: one per block beyond the caller's, at most as many
     * as may join (nworkers threads in all, the caller included). */
    uint64_t extra = self ? L->nblocks - 1 : L->nblocks;
    uint64_t room = (uint64_t)pool->nworkers - (self ? 1 : 0);
    if (extra > room)
        extra = room;
    cb_mutex_lock(&pool->lock);
    L->next = NULL;
    L->active = self ? 1 : 0;
    L->finished = 0;
    if (extra > 0) {
        L->queued = 1;
        atomic_fetch_add(&px->enqueued, 1);
        if (pool->tail)
            pool->tail->next = L;
        else
            pool->head = L;
        pool->tail = L;
        if (extra >= (uint64_t)px->sleeping)
            cb_cond_broadcast(&pool->work);
        else
            for (uint64_t i = 0; i < extra; i++)
                cb_cond_signal(&pool->work);
    } else if (!self) {
        L->finished = 1;    /* no blocks at all: cannot happen (nblocks >= 1) */
    }
    cb_mutex_unlock(&pool->lock);
    if (self) {
        launch_work(px, self, L);
        cb_mutex_lock(&pool->lock);
        launch_leave(px, L);
        cb_mutex_unlock(&pool->lock);
        caller_release(px, self);
    }
    launch_wait(px, L);
    cb_cond_destroy(&L->done);
}

cb_watchdog *cb_cpu_pool_watchdog(cpu_pool *pool) { return ext_of(pool)->watchdog; }
