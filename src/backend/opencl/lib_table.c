/* lib_table.c: the OpenCL backend's library interface, put together from
 * its parts (opencl_lib.h): CLBlast's entries (lib_clblast.c) and our own
 * kernels' (lib_kernels.c: the LU pieces of cuBLAS's batched forms and
 * the DNN convolution among them). The families this device has none of,
 * LAPACK (cuSOLVER) and the sparse kernels (cuSPARSE), are left NULL: their
 * facades check them on the calling thread and answer NOT_SUPPORTED as the
 * call's own status, before anything is enqueued (a refusal found on the
 * stream's worker can only be the context's sticky error, cbl_refused).
 *
 * Process-wide state: the table, filled once.
 */
#include "backend/opencl/opencl_lib.h"

#include "platform/thread.h"

#ifdef CB_HAVE_CLBLAST

static cb_once lib_once = CB_ONCE_INIT;
static cb_backend_lib lib;

static void lib_build(void)
{
    lib.size = sizeof lib;
    ocl_clblast_fill(&lib);
    ocl_kernels_fill(&lib);
}

const cb_backend_lib *ocl_lib(void)
{
    cb_run_once(&lib_once, lib_build);
    return &lib;
}

#else

const cb_backend_lib *ocl_lib(void) { return NULL; }   /* built without CLBlast: the facades answer NOT_SUPPORTED */

#endif
