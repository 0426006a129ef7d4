/* fault.c: SIGSEGV/SIGBUS recovery for kernel code (POSIX signals,
 * sigaltstack, sigsetjmp/siglongjmp). */
#include "platform/fault.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#define FAULT_ALTSTACK_SIZE (64 * 1024)

/* initial-exec: the handler reads it, and a lazily allocated TLS block (a
 * dlopen'ed libcuda) must not be allocated inside a signal handler. */
static _Thread_local cb_fault_scope *fault_armed __attribute__((tls_model("initial-exec")));
static _Thread_local void *fault_altstack __attribute__((tls_model("initial-exec")));
static _Thread_local stack_t fault_prev_altstack;
static _Thread_local const _Atomic int *fault_interrupt_flag __attribute__((tls_model("initial-exec")));
static _Thread_local int fault_ensured __attribute__((tls_model("initial-exec")));
static _Atomic int fault_interrupt_signo;

/* The actions to chain to, and a lock for installing. */
static struct sigaction fault_prev_segv, fault_prev_bus;
static pthread_mutex_t fault_install_lock = PTHREAD_MUTEX_INITIALIZER;

static void fault_chain(int sig, siginfo_t *info, void *uc)
{
    struct sigaction *prev = sig == SIGSEGV ? &fault_prev_segv : &fault_prev_bus;
    if ((prev->sa_flags & SA_SIGINFO) && prev->sa_sigaction) {
        prev->sa_sigaction(sig, info, uc);
        return;
    }
    if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
        prev->sa_handler(sig);
        return;
    }
    /* Default: die of this signal. Returning re-executes the faulting
     * instruction with the default action in place; raise covers signals
     * that were sent rather than caused. */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void fault_handler(int sig, siginfo_t *info, void *uc)
{
    cb_fault_scope *scope = fault_armed;
    if (!scope) {
        fault_chain(sig, info, uc);
        return;
    }
    fault_armed = NULL;
    scope->signo = sig;
    scope->addr = info->si_addr;
    siglongjmp(scope->env, CB_FAULT_SIGNAL);
}

/* Installs our handler for sig unless it is already there. */
static int install_one(int sig, struct sigaction *prev)
{
    struct sigaction cur;
    if (sigaction(sig, NULL, &cur) != 0)
        return -1;
    if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == fault_handler)
        return 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fault_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    return sigaction(sig, &sa, prev);
}

/* When the handlers were last checked (CLOCK_MONOTONIC ns; 0: never). */
static _Atomic unsigned long long fault_checked_ns;

static unsigned long long fault_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

int cb_fault_install(void)
{
    /* Two sigaction calls per launch were a measurable part of a launch's
     * cost (bench/NOTES.md): check at most once a millisecond. */
    unsigned long long now = fault_now_ns(), last = atomic_load_explicit(&fault_checked_ns, memory_order_relaxed);
    if (last && now - last < 1000000ull)
        return 0;
    pthread_mutex_lock(&fault_install_lock);
    int rc = install_one(SIGSEGV, &fault_prev_segv);
    if (rc == 0)
        rc = install_one(SIGBUS, &fault_prev_bus);
    if (rc == 0)
        atomic_store_explicit(&fault_checked_ns, now, memory_order_relaxed);
    pthread_mutex_unlock(&fault_install_lock);
    return rc;
}

int cb_fault_thread_init(void)
{
    fault_armed = NULL;
    if (fault_altstack)
        return 0;
    void *mem = mmap(NULL, FAULT_ALTSTACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return -1;
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = mem;
    ss.ss_size = FAULT_ALTSTACK_SIZE;
    if (sigaltstack(&ss, &fault_prev_altstack) != 0) {
        int saved = errno;
        munmap(mem, FAULT_ALTSTACK_SIZE);
        errno = saved;
        return -1;
    }
    fault_altstack = mem;
    return 0;
}

int cb_fault_thread_ensure(void)
{
    if (fault_altstack || fault_ensured)
        return 0;
    stack_t cur;
    if (sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE) && cur.ss_sp && cur.ss_size >= (size_t)MINSIGSTKSZ) {
        fault_ensured = 1;
        return 0;
    }
    void *mem = mmap(NULL, FAULT_ALTSTACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return -1;
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = mem;
    ss.ss_size = FAULT_ALTSTACK_SIZE;
    if (sigaltstack(&ss, NULL) != 0) {
        int saved = errno;
        munmap(mem, FAULT_ALTSTACK_SIZE);
        errno = saved;
        return -1;
    }
    fault_ensured = 1;   /* kept for the thread's life: a host thread may exit at any time */
    return 0;
}

void cb_fault_thread_fini(void)
{
    if (!fault_altstack)
        return;
    /* Give back the alternate stack that was there before (a sanitizer's). */
    stack_t ss = fault_prev_altstack;
    if (!ss.ss_sp || ss.ss_size == 0)
        ss.ss_flags = SS_DISABLE;
    else
        ss.ss_flags = 0;
    sigaltstack(&ss, NULL);
    munmap(fault_altstack, FAULT_ALTSTACK_SIZE);
    fault_altstack = NULL;
}

cb_fault_scope *cb_fault_arm(cb_fault_scope *scope)
{
    cb_fault_scope *prev = fault_armed;
    fault_armed = scope;
    return prev;
}

/* The handler left the signal blocked (we jumped out of it without
 * restoring the mask, which sigsetjmp(env, 0) does not save): unblock it. */
static void unblock_signal(int sig)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

int cb_fault_run(cb_fault_scope *scope, void (*fn)(void *), void *arg)
{
    cb_fault_scope *volatile prev = fault_armed;
    scope->signo = 0;
    scope->addr = NULL;
    if (sigsetjmp(scope->env, 0) == 0) {
        fault_armed = scope;
        fn(arg);
        fault_armed = prev;
        return CB_FAULT_NONE;
    }
    fault_armed = prev;
    if (scope->signo) {
        unblock_signal(scope->signo);
        return CB_FAULT_SIGNAL;
    }
    return CB_FAULT_UNWIND;
}

void cb_fault_unwind(void)
{
    cb_fault_scope *scope = fault_armed;
    if (!scope)
        abort();
    fault_armed = NULL;
    siglongjmp(scope->env, CB_FAULT_UNWIND);
}

const char *cb_fault_signal_name(int signo)
{
    switch (signo) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    default: return signo && signo == atomic_load(&fault_interrupt_signo) ? "the watchdog interrupt" : "a signal";
    }
}

/* ---- interrupts -------------------------------------------------------- */

static void interrupt_handler(int sig, siginfo_t *info, void *uc)
{
    (void)info;
    (void)uc;
    const _Atomic int *flag = fault_interrupt_flag;
    cb_fault_scope *scope = fault_armed;
    if (!scope || !flag || !atomic_load(flag))
        return;   /* stale or not in kernel code: carry on */
    fault_armed = NULL;
    scope->signo = sig;
    scope->addr = NULL;
    siglongjmp(scope->env, CB_FAULT_SIGNAL);
}

int cb_fault_interrupt_install(void)
{
    pthread_mutex_lock(&fault_install_lock);
    int rc = 0;
    if (!atomic_load(&fault_interrupt_signo)) {
        int sig = SIGRTMIN + 5;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = interrupt_handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        rc = sigaction(sig, &sa, NULL);
        if (rc == 0)
            atomic_store(&fault_interrupt_signo, sig);
    }
    pthread_mutex_unlock(&fault_install_lock);
    return rc;
}

int cb_fault_interrupt_thread(pthread_t h)
{
    int sig = atomic_load(&fault_interrupt_signo);
    return sig && pthread_kill(h, sig) == 0 ? 0 : -1;
}

void cb_fault_interruptible(const _Atomic int *flag) { fault_interrupt_flag = flag; }

pthread_t cb_fault_self(void) { return pthread_self(); }

void cb_fault_nap(unsigned long long ns)
{
    struct timespec ts = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

int cb_fault_interrupt_signal(void) { return atomic_load(&fault_interrupt_signo); }
