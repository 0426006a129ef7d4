/* real_driver.c: finding and loading NVIDIA's libcuda.so.1, the table of its
 * entry points (one dlsym per export of exports.inc), cuGetProcAddress under
 * the pass-through, and the personality it registers in the export
 * dispatch. */
#include "passthrough/passthrough_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/dispatch.h"
#include "platform/dl_path.h"

static const char *const export_names[] = {
#define CB_EXPORT_FN(sym) #sym,
#include "driver/exports.inc"
#undef CB_EXPORT_FN
};

/* Process-wide, written once under load_once, then read-only. */
static struct {
    cb_once once;
    CUresult result;
    cb_dl_lib *lib;
    char path[1024];
    cb_export_fn real[CB_EXP__COUNT];
} drv = {.once = CB_ONCE_INIT};

int cb_passthrough_wanted(void)
{
    static int wanted = -1;   /* process-wide: read once */
    int m = __atomic_load_n(&wanted, __ATOMIC_RELAXED);
    if (m < 0) {
        const char *b = getenv("CUBRIDGE_BACKEND");
        m = b && strcmp(b, "cuda") == 0;
        __atomic_store_n(&wanted, m, __ATOMIC_RELAXED);
    }
    return m;
}

/* Where NVIDIA's installers and container runtimes put libcuda.so.1. */
static const char *const search_paths[] = {
    "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
    "/usr/lib64/libcuda.so.1",
    "/usr/local/nvidia/lib64/libcuda.so.1",
    "/usr/local/nvidia/lib/libcuda.so.1",
    "/usr/lib/libcuda.so.1",
    "/usr/lib/wsl/lib/libcuda.so.1",
    "/usr/lib/aarch64-linux-gnu/libcuda.so.1",
    "/run/opengl-driver/lib/libcuda.so.1",
};

/* 1 if path is the file this code was loaded from. */
static int is_self(const char *path)
{
    char self[1024];
    if (cb_dl_path_of((const void *)&cb_passthrough_wanted, self, sizeof self) != 0)
        return 0;
    return cb_fs_same_file(path, self) == 1;
}

static int try_open(const char *path)
{
    if (!cb_fs_exists(path))
        return 0;
    if (is_self(path)) {
        cb_log(CB_LOG_WARN, "cuda backend: %s is cubridge's own libcuda.so.1; skipped", path);
        return 0;
    }
    char err[512] = "";
    cb_dl_lib *lib = cb_dl_lib_open(path, err, sizeof err);
    if (!lib) {
        cb_log(CB_LOG_WARN, "cuda backend: cannot load %s: %s", path, err);
        return 0;
    }
    if (!cb_dl_lib_sym(lib, "cuGetProcAddress_v2") && !cb_dl_lib_sym(lib, "cuGetProcAddress")) {
        cb_log(CB_LOG_WARN, "cuda backend: %s has no cuGetProcAddress; not a CUDA driver", path);
        return 0;
    }
    drv.lib = lib;
    snprintf(drv.path, sizeof drv.path, "%s", path);
    return 1;
}

static void load_once(void)
{
    drv.result = CUDA_ERROR_NO_DEVICE;
    const char *ws = getenv("CUBRIDGE_WARP_SIZE");
    if (ws && *ws && strcmp(ws, "32")) {   /* NVIDIA's warps are 32 lanes: never run 32 in place of it */
        cb_log(CB_LOG_ERROR, "cuda backend: CUBRIDGE_WARP_SIZE=%s is not supported (NVIDIA's GPUs run 32-lane "
                             "warps; only the cpu backend runs 64)", ws);
        return;
    }
    const char *env = getenv("CUBRIDGE_REAL_LIBCUDA");
    if (env && *env) {
        if (!try_open(env)) {
            cb_log(CB_LOG_ERROR, "cuda backend: CUBRIDGE_REAL_LIBCUDA=%s is not a usable CUDA driver", env);
            return;
        }
    } else {
        for (size_t i = 0; i < sizeof search_paths / sizeof search_paths[0] && !drv.lib; i++)
            try_open(search_paths[i]);
        if (!drv.lib) {
            cb_log(CB_LOG_ERROR, "cuda backend: NVIDIA's libcuda.so.1 not found (set CUBRIDGE_REAL_LIBCUDA)");
            return;
        }
    }
    size_t n = 0;
    for (int i = 0; i < CB_EXP__COUNT; i++) {
        drv.real[i] = (cb_export_fn)cb_dl_lib_sym(drv.lib, export_names[i]);
        n += drv.real[i] != NULL;
    }
    cb_log(CB_LOG_INFO, "cuda backend: %s, %zu of %d exports resolved", drv.path, n, (int)CB_EXP__COUNT);
    if (cb_inspect_active())
        cb_inspect_note_backend("cuda");
    drv.result = CUDA_SUCCESS;
}

CUresult cb_passthrough_load(void)
{
    cb_run_once(&drv.once, load_once);
    return drv.result;
}

cb_export_fn cb_passthrough_real(int id)
{
    if (id < 0 || id >= CB_EXP__COUNT || cb_passthrough_load() != CUDA_SUCCESS)
        return NULL;
    return drv.real[id];
}

void cb_passthrough_summary(char *buf, size_t len)
{
    char device[256];
    cbc_device_name(device, sizeof device);
    cb_stats_foreign v = {.backend = "cuda", .driver = drv.lib ? drv.path : "", .device = device};
    cbc_launch_stats(&v.launches, &v.launches_failed);
    cbc_memory_stats(&v.allocations, &v.peak_bytes);
    cb_stats_summary_foreign(buf, len, &v);
}

const char *cb_passthrough_real_path(void)
{
    return cb_passthrough_load() == CUDA_SUCCESS ? drv.path : "";
}

typedef CUresult (*gpa_v2_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
typedef CUresult (*gpa_v1_fn)(const char *, void **, int, cuuint64_t);

static CUresult real_proc_address(const char *symbol, void **pfn, int version, cuuint64_t flags,
                                  CUdriverProcAddressQueryResult *status)
{
    cb_export_fn v2 = cb_passthrough_real(CB_EXP_cuGetProcAddress_v2);
    if (v2)
        return ((gpa_v2_fn)v2)(symbol, pfn, version, flags, status);
    cb_export_fn v1 = cb_passthrough_real(CB_EXP_cuGetProcAddress);
    if (!v1)
        return CUDA_ERROR_NO_DEVICE;
    CUresult r = ((gpa_v1_fn)v1)(symbol, pfn, version, flags);
    if (status)
        *status = r == CUDA_SUCCESS && *pfn ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return r;
}

/* Called in place of every entry point when no real driver could be loaded. */
static CUresult no_real_driver(void) { return CUDA_ERROR_NO_DEVICE; }

cb_export_fn cb_passthrough_forward(int id)
{
    if (id < 0 || id >= CB_EXP__COUNT)
        return NULL;
    if (cb_passthrough_load() != CUDA_SUCCESS)
        return (cb_export_fn)no_real_driver;
    if (id == CB_EXP_cuGetProcAddress || id == CB_EXP_cuGetProcAddress_v2)
        return cb_exports[id].fn;   /* cubridge's own: later look-ups come back */
    if (drv.real[id])
        return (cb_export_fn)cbc_intercept(id, (void *)drv.real[id]);
    return cb_exports[id].stub;     /* counted and logged as unsupported */
}

CUresult cb_passthrough_proc_address(const char *symbol, void **pfn, int version, cuuint64_t flags,
                                     CUdriverProcAddressQueryResult *status, int id)
{
    if (status)
        *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (cb_passthrough_load() != CUDA_SUCCESS)
        return CUDA_ERROR_NO_DEVICE;
    if (id >= 0 && (id == CB_EXP_cuGetProcAddress || id == CB_EXP_cuGetProcAddress_v2)) {
        /* keep later look-ups coming through cubridge */
        *pfn = (void *)cb_exports[id].fn;
        if (status)
            *status = CU_GET_PROC_ADDRESS_SUCCESS;
        return CUDA_SUCCESS;
    }
    CUresult r = real_proc_address(symbol, pfn, version, flags, status);
    if (r == CUDA_SUCCESS && *pfn && id >= 0)
        *pfn = cbc_intercept(id, *pfn);
    return r;
}

/* ---- the personality ---------------------------------------------------------- */

static int answers(int id)
{
    return id == CB_EXP_cuGetProcAddress || id == CB_EXP_cuGetProcAddress_v2 || cb_passthrough_real(id) != NULL;
}

static const cb_dispatch_personality passthrough = {
    .name = "cuda",
    .target = "NVIDIA libcuda.so.1 (pass-through)",
    .stub_reason = "not exported by NVIDIA's libcuda.so.1",
    .wanted = cb_passthrough_wanted,
    .forward = cb_passthrough_forward,
    .proc_address = cb_passthrough_proc_address,
    .answers = answers,
};

/* CUBRIDGE_SUMMARY=1: the pass-through's line on stderr at exit. */
static void print_summary(void)
{
    if (!cb_passthrough_wanted())
        return;
    char line[2048];
    cb_passthrough_summary(line, sizeof line);
    fprintf(stderr, "%s\n", line);
}

/* Registered from a constructor, so that the summary runs after the exit
 * handlers cudart registers later. */
__attribute__((constructor)) static void passthrough_register(void)
{
    cb_dispatch_set_personality(&passthrough);
    const char *s = getenv("CUBRIDGE_SUMMARY");
    if (s && strcmp(s, "1") == 0)
        atexit(print_summary);
}
