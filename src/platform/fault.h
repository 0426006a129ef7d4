/* fault.h: turning SIGSEGV/SIGBUS in kernel code into an error.
 *
 * A worker runs kernel code inside cb_fault_run with a scope armed (a
 * thread-local pointer). A fault while a scope is armed is caught on the
 * thread's alternate signal stack, recorded in the scope, and control jumps
 * back to cb_fault_run, which returns CB_FAULT_SIGNAL. A fault with no scope
 * armed goes to the handler that was installed before ours (or kills the
 * process as usual): the host program's own bugs still crash.
 *
 * Process-wide state: the previous SIGSEGV/SIGBUS actions, kept for chaining.
 */
#ifndef CB_PLATFORM_FAULT_H
#define CB_PLATFORM_FAULT_H

#include <pthread.h>
#include <setjmp.h>

enum { CB_FAULT_NONE = 0, CB_FAULT_SIGNAL = 1, CB_FAULT_UNWIND = 2 };

typedef struct cb_fault_scope {
    sigjmp_buf env;
    int signo;             /* SIGSEGV or SIGBUS after CB_FAULT_SIGNAL */
    void *addr;            /* the faulting address */
} cb_fault_scope;

/* Installs the handlers, or re-installs them if someone replaced them since
 * (keeping the newcomer as the handler to chain to). Cheap to call before
 * every launch: after a successful check it does nothing for a millisecond.
 * Returns 0, or -1 with errno. */
int cb_fault_install(void);
/* Gives the calling thread an alternate signal stack, so that a stack
 * overflow in kernel code is caught too. Once per worker thread; undone by
 * cb_fault_thread_fini. Returns 0, or -1 with errno. */
int cb_fault_thread_init(void);
void cb_fault_thread_fini(void);

/* Runs fn(arg) with scope armed. Returns CB_FAULT_NONE when fn returns,
 * CB_FAULT_SIGNAL when it faulted (scope->signo, scope->addr say how), or
 * CB_FAULT_UNWIND when it called cb_fault_unwind. Restores the previously
 * armed scope in every case. */
int cb_fault_run(cb_fault_scope *scope, void (*fn)(void *), void *arg);
/* Arms scope (NULL disarms) for the calling thread and returns the scope
 * armed before: fiber switches use it to keep the armed scope on the running
 * fiber's stack. */
cb_fault_scope *cb_fault_arm(cb_fault_scope *scope);
/* Jumps back into the cb_fault_run of the armed scope, which must be on the
 * current stack; that cb_fault_run returns CB_FAULT_UNWIND. */
_Noreturn void cb_fault_unwind(void);
/* Like cb_fault_thread_init, but keeps an alternate stack the thread already
 * has (a host program's, a sanitizer's) and never removes the one it adds
 * (for threads cubridge does not own: it lives as long as the thread).
 * Returns 0, or -1 with errno. */
int cb_fault_thread_ensure(void);

/* ---- interrupts (the kernel watchdog) ----------------------------------
 * cb_fault_interrupt_install installs a handler for a dedicated signal;
 * cb_fault_interrupt_thread sends it to a thread. The handler jumps back into
 * the armed scope's cb_fault_run (CB_FAULT_SIGNAL, scope->signo the
 * interrupt signal) only when that thread has marked itself interruptible
 * with a flag that is now non-zero; otherwise it returns and the thread goes
 * on. Process-wide state: the signal number, once installed. */
int cb_fault_interrupt_install(void);
/* Sends the interrupt to thread h. Returns 0, or -1. */
int cb_fault_interrupt_thread(pthread_t h);
/* Marks the calling thread interruptible while *flag is non-zero (NULL: not
 * interruptible). */
void cb_fault_interruptible(const _Atomic int *flag);
/* The calling thread, as cb_fault_interrupt_thread wants it. */
pthread_t cb_fault_self(void);
/* Sleeps about ns nanoseconds (the watchdog's monitor ticks with it). */
void cb_fault_nap(unsigned long long ns);
/* The interrupt signal number (0 before install). */
int cb_fault_interrupt_signal(void);

/* "SIGSEGV", "SIGBUS" or "signal N". */
const char *cb_fault_signal_name(int signo);

#endif
