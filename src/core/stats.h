/* stats.h: process-wide counters for the exit summary and the inspector.
 *
 * Every counter is atomic; any thread may add at any time. The counters are
 * part of the driver's documented process-wide state.
 */
#ifndef CB_CORE_STATS_H
#define CB_CORE_STATS_H

#include <stddef.h>
#include <stdint.h>

typedef enum cb_stat {
    CB_STAT_MODULES_LOADED,     /* modules loaded or registered (module.c) */
    CB_STAT_KERNELS_TRANSLATED, /* kernels translated from PTX (module.c; lazily: at first use) */
    CB_STAT_MODULES_CACHED,     /* of the modules, served from the backend's compile cache (read at exit) */
    CB_STAT_LAUNCHES,           /* kernel launches executed (launch.c) */
    CB_STAT_FAULTS,             /* launches that failed with a fault (launch.c) */
    CB_STAT_UNSUPPORTED_CALLS,  /* calls answered CUDA_ERROR_NOT_SUPPORTED as unimplemented */
    CB_STAT_LAUNCH_WARNINGS,    /* launches that ran with a warning (cb_launch_error.warnings; launch.c) */
    CB_STAT_KERNELS_REGISTERED, /* kernels in the modules loaded or registered (module.c) */
    CB_STAT_KERNELS_COMPILED,   /* kernels loaded into the backend: compiled, or served by its cache (module.c) */
    CB_STAT_KERNELS_HOT,        /* kernels built again with their lanes entries, hot (tiered builds, module.c) */
    CB_STAT_KERNELS_HOT_GENERAL, /* hot kernels pass_lanes refused, built again with the general flags */
    CB_STAT_COUNT
} cb_stat;

/* Adds n to a counter. */
void cb_stats_add(cb_stat s, uint64_t n);
/* A counter's current value. */
uint64_t cb_stats_get(cb_stat s);

/* Counts one call of an unimplemented entry point `name` (a string with
 * static lifetime). Returns 1 the first time that name is seen. */
int cb_stats_unsupported(const char *name);
/* Copies up to max distinct unsupported names (first-seen order) and their
 * call counts; returns how many distinct names there are in all. */
size_t cb_stats_unsupported_list(const char **names, uint64_t *counts, size_t max);

/* Counts a module that failed to load (name and reason are copied; the
 * first few are kept for the summary: "1 module failed to load: name:
 * reason"). */
void cb_stats_module_failed(const char *name, const char *reason);
/* How many modules failed to load; copies the first's name and reason
 * (either buffer may be NULL). */
uint64_t cb_stats_modules_failed(char *name, size_t namelen, char *reason, size_t reasonlen);

/* Writes the one-line summary ("cubridge: backend cpu | device ... ") into
 * buf, without a newline. backend and device may be NULL. */
void cb_stats_summary(char *buf, size_t len, const char *backend, const char *device);

/* On a fatal signal (from the signal handler): flushes the program's
 * buffered stdout if no other thread holds it, then writes "cubridge: PROG
 * was killed by NAME (signal N)" on stderr. */
void cb_stats_fatal_signal(int sig, const char *name);

/* What a backend outside the core (the cuda pass-through) did. */
typedef struct cb_stats_foreign {
    const char *backend;      /* "cuda" */
    const char *driver;       /* the library it forwards to ("" if none was loaded) */
    const char *device;       /* its device 0 ("" if never initialised) */
    uint64_t launches, launches_failed;
    uint64_t allocations;
    size_t peak_bytes;        /* device memory in use, at most */
} cb_stats_foreign;

/* The summary line for such a backend ("cubridge: backend cuda (pass-through
 * to ...) | device ... | N launches forwarded ..."), without a newline. */
void cb_stats_summary_foreign(char *buf, size_t len, const cb_stats_foreign *v);

#endif
