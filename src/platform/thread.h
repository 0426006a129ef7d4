/* thread.h: threads, locks and condition variables.
 *
 * The one place that names the host's thread library. Thin inline wrappers
 * over POSIX threads today; a Windows build replaces this file.
 */
#ifndef CB_PLATFORM_THREAD_H
#define CB_PLATFORM_THREAD_H

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <unistd.h>

typedef pthread_mutex_t cb_mutex;
typedef pthread_cond_t cb_cond;
typedef pthread_t cb_thread_handle;

#define CB_MUTEX_INIT PTHREAD_MUTEX_INITIALIZER
#define CB_COND_INIT PTHREAD_COND_INITIALIZER

static inline void cb_mutex_init(cb_mutex *m) { pthread_mutex_init(m, NULL); }
static inline void cb_mutex_destroy(cb_mutex *m) { pthread_mutex_destroy(m); }
static inline void cb_mutex_lock(cb_mutex *m) { pthread_mutex_lock(m); }
static inline void cb_mutex_unlock(cb_mutex *m) { pthread_mutex_unlock(m); }
static inline void cb_cond_init(cb_cond *c) { pthread_cond_init(c, NULL); }
static inline void cb_cond_destroy(cb_cond *c) { pthread_cond_destroy(c); }
static inline void cb_cond_wait(cb_cond *c, cb_mutex *m) { pthread_cond_wait(c, m); }
static inline void cb_cond_signal(cb_cond *c) { pthread_cond_signal(c); }
static inline void cb_cond_broadcast(cb_cond *c) { pthread_cond_broadcast(c); }

/* Starts fn(arg) on a new thread. Returns 0 on success. */
static inline int cb_thread_start(cb_thread_handle *h, void *(*fn)(void *), void *arg)
{
    return pthread_create(h, NULL, fn, arg);
}
static inline void cb_thread_join(cb_thread_handle h) { pthread_join(h, NULL); }
/* Lets a thread end on its own (never joined). */
static inline void cb_thread_detach(cb_thread_handle h) { pthread_detach(h); }
/* Gives the CPU to another runnable thread, if any (sched_yield). */
static inline void cb_thread_yield(void) { sched_yield(); }

/* The calling thread's pthread id and the process id, as integers (the
 * driver's integrity check for cudart hashes them). */
static inline uint64_t cb_thread_self_id(void) { return (uint64_t)(uintptr_t)pthread_self(); }
static inline uint32_t cb_process_id(void) { return (uint32_t)getpid(); }

/* Runs fn exactly once per process. */
typedef pthread_once_t cb_once;
#define CB_ONCE_INIT PTHREAD_ONCE_INIT
static inline void cb_run_once(cb_once *o, void (*fn)(void)) { pthread_once(o, fn); }

#endif
