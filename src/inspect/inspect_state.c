/* inspect_state.c: the inspector's modes and its record.
 *
 * Process-wide state (documented in inspect.h): cb_inspect_flags, written
 * once by the constructor (or cb_inspect_configure) before any driver call;
 * and `inspect`, the record of calls, launches and events, guarded by
 * inspect.lock. The reports are written at exit (an on_exit hook, which sees
 * the program's exit status, registered from the constructor so that it
 * runs after the handlers cudart registers later). A gated run
 * (CUBRIDGE_ERROR_EXITCODE, or strict) ends with its error exit code from a
 * second hook registered before every other one of this library, so that
 * it runs last: after the reports and the summary line.
 */
#include <stdlib.h>
#include <string.h>

#include "core/memory.h"
#include "driver/dispatch.h"
#include "inspect/inspect_internal.h"
#include "platform/fs.h"
#include "platform/process.h"
#include "platform/sysinfo.h"

int cb_inspect_flags;

#define CBI_MAX_LAUNCHES 200000
#define CBI_MAX_EVENTS 500000

static struct {
    cb_mutex lock;
    cbi_record rec;
    char dir[1024];
    int dir_made;
    int finished;
    uint64_t threads[256];        /* pthread ids by track index */
    uint32_t nthreads;
} inspect = {.lock = CB_MUTEX_INIT};

cbi_record *cbi_rec(void) { return &inspect.rec; }
void cbi_lock(void) { cb_mutex_lock(&inspect.lock); }
void cbi_unlock(void) { cb_mutex_unlock(&inspect.lock); }

uint64_t cbi_now(void) { return cb_sys_monotonic_ns() - inspect.rec.start_ns; }

uint32_t cbi_thread_index(void)
{
    static _Thread_local uint32_t index_plus_one;
    if (index_plus_one)
        return index_plus_one - 1;
    uint64_t self = cb_thread_self_id();
    cbi_lock();
    uint32_t i = 0;
    while (i < inspect.nthreads && inspect.threads[i] != self)
        i++;
    if (i == inspect.nthreads && i < 256)
        inspect.threads[inspect.nthreads++] = self;
    cbi_unlock();
    index_plus_one = i + 1;
    return i;
}

const char *cbi_report_dir(void)
{
    if (!inspect.dir_made) {
        if (cb_fs_mkdirs(inspect.dir, 0755) != 0)
            cb_log(CB_LOG_WARN, "inspector: cannot create the report directory %s", inspect.dir);
        inspect.dir_made = 1;
    }
    return inspect.dir;
}

const char *cbi_fault(void) { return inspect.rec.fault; }

void cbi_add_event(const cbi_event *e)
{
    cbi_record *r = &inspect.rec;
    if (r->nevents == r->capevents) {
        size_t cap = r->capevents ? r->capevents * 2 : 4096;
        cbi_event *n = r->nevents >= CBI_MAX_EVENTS ? NULL : realloc(r->events, cap * sizeof *n);
        if (!n) {
            r->events_dropped++;
            return;
        }
        r->events = n;
        r->capevents = cap;
    }
    r->events[r->nevents++] = *e;
}

long cbi_add_launch(const cbi_launch *l)
{
    cbi_record *r = &inspect.rec;
    if (r->nlaunches == r->caplaunches) {
        size_t cap = r->caplaunches ? r->caplaunches * 2 : 256;
        cbi_launch *n = r->nlaunches >= CBI_MAX_LAUNCHES ? NULL : realloc(r->launches, cap * sizeof *n);
        if (!n) {
            r->launches_dropped++;
            return -1;
        }
        r->launches = n;
        r->caplaunches = cap;
    }
    r->launches[r->nlaunches] = *l;
    return (long)r->nlaunches++;
}

const char *cbi_verdict_name(cbi_verdict v)
{
    static const char *const names[] = {"TRACED", "PASS", "DRIFT", "SKIPPED", "FAILED"};
    return (unsigned)v < 5 ? names[v] : "?";
}

/* ---- modes ------------------------------------------------------------------ */

static const char *const inspect_faults[] = {"zero", "nan", "perturb", "skip"};

static void inspect_unsupported(const char *name, const char *why);

/* cuProfilerStart/Stop: the interval is a "profiler" range (id 1: one
 * range, which any thread may end). */
static void inspect_profiler(int on)
{
    if (on)
        cb_inspect_range_begin(CB_RANGE_PROFILER, "cuProfilerStart", 1);
    else
        cb_inspect_range_end(CB_RANGE_PROFILER, 1);
}

static const cb_dispatch_wrapper inspect_dispatch_wrapper = {
    .wrap = cb_inspect_proc,
    .unsupported = inspect_unsupported,
    .profiler = inspect_profiler,
};

int cb_inspect_configure(const char *mode, int strict, const char *report_dir, const char *fault)
{
    int flags = 0;
    if (!mode || !*mode || strcmp(mode, "off") == 0 || strcmp(mode, "0") == 0)
        flags = 0;
    else if (strcmp(mode, "trace") == 0 || strcmp(mode, "1") == 0)
        flags = CB_INSPECT_TRACE;
    else if (strcmp(mode, "verify") == 0)
        flags = CB_INSPECT_TRACE | CB_INSPECT_VERIFY;
    else
        return -1;
    inspect.rec.fault[0] = 0;
    if (fault && *fault) {
        size_t i = 0;
        while (i < 4 && strcmp(fault, inspect_faults[i]) != 0)
            i++;
        if (i == 4)
            return -1;
        snprintf(inspect.rec.fault, sizeof inspect.rec.fault, "%s", fault);
        flags |= CB_INSPECT_TRACE | CB_INSPECT_VERIFY;   /* a planted fault is only seen by verify */
    }
    if (strict)
        flags |= CB_INSPECT_STRICT;
    snprintf(inspect.dir, sizeof inspect.dir, "%s", report_dir && *report_dir ? report_dir : "cubridge-report");
    inspect.dir_made = 0;
    inspect.finished = 0;
    if (!inspect.rec.start_ns)
        inspect.rec.start_ns = cb_sys_monotonic_ns();
    cb_inspect_flags = flags;
    /* calls are seen by wrapping what the export dispatch hands out, launches
     * by wrapping the devices the core opens from now on */
    cb_dispatch_set_wrapper(flags ? &inspect_dispatch_wrapper : NULL);
    cbi_register_backends();
    cb_backend_set_device_wrapper(flags & CB_INSPECT_VERIFY ? "verify" : flags ? "trace" : NULL);
    return 0;
}

static void inspect_at_exit(int status, void *arg)
{
    (void)arg;
    cbi_lock();
    inspect.rec.exited = 1;
    inspect.rec.exit_status = status;
    cbi_unlock();
    cb_inspect_finish();
}

/* 1 when the environment turns the inspector on. */
static int inspect_wanted(void)
{
    const char *mode = getenv("CUBRIDGE_INSPECT");
    const char *strict = getenv("CUBRIDGE_STRICT");
    const char *fault = getenv("CUBRIDGE_FAULT_INJECT");
    return (mode && *mode && strcmp(mode, "off") != 0 && strcmp(mode, "0") != 0) || (strict && strcmp(strict, "1") == 0) ||
           (fault && *fault);
}

/* The last exit hook of this library: a run with failures ends with the
 * error exit code (docs/inspector.md, "Exit status"). */
static void inspect_exit_status(int status, void *arg)
{
    (void)arg;
    if (!cb_inspect_flags)
        return;
    cb_inspect_finish();
    cbi_lock();
    int final = cbi_final_exit_status(status);
    cbi_counts c;
    cbi_count(&c);
    cbi_unlock();
    if (final == status)
        return;
    char what[200];
    cbi_failures_text(&c, what, sizeof what);
    fflush(NULL);
    fprintf(stderr, "cubridge: inspector: exit status %d (the program's was %d): %s\n", final, status, what);
    cb_proc_exit_now(final);
}

__attribute__((constructor(101))) static void inspect_register_exit_status(void)
{
    if (inspect_wanted())
        cb_proc_on_exit(inspect_exit_status, NULL);
}

__attribute__((constructor)) static void inspect_from_environment(void)
{
    cbi_register_backends();   /* "trace:cpu", "verify:mock" name them in CUBRIDGE_DEVICES too */
    const char *mode = getenv("CUBRIDGE_INSPECT");
    const char *strict = getenv("CUBRIDGE_STRICT");
    const char *fault = getenv("CUBRIDGE_FAULT_INJECT");
    int is_strict = strict && strcmp(strict, "1") == 0;
    if (!inspect_wanted())
        return;
    if (cb_inspect_configure(mode, is_strict, getenv("CUBRIDGE_INSPECT_DIR"), fault) != 0) {
        cb_log(CB_LOG_ERROR, "CUBRIDGE_INSPECT=%s / CUBRIDGE_FAULT_INJECT=%s: unknown value "
               "(modes: off, trace, verify; faults: zero, nan, perturb, skip); the inspector is off",
               mode ? mode : "", fault ? fault : "");
        cb_inspect_flags = 0;
        return;
    }
    if (cb_inspect_flags)
        cb_proc_on_exit(inspect_at_exit, NULL);
}

void cb_inspect_note_backend(const char *backend)
{
    cbi_lock();
    snprintf(inspect.rec.backend, sizeof inspect.rec.backend, "%s", backend);
    cbi_unlock();
}

void cb_inspect_note_device(const char *device)
{
    cbi_lock();
    snprintf(inspect.rec.device, sizeof inspect.rec.device, "%s", device);
    cbi_unlock();
}

void cb_inspect_note_peak_memory(size_t bytes)
{
    cbi_lock();
    if (bytes > inspect.rec.peak_mem)
        inspect.rec.peak_mem = bytes;
    cbi_unlock();
}

static void inspect_unsupported(const char *name, const char *why)
{
    if (cb_inspect_flags & CB_INSPECT_STRICT)
        cb_log(CB_LOG_ERROR, "strict: %s is UNSUPPORTED (%s); it returned CUDA_ERROR_NOT_SUPPORTED", name, why);
}

/* ---- the end ------------------------------------------------------------------ */

static void inspect_note_device(void)
{
    cb_device *d = cb_device_get(0);
    cbi_record *r = &inspect.rec;
    if (!r->backend[0]) {   /* a device outside the core (the pass-through) names itself */
        snprintf(r->backend, sizeof r->backend, "%s", d ? cbi_backend_name(d->backend) : "none");
        snprintf(r->device, sizeof r->device, "%s", d ? d->info.name : "none");
    } else if (!r->device[0]) {
        snprintf(r->device, sizeof r->device, "(not queried: no launch was checked)");
    }
    size_t used = 0, peak = 0, total = 0;
    cb_mem_usage(&used, &peak, &total);
    if (peak > r->peak_mem)
        r->peak_mem = peak;
}

void cb_inspect_finish(void)
{
    if (!cb_inspect_flags || inspect.finished)
        return;
    inspect.finished = 1;
    cbi_ranges_close_all();
    cbi_jsonl_close();
    cbi_lock();
    inspect.rec.end_ns = cbi_now();
    inspect_note_device();
    char path[1200];
    const char *dir = cbi_report_dir();
    snprintf(path, sizeof path, "%s/trace.perfetto.json", dir);
    cbi_write_chrome_trace(path);
    snprintf(path, sizeof path, "%s/report.json", dir);
    cbi_report_json(path);
    snprintf(path, sizeof path, "%s/report.html", dir);
    cbi_report_html(path);
    snprintf(path, sizeof path, "%s/junit.xml", dir);
    cbi_report_junit(path);
    const char *junit = getenv("CUBRIDGE_JUNIT");
    if (junit && *junit)
        cbi_report_junit(junit);
    const char *colour = getenv("CUBRIDGE_COLOR");
    int tty = colour ? strcmp(colour, "1") == 0 : cb_proc_isatty(2);
    cbi_report_text(stderr, tty);
    fprintf(stderr, "cubridge: inspector reports in %s/ (report.html, report.json, junit.xml, trace.jsonl, "
            "trace.perfetto.json)\n", dir);
    cbi_unlock();
}
