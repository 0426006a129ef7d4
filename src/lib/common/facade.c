/* facade.c: the library services, NOT_SUPPORTED answers and logging that
 * every facade shares (facade.h).
 *
 * Process-wide state (one copy per facade .so): cbl_trace_flags, written
 * by the constructor before any call; the services pointer, set once under
 * services_once; the test-break list, read once.
 */
#include "lib/common/facade.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "platform/dl.h"
#include "platform/dl_path.h"
#include "platform/thread.h"

int cbl_trace_flags;
int cbl_forward;

/* The same rules as libcuda.so.1's inspect_state.c: any mode but "off"
 * traces; a fault to inject implies verify. */
__attribute__((constructor)) static void cbl_read_modes(void)
{
    const char *mode = getenv("CUBRIDGE_INSPECT");
    const char *strict = getenv("CUBRIDGE_STRICT");
    const char *fault = getenv("CUBRIDGE_FAULT_INJECT");
    int f = 0;
    if (mode && (strcmp(mode, "trace") == 0 || strcmp(mode, "1") == 0))
        f |= CB_INSPECT_TRACE;
    if ((mode && strcmp(mode, "verify") == 0) || (fault && fault[0]))
        f |= CB_INSPECT_TRACE | CB_INSPECT_VERIFY;
    if (strict && strcmp(strict, "1") == 0)
        f |= CB_INSPECT_STRICT;
    cbl_trace_flags = f;
    const char *backend = getenv("CUBRIDGE_BACKEND");
    cbl_forward = backend && strcmp(backend, "cuda") == 0;
}

/* ---- the cuda pass-through: NVIDIA's library ---------------------------------- */

static cb_once real_once = CB_ONCE_INIT;
static cb_dl_lib *real_lib;

static void real_load(void)
{
    char self[4096];
    if (cb_dl_path_of((const void *)cbl_real_symbol, self, sizeof self) != 0)
        return;
    const char *base = strrchr(self, '/');
    base = base ? base + 1 : self;
    const char *cuda = getenv("CUDA_HOME");
    char cuda_lib[4200] = "";
    if (cuda && cuda[0])
        snprintf(cuda_lib, sizeof cuda_lib, "%s/lib64", cuda);
    const char *dirs[] = {getenv("CUBRIDGE_REAL_LIB_DIR"), cuda_lib, "/usr/local/cuda/lib64",
                          "/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib/aarch64-linux-gnu"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0] && !real_lib; i++) {
        if (!dirs[i] || !dirs[i][0])
            continue;
        char path[4400], err[256];
        snprintf(path, sizeof path, "%s/%s", dirs[i], base);
        if (!cb_fs_exists(path) || cb_fs_same_file(path, self) == 1)
            continue;
        real_lib = cb_dl_lib_open(path, err, sizeof err);
        if (real_lib)
            cbl_log(CB_LOG_INFO, "pass-through: %s forwards to %s", base, path);
        else
            cbl_log(CB_LOG_WARN, "pass-through: cannot load %s: %s", path, err);
    }
    if (!real_lib)
        cbl_log(CB_LOG_ERROR, "pass-through: no NVIDIA %s found (set CUBRIDGE_REAL_LIB_DIR): its calls answer "
                              "NOT_SUPPORTED", base);
}

/* NVIDIA's function for export id, or NULL; counts nothing. */
static void *real_lookup(cbl_library *lib, int id)
{
    cb_run_once(&real_once, real_load);
    return real_lib ? cb_dl_lib_sym(real_lib, lib->names[id]) : NULL;
}

void *cbl_real_symbol(cbl_library *lib, int id)
{
    void *fn = real_lookup(lib, id);
    if (!fn && atomic_fetch_add(&lib->unsupported_calls[id], 1) == 0)
        cbl_log(CB_LOG_WARN, "pass-through: %s: NVIDIA's library does not export it", lib->names[id]);
    return fn;
}

void *cbl_forward_target(cbl_library *lib, int id, void *own)
{
    /* a missing function is counted and logged once, by own's pass-through path */
    void *fn = cbl_forward ? real_lookup(lib, id) : NULL;
    return fn ? fn : own;
}

static cb_once services_once = CB_ONCE_INIT;
static const cb_lib_services *services;

static void services_load(void)
{
    cb_lib_services_fn get = (cb_lib_services_fn)cb_dl_library_symbol("libcuda.so.1", CB_LIB_SERVICES_SYMBOL);
    const cb_lib_services *s = get ? get(CB_LIB_SERVICES_VERSION) : NULL;
    if (s && s->size >= sizeof(cb_lib_services)) {
        services = s;
        cbl_trace_flags = s->inspect_flags();   /* the driver's word wins (cb_inspect_configure) */
    } else {
        fprintf(stderr, "cubridge: error: this library facade needs cubridge's libcuda.so.1 (run the program "
                        "through `cubridge run`); the libcuda.so.1 loaded is %s\n",
                get ? "too old" : "not cubridge's");
    }
}

const cb_lib_services *cbl_services(void)
{
    cb_run_once(&services_once, services_load);
    return services;
}

void cbl_log(int level, const char *fmt, ...)
{
    char line[1000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    const cb_lib_services *s = cbl_services();
    if (s)
        s->log(level, line);
    else if (level <= CB_LOG_WARN)
        fprintf(stderr, "cubridge: %s\n", line);
}

const char *cbl_enum_name(const cbl_library *lib, int t, long long value)
{
    if (t < 0 || !lib->enums)
        return NULL;
    const cbl_enum_table *e = &lib->enums[t];
    for (int i = 0; i < e->count; i++)
        if (e->items[i].value == value)
            return e->items[i].name;
    return NULL;
}

const char *cbl_status_name(const cbl_library *lib, int status)
{
    return cbl_enum_name(lib, lib->status_enum, status);
}

int cbl_unsupported(cbl_library *lib, int id)
{
    unsigned long long n = atomic_fetch_add(&lib->unsupported_calls[id], 1);
    const cb_lib_services *s = cbl_services();
    if (n == 0)
        cbl_log(CB_LOG_WARN, "%s: %s is not implemented by cubridge: %s", lib->name, lib->names[id],
                cbl_status_name(lib, lib->status_unsupported) ? cbl_status_name(lib, lib->status_unsupported)
                                                               : "NOT_SUPPORTED");
    if (s)
        s->unsupported(lib->name, lib->names[id], "not implemented by cubridge");
    if (lib->on_unsupported)
        lib->on_unsupported(id, lib->status_unsupported);
    return lib->status_unsupported;
}

int cbl_unsupported_mode(cbl_library *lib, const char *function, const char *why)
{
    cbl_log(CB_LOG_WARN, "%s: %s: not supported by cubridge: %s", lib->name, function, why);
    const cb_lib_services *s = cbl_services();
    if (s)
        s->unsupported(lib->name, function, why);
    return lib->status_unsupported;
}

static cb_once break_once = CB_ONCE_INIT;
static const char *break_list;

static void break_read(void) { break_list = getenv("CUBRIDGE_TEST_BREAK_LIB"); }

int cbl_test_break(const char *function)
{
    cb_run_once(&break_once, break_read);
    if (!break_list || !break_list[0])
        return 0;
    if (strcmp(break_list, "all") == 0)
        return 1;
    size_t n = strlen(function);
    for (const char *p = break_list; (p = strstr(p, function)) != NULL; p += n)
        if ((p == break_list || p[-1] == ',') && (p[n] == 0 || p[n] == ','))
            return 1;
    return 0;
}
