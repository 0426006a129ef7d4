/* process.h: the process cubridge's library lives in: its command line,
 * its end (exit hooks that see the exit status, the status cubridge may
 * set instead, a fatal signal), and whether stderr is a terminal. */
#ifndef CB_PLATFORM_PROCESS_H
#define CB_PLATFORM_PROCESS_H

#include <stddef.h>

/* The program's command line (/proc/self/cmdline): up to max arguments,
 * pointers into buf (NUL-terminated strings). Returns how many, 0 if
 * unknown. */
size_t cb_proc_cmdline(char *buf, size_t len, const char **argv, size_t max);

/* The program's short name (argv[0] without its directory). */
const char *cb_proc_name(void);

/* Calls fn(status, arg) when the process exits through exit() or a return
 * from main, with the status given; hooks run in reverse order of
 * registration (on_exit, shared with atexit). Returns 0 or -1. */
int cb_proc_on_exit(void (*fn)(int status, void *arg), void *arg);

/* Ends the process now with status (after flushing every stdio stream):
 * the remaining exit hooks and destructors do not run. */
void cb_proc_exit_now(int status) __attribute__((noreturn));

/* Calls fn(sig, name) when the process gets a signal that would kill it
 * (SIGSEGV outside a kernel, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM,
 * SIGINT, SIGHUP, SIGQUIT) and whose disposition was the default when this
 * was called; then the process dies of that signal as it would have
 * (same wait status). fn runs inside the signal handler, once; a second
 * fatal signal, or one that arrives while fn runs longer than 3 s, ends the
 * process at once. Signals the program handles itself are left alone.
 * Returns the number of signals taken. */
int cb_proc_on_fatal_signal(void (*fn)(int sig, const char *name));

/* Writes s to stderr with write(2) (usable in a signal handler). */
void cb_proc_write_stderr(const char *s);

/* 1 if file descriptor fd (2: stderr) is a terminal. */
int cb_proc_isatty(int fd);

/* Sleeps the calling thread for ms milliseconds. */
void cb_proc_sleep_ms(unsigned ms);

#endif
