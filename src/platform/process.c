/* process.c: the process's command line, exit hooks and fatal signals
 * (glibc's on_exit, POSIX sigaction, Linux /proc). */
#include "platform/process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

size_t cb_proc_cmdline(char *buf, size_t len, const char **argv, size_t max)
{
    if (len < 2)
        return 0;
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    size_t used = 0;
    ssize_t got;
    while (used < len - 1 && ((got = read(fd, buf + used, len - 1 - used)) > 0 || (got < 0 && errno == EINTR)))
        if (got > 0)
            used += (size_t)got;
    close(fd);
    buf[used] = 0;
    size_t n = 0;
    for (size_t i = 0; i < used && n < max; i += strlen(buf + i) + 1)
        argv[n++] = buf + i;
    return n;
}

const char *cb_proc_name(void) { return program_invocation_short_name; }

int cb_proc_on_exit(void (*fn)(int status, void *arg), void *arg) { return on_exit(fn, arg) == 0 ? 0 : -1; }

void cb_proc_exit_now(int status)
{
    fflush(NULL);
    _exit(status);
}

void cb_proc_write_stderr(const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t w = write(2, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

int cb_proc_isatty(int fd) { return isatty(fd); }

void cb_proc_sleep_ms(unsigned ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* ---- fatal signals ---------------------------------------------------------- */

static const struct {
    int sig;
    const char *name;
} fatal_signals[] = {
    {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"},   {SIGILL, "SIGILL"},  {SIGABRT, "SIGABRT"},
    {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"}, {SIGHUP, "SIGHUP"},   {SIGQUIT, "SIGQUIT"},
};
#define N_FATAL (sizeof fatal_signals / sizeof fatal_signals[0])

static void (*fatal_fn)(int, const char *);
static atomic_int fatal_entered;

static void die_of(int sig)
{
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    /* A fault re-executes the faulting instruction with the default action
     * once we return; a signal that was sent has been raised again. */
}

static void fatal_handler(int sig, siginfo_t *info, void *uc)
{
    (void)info;
    (void)uc;
    if (atomic_exchange(&fatal_entered, 1) == 0 && fatal_fn) {
        const char *name = "signal";
        for (size_t i = 0; i < N_FATAL; i++)
            if (fatal_signals[i].sig == sig)
                name = fatal_signals[i].name;
        /* fn may block (a stdio lock held by the interrupted thread): the
         * alarm's default action ends the process if it does. */
        signal(SIGALRM, SIG_DFL);
        alarm(3);
        fatal_fn(sig, name);
        alarm(0);
    }
    die_of(sig);
}

int cb_proc_on_fatal_signal(void (*fn)(int sig, const char *name))
{
    static atomic_int installed;
    if (atomic_exchange(&installed, 1))
        return 0;
    fatal_fn = fn;
    int n = 0;
    for (size_t i = 0; i < N_FATAL; i++) {
        struct sigaction cur;
        if (sigaction(fatal_signals[i].sig, NULL, &cur) != 0 || (cur.sa_flags & SA_SIGINFO) ||
            cur.sa_handler != SIG_DFL)
            continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = fatal_handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigfillset(&sa.sa_mask);   /* but the alarm, and a fault inside fn, which must end it */
        sigdelset(&sa.sa_mask, SIGALRM);
        sigdelset(&sa.sa_mask, SIGSEGV);
        sigdelset(&sa.sa_mask, SIGBUS);
        if (sigaction(fatal_signals[i].sig, &sa, NULL) == 0)
            n++;
    }
    return n;
}
