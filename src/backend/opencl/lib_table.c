/* lib_table.c: the OpenCL backend's library interface, put together from
 * its parts (opencl_lib.h): CLBlast's entries (lib_clblast.c), our own
 * kernels' (lib_kernels.c; the DNN convolution among them), and
 * CUDA_ERROR_NOT_SUPPORTED for the LU pieces of cuBLAS's batched forms,
 * which neither has yet. The families this device has none of, LAPACK
 * (cuSOLVER) and the sparse kernels (cuSPARSE), are left NULL: their
 * facades check them on the calling thread and answer NOT_SUPPORTED as the
 * call's own status, before anything is enqueued (a refusal found on the
 * stream's worker can only be the context's sticky error, cbl_refused).
 *
 * Process-wide state: the table, filled once.
 */
#include "backend/opencl/opencl_lib.h"

#include "platform/thread.h"

#ifdef CB_HAVE_CLBLAST

/* The entries this backend does not have: the interface's own signatures. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
static CUresult ns_getrf(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t pivots, int *info) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_getrs(struct cb_backend *b, cb_blas_type t, int trans, int64_t n, int64_t nrhs, uint64_t a, int64_t lda, uint64_t pivots, uint64_t bb, int64_t ldb) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_getri(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t pivots, uint64_t c, int64_t ldc, int *info) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_matinv(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t c, int64_t ldc, int *info) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_dnn_conv(struct cb_backend *b, const cb_dnn_conv *c) { return CUDA_ERROR_NOT_SUPPORTED; }
#pragma GCC diagnostic pop

static cb_once lib_once = CB_ONCE_INIT;
static cb_backend_lib lib;

static void lib_build(void)
{
    lib.size = sizeof lib;
    lib.getrf = ns_getrf;
    lib.getrs = ns_getrs;
    lib.getri = ns_getri;
    lib.matinv = ns_matinv;
    lib.dnn_conv = ns_dnn_conv;
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
