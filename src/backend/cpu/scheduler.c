/* scheduler.c: the worker pool and the block scheduler.
 *
 * A launch is queued on the pool; every worker that finds it takes blocks
 * from its atomic counter until none are left (or the launch failed), so the
 * blocks of one grid spread over all workers and several launches (from
 * several stream threads) share the pool first come, first served. How a
 * block runs is block_exec.c's business: a faster path for barrier kernels
 * slots in there without touching this file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/cpu_internal.h"

void cb_cpu_launch_fail(cpu_launch *L, CUresult result, const char *fmt, ...)
{
    cb_mutex_lock(&L->error_lock);
    if (!atomic_load(&L->failed)) {
        L->result = result;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(L->message, sizeof L->message, fmt, ap);
        va_end(ap);
        atomic_store(&L->failed, 1);
    }
    cb_mutex_unlock(&L->error_lock);
}

/* Takes the next block; -1 when none are left or the launch failed. */
static int64_t launch_claim(cpu_launch *L)
{
    if (atomic_load_explicit(&L->failed, memory_order_relaxed))
        return -1;
    uint64_t i = atomic_fetch_add(&L->next_block, 1);
    return i < L->nblocks ? (int64_t)i : -1;
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

static void *worker_main(void *arg)
{
    cpu_worker *w = arg;
    cpu_pool *pool = w->pool;
    if (cb_fault_thread_init() != 0)
        cb_cpu_log(CPU_LOG_WARN, "worker %d: no alternate signal stack; kernel stack overflows will crash", w->index);
    cb_fiber_init_main(&w->sched);
    cb_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->shutting_down && !pool->head)
            cb_cond_wait(&pool->work, &pool->lock);
        if (pool->shutting_down)
            break;
        cpu_launch *L = pool->head;
        L->active++;
        cb_mutex_unlock(&pool->lock);
        int64_t b;
        while ((b = launch_claim(L)) >= 0)
            cb_cpu_run_block(w, L, (uint64_t)b);
        cb_mutex_lock(&pool->lock);
        if (L->queued)
            queue_remove(pool, L);
        if (--L->active == 0) {
            L->finished = 1;
            cb_cond_broadcast(&L->done);
        }
    }
    cb_mutex_unlock(&pool->lock);
    cb_cpu_worker_release(w);
    cb_fault_thread_fini();
    return NULL;
}

cpu_pool *cb_cpu_pool_create(int nworkers, size_t stack_size)
{
    cpu_pool *pool = calloc(1, sizeof *pool);
    if (!pool)
        return NULL;
    pool->workers = calloc((size_t)nworkers, sizeof *pool->workers);
    if (!pool->workers) {
        free(pool);
        return NULL;
    }
    pool->stack_size = stack_size;
    cb_mutex_init(&pool->lock);
    cb_cond_init(&pool->work);
    for (int i = 0; i < nworkers; i++) {
        cpu_worker *w = &pool->workers[i];
        w->pool = pool;
        w->index = i;
        if (cb_thread_start(&w->handle, worker_main, w) != 0) {
            cb_cpu_log(CPU_LOG_ERROR, "cannot start CPU worker %d", i);
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
    cb_mutex_lock(&pool->lock);
    pool->shutting_down = 1;
    cb_cond_broadcast(&pool->work);
    cb_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->nworkers; i++)
        cb_thread_join(pool->workers[i].handle);
    cb_cond_destroy(&pool->work);
    cb_mutex_destroy(&pool->lock);
    free(pool->workers);
    free(pool);
}

void cb_cpu_pool_run(cpu_pool *pool, cpu_launch *L)
{
    cb_cond_init(&L->done);
    L->gridid = atomic_fetch_add(&pool->launches, 1) + 1;
    cb_mutex_lock(&pool->lock);
    L->next = NULL;
    L->queued = 1;
    if (pool->tail)
        pool->tail->next = L;
    else
        pool->head = L;
    pool->tail = L;
    cb_cond_broadcast(&pool->work);
    while (!L->finished)
        cb_cond_wait(&L->done, &pool->lock);
    cb_mutex_unlock(&pool->lock);
    cb_cond_destroy(&L->done);
}
