/* api_init.c: cuInit, cuDriverGetVersion, cuGetProcAddress. */
#include "driver/driver.h"

#include <string.h>

#include "driver/dispatch.h"

CB_EXPORT CUresult cuInit(unsigned int Flags)
{
    if (Flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    return cb_init(Flags);
}

CB_EXPORT CUresult cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = CB_DRIVER_VERSION;
    return CUDA_SUCCESS;
}

/* ---- cuGetProcAddress ---------------------------------------------------- */

typedef struct proc_row {
    const char *api;
    int version;
    int id;             /* cb_export_id */
    int per_thread;
} proc_row;

static const proc_row proc_rows[] = {
#define CB_PROC(api, version, sym, per_thread) {#api, version, CB_EXP_##sym, per_thread},
#include "driver/exports.inc"
#undef CB_PROC
};
#define PROC_NROWS ((int)(sizeof proc_rows / sizeof proc_rows[0]))

/* The first row of api in the sorted table, or -1. */
static int proc_first_row(const char *api)
{
    int lo = 0, hi = PROC_NROWS - 1, found = -1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int c = strcmp(api, proc_rows[mid].api);
        if (c <= 0) {
            if (c == 0)
                found = mid;
            hi = mid - 1;
        } else {
            lo = mid + 1;
        }
    }
    return found;
}

/* Picks the export for (api, version, per_thread): the newest row at or
 * below version, preferring a per-thread row when asked. -1 if none. */
static int proc_pick(int first, const char *api, int version, int per_thread)
{
    int plain = -1, pt = -1, plain_v = -1, pt_v = -1;
    for (int i = first; i < PROC_NROWS && strcmp(proc_rows[i].api, api) == 0; i++) {
        const proc_row *r = &proc_rows[i];
        if (r->version > version)
            continue;
        if (r->per_thread && r->version >= pt_v) {
            pt = r->id;
            pt_v = r->version;
        } else if (!r->per_thread && r->version >= plain_v) {
            plain = r->id;
            plain_v = r->version;
        }
    }
    /* A per-thread twin only counts if it is of the newest plain version. */
    if (per_thread && pt >= 0 && pt_v >= plain_v)
        return pt;
    return plain;
}

static CUresult proc_lookup(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                            CUdriverProcAddressQueryResult *status)
{
    CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult r;
    const cb_dispatch_personality *p = cb_dispatch_personality_active();
    if (p && symbol && pfn) {
        /* a personality answers (the pass-through: the real driver's pointer) */
        int first = proc_first_row(symbol);
        int pt = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
        int id = first < 0 ? -1 : proc_pick(first, symbol, cudaVersion, pt);
        r = p->proc_address(symbol, pfn, cudaVersion, flags, status, id);
        if (r == CUDA_SUCCESS && *pfn && id >= 0)
            *pfn = cb_dispatch_wrap(id, *pfn);
        return r;
    }
    if (!symbol || !pfn) {
        r = CUDA_ERROR_INVALID_VALUE;
        goto out;
    }
    *pfn = NULL;
    if (flags & ~(cuuint64_t)(CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)) {
        r = CUDA_ERROR_INVALID_VALUE;
        goto out;
    }
    int first = proc_first_row(symbol);
    if (first < 0) {
        cb_log(CB_LOG_DEBUG, "cuGetProcAddress(%s, %d): no such symbol", symbol, cudaVersion);
        r = CUDA_ERROR_NOT_FOUND;
        goto out;
    }
    int per_thread = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
    int id = proc_pick(first, symbol, cudaVersion, per_thread);
    if (id < 0) {
        st = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
        r = CUDA_SUCCESS;
        goto out;
    }
    *pfn = cb_dispatch_wrap(id, (void *)cb_exports[id].fn);   /* the tracing wrapper, when tracing */
    st = CU_GET_PROC_ADDRESS_SUCCESS;
    r = CUDA_SUCCESS;
    cb_log(CB_LOG_DEBUG, "cuGetProcAddress(%s, %d, %llu) -> %s%s", symbol, cudaVersion, (unsigned long long)flags,
           cb_exports[id].name, cb_export_implemented(id) ? "" : " (stub)");
out:
    if (status)
        *status = st;
    return r;
}

CB_EXPORT CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags)
{
    return proc_lookup(symbol, pfn, cudaVersion, flags, NULL);
}

CB_EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                       CUdriverProcAddressQueryResult *symbolStatus)
{
    return proc_lookup(symbol, pfn, cudaVersion, flags, symbolStatus);
}
