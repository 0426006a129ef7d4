/* init.c: the driver's process-wide state: devices, exit summary.
 *
 * The process-wide state is one struct, cb_process, filled once by cb_init
 * and read-only afterwards except for each device's primary-context fields
 * (guarded by cb_process.lock, see context.c) and the forked flag.
 *
 * CUDA does not survive fork(): the child of a process that initialised
 * CUDA has none of its threads, and locks may be held by threads that are
 * gone. As NVIDIA's driver, every call in such a child returns
 * CUDA_ERROR_NOT_INITIALIZED (cudart: cudaErrorInitializationError) at
 * once, cuInit included; nothing in it waits on a lock.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/device.h"
#include "core/stats.h"
#include "platform/process.h"

#define CB_MAX_DEVICES 8

static struct {
    cb_once once;
    CUresult result;            /* of the first cb_init */
    int ndevices;
    cb_device devices[CB_MAX_DEVICES];
    volatile sig_atomic_t forked; /* this is the child of a fork after cb_init */
} cb_process = {.once = CB_ONCE_INIT, .result = CUDA_ERROR_NOT_INITIALIZED};

/* pthread_atfork's child handler: async-signal-safe, takes no lock. */
static void init_forked_child(void) { cb_process.forked = 1; }

/* Reads CUBRIDGE_SM ("86" -> 8.6, "120" -> 12.0); default 86. 8.6 is an architecture for which nvcc's defaults
 * embed PTX (compute_75 and up), so fatbins built for it hand over their PTX. */
static void init_compute_capability(cb_device *d)
{
    int sm = 86;
    const char *s = getenv("CUBRIDGE_SM");
    if (s && *s) {
        char *end;
        long v = strtol(s, &end, 10);
        if (*end == '\0' && v >= 30 && v <= 129)
            sm = (int)v;
        else
            cb_log(CB_LOG_WARN, "CUBRIDGE_SM=%s is not a compute capability like 86; using %d", s, sm);
    }
    d->cc_major = sm / 10;
    d->cc_minor = sm % 10;
}

static void init_device(cb_device *d, int ordinal, cb_backend *b)
{
    memset(d, 0, sizeof *d);
    d->ordinal = ordinal;
    d->backend = b;
    b->device_info(b, &d->info);
    if (!d->info.warp_size)
        d->info.warp_size = 32;
    if (!strstr(d->info.name, "[cubridge]")) {
        size_t n = strlen(d->info.name);
        snprintf(d->info.name + n, sizeof d->info.name - n, "%s[cubridge]", n ? " " : "");
    }
    init_compute_capability(d);
}

/* The device list: CUBRIDGE_DEVICES (comma separated specs, "cpu,cpu" or
 * "verify:mock"), else CUBRIDGE_BACKEND, else "cpu". 0, or -1 (logged) when
 * CUBRIDGE_BACKEND names no device backend: then there is no device. */
static int init_device_list(char *out, size_t len)
{
    const char *devs = getenv("CUBRIDGE_DEVICES");
    const char *one = getenv("CUBRIDGE_BACKEND");
    if (devs && *devs) {
        snprintf(out, len, "%s", devs);
        return 0;
    }
    if (!one || !*one) {
        snprintf(out, len, "cpu");
        return 0;
    }
    const cb_backend_type *t = cb_backend_find(one);
    if (!t || t->is_wrapper) {
        char have[256] = "";
        size_t pos = 0;
        for (int i = 0; (t = cb_backend_type_at(i)) != NULL && pos < sizeof have; i++)
            if (!t->is_wrapper)
                pos += (size_t)snprintf(have + pos, sizeof have - pos, "%s%s", pos ? ", " : "", t->name);
        cb_log(CB_LOG_ERROR, "CUBRIDGE_BACKEND=%s: no such backend in this build (device backends: %s)", one, have);
        return -1;
    }
    snprintf(out, len, "%s", one);
    return 0;
}

static void init_once(void)
{
    char list[512];
    cb_process.result = CUDA_ERROR_NO_DEVICE;
    if (init_device_list(list, sizeof list) != 0)
        return;
    char *save = NULL;
    for (char *spec = strtok_r(list, ",", &save); spec; spec = strtok_r(NULL, ",", &save)) {
        if (cb_process.ndevices == CB_MAX_DEVICES) {
            cb_log(CB_LOG_WARN, "devices: only the first %d are used", CB_MAX_DEVICES);
            break;
        }
        char err[512] = "";
        cb_backend *b = cb_backend_open(spec, err, sizeof err);
        if (!b) {
            cb_log(CB_LOG_ERROR, "device %d (%s): %s", cb_process.ndevices, spec, err[0] ? err : "failed to start");
            continue;
        }
        cb_device *d = &cb_process.devices[cb_process.ndevices];
        init_device(d, cb_process.ndevices++, b);
        cb_log(CB_LOG_INFO, "device %d: backend %s, \"%s\", compute capability %d.%d", d->ordinal, b->name,
               d->info.name, d->cc_major, d->cc_minor);
    }
    if (cb_process.ndevices > 0) {
        cb_process.result = CUDA_SUCCESS;
        pthread_atfork(NULL, NULL, init_forked_child);
    }
}

CUresult cb_init(unsigned flags)
{
    (void)flags;
    if (cb_process.forked)
        return CUDA_ERROR_NOT_INITIALIZED;
    cb_run_once(&cb_process.once, init_once);
    return cb_process.result;
}

int cb_initialized(void)
{
    return cb_process.result == CUDA_SUCCESS && !cb_process.forked;
}

int cb_device_count(void)
{
    return cb_initialized() ? cb_process.ndevices : 0;
}

cb_device *cb_device_get(int ordinal)
{
    if (!cb_initialized() || ordinal < 0 || ordinal >= cb_process.ndevices)
        return NULL;
    return &cb_process.devices[ordinal];
}

/* CUBRIDGE_SUMMARY=1: the core's line on stderr at exit, when the core ran
 * (each layer prints its own). Registered from a constructor, so it runs
 * after the handlers cudart registers later. */
static void init_print_summary(void)
{
    char line[2048];
    if (!cb_initialized())
        return;   /* the core did not run (another personality answered, or no CUDA call was made) */
    cb_device *d = cb_device_get(0);
    cb_backend *b = d ? d->backend : NULL;
    if (b && b->module_cache_stats) {
        unsigned hits = 0;
        b->module_cache_stats(b, &hits, NULL);
        cb_stats_add(CB_STAT_MODULES_CACHED, hits);
    }
    cb_stats_summary(line, sizeof line, b ? b->name : NULL, d ? d->info.name : NULL);
    fprintf(stderr, "%s\n", line);
}

/* A fatal signal: the program's buffered output, a line naming the
 * signal, then the summary, which exit would have printed. */
static void init_on_fatal_signal(int sig, const char *name)
{
    cb_stats_fatal_signal(sig, name);
    init_print_summary();
}

__attribute__((constructor)) static void init_register_summary(void)
{
    const char *s = getenv("CUBRIDGE_SUMMARY");
    if (s && strcmp(s, "1") == 0) {
        atexit(init_print_summary);
        cb_proc_on_fatal_signal(init_on_fatal_signal);
    }
}
