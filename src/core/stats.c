/* stats.c: process-wide counters (see stats.h). */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/module.h"
#include "core/stats.h"
#include "platform/process.h"
#include "platform/thread.h"

#define STATS_MAX_NAMES 256

/* Process-wide: counters, and the distinct unsupported entry points seen. */
static _Atomic uint64_t stats_counters[CB_STAT_COUNT];
static cb_mutex stats_lock = CB_MUTEX_INIT;
static const char *stats_names[STATS_MAX_NAMES];
static uint64_t stats_name_counts[STATS_MAX_NAMES];
static size_t stats_nnames;

void cb_stats_add(cb_stat s, uint64_t n)
{
    if ((unsigned)s < CB_STAT_COUNT)
        atomic_fetch_add(&stats_counters[s], n);
}

uint64_t cb_stats_get(cb_stat s)
{
    return (unsigned)s < CB_STAT_COUNT ? atomic_load(&stats_counters[s]) : 0;
}

int cb_stats_unsupported(const char *name)
{
    int first = 1;
    cb_stats_add(CB_STAT_UNSUPPORTED_CALLS, 1);
    cb_mutex_lock(&stats_lock);
    for (size_t i = 0; i < stats_nnames; i++) {
        if (strcmp(stats_names[i], name) == 0) {
            stats_name_counts[i]++;
            first = 0;
            break;
        }
    }
    if (first && stats_nnames < STATS_MAX_NAMES) {
        stats_names[stats_nnames] = name;
        stats_name_counts[stats_nnames++] = 1;
    }
    cb_mutex_unlock(&stats_lock);
    return first;
}

size_t cb_stats_unsupported_list(const char **names, uint64_t *counts, size_t max)
{
    cb_mutex_lock(&stats_lock);
    size_t n = stats_nnames;
    for (size_t i = 0; i < n && i < max; i++) {
        if (names)
            names[i] = stats_names[i];
        if (counts)
            counts[i] = stats_name_counts[i];
    }
    cb_mutex_unlock(&stats_lock);
    return n;
}

/* Process-wide: the modules that failed to load (the first few, with their
 * reasons), under stats_lock. */
enum { STATS_MAX_FAILED = 3 };
static struct { char name[128], reason[320]; } stats_failed[STATS_MAX_FAILED];
static uint64_t stats_nfailed;

void cb_stats_module_failed(const char *name, const char *reason)
{
    cb_mutex_lock(&stats_lock);
    if (stats_nfailed < STATS_MAX_FAILED) {
        snprintf(stats_failed[stats_nfailed].name, sizeof stats_failed[0].name, "%s", name ? name : "(unnamed)");
        snprintf(stats_failed[stats_nfailed].reason, sizeof stats_failed[0].reason, "%s", reason ? reason : "");
    }
    stats_nfailed++;
    cb_mutex_unlock(&stats_lock);
}

uint64_t cb_stats_modules_failed(char *name, size_t namelen, char *reason, size_t reasonlen)
{
    cb_mutex_lock(&stats_lock);
    uint64_t n = stats_nfailed;
    if (name && namelen)
        snprintf(name, namelen, "%s", n ? stats_failed[0].name : "");
    if (reason && reasonlen)
        snprintf(reason, reasonlen, "%s", n ? stats_failed[0].reason : "");
    cb_mutex_unlock(&stats_lock);
    return n;
}

/* Appends to buf at *pos, never past len. */
static void stats_append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void stats_append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
    if (*pos >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
    va_end(ap);
    if (n > 0)
        *pos += (size_t)n;
}

/* " | N unsupported calls: a, b" */
static void stats_append_unsupported(char *buf, size_t len, size_t *pos)
{
    const char *names[STATS_MAX_NAMES];
    size_t n = cb_stats_unsupported_list(names, NULL, STATS_MAX_NAMES);
    stats_append(buf, len, pos, " | %llu unsupported calls",
                 (unsigned long long)cb_stats_get(CB_STAT_UNSUPPORTED_CALLS));
    for (size_t i = 0; i < n && i < STATS_MAX_NAMES; i++)
        stats_append(buf, len, pos, "%s%s", i ? ", " : ": ", names[i]);
}

/* " | 1 module failed to load: name: reason" (the first few; "; ..." for
 * the rest), nothing when every module loaded. */
static void stats_append_failed(char *buf, size_t len, size_t *pos)
{
    cb_mutex_lock(&stats_lock);
    uint64_t n = stats_nfailed;
    if (n)
        stats_append(buf, len, pos, " | %llu module%s failed to load", (unsigned long long)n, n == 1 ? "" : "s");
    for (uint64_t i = 0; i < n && i < STATS_MAX_FAILED; i++)
        stats_append(buf, len, pos, "%s%s: %s", i ? "; " : ": ", stats_failed[i].name, stats_failed[i].reason);
    if (n > STATS_MAX_FAILED)
        stats_append(buf, len, pos, "; ...");
    cb_mutex_unlock(&stats_lock);
}

void cb_stats_summary_foreign(char *buf, size_t len, const cb_stats_foreign *v)
{
    size_t pos = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    stats_append(buf, len, &pos, "cubridge: backend %s (pass-through to %s) | device \"%s\"", v->backend,
                 v->driver[0] ? v->driver : "no driver loaded", v->device[0] ? v->device : "none");
    stats_append(buf, len, &pos, " | %llu launches forwarded (%llu refused)", (unsigned long long)v->launches,
                 (unsigned long long)v->launches_failed);
    if (v->peak_bytes >= 1048576)
        stats_append(buf, len, &pos, " | %llu allocations, peak %.1f MiB device memory",
                     (unsigned long long)v->allocations, v->peak_bytes / 1048576.0);
    else
        stats_append(buf, len, &pos, " | %llu allocations, peak %zu bytes device memory",
                     (unsigned long long)v->allocations, v->peak_bytes);
    uint64_t translated = cb_stats_get(CB_STAT_KERNELS_TRANSLATED);
    if (translated)
        stats_append(buf, len, &pos, " | %llu kernels translated for the CPU reference",
                     (unsigned long long)translated);
    stats_append_unsupported(buf, len, &pos);
}

void cb_stats_summary(char *buf, size_t len, const char *backend, const char *device)
{
    size_t pos = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    stats_append(buf, len, &pos, "cubridge: backend %s | device \"%s\"", backend ? backend : "none",
                 device ? device : "none");
    stats_append(buf, len, &pos, " | %llu kernels translated in %llu modules (%llu from cache)",
                 (unsigned long long)cb_stats_get(CB_STAT_KERNELS_TRANSLATED),
                 (unsigned long long)cb_stats_get(CB_STAT_MODULES_LOADED),
                 (unsigned long long)cb_stats_get(CB_STAT_MODULES_CACHED));
    stats_append(buf, len, &pos, " | %llu of %llu kernels compiled (%s loading)",
                 (unsigned long long)cb_stats_get(CB_STAT_KERNELS_COMPILED),
                 (unsigned long long)cb_stats_get(CB_STAT_KERNELS_REGISTERED), cb_module_lazy_loading() ? "lazy" : "eager");
    if (cb_stats_get(CB_STAT_KERNELS_HOT))
        stats_append(buf, len, &pos, " | %llu hot kernels rebuilt with lanes entries",
                     (unsigned long long)cb_stats_get(CB_STAT_KERNELS_HOT));
    if (cb_stats_get(CB_STAT_KERNELS_HOT_GENERAL))
        stats_append(buf, len, &pos, " | %llu hot kernels rebuilt without",
                     (unsigned long long)cb_stats_get(CB_STAT_KERNELS_HOT_GENERAL));
    stats_append(buf, len, &pos, " | %llu launches | %llu faults",
                 (unsigned long long)cb_stats_get(CB_STAT_LAUNCHES),
                 (unsigned long long)cb_stats_get(CB_STAT_FAULTS));
    if (cb_stats_get(CB_STAT_LAUNCH_WARNINGS))
        stats_append(buf, len, &pos, " | %llu launches with warnings (exited lanes named in warp collectives)",
                     (unsigned long long)cb_stats_get(CB_STAT_LAUNCH_WARNINGS));
    stats_append_unsupported(buf, len, &pos);
    stats_append_failed(buf, len, &pos);
}

void cb_stats_fatal_signal(int sig, const char *name)
{
    /* The interrupted code may be inside stdio: flush only what no thread
     * holds (a lock the crashing thread itself holds is taken again, as
     * stdio's locks are recursive; the data is what it wrote so far). */
    if (ftrylockfile(stdout) == 0) {
        fflush_unlocked(stdout);
        funlockfile(stdout);
    }
    char line[256];
    snprintf(line, sizeof line, "cubridge: %s was killed by %s (signal %d); its buffered output was flushed where "
             "possible\n", cb_proc_name(), name, sig);
    cb_proc_write_stderr(line);
}
