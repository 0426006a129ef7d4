/* progress.c: the progress line of progress.h. The line is written with
 * write(2) (no stdio lock is taken, so the ticker never holds up the
 * program's own output or its exit). */
#include "core/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/process.h"
#include "platform/sysinfo.h"
#include "platform/thread.h"

static struct {
    cb_mutex lock;
    cb_once once;
    int enabled;
    uint64_t after_ns;
    unsigned next;               /* modules begun */
    unsigned current;            /* the module shown, 0 if none is loading */
    uint64_t t0;
    const char *stage;
    unsigned kernels;
    int shown;                   /* the line is on screen for current */
    cb_thread_handle ticker;
} progress = {.lock = CB_MUTEX_INIT, .once = CB_ONCE_INIT};

/* Lock held. */
static void progress_draw(uint64_t now)
{
    char line[256];
    double s = (double)(now - progress.t0) / 1e9;
    if (progress.kernels)
        snprintf(line, sizeof line, "\r\033[Kcubridge: translating module %u, %u kernels: %s (%.0f s)", progress.current,
                 progress.kernels, progress.stage, s);
    else
        snprintf(line, sizeof line, "\r\033[Kcubridge: translating module %u: %s (%.0f s)", progress.current,
                 progress.stage, s);
    cb_proc_write_stderr(line);
    progress.shown = 1;
}

/* Lock held: draws if the module has been loading long enough. */
static void progress_maybe_draw(void)
{
    uint64_t now = cb_sys_monotonic_ns();
    if (progress.current && now - progress.t0 >= progress.after_ns)
        progress_draw(now);
}

static void *progress_tick(void *arg)
{
    (void)arg;
    for (;;) {
        cb_proc_sleep_ms(250);
        cb_mutex_lock(&progress.lock);
        progress_maybe_draw();
        cb_mutex_unlock(&progress.lock);
    }
    return NULL;
}

static void progress_setup(void)
{
    const char *on = getenv("CUBRIDGE_PROGRESS");
    const char *after = getenv("CUBRIDGE_PROGRESS_AFTER");
    double secs = 2.0;
    if (after && *after) {
        char *end;
        double v = strtod(after, &end);
        if (!*end && v >= 0 && v < 1e6)
            secs = v;
    }
    progress.after_ns = (uint64_t)(secs * 1e9);
    progress.enabled = !(on && strcmp(on, "0") == 0) && cb_proc_isatty(2);
    if (progress.enabled && cb_thread_start(&progress.ticker, progress_tick, NULL) == 0)
        cb_thread_detach(progress.ticker);
}

unsigned cb_progress_begin(const char *name)
{
    (void)name;
    cb_run_once(&progress.once, progress_setup);
    cb_mutex_lock(&progress.lock);
    unsigned n = ++progress.next;
    if (progress.enabled && !progress.current) {
        progress.current = n;
        progress.t0 = cb_sys_monotonic_ns();
        progress.stage = "reading the image";
        progress.kernels = 0;
        progress.shown = 0;
        progress_maybe_draw();
    }
    cb_mutex_unlock(&progress.lock);
    return n;
}

void cb_progress_stage(unsigned module, const char *stage, unsigned kernels)
{
    cb_mutex_lock(&progress.lock);
    if (progress.enabled && progress.current == module) {
        progress.stage = stage;
        progress.kernels = kernels;
        progress_maybe_draw();
    }
    cb_mutex_unlock(&progress.lock);
}

void cb_progress_end(unsigned module, int ok)
{
    cb_mutex_lock(&progress.lock);
    if (progress.enabled && progress.current == module) {
        if (progress.shown) {
            char line[200];
            snprintf(line, sizeof line, "\r\033[Kcubridge: module %u %s: %u kernels in %.1f s\n", module,
                     ok ? "ready" : "failed", progress.kernels,
                     (double)(cb_sys_monotonic_ns() - progress.t0) / 1e9);
            cb_proc_write_stderr(line);
        }
        progress.current = 0;
    }
    cb_mutex_unlock(&progress.lock);
}
