/* watchdog.c: the kernel watchdog (see watchdog.h).
 *
 * Each worker (pool worker or caller slot, by cpu_worker index) has a slot
 * saying which launch it is in and since when. The monitor wakes every
 * tenth of the timeout (at most every 100 ms), and under the watchdog lock
 * fails launches that are overdue and, one grace period later, interrupts
 * the threads still in them. enter/leave take the same lock, so the monitor
 * never touches a launch that its workers have all left (the launch is
 * freed only after that).
 */
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/cpu_internal.h"
#include "backend/cpu/watchdog.h"
#include "platform/vm.h"

#define WD_SLOTS (4096 + 64)  /* workers (CUBRIDGE_THREADS is capped at 4096) plus caller slots */

typedef struct wd_slot {
    cpu_launch *launch;          /* NULL: idle */
    uint64_t since_ns;
    cb_thread_handle thread;
    int interrupted;
} wd_slot;

struct cb_watchdog {
    uint64_t timeout_ns;
    uint64_t grace_ns;           /* after the failure, before the interrupt */
    cb_mutex lock;
    int quit;
    cb_thread_handle monitor;
    wd_slot *slots;
};

/* Fails overdue launches and interrupts their stuck threads (lock held). */
static void wd_scan(cb_watchdog *wd, uint64_t now)
{
    for (int i = 0; i < WD_SLOTS; i++) {
        wd_slot *s = &wd->slots[i];
        cpu_launch *L = s->launch;
        if (!L || now - s->since_ns < wd->timeout_ns)
            continue;
        if (!atomic_load(&L->failed))
            cb_cpu_launch_fail(L, CUDA_ERROR_LAUNCH_TIMEOUT,
                               "kernel %s ran longer than CUBRIDGE_KERNEL_TIMEOUT (%.3g s) and was stopped",
                               L->info->name, (double)wd->timeout_ns / 1e9);
        if (!s->interrupted && now - s->since_ns >= wd->timeout_ns + wd->grace_ns) {
            s->interrupted = 1;
            if (cb_fault_interrupt_thread(s->thread) != 0)
                cb_log(CB_LOG_WARN, "watchdog: cannot interrupt a worker of kernel %s", L->info->name);
        }
    }
}

static void *wd_monitor(void *arg)
{
    cb_watchdog *wd = arg;
    uint64_t period = wd->timeout_ns / 10;
    if (period > 100000000ull)
        period = 100000000ull;
    if (period < 1000000ull)
        period = 1000000ull;
    cb_mutex_lock(&wd->lock);
    while (!wd->quit) {
        cb_mutex_unlock(&wd->lock);
        cb_fault_nap(period);
        cb_mutex_lock(&wd->lock);
        if (!wd->quit)
            wd_scan(wd, cb_vm_clock_ns());
    }
    cb_mutex_unlock(&wd->lock);
    return NULL;
}

cb_watchdog *cb_watchdog_start(double seconds)
{
    if (!(seconds > 0))
        return NULL;
    if (cb_fault_interrupt_install() != 0) {
        cb_log(CB_LOG_WARN, "watchdog: cannot install the interrupt signal; CUBRIDGE_KERNEL_TIMEOUT is ignored");
        return NULL;
    }
    cb_watchdog *wd = calloc(1, sizeof *wd);
    if (wd)
        wd->slots = calloc(WD_SLOTS, sizeof *wd->slots);
    if (!wd || !wd->slots) {
        free(wd);
        return NULL;
    }
    wd->timeout_ns = (uint64_t)(seconds * 1e9);
    if (wd->timeout_ns == 0)
        wd->timeout_ns = 1;
    wd->grace_ns = wd->timeout_ns / 10 < 200000000ull ? wd->timeout_ns / 10 : 200000000ull;
    cb_mutex_init(&wd->lock);
    if (cb_thread_start(&wd->monitor, wd_monitor, wd) != 0) {
        cb_log(CB_LOG_WARN, "watchdog: cannot start the monitor thread; CUBRIDGE_KERNEL_TIMEOUT is ignored");
        cb_mutex_destroy(&wd->lock);
        free(wd->slots);
        free(wd);
        return NULL;
    }
    return wd;
}

cb_watchdog *cb_watchdog_start_from_env(void)
{
    const char *s = getenv("CUBRIDGE_KERNEL_TIMEOUT");
    if (!s || !*s)
        return NULL;
    char *end;
    double v = strtod(s, &end);
    if (*end || !(v > 0)) {
        if (!(*end == 0 && v == 0))
            cb_log(CB_LOG_WARN, "ignoring CUBRIDGE_KERNEL_TIMEOUT=%s (not a positive number of seconds)", s);
        return NULL;
    }
    cb_log(CB_LOG_INFO, "kernel watchdog: launches longer than %g s fail with CUDA_ERROR_LAUNCH_TIMEOUT", v);
    return cb_watchdog_start(v);
}

void cb_watchdog_stop(cb_watchdog *wd)
{
    if (!wd)
        return;
    cb_mutex_lock(&wd->lock);
    wd->quit = 1;
    cb_mutex_unlock(&wd->lock);
    cb_thread_join(wd->monitor);
    cb_mutex_destroy(&wd->lock);
    free(wd->slots);
    free(wd);
}

void cb_watchdog_enter(cb_watchdog *wd, cpu_worker *w, cpu_launch *L)
{
    if (!wd || w->index < 0 || w->index >= WD_SLOTS)
        return;
    cb_mutex_lock(&wd->lock);
    wd_slot *s = &wd->slots[w->index];
    s->launch = L;
    s->since_ns = cb_vm_clock_ns();
    s->thread = cb_fault_self();
    s->interrupted = 0;
    cb_mutex_unlock(&wd->lock);
    cb_fault_interruptible(&L->failed);
}

void cb_watchdog_leave(cb_watchdog *wd, cpu_worker *w)
{
    if (!wd || w->index < 0 || w->index >= WD_SLOTS)
        return;
    cb_fault_interruptible(NULL);
    cb_mutex_lock(&wd->lock);
    wd->slots[w->index].launch = NULL;
    cb_mutex_unlock(&wd->lock);
}
