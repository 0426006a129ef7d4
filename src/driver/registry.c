/* registry.c: lookups in the export registry, and what a stub does. */
#include "driver/driver.h"

#include <string.h>

#include "driver/dispatch.h"

int cb_driver_unsupported(cb_export_id id)
{
    const char *name = (unsigned)id < CB_EXP__COUNT ? cb_exports[id].name : "(unknown export)";
    /* under a personality, a stub is only called for a symbol it lacks */
    return cb_driver_not_supported(name, cb_dispatch_stub_reason());
}

CUresult cb_driver_not_supported(const char *name, const char *why)
{
    if (cb_stats_unsupported(name))
        cb_log(CB_LOG_INFO, "%s: %s (CUDA_ERROR_NOT_SUPPORTED)", name, why);
    cb_dispatch_note_unsupported(name, why);
    return CUDA_ERROR_NOT_SUPPORTED;
}

int cb_export_find(const char *name)
{
    int lo = 0, hi = CB_EXP__COUNT - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int c = strcmp(name, cb_exports[mid].name);
        if (c == 0)
            return mid;
        if (c < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return -1;
}

int cb_export_implemented(int id)
{
    return id >= 0 && id < CB_EXP__COUNT && cb_exports[id].fn != cb_exports[id].stub;
}

size_t cb_export_implemented_count(void)
{
    size_t n = 0;
    for (int i = 0; i < CB_EXP__COUNT; i++)
        n += (size_t)cb_export_implemented(i);
    return n;
}
