/* handle.c: cuBLAS handles and settings, status texts, versions, the API
 * logger, and the host <-> device helpers (Set/GetVector, Set/GetMatrix).
 *
 * Process-wide state: the logger's settings (logger_lock).
 */
#include "cublas_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "platform/thread.h"

cublasStatus_t cublas_handle_check(cublasHandle_t h)
{
    return h && h->magic == CUBLAS_HANDLE_MAGIC ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

int cublas_backend_ok(cublasHandle_t h, const char *function)
{
    const cb_lib_services *s = cbl_services();
    cb_backend *b = s ? s->backend(h->ctx) : NULL;
    if (b && b->lib)
        return 1;
    cbl_unsupported_mode(CUBLAS_LIB, function, "the device's backend has no library interface");
    return 0;
}

cublasStatus_t cublas_status_of(CUresult r)
{
    switch (r) {
    case CUDA_SUCCESS: return CUBLAS_STATUS_SUCCESS;
    case CUDA_ERROR_NOT_SUPPORTED: return CUBLAS_STATUS_NOT_SUPPORTED;
    case CUDA_ERROR_OUT_OF_MEMORY: return CUBLAS_STATUS_ALLOC_FAILED;
    case CUDA_ERROR_NOT_INITIALIZED:
    case CUDA_ERROR_NO_DEVICE:
    case CUDA_ERROR_INVALID_CONTEXT: return CUBLAS_STATUS_NOT_INITIALIZED;
    case CUDA_ERROR_INVALID_HANDLE:
    case CUDA_ERROR_INVALID_VALUE: return CUBLAS_STATUS_INVALID_VALUE;
    default: return CUBLAS_STATUS_EXECUTION_FAILED;
    }
}

int cublas_op_valid(cublasOperation_t op)
{
    return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}
int cublas_fill_valid(cublasFillMode_t f) { return f == CUBLAS_FILL_MODE_LOWER || f == CUBLAS_FILL_MODE_UPPER; }
int cublas_diag_valid(cublasDiagType_t d) { return d == CUBLAS_DIAG_NON_UNIT || d == CUBLAS_DIAG_UNIT; }
int cublas_side_valid(cublasSideMode_t s) { return s == CUBLAS_SIDE_LEFT || s == CUBLAS_SIDE_RIGHT; }

cb_blas_input_round cublas_math_round(cublasHandle_t h)
{
    return (h->math_mode & 0xf) == CUBLAS_TF32_TENSOR_OP_MATH ? CB_BLAS_ROUND_TF32 : CB_BLAS_ROUND_NONE;
}

/* ---- handles ---------------------------------------------------------------- */

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle)
{
    if (!handle)
        return CUBLAS_STATUS_INVALID_VALUE;
    const cb_lib_services *s = cbl_services();
    if (!s)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    cb_context *ctx;
    if (s->context(&ctx) != CUDA_SUCCESS)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    cublasHandle_t h = calloc(1, sizeof *h);
    if (!h)
        return CUBLAS_STATUS_ALLOC_FAILED;
    h->magic = CUBLAS_HANDLE_MAGIC;
    h->ctx = ctx;
    h->pointer_mode = CUBLAS_POINTER_MODE_HOST;
    h->atomics_mode = CUBLAS_ATOMICS_NOT_ALLOWED;
    h->math_mode = CUBLAS_DEFAULT_MATH;
    h->emulation = CUBLAS_EMULATION_STRATEGY_DEFAULT;
    *handle = h;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t h)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    h->magic = 0;
    free(h);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetVersion_v2(cublasHandle_t h, int *version)
{
    (void)h;   /* not checked: a NULL handle succeeds on the H200 */
    if (!version)
        return CUBLAS_STATUS_INVALID_VALUE;
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value)
{
    if (!value)
        return CUBLAS_STATUS_INVALID_VALUE;
    switch (type) {
    case MAJOR_VERSION: *value = CUBLAS_VER_MAJOR; break;
    case MINOR_VERSION: *value = CUBLAS_VER_MINOR; break;
    case PATCH_LEVEL: *value = CUBLAS_VER_PATCH; break;
    default: return CUBLAS_STATUS_INVALID_VALUE;
    }
    return CUBLAS_STATUS_SUCCESS;
}

size_t cublasGetCudartVersion(void) { return CUDART_VERSION; }

cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t h, void *workspace, size_t bytes)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (bytes && !workspace)
        return CUBLAS_STATUS_INVALID_VALUE;
    h->workspace = workspace;   /* the CPU backend needs none; kept for the getter's sake */
    h->workspace_bytes = bytes;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t h, cudaStream_t stream)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    h->stream = stream;
    h->workspace = NULL;   /* cuBLAS: setting a stream resets the user workspace */
    h->workspace_bytes = 0;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetStream_v2(cublasHandle_t h, cudaStream_t *stream)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!stream)
        return CUBLAS_STATUS_INVALID_VALUE;
    *stream = h->stream;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t *mode)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!mode)
        return CUBLAS_STATUS_INVALID_VALUE;
    *mode = h->pointer_mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t mode)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
        return CUBLAS_STATUS_INVALID_VALUE;
    h->pointer_mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetAtomicsMode(cublasHandle_t h, cublasAtomicsMode_t *mode)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!mode)
        return CUBLAS_STATUS_INVALID_VALUE;
    *mode = h->atomics_mode;
    return CUBLAS_STATUS_SUCCESS;
}

/* Atomics only permit a different order of summation on the GPU; the CPU
 * backend's results do not depend on it. */
cublasStatus_t cublasSetAtomicsMode(cublasHandle_t h, cublasAtomicsMode_t mode)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (mode != CUBLAS_ATOMICS_NOT_ALLOWED && mode != CUBLAS_ATOMICS_ALLOWED)
        return CUBLAS_STATUS_INVALID_VALUE;
    h->atomics_mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetMathMode(cublasHandle_t h, cublasMath_t *mode)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!mode)
        return CUBLAS_STATUS_INVALID_VALUE;
    *mode = h->math_mode;
    return CUBLAS_STATUS_SUCCESS;
}

/* Default and pedantic: full f32. TF32 tensor-op math: the inputs of f32
 * products are rounded to TF32 (cb_blas_round_tf32), as the GPU's tensor
 * cores take them. The emulation modes compute like the default (the
 * emulation exists to match it). */
cublasStatus_t cublasSetMathMode(cublasHandle_t h, cublasMath_t mode)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    unsigned base = (unsigned)mode & ~(unsigned)CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
    if (base != CUBLAS_DEFAULT_MATH && base != CUBLAS_TENSOR_OP_MATH && base != CUBLAS_PEDANTIC_MATH &&
        base != CUBLAS_TF32_TENSOR_OP_MATH && base != CUBLAS_FP32_EMULATED_BF16X9_MATH &&
        base != CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH)
        return CUBLAS_STATUS_INVALID_VALUE;
    h->math_mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetSmCountTarget(cublasHandle_t h, int *target)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!target)
        return CUBLAS_STATUS_INVALID_VALUE;
    *target = h->sm_count_target;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetSmCountTarget(cublasHandle_t h, int target)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (target < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    h->sm_count_target = target;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetEmulationStrategy(cublasHandle_t h, cublasEmulationStrategy_t *strategy)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!strategy)
        return CUBLAS_STATUS_INVALID_VALUE;
    *strategy = h->emulation;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetEmulationStrategy(cublasHandle_t h, cublasEmulationStrategy_t strategy)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if ((unsigned)strategy > CUBLAS_EMULATION_STRATEGY_EAGER)
        return CUBLAS_STATUS_INVALID_VALUE;
    h->emulation = strategy;
    return CUBLAS_STATUS_SUCCESS;
}

/* ---- status texts ------------------------------------------------------------- */

const char *cublasGetStatusName(cublasStatus_t status)
{
    const char *n = cbl_status_name(CUBLAS_LIB, status);
    return n ? n : "CUBLAS_STATUS_UNKNOWN";
}

/* The texts of NVIDIA's cuBLAS 13 (facts: what each status means). */
const char *cublasGetStatusString(cublasStatus_t status)
{
    switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
    case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    case CUBLAS_STATUS_LICENSE_ERROR: return "error detected trying to check the license";
    default: return "unknown error";
    }
}

/* ---- the API logger (cublasLoggerConfigure, cublasSetLoggerCallback) ---------- */

static cb_mutex logger_lock = CB_MUTEX_INIT;
static struct {
    int on, to_stdout, to_stderr;
    FILE *file;
    cublasLogCallback callback;
} logger;

cublasStatus_t cublasLoggerConfigure(int on, int to_stdout, int to_stderr, const char *file_name)
{
    cb_mutex_lock(&logger_lock);
    if (logger.file)
        fclose(logger.file);
    logger.file = NULL;
    logger.on = on;
    logger.to_stdout = to_stdout;
    logger.to_stderr = to_stderr;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (on && file_name && file_name[0] && !(logger.file = fopen(file_name, "w")))
        st = CUBLAS_STATUS_INVALID_VALUE;
    cb_mutex_unlock(&logger_lock);
    return st;
}

cublasStatus_t cublasSetLoggerCallback(cublasLogCallback callback)
{
    cb_mutex_lock(&logger_lock);
    logger.callback = callback;
    if (callback)
        logger.on = 1;
    cb_mutex_unlock(&logger_lock);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetLoggerCallback(cublasLogCallback *callback)
{
    if (!callback)
        return CUBLAS_STATUS_INVALID_VALUE;
    cb_mutex_lock(&logger_lock);
    *callback = logger.callback;
    cb_mutex_unlock(&logger_lock);
    return CUBLAS_STATUS_SUCCESS;
}

/* One line per computing call while the logger is on ("I! cuBLAS (v13.0)
 * function cublasSgemm_v2() called"), to each configured sink. The
 * callback is called without the lock held. */
void cublas_log_call(const char *function)
{
    if (!__atomic_load_n(&logger.on, __ATOMIC_RELAXED))
        return;
    char line[256];
    snprintf(line, sizeof line, "I! cuBLAS (v%d.%d) function %s() called (cubridge)\n", CUBLAS_VER_MAJOR,
             CUBLAS_VER_MINOR, function);
    cb_mutex_lock(&logger_lock);
    cublasLogCallback cb = logger.callback;
    if (logger.to_stdout)
        fputs(line, stdout);
    if (logger.to_stderr)
        fputs(line, stderr);
    if (logger.file) {
        fputs(line, logger.file);
        fflush(logger.file);
    }
    cb_mutex_unlock(&logger_lock);
    if (cb)
        cb(line);
}

/* ---- Set/GetVector, Set/GetMatrix ---------------------------------------------- */

/* One strided copy between host and device memory, as a stream operation:
 * rows x cols elements of elem bytes, host leading dimension (or
 * increment) hld, device one dld. */
typedef struct copy_op {
    cbl_op base;
    int to_device;
    int64_t rows, cols, elem, hld, dld;
    unsigned char *host;      /* Set: a staged copy (owned), Get: the caller's memory */
    uint64_t dev;
    const char *function;
} copy_op;

static void copy_release(cb_lib_op *lop)
{
    copy_op *o = (copy_op *)lop;
    if (o->to_device)
        free(o->host);
    free(o);
}

static CUresult copy_run(cb_lib_op *lop)
{
    copy_op *o = (copy_op *)lop;
    o->base.ran = 1;
    o->base.status = CUBLAS_STATUS_SUCCESS;
    size_t extent = cbl_matrix_bytes(o->rows, o->cols, o->dld, (size_t)o->elem);
    if (extent && !o->base.sv->mem_valid(o->dev, extent)) {
        cbl_log(CB_LOG_ERROR, "cublas: %s: [0x%llx, +%zu bytes) is not device memory", o->function,
                (unsigned long long)o->dev, extent);
        o->base.status = CUBLAS_STATUS_MAPPING_ERROR;
        return CUDA_SUCCESS;
    }
    size_t e = (size_t)o->elem, n = (size_t)o->rows * e;   /* a column is contiguous on both sides */
    for (int64_t j = 0; j < o->cols; j++) {
        unsigned char *h = o->host + (size_t)j * (size_t)o->hld * e;
        uint64_t d = o->dev + (uint64_t)j * (uint64_t)o->dld * e;
        CUresult r = o->to_device ? cbl_write(&o->base, d, h, n) : cbl_read(&o->base, h, d, n);
        if (r != CUDA_SUCCESS) {
            o->base.status = CUBLAS_STATUS_MAPPING_ERROR;
            return CUDA_SUCCESS;
        }
    }
    return CUDA_SUCCESS;
}

/* A vector is a 1 x n matrix whose "leading dimension" is the increment. */
static cublasStatus_t copy_submit(const char *function, int to_device, int64_t rows, int64_t cols, int64_t elem,
                                  const void *src, int64_t lds, void *dst, int64_t ldd, cudaStream_t stream, int async)
{
    const cb_lib_services *s = cbl_services();
    if (!s)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (rows == 0 || cols == 0)
        return CUBLAS_STATUS_SUCCESS;
    cb_context *ctx;
    if (s->context(&ctx) != CUDA_SUCCESS)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    copy_op *o = calloc(1, sizeof *o);
    if (!o)
        return CUBLAS_STATUS_ALLOC_FAILED;
    o->base.base.run = copy_run;
    o->base.base.release = copy_release;
    o->base.base.name = function;
    o->function = function;
    o->to_device = to_device;
    o->rows = rows;
    o->cols = cols;
    o->elem = elem;
    o->hld = to_device ? lds : ldd;
    o->dld = to_device ? ldd : lds;
    o->dev = (uint64_t)(uintptr_t)(to_device ? dst : src);
    if (to_device) {
        /* staged now: the caller may reuse its memory as soon as we return */
        size_t bytes = cbl_matrix_bytes(rows, cols, lds, (size_t)elem);
        o->host = malloc(bytes);
        if (!o->host) {
            free(o);
            return CUBLAS_STATUS_ALLOC_FAILED;
        }
        memcpy(o->host, src, bytes);
    } else {
        o->host = dst;
    }
    int status = 0;
    CUresult r = cbl_submit(ctx, async ? (CUstream)stream : NULL, &o->base, !async, NULL, &status);
    if (r != CUDA_SUCCESS)
        return cublas_status_of(r);
    return async ? CUBLAS_STATUS_SUCCESS : status < 0 ? CUBLAS_STATUS_EXECUTION_FAILED : (cublasStatus_t)status;
}

#define VEC_CHECK()                                                                                                    \
    if (incx <= 0 || incy <= 0 || elemSize <= 0)                                                                       \
        return CUBLAS_STATUS_INVALID_VALUE;                                                                            \
    if (n < 0)                                                                                                         \
        return CUBLAS_STATUS_INVALID_VALUE
/* A leading dimension below rows is the 2-D copy's failure, MAPPING_ERROR (the H200's answer). */
#define MAT_CHECK()                                                                                                    \
    if (rows < 0 || cols < 0 || elemSize <= 0 || lda <= 0 || ldb <= 0)                                                 \
        return CUBLAS_STATUS_INVALID_VALUE;                                                                            \
    if (lda < rows || ldb < rows)                                                                                      \
    return CUBLAS_STATUS_MAPPING_ERROR

cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx, void *devicePtr, int incy)
{
    VEC_CHECK();
    return copy_submit("cublasSetVector", 1, 1, n, elemSize, x, incx, devicePtr, incy, NULL, 0);
}
cublasStatus_t cublasSetVector_64(int64_t n, int64_t elemSize, const void *x, int64_t incx, void *devicePtr,
                                  int64_t incy)
{
    VEC_CHECK();
    return copy_submit("cublasSetVector_64", 1, 1, n, elemSize, x, incx, devicePtr, incy, NULL, 0);
}
cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy)
{
    VEC_CHECK();
    return copy_submit("cublasGetVector", 0, 1, n, elemSize, x, incx, y, incy, NULL, 0);
}
cublasStatus_t cublasGetVector_64(int64_t n, int64_t elemSize, const void *x, int64_t incx, void *y, int64_t incy)
{
    VEC_CHECK();
    return copy_submit("cublasGetVector_64", 0, 1, n, elemSize, x, incx, y, incy, NULL, 0);
}
cublasStatus_t cublasSetVectorAsync(int n, int elemSize, const void *x, int incx, void *devicePtr, int incy,
                                    cudaStream_t stream)
{
    VEC_CHECK();
    return copy_submit("cublasSetVectorAsync", 1, 1, n, elemSize, x, incx, devicePtr, incy, stream, 1);
}
cublasStatus_t cublasSetVectorAsync_64(int64_t n, int64_t elemSize, const void *x, int64_t incx, void *devicePtr,
                                       int64_t incy, cudaStream_t stream)
{
    VEC_CHECK();
    return copy_submit("cublasSetVectorAsync_64", 1, 1, n, elemSize, x, incx, devicePtr, incy, stream, 1);
}
cublasStatus_t cublasGetVectorAsync(int n, int elemSize, const void *x, int incx, void *y, int incy,
                                    cudaStream_t stream)
{
    VEC_CHECK();
    return copy_submit("cublasGetVectorAsync", 0, 1, n, elemSize, x, incx, y, incy, stream, 1);
}
cublasStatus_t cublasGetVectorAsync_64(int64_t n, int64_t elemSize, const void *x, int64_t incx, void *y,
                                       int64_t incy, cudaStream_t stream)
{
    VEC_CHECK();
    return copy_submit("cublasGetVectorAsync_64", 0, 1, n, elemSize, x, incx, y, incy, stream, 1);
}

cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb)
{
    MAT_CHECK();
    return copy_submit("cublasSetMatrix", 1, rows, cols, elemSize, A, lda, B, ldb, NULL, 0);
}
cublasStatus_t cublasSetMatrix_64(int64_t rows, int64_t cols, int64_t elemSize, const void *A, int64_t lda, void *B,
                                  int64_t ldb)
{
    MAT_CHECK();
    return copy_submit("cublasSetMatrix_64", 1, rows, cols, elemSize, A, lda, B, ldb, NULL, 0);
}
cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb)
{
    MAT_CHECK();
    return copy_submit("cublasGetMatrix", 0, rows, cols, elemSize, A, lda, B, ldb, NULL, 0);
}
cublasStatus_t cublasGetMatrix_64(int64_t rows, int64_t cols, int64_t elemSize, const void *A, int64_t lda, void *B,
                                  int64_t ldb)
{
    MAT_CHECK();
    return copy_submit("cublasGetMatrix_64", 0, rows, cols, elemSize, A, lda, B, ldb, NULL, 0);
}
cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb,
                                    cudaStream_t stream)
{
    MAT_CHECK();
    return copy_submit("cublasSetMatrixAsync", 1, rows, cols, elemSize, A, lda, B, ldb, stream, 1);
}
cublasStatus_t cublasSetMatrixAsync_64(int64_t rows, int64_t cols, int64_t elemSize, const void *A, int64_t lda,
                                       void *B, int64_t ldb, cudaStream_t stream)
{
    MAT_CHECK();
    return copy_submit("cublasSetMatrixAsync_64", 1, rows, cols, elemSize, A, lda, B, ldb, stream, 1);
}
cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb,
                                    cudaStream_t stream)
{
    MAT_CHECK();
    return copy_submit("cublasGetMatrixAsync", 0, rows, cols, elemSize, A, lda, B, ldb, stream, 1);
}
cublasStatus_t cublasGetMatrixAsync_64(int64_t rows, int64_t cols, int64_t elemSize, const void *A, int64_t lda,
                                       void *B, int64_t ldb, cudaStream_t stream)
{
    MAT_CHECK();
    return copy_submit("cublasGetMatrixAsync_64", 0, rows, cols, elemSize, A, lda, B, ldb, stream, 1);
}
