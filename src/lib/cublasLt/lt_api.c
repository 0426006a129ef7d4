/* lt_api.c: cuBLASLt's handles, descriptors, preferences, algorithms, the
 * heuristic query, versions, status texts and the logger.
 *
 * The CPU backend has one algorithm (id 0, needing no workspace): the
 * heuristic query returns it for every product lt_plan accepts, with state
 * CUBLAS_STATUS_SUCCESS and wavesCount 1, and no result otherwise.
 *
 * Process-wide state: the logger's settings (logger_lock).
 */
#include "cublasLt_impl.h"

#include <stdio.h>
#include <stdlib.h>

#include "backend/backend_lib.h"
#include "lib/common/facade.h"
#include "lt_internal.h"
#include "platform/thread.h"

#define LT_LIB (&cbl_cublasLt_library)

/* ---- handles ------------------------------------------------------------------ */

cublasStatus_t cublasLtCreate(cublasLtHandle_t *handle)
{
    if (!handle)
        return CUBLAS_STATUS_INVALID_VALUE;
    const cb_lib_services *s = cbl_services();
    cb_context *ctx;
    if (!s || s->context(&ctx) != CUDA_SUCCESS)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    cublasLtHandle_t h = calloc(1, sizeof *h);
    if (!h)
        return CUBLAS_STATUS_ALLOC_FAILED;
    h->magic = LT_MAGIC_HANDLE;
    h->ctx = ctx;
    *handle = h;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtDestroy(cublasLtHandle_t h)
{
    if (!h || h->magic != LT_MAGIC_HANDLE)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    h->magic = 0;
    free(h);
    return CUBLAS_STATUS_SUCCESS;
}

size_t cublasLtGetVersion(void) { return CUBLAS_VERSION; }
size_t cublasLtGetCudartVersion(void) { return CUDART_VERSION; }

cublasStatus_t cublasLtGetProperty(libraryPropertyType type, int *value)
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

const char *cublasLtGetStatusName(cublasStatus_t status)
{
    const char *n = cbl_status_name(LT_LIB, status);
    return n ? n : "CUBLAS_STATUS_UNKNOWN";
}

const char *cublasLtGetStatusString(cublasStatus_t status)
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
    default: return "unknown error";
    }
}

static size_t heuristics_capacity = 8192;   /* kept for the getter: there is no cache to size */

cublasStatus_t cublasLtHeuristicsCacheGetCapacity(size_t *capacity)
{
    if (!capacity)
        return CUBLAS_STATUS_INVALID_VALUE;
    *capacity = __atomic_load_n(&heuristics_capacity, __ATOMIC_RELAXED);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtHeuristicsCacheSetCapacity(size_t capacity)
{
    __atomic_store_n(&heuristics_capacity, capacity, __ATOMIC_RELAXED);
    return CUBLAS_STATUS_SUCCESS;
}

/* ---- descriptors -------------------------------------------------------------------- */

lt_desc *lt_desc_of(cublasLtMatmulDesc_t d)
{
    lt_desc *s = (lt_desc *)d;
    return s && s->magic == LT_MAGIC_DESC ? s : NULL;
}
lt_layout *lt_layout_of(cublasLtMatrixLayout_t l)
{
    lt_layout *s = (lt_layout *)l;
    return s && s->magic == LT_MAGIC_LAYOUT ? s : NULL;
}
lt_pref *lt_pref_of(cublasLtMatmulPreference_t p)
{
    lt_pref *s = (lt_pref *)p;
    return s && s->magic == LT_MAGIC_PREF ? s : NULL;
}
lt_transform *lt_transform_of(cublasLtMatrixTransformDesc_t t)
{
    lt_transform *s = (lt_transform *)t;
    return s && s->magic == LT_MAGIC_TRANSFORM ? s : NULL;
}

cublasStatus_t cublasLtMatmulDescInit_internal(cublasLtMatmulDesc_t desc, size_t size, cublasComputeType_t computeType,
                                               cudaDataType_t scaleType)
{
    if (!desc || size < sizeof(cublasLtMatmulDescOpaque_t))
        return CUBLAS_STATUS_INVALID_VALUE;
    lt_desc_defaults((lt_desc *)desc, computeType, scaleType);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *desc, cublasComputeType_t computeType,
                                        cudaDataType_t scaleType)
{
    if (!desc)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasLtMatmulDescOpaque_t *d = calloc(1, sizeof *d);
    if (!d)
        return CUBLAS_STATUS_ALLOC_FAILED;
    lt_desc_defaults((lt_desc *)d, computeType, scaleType);
    ((lt_desc *)d)->allocated = 1;
    *desc = d;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc)
{
    lt_desc *d = lt_desc_of(desc);
    if (!d)
        return CUBLAS_STATUS_INVALID_VALUE;
    int allocated = d->allocated;
    d->magic = 0;
    if (allocated)
        free(desc);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attr,
                                              const void *buf, size_t size)
{
    lt_desc *d = lt_desc_of(desc);
    return d ? lt_desc_set(d, attr, buf, size) : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attr,
                                              void *buf, size_t size, size_t *written)
{
    lt_desc *d = lt_desc_of(desc);
    return d ? lt_desc_get(d, attr, buf, size, written) : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatrixLayoutInit_internal(cublasLtMatrixLayout_t layout, size_t size, cudaDataType type,
                                                 uint64_t rows, uint64_t cols, int64_t ld)
{
    if (!layout || size < sizeof(cublasLtMatrixLayoutOpaque_t))
        return CUBLAS_STATUS_INVALID_VALUE;
    lt_layout_defaults((lt_layout *)layout, type, rows, cols, ld);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *layout, cudaDataType type, uint64_t rows,
                                          uint64_t cols, int64_t ld)
{
    if (!layout)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasLtMatrixLayoutOpaque_t *l = calloc(1, sizeof *l);
    if (!l)
        return CUBLAS_STATUS_ALLOC_FAILED;
    lt_layout_defaults((lt_layout *)l, type, rows, cols, ld);
    ((lt_layout *)l)->allocated = 1;
    *layout = l;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout)
{
    lt_layout *l = lt_layout_of(layout);
    if (!l)
        return CUBLAS_STATUS_INVALID_VALUE;
    int allocated = l->allocated;
    l->magic = 0;
    if (allocated)
        free(layout);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attr,
                                                const void *buf, size_t size)
{
    lt_layout *l = lt_layout_of(layout);
    return l ? lt_layout_set(l, attr, buf, size) : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attr,
                                                void *buf, size_t size, size_t *written)
{
    lt_layout *l = lt_layout_of(layout);
    return l ? lt_layout_get(l, attr, buf, size, written) : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatmulPreferenceInit_internal(cublasLtMatmulPreference_t pref, size_t size)
{
    if (!pref || size < sizeof(cublasLtMatmulPreferenceOpaque_t))
        return CUBLAS_STATUS_INVALID_VALUE;
    lt_pref_defaults((lt_pref *)pref);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *pref)
{
    if (!pref)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasLtMatmulPreferenceOpaque_t *p = calloc(1, sizeof *p);
    if (!p)
        return CUBLAS_STATUS_ALLOC_FAILED;
    lt_pref_defaults((lt_pref *)p);
    ((lt_pref *)p)->allocated = 1;
    *pref = p;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref)
{
    lt_pref *p = lt_pref_of(pref);
    if (!p)
        return CUBLAS_STATUS_INVALID_VALUE;
    int allocated = p->allocated;
    p->magic = 0;
    if (allocated)
        free(pref);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, const void *buf,
                                                    size_t size)
{
    lt_pref *p = lt_pref_of(pref);
    return p ? lt_pref_set(p, attr, buf, size) : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatmulPreferenceGetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, void *buf, size_t size,
                                                    size_t *written)
{
    lt_pref *p = lt_pref_of(pref);
    return p ? lt_pref_get(p, attr, buf, size, written) : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatrixTransformDescInit_internal(cublasLtMatrixTransformDesc_t desc, size_t size,
                                                        cudaDataType scaleType)
{
    if (!desc || size < sizeof(cublasLtMatrixTransformDescOpaque_t))
        return CUBLAS_STATUS_INVALID_VALUE;
    lt_transform_defaults((lt_transform *)desc, scaleType);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixTransformDescCreate(cublasLtMatrixTransformDesc_t *desc, cudaDataType scaleType)
{
    if (!desc)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasLtMatrixTransformDescOpaque_t *t = calloc(1, sizeof *t);
    if (!t)
        return CUBLAS_STATUS_ALLOC_FAILED;
    lt_transform_defaults((lt_transform *)t, scaleType);
    ((lt_transform *)t)->allocated = 1;
    *desc = t;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixTransformDescDestroy(cublasLtMatrixTransformDesc_t desc)
{
    lt_transform *t = lt_transform_of(desc);
    if (!t)
        return CUBLAS_STATUS_INVALID_VALUE;
    int allocated = t->allocated;
    t->magic = 0;
    if (allocated)
        free(desc);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixTransformDescSetAttribute(cublasLtMatrixTransformDesc_t desc,
                                                       cublasLtMatrixTransformDescAttributes_t attr, const void *buf,
                                                       size_t size)
{
    lt_transform *t = lt_transform_of(desc);
    return t ? lt_transform_set(t, attr, buf, size) : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatrixTransformDescGetAttribute(cublasLtMatrixTransformDesc_t desc,
                                                       cublasLtMatrixTransformDescAttributes_t attr, void *buf,
                                                       size_t size, size_t *written)
{
    lt_transform *t = lt_transform_of(desc);
    return t ? lt_transform_get(t, attr, buf, size, written) : CUBLAS_STATUS_INVALID_VALUE;
}

/* ---- algorithms and the heuristic query ---------------------------------------------------- */

static void algo_make(cublasLtMatmulAlgo_t *algo, int compute, int scale)
{
    memset(algo, 0, sizeof *algo);
    lt_algo *a = (lt_algo *)algo;
    a->magic = LT_MAGIC_ALGO;
    a->id = 0;
    a->splitk = 1;
    a->compute = compute;
    a->scale = scale;
}

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t h, cublasLtMatmulDesc_t operationDesc,
                                              cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                              cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                              cublasLtMatmulPreference_t preference, int requestedAlgoCount,
                                              cublasLtMatmulHeuristicResult_t heuristicResultsArray[],
                                              int *returnAlgoCount)
{
    if (!h || h->magic != LT_MAGIC_HANDLE)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    lt_desc *d = lt_desc_of(operationDesc);
    lt_pref *p = lt_pref_of(preference);
    if (!d || !p || requestedAlgoCount <= 0 || !heuristicResultsArray || !returnAlgoCount)
        return CUBLAS_STATUS_INVALID_VALUE;
    lt_log_call("cublasLtMatmulAlgoGetHeuristic");
    cb_blas_gemm g;
    const char *why = NULL;
    int swap;
    cublasStatus_t st = lt_plan(d, lt_layout_of(Adesc), lt_layout_of(Bdesc), lt_layout_of(Cdesc),
                                lt_layout_of(Ddesc ? Ddesc : Cdesc), &g, &swap, &why);
    *returnAlgoCount = 0;
    if (st != CUBLAS_STATUS_SUCCESS) {
        if (st == CUBLAS_STATUS_NOT_SUPPORTED)
            cbl_unsupported_mode(LT_LIB, "cublasLtMatmulAlgoGetHeuristic", why ? why : "this product");
        return st;
    }
    memset(&heuristicResultsArray[0], 0, sizeof heuristicResultsArray[0]);
    algo_make(&heuristicResultsArray[0].algo, d->compute, d->scale);
    heuristicResultsArray[0].workspaceSize = 0;
    heuristicResultsArray[0].state = CUBLAS_STATUS_SUCCESS;
    heuristicResultsArray[0].wavesCount = 1.0f;
    *returnAlgoCount = 1;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulAlgoGetIds(cublasLtHandle_t h, cublasComputeType_t computeType, cudaDataType_t scaleType,
                                        cudaDataType_t Atype, cudaDataType_t Btype, cudaDataType_t Ctype,
                                        cudaDataType_t Dtype, int requestedAlgoCount, int algoIdsArray[],
                                        int *returnAlgoCount)
{
    (void)computeType, (void)scaleType, (void)Atype, (void)Btype, (void)Ctype, (void)Dtype;
    if (!h || h->magic != LT_MAGIC_HANDLE)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (requestedAlgoCount <= 0 || !algoIdsArray || !returnAlgoCount)
        return CUBLAS_STATUS_INVALID_VALUE;
    algoIdsArray[0] = 0;
    *returnAlgoCount = 1;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulAlgoInit(cublasLtHandle_t h, cublasComputeType_t computeType, cudaDataType_t scaleType,
                                      cudaDataType_t Atype, cudaDataType_t Btype, cudaDataType_t Ctype,
                                      cudaDataType_t Dtype, int algoId, cublasLtMatmulAlgo_t *algo)
{
    (void)Atype, (void)Btype, (void)Ctype, (void)Dtype;
    if (!h || h->magic != LT_MAGIC_HANDLE)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!algo || algoId != 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    algo_make(algo, computeType, scaleType);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulAlgoCheck(cublasLtHandle_t h, cublasLtMatmulDesc_t operationDesc,
                                       cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                       cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                       const cublasLtMatmulAlgo_t *algo, cublasLtMatmulHeuristicResult_t *result)
{
    if (!h || h->magic != LT_MAGIC_HANDLE)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    lt_desc *d = lt_desc_of(operationDesc);
    const lt_algo *a = (const lt_algo *)algo;
    if (!d || !algo || !result || a->magic != LT_MAGIC_ALGO)
        return CUBLAS_STATUS_INVALID_VALUE;
    cb_blas_gemm g;
    const char *why = NULL;
    int swap;
    cublasStatus_t st = lt_plan(d, lt_layout_of(Adesc), lt_layout_of(Bdesc), lt_layout_of(Cdesc),
                                lt_layout_of(Ddesc ? Ddesc : Cdesc), &g, &swap, &why);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    memset(result, 0, sizeof *result);
    result->algo = *algo;
    result->state = CUBLAS_STATUS_SUCCESS;
    result->wavesCount = 1.0f;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulAlgoCapGetAttribute(const cublasLtMatmulAlgo_t *algo, cublasLtMatmulAlgoCapAttributes_t attr,
                                                 void *buf, size_t size, size_t *written)
{
    if (!algo || ((const lt_algo *)algo)->magic != LT_MAGIC_ALGO)
        return CUBLAS_STATUS_INVALID_VALUE;
    return lt_algo_cap_get((const lt_algo *)algo, attr, buf, size, written);
}

cublasStatus_t cublasLtMatmulAlgoConfigSetAttribute(cublasLtMatmulAlgo_t *algo,
                                                    cublasLtMatmulAlgoConfigAttributes_t attr, const void *buf,
                                                    size_t size)
{
    if (!algo || ((lt_algo *)algo)->magic != LT_MAGIC_ALGO)
        return CUBLAS_STATUS_INVALID_VALUE;
    return lt_algo_config_set((lt_algo *)algo, attr, buf, size);
}

cublasStatus_t cublasLtMatmulAlgoConfigGetAttribute(const cublasLtMatmulAlgo_t *algo,
                                                    cublasLtMatmulAlgoConfigAttributes_t attr, void *buf, size_t size,
                                                    size_t *written)
{
    if (!algo || ((const lt_algo *)algo)->magic != LT_MAGIC_ALGO)
        return CUBLAS_STATUS_INVALID_VALUE;
    return lt_algo_config_get((const lt_algo *)algo, attr, buf, size, written);
}

/* ---- the logger -------------------------------------------------------------------------- */

static cb_mutex logger_lock = CB_MUTEX_INIT;
static struct {
    int level, mask, disabled;
    FILE *file;
    int own_file;
    cublasLtLoggerCallback_t callback;
} logger;

cublasStatus_t cublasLtLoggerSetCallback(cublasLtLoggerCallback_t callback)
{
    cb_mutex_lock(&logger_lock);
    logger.callback = callback;
    cb_mutex_unlock(&logger_lock);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtLoggerSetFile(FILE *file)
{
    cb_mutex_lock(&logger_lock);
    if (logger.own_file && logger.file)
        fclose(logger.file);
    logger.file = file;
    logger.own_file = 0;
    cb_mutex_unlock(&logger_lock);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtLoggerOpenFile(const char *path)
{
    if (!path)
        return CUBLAS_STATUS_INVALID_VALUE;
    FILE *f = fopen(path, "w");
    if (!f)
        return CUBLAS_STATUS_INVALID_VALUE;
    cb_mutex_lock(&logger_lock);
    if (logger.own_file && logger.file)
        fclose(logger.file);
    logger.file = f;
    logger.own_file = 1;
    cb_mutex_unlock(&logger_lock);
    return CUBLAS_STATUS_SUCCESS;
}

/* Levels 0 (off) to 5 (API trace); each level includes the ones below. */
cublasStatus_t cublasLtLoggerSetLevel(int level)
{
    if (level < 0 || level > 5)
        return CUBLAS_STATUS_INVALID_VALUE;
    cb_mutex_lock(&logger_lock);
    logger.level = level;
    logger.mask = level ? (1 << level) - 1 : 0;
    cb_mutex_unlock(&logger_lock);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtLoggerSetMask(int mask)
{
    cb_mutex_lock(&logger_lock);
    logger.mask = mask;
    cb_mutex_unlock(&logger_lock);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtLoggerForceDisable(void)
{
    cb_mutex_lock(&logger_lock);
    logger.disabled = 1;
    cb_mutex_unlock(&logger_lock);
    return CUBLAS_STATUS_SUCCESS;
}

/* API trace (mask 16, level 5): "[cublasLt][api] cublasLtMatmul()" to the
 * file and the callback (called without the lock). */
void lt_log_call(const char *function)
{
    if (!(__atomic_load_n(&logger.mask, __ATOMIC_RELAXED) & 16))
        return;
    cb_mutex_lock(&logger_lock);
    cublasLtLoggerCallback_t cb = logger.disabled ? NULL : logger.callback;
    if (!logger.disabled && logger.file) {
        fprintf(logger.file, "[cublasLt][%d][Api][%s] called (cubridge)\n", 5, function);
        fflush(logger.file);
    }
    cb_mutex_unlock(&logger_lock);
    if (cb)
        cb(5, function, "called (cubridge)");
}
