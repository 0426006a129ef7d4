/* cudnn_handle.c: handles and streams, versions, status codes and their
 * texts, the last error, callbacks and the sub-library version checks.
 *
 * One facade, two ABIs: the same objects are linked as libcudnn.so.9 (and
 * its sub-libraries) and as libcudnn.so.8. cuDNN 8 numbers its statuses
 * 0..14 where cuDNN 9 uses categories (BAD_PARAM 2000 ...), so every
 * status an export returns passes through cudnn_status_out (the export
 * machine's --status-filter), which maps to cuDNN 8's codes when this copy
 * was loaded as libcudnn.so.8; cudnnGetVersion says 8907 there (8.9.7, the
 * last cuDNN 8).
 *
 * Process-wide state: cudnn_v8 (written once when the library loads), the
 * callback (callback_lock), the thread's last error (thread-local).
 */
#include "cudnn_internal.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "platform/dl_path.h"
#include "platform/thread.h"

int cudnn_v8;

#define CUDNN8_VERSION 8907

__attribute__((constructor)) static void cudnn_detect_abi(void)
{
    char self[4096];
    if (cb_dl_path_of((const void *)cudnn_detect_abi, self, sizeof self) != 0)
        return;
    const char *base = strrchr(self, '/');
    base = base ? base + 1 : self;
    cudnn_v8 = strncmp(base, "libcudnn", 8) == 0 && strstr(base, ".so.8") != NULL;
}

size_t cudnn_version(void) { return cudnn_v8 ? CUDNN8_VERSION : CUDNN_VERSION; }

/* cuDNN 8's cudnnStatus_t. */
enum {
    V8_SUCCESS = 0, V8_NOT_INITIALIZED = 1, V8_ALLOC_FAILED = 2, V8_BAD_PARAM = 3, V8_INTERNAL_ERROR = 4,
    V8_INVALID_VALUE = 5, V8_ARCH_MISMATCH = 6, V8_MAPPING_ERROR = 7, V8_EXECUTION_FAILED = 8,
    V8_NOT_SUPPORTED = 9, V8_LICENSE_ERROR = 10, V8_RUNTIME_PREREQUISITE_MISSING = 11,
    V8_RUNTIME_IN_PROGRESS = 12, V8_RUNTIME_FP_OVERFLOW = 13, V8_VERSION_MISMATCH = 14,
};

static int status_to_v8(int s)
{
    switch (s) {
    case CUDNN_STATUS_SUCCESS: return V8_SUCCESS;
    case CUDNN_STATUS_NOT_INITIALIZED: return V8_NOT_INITIALIZED;
    case CUDNN_STATUS_LICENSE_ERROR: return V8_LICENSE_ERROR;
    case CUDNN_STATUS_RUNTIME_IN_PROGRESS: return V8_RUNTIME_IN_PROGRESS;
    case CUDNN_STATUS_RUNTIME_FP_OVERFLOW: return V8_RUNTIME_FP_OVERFLOW;
    case 2001: return V8_INVALID_VALUE;   /* CUDNN_STATUS_INVALID_VALUE */
    case CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH: return V8_ARCH_MISMATCH;
    case CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING: return V8_RUNTIME_PREREQUISITE_MISSING;
    case CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED:
    case CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED: return V8_ALLOC_FAILED;
    case CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED: return V8_MAPPING_ERROR;
    default: break;
    }
    switch (s / 1000 * 1000) {
    case 1000: return V8_VERSION_MISMATCH;
    case 2000: return V8_BAD_PARAM;
    case 3000: return V8_NOT_SUPPORTED;
    case 4000: return V8_INTERNAL_ERROR;
    case 5000: return V8_EXECUTION_FAILED;
    default: return V8_INTERNAL_ERROR;
    }
}

int cudnn_status_out(int status) { return cudnn_v8 ? status_to_v8(status) : status; }

/* ---- errors --------------------------------------------------------------- */

static _Thread_local char last_error[512];

static cb_mutex callback_lock = CB_MUTEX_INIT;
static unsigned callback_mask;
static void *callback_udata;
static cudnnCallback_t callback_fn;

static void callback_emit(cudnnSeverity_t sev, cudnnStatus_t st, const char *msg)
{
    cb_mutex_lock(&callback_lock);
    cudnnCallback_t fn = callback_fn;
    void *udata = callback_udata;
    unsigned mask = callback_mask;
    cb_mutex_unlock(&callback_lock);
    if (!fn || !(mask & (1u << sev)))
        return;
    cudnnDebug_t dbg;
    memset(&dbg, 0, sizeof dbg);
    dbg.cudnn_version = (unsigned)cudnn_version();
    dbg.cudnnStatus = (cudnnStatus_t)cudnn_status_out(st);
    fn(sev, udata, &dbg, msg);
}

cudnnStatus_t cudnn_fail(cudnnStatus_t st, const char *function, const char *fmt, ...)
{
    if (st == CUDNN_STATUS_SUCCESS)
        return st;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(last_error, sizeof last_error, "%s: %s: %s", function, cbl_status_name(CUDNN_LIB, st) ?
             cbl_status_name(CUDNN_LIB, st) : "CUDNN_STATUS_?", msg);
    cbl_log(CB_LOG_DEBUG, "cudnn: %s", last_error);
    callback_emit(CUDNN_SEV_ERROR, st, last_error);
    return st;
}

cudnnStatus_t cudnn_unsupported(const char *function, const char *why)
{
    cbl_unsupported_mode(CUDNN_LIB, function, why);
    return cudnn_fail(CUDNN_STATUS_NOT_SUPPORTED, function, "not supported by cubridge: %s", why);
}

cudnnStatus_t cudnn_status_of(CUresult r)
{
    switch (r) {
    case CUDA_SUCCESS: return CUDNN_STATUS_SUCCESS;
    case CUDA_ERROR_NOT_SUPPORTED: return CUDNN_STATUS_NOT_SUPPORTED;
    case CUDA_ERROR_OUT_OF_MEMORY: return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    case CUDA_ERROR_NOT_INITIALIZED:
    case CUDA_ERROR_NO_DEVICE:
    case CUDA_ERROR_INVALID_CONTEXT: return CUDNN_STATUS_NOT_INITIALIZED;
    case CUDA_ERROR_INVALID_HANDLE:
    case CUDA_ERROR_INVALID_VALUE: return CUDNN_STATUS_BAD_PARAM;
    default: return CUDNN_STATUS_EXECUTION_FAILED;
    }
}

/* cuDNN 8's names, by its codes (cudnnGetErrorString under libcudnn.so.8). */
static const char *const v8_names[] = {
    "CUDNN_STATUS_SUCCESS", "CUDNN_STATUS_NOT_INITIALIZED", "CUDNN_STATUS_ALLOC_FAILED", "CUDNN_STATUS_BAD_PARAM",
    "CUDNN_STATUS_INTERNAL_ERROR", "CUDNN_STATUS_INVALID_VALUE", "CUDNN_STATUS_ARCH_MISMATCH",
    "CUDNN_STATUS_MAPPING_ERROR", "CUDNN_STATUS_EXECUTION_FAILED", "CUDNN_STATUS_NOT_SUPPORTED",
    "CUDNN_STATUS_LICENSE_ERROR", "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING", "CUDNN_STATUS_RUNTIME_IN_PROGRESS",
    "CUDNN_STATUS_RUNTIME_FP_OVERFLOW", "CUDNN_STATUS_VERSION_MISMATCH",
};

const char *cudnnGetErrorString(cudnnStatus_t status)
{
    if (cudnn_v8)
        return (unsigned)status < sizeof v8_names / sizeof v8_names[0] ? v8_names[status] : "CUDNN_UNKNOWN_STATUS";
    const char *name = cbl_status_name(CUDNN_LIB, (int)status);
    return name ? name : "CUDNN_UNKNOWN_STATUS";
}

void cudnnGetLastErrorString(char *message, size_t max_size)
{
    if (!message || !max_size)
        return;
    snprintf(message, max_size, "%s", last_error);
    last_error[0] = 0;
}

cudnnStatus_t cudnnSetCallback(unsigned mask, void *udata, cudnnCallback_t fptr)
{
    cb_mutex_lock(&callback_lock);
    callback_mask = mask;
    callback_udata = udata;
    callback_fn = fptr;
    cb_mutex_unlock(&callback_lock);
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetCallback(unsigned *mask, void **udata, cudnnCallback_t *fptr)
{
    if (!mask || !udata || !fptr)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnGetCallback", "NULL output");
    cb_mutex_lock(&callback_lock);
    *mask = callback_mask;
    *udata = callback_udata;
    *fptr = callback_fn;
    cb_mutex_unlock(&callback_lock);
    return CUDNN_STATUS_SUCCESS;
}

/* ---- versions ---------------------------------------------------------------- */

size_t cudnnGetVersion(void) { return cudnn_version(); }

size_t cudnnGetCudartVersion(void) { return CUDART_VERSION; }

cudnnStatus_t cudnnGetProperty(libraryPropertyType type, int *value)
{
    if (!value)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnGetProperty", "value is NULL");
    size_t v = cudnn_version();
    int major = cudnn_v8 ? (int)(v / 1000) : CUDNN_MAJOR;
    int minor = cudnn_v8 ? (int)(v / 100 % 10) : CUDNN_MINOR;
    int patch = cudnn_v8 ? (int)(v % 100) : CUDNN_PATCHLEVEL;
    switch (type) {
    case MAJOR_VERSION: *value = major; break;
    case MINOR_VERSION: *value = minor; break;
    case PATCH_LEVEL: *value = patch; break;
    default: return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetProperty", "unknown property %d", (int)type);
    }
    return CUDNN_STATUS_SUCCESS;
}

/* The sub-libraries of one facade always agree with each other. */
cudnnStatus_t cudnnGraphVersionCheck(void) { return CUDNN_STATUS_SUCCESS; }
cudnnStatus_t cudnnOpsVersionCheck(void) { return CUDNN_STATUS_SUCCESS; }
cudnnStatus_t cudnnCnnVersionCheck(void) { return CUDNN_STATUS_SUCCESS; }
cudnnStatus_t cudnnAdvVersionCheck(void) { return CUDNN_STATUS_SUCCESS; }
/* cuDNN 8's (no prototype in cuDNN 9's headers: int f(void)). */
int cudnnOpsInferVersionCheck(void) { return CUDNN_STATUS_SUCCESS; }
int cudnnOpsTrainVersionCheck(void) { return CUDNN_STATUS_SUCCESS; }
int cudnnCnnInferVersionCheck(void) { return CUDNN_STATUS_SUCCESS; }
int cudnnCnnTrainVersionCheck(void) { return CUDNN_STATUS_SUCCESS; }
int cudnnAdvInferVersionCheck(void) { return CUDNN_STATUS_SUCCESS; }
int cudnnAdvTrainVersionCheck(void) { return CUDNN_STATUS_SUCCESS; }

/* ---- handles ------------------------------------------------------------------ */

cudnnStatus_t cudnn_handle_check(cudnnHandle_t h)
{
    return h && h->magic == CUDNN_MAGIC_HANDLE ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_BAD_PARAM;
}

int cudnn_backend_ok(cudnnHandle_t h, const char *function)
{
    const cb_lib_services *s = cbl_services();
    cb_backend *b = s ? s->backend(h->ctx) : NULL;
    if (b && b->lib && b->lib->size > offsetof(cb_backend_lib, dnn_conv) && b->lib->dnn_conv)
        return 1;
    cbl_unsupported_mode(CUDNN_LIB, function, "the device's backend has no DNN library interface");
    return 0;
}

cudnnStatus_t cudnnCreate(cudnnHandle_t *handle)
{
    if (!handle)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnCreate", "handle is NULL");   /* NVIDIA's status */
    const cb_lib_services *s = cbl_services();
    if (!s)
        return cudnn_fail(CUDNN_STATUS_NOT_INITIALIZED, "cudnnCreate", "cubridge's libcuda.so.1 is not loaded");
    cb_context *ctx;
    if (s->context(&ctx) != CUDA_SUCCESS)
        return cudnn_fail(CUDNN_STATUS_NOT_INITIALIZED, "cudnnCreate", "no CUDA context");
    cudnnHandle_t h = calloc(1, sizeof *h);
    if (!h)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    h->magic = CUDNN_MAGIC_HANDLE;
    h->ctx = ctx;
    *handle = h;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroy(cudnnHandle_t h)
{
    if (!h)
        return CUDNN_STATUS_SUCCESS;   /* as NVIDIA's (cudnn_status_probe) */
    cudnnStatus_t st = cudnn_handle_check(h);
    if (st != CUDNN_STATUS_SUCCESS)
        return cudnn_fail(st, "cudnnDestroy", "not a handle");
    h->magic = 0;
    free(h);
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetStream(cudnnHandle_t h, cudaStream_t stream)
{
    cudnnStatus_t st = cudnn_handle_check(h);
    if (st != CUDNN_STATUS_SUCCESS)
        return cudnn_fail(st, "cudnnSetStream", "not a handle");
    const cb_lib_services *s = cbl_services();
    cb_stream *resolved;
    if (!s || s->stream(h->ctx, (CUstream)stream, &resolved) != CUDA_SUCCESS)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnSetStream", "not a stream of the handle's context");
    h->stream = stream;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetStream(cudnnHandle_t h, cudaStream_t *stream)
{
    cudnnStatus_t st = cudnn_handle_check(h);
    if (st != CUDNN_STATUS_SUCCESS)
        return cudnn_fail(st, "cudnnGetStream", "not a handle");
    if (!stream)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnGetStream", "stream is NULL");
    *stream = h->stream;
    return CUDNN_STATUS_SUCCESS;
}

/* Kernels of cubridge's cuDNN raise no device-side errors (no BN overflow
 * flag kept): the answer is always success, after the handle's work. */
cudnnStatus_t cudnnQueryRuntimeError(cudnnHandle_t h, cudnnStatus_t *rstatus, cudnnErrQueryMode_t mode,
                                     cudnnRuntimeTag_t *tag)
{
    (void)tag;
    cudnnStatus_t st = cudnn_handle_check(h);
    if (st != CUDNN_STATUS_SUCCESS)
        return cudnn_fail(st, "cudnnQueryRuntimeError", "not a handle");
    if (!rstatus || (mode != CUDNN_ERRQUERY_RAWCODE && mode != CUDNN_ERRQUERY_NONBLOCKING &&
                     mode != CUDNN_ERRQUERY_BLOCKING))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnQueryRuntimeError", "bad rstatus or mode");
    *rstatus = (cudnnStatus_t)cudnn_status_out(CUDNN_STATUS_SUCCESS);
    return CUDNN_STATUS_SUCCESS;
}
