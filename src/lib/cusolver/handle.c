/* handle.c: cuSOLVER dense handles, streams, the 64-bit API's params
 * objects, versions and modes.
 *
 * Bad input: a NULL or destroyed handle is NOT_INITIALIZED; a NULL output
 * pointer, an unknown enumerator or a NULL params object is INVALID_VALUE
 * (tests/lib/cusolver_status.cu records what NVIDIA's library answers).
 */
#include "cusolver_internal.h"

#include <stdlib.h>

cusolverStatus_t cusolver_handle_check(cusolverDnHandle_t h)
{
    return h && h->magic == CUSOLVER_HANDLE_MAGIC ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_NOT_INITIALIZED;
}

cusolverStatus_t cusolver_params_check(cusolverDnParams_t p)
{
    return p && p->magic == CUSOLVER_PARAMS_MAGIC ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_INVALID_VALUE;
}

int cusolver_type_of(cudaDataType t)
{
    switch (t) {
    case CUDA_R_32F: return CB_BLAS_F32;
    case CUDA_R_64F: return CB_BLAS_F64;
    case CUDA_C_32F: return CB_BLAS_C32;
    case CUDA_C_64F: return CB_BLAS_C64;
    default: return -1;
    }
}

int cusolver_lwork(int64_t m, int64_t n)
{
    int64_t v = (m > n ? m : n) * 32;
    return v < 64 ? 64 : v > (1 << 24) ? (1 << 24) : (int)v;
}

int cusolver_fill_valid(cublasFillMode_t f) { return f == CUBLAS_FILL_MODE_LOWER || f == CUBLAS_FILL_MODE_UPPER; }
int cusolver_op_valid(cublasOperation_t op) { return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C; }

/* ---- handles ------------------------------------------------------------------------ */

cusolverStatus_t cusolverDnCreate(cusolverDnHandle_t *handle)
{
    if (!handle)
        return CUSOLVER_STATUS_INVALID_VALUE;
    const cb_lib_services *s = cbl_services();
    cb_context *ctx;
    if (!s || s->context(&ctx) != CUDA_SUCCESS)
        return CUSOLVER_STATUS_NOT_INITIALIZED;
    cusolverDnHandle_t h = calloc(1, sizeof *h);
    if (!h)
        return CUSOLVER_STATUS_ALLOC_FAILED;
    h->magic = CUSOLVER_HANDLE_MAGIC;
    h->ctx = ctx;
    h->deterministic = CUSOLVER_DETERMINISTIC_RESULTS;
    h->math = CUSOLVER_DEFAULT_MATH;
    h->emulation = CUDA_EMULATION_STRATEGY_DEFAULT;
    *handle = h;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnDestroy(cusolverDnHandle_t h)
{
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    h->magic = 0;
    free(h);
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnSetStream(cusolverDnHandle_t h, cudaStream_t stream)
{
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    h->stream = stream;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnGetStream(cusolverDnHandle_t h, cudaStream_t *stream)
{
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!stream)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *stream = h->stream;
    return CUSOLVER_STATUS_SUCCESS;
}

/* Results do not depend on the mode on the CPU backend: every run is
 * deterministic. The setting is kept for the getter. */
cusolverStatus_t cusolverDnSetDeterministicMode(cusolverDnHandle_t h, cusolverDeterministicMode_t mode)
{
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (mode != CUSOLVER_DETERMINISTIC_RESULTS && mode != CUSOLVER_ALLOW_NON_DETERMINISTIC_RESULTS)
        return CUSOLVER_STATUS_INTERNAL_ERROR;   /* what NVIDIA's answers (the H200) */
    h->deterministic = mode;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnGetDeterministicMode(cusolverDnHandle_t h, cusolverDeterministicMode_t *mode)
{
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!mode)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *mode = h->deterministic;
    return CUSOLVER_STATUS_SUCCESS;
}

/* ---- the 64-bit API's params ------------------------------------------------------- */

cusolverStatus_t cusolverDnCreateParams(cusolverDnParams_t *params)
{
    if (!params)
        return CUSOLVER_STATUS_INVALID_VALUE;
    cusolverDnParams_t p = calloc(1, sizeof *p);
    if (!p)
        return CUSOLVER_STATUS_ALLOC_FAILED;
    p->magic = CUSOLVER_PARAMS_MAGIC;
    *params = p;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnDestroyParams(cusolverDnParams_t p)
{
    cusolverStatus_t st = cusolver_params_check(p);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    p->magic = 0;
    free(p);
    return CUSOLVER_STATUS_SUCCESS;
}

/* GETRF takes ALG_0 or ALG_1, the others ALG_0 (the documented set). */
cusolverStatus_t cusolverDnSetAdvOptions(cusolverDnParams_t p, cusolverDnFunction_t function, cusolverAlgMode_t algo)
{
    cusolverStatus_t st = cusolver_params_check(p);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if ((unsigned)function > CUSOLVERDN_SYEVBATCHED)
        return CUSOLVER_STATUS_INVALID_VALUE;
    if (algo != CUSOLVER_ALG_0 && !(algo == CUSOLVER_ALG_1 && function == CUSOLVERDN_GETRF))
        return CUSOLVER_STATUS_INVALID_VALUE;
    p->alg[function] = algo;
    return CUSOLVER_STATUS_SUCCESS;
}

/* ---- versions -------------------------------------------------------------------------- */

cusolverStatus_t cusolverGetProperty(libraryPropertyType type, int *value)
{
    if (!value)
        return CUSOLVER_STATUS_INVALID_VALUE;
    switch (type) {
    case MAJOR_VERSION: *value = CUSOLVER_VER_MAJOR; break;
    case MINOR_VERSION: *value = CUSOLVER_VER_MINOR; break;
    case PATCH_LEVEL: *value = CUSOLVER_VER_PATCH; break;
    default: return CUSOLVER_STATUS_INVALID_VALUE;
    }
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverGetVersion(int *version)
{
    if (!version)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *version = CUSOLVER_VERSION;
    return CUSOLVER_STATUS_SUCCESS;
}
