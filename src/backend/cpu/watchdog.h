/* watchdog.h: CUBRIDGE_KERNEL_TIMEOUT, the kernel watchdog (watchdog.c).
 *
 * With CUBRIDGE_KERNEL_TIMEOUT=<seconds> set (a positive number), a monitor
 * thread fails any launch that has run longer than that with
 * CUDA_ERROR_LAUNCH_TIMEOUT. Workers notice the failure at block boundaries
 * and fiber switches; a worker still inside kernel code a grace period later
 * (a tight loop that never switches) gets the fault module's interrupt signal
 * and leaves the kernel through its fault scope. Unset, every function here
 * is a no-op on a NULL watchdog.
 */
#ifndef CB_CPU_WATCHDOG_H
#define CB_CPU_WATCHDOG_H

#include <stdint.h>

struct cpu_worker;
struct cpu_launch;

typedef struct cb_watchdog cb_watchdog;

/* A running watchdog when CUBRIDGE_KERNEL_TIMEOUT asks for one, else NULL
 * (also NULL, with a warning, when it cannot start). */
cb_watchdog *cb_watchdog_start_from_env(void);
/* A running watchdog with the given timeout in seconds, or NULL. */
cb_watchdog *cb_watchdog_start(double seconds);
/* Stops the monitor and frees wd (NULL is allowed). No launch may run. */
void cb_watchdog_stop(cb_watchdog *wd);
/* The calling thread, as w, starts / stops running blocks of L. */
void cb_watchdog_enter(cb_watchdog *wd, struct cpu_worker *w, struct cpu_launch *L);
void cb_watchdog_leave(cb_watchdog *wd, struct cpu_worker *w);

#endif
