/* cpu_lib.c: the CPU backend's library interface, put together from its
 * parts (cpu_lib.h). Process-wide state: the table, filled once. */
#include "backend/cpu/cpu_lib.h"

#include "backend/cpu/cpu_internal.h"
#include "platform/thread.h"

static cb_once lib_once = CB_ONCE_INIT;
static cb_backend_lib lib;

static void lib_build(void)
{
    lib = *cb_cpu_blas_lib();
    lib.size = sizeof lib;
    cb_cpu_lapack_fill(&lib);
    cb_cpu_sparse_fill(&lib);
}

const cb_backend_lib *cb_cpu_lib(void)
{
    cb_run_once(&lib_once, lib_build);
    return &lib;
}
