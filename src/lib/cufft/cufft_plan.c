/* cufft_plan.c: cuFFT handles, plans, sizes and settings (docs/cufft.md).
 *
 * Work areas: cubridge's FFT works in host memory of its own, so every plan
 * needs a device work area of 0 bytes; cufftGetSize and friends say so, and
 * cufftSetWorkArea / cufftSetAutoAllocation are accepted and remembered.
 */
#include "cufft_internal.h"

#include <pthread.h>
#include <stdlib.h>

#define CUFFT_MAX_PLANS 65536

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static cufft_planobj *table[CUFFT_MAX_PLANS];   /* handle h is table[h - 1] */

cufft_planobj *cufft_plan_get(cufftHandle h)
{
    cufft_planobj *p = NULL;
    pthread_mutex_lock(&table_lock);
    if (h >= 1 && h <= CUFFT_MAX_PLANS && table[h - 1]) {
        p = table[h - 1];
        atomic_fetch_add(&p->refs, 1);
    }
    pthread_mutex_unlock(&table_lock);
    return p;
}

void cufft_plan_put(cufft_planobj *p)
{
    if (p && atomic_fetch_sub(&p->refs, 1) == 1) {
        fftl_plan_destroy(p->fp);
        pthread_mutex_destroy(&p->buffer_lock);
        free(p->buffer);
        free(p);
    }
}

cufftResult cufftCreate(cufftHandle *handle)
{
    if (!handle)
        return CUFFT_INVALID_VALUE;
    cufft_planobj *p = calloc(1, sizeof *p);
    if (!p)
        return CUFFT_ALLOC_FAILED;
    atomic_store(&p->refs, 1);
    p->auto_allocation = 1;
    pthread_mutex_init(&p->buffer_lock, NULL);
    pthread_mutex_lock(&table_lock);
    int h = 0;
    for (int i = 0; i < CUFFT_MAX_PLANS; i++)
        if (!table[i]) {
            table[i] = p;
            h = i + 1;
            break;
        }
    pthread_mutex_unlock(&table_lock);
    if (!h) {
        free(p);
        return CUFFT_ALLOC_FAILED;
    }
    *handle = h;
    return CUFFT_SUCCESS;
}

cufftResult cufftDestroy(cufftHandle plan)
{
    cufft_planobj *p = NULL;
    pthread_mutex_lock(&table_lock);
    if (plan >= 1 && plan <= CUFFT_MAX_PLANS) {
        p = table[plan - 1];
        table[plan - 1] = NULL;
    }
    pthread_mutex_unlock(&table_lock);
    if (!p)
        return CUFFT_INVALID_PLAN;
    cufft_plan_put(p);
    return CUFFT_SUCCESS;
}

/* ---- descriptions ------------------------------------------------------- */

static int type_desc(cufftType type, fftl_desc *d)
{
    switch (type) {
    case CUFFT_C2C: d->type = FFTL_C2C; d->elem = FFTL_F32; return 1;
    case CUFFT_R2C: d->type = FFTL_R2C; d->elem = FFTL_F32; return 1;
    case CUFFT_C2R: d->type = FFTL_C2R; d->elem = FFTL_F32; return 1;
    case CUFFT_Z2Z: d->type = FFTL_C2C; d->elem = FFTL_F64; return 1;
    case CUFFT_D2Z: d->type = FFTL_R2C; d->elem = FFTL_F64; return 1;
    case CUFFT_Z2D: d->type = FFTL_C2R; d->elem = FFTL_F64; return 1;
    }
    return 0;
}

static cufftResult result_of(int v)
{
    switch (v) {
    case FFTL_OK: return CUFFT_SUCCESS;
    case FFTL_BAD_TYPE: return CUFFT_INVALID_TYPE;
    case FFTL_BAD_LAYOUT: return CUFFT_INVALID_VALUE;
    default: return CUFFT_INVALID_SIZE;
    }
}

/* Fills d from cufftPlanMany-style arguments (64-bit). */
static cufftResult many_desc(fftl_desc *d, int rank, const long long *n, const long long *inembed, long long istride,
                             long long idist, const long long *onembed, long long ostride, long long odist,
                             long long batch)
{
    if (rank < 1 || rank > FFTL_MAX_RANK)
        return CUFFT_INVALID_SIZE;
    if (!n)
        return CUFFT_INVALID_VALUE;
    d->rank = rank;
    for (int i = 0; i < rank; i++)
        d->n[i] = n[i];
    d->batch = batch;
    /* cuFFT: with inembed or onembed NULL the advanced layout is ignored */
    int basic = !inembed || !onembed;
    d->in.basic = d->out.basic = basic;
    if (!basic) {
        for (int i = 0; i < rank; i++) {
            d->in.embed[i] = inembed[i];
            d->out.embed[i] = onembed[i];
        }
        d->in.stride = istride;
        d->in.dist = idist;
        d->out.stride = ostride;
        d->out.dist = odist;
    }
    char why[160];
    int v = fftl_validate(d, why, sizeof why);
    if (v != FFTL_OK)
        cbl_log(CB_LOG_INFO, "cufft: plan refused: %s", why);
    return result_of(v);
}

static cufftResult many_desc_int(fftl_desc *d, int rank, const int *n, const int *inembed, int istride, int idist,
                                 const int *onembed, int ostride, int odist, int batch)
{
    long long nn[FFTL_MAX_RANK] = {0}, ie[FFTL_MAX_RANK] = {0}, oe[FFTL_MAX_RANK] = {0};
    if (rank < 1 || rank > FFTL_MAX_RANK)
        return CUFFT_INVALID_SIZE;
    if (!n)
        return CUFFT_INVALID_VALUE;
    for (int i = 0; i < rank; i++) {
        nn[i] = n[i];
        if (inembed)
            ie[i] = inembed[i];
        if (onembed)
            oe[i] = onembed[i];
    }
    return many_desc(d, rank, nn, inembed ? ie : NULL, istride, idist, onembed ? oe : NULL, ostride, odist, batch);
}

/* Makes the plan of handle from d; *work_size (may be NULL) gets 0. */
static cufftResult make(cufftHandle handle, const fftl_desc *d, int xt, size_t *work_size)
{
    cufft_planobj *p = cufft_plan_get(handle);
    if (!p)
        return CUFFT_INVALID_PLAN;
    fftl_plan *fp = fftl_plan_create(d);
    if (!fp) {
        cufft_plan_put(p);
        return CUFFT_ALLOC_FAILED;
    }
    fftl_plan_destroy(p->fp);
    p->fp = fp;
    p->desc = *d;
    p->xt = xt;
    p->made = 1;
    if (work_size)
        *work_size = 0;
    cufft_plan_put(p);
    return CUFFT_SUCCESS;
}

static cufftResult simple_desc(fftl_desc *d, int rank, long long n0, long long n1, long long n2, cufftType type,
                               long long batch)
{
    memset(d, 0, sizeof *d);
    if (!type_desc(type, d))
        return CUFFT_INVALID_TYPE;
    long long n[3] = { n0, n1, n2 };
    return many_desc(d, rank, n, NULL, 1, 1, NULL, 1, 1, batch);
}

cufftResult cufftMakePlan1d(cufftHandle plan, int nx, cufftType type, int batch, size_t *workSize)
{
    fftl_desc d;
    cufftResult r = simple_desc(&d, 1, nx, 1, 1, type, batch);
    return r != CUFFT_SUCCESS ? r : make(plan, &d, 0, workSize);
}

cufftResult cufftMakePlan2d(cufftHandle plan, int nx, int ny, cufftType type, size_t *workSize)
{
    fftl_desc d;
    cufftResult r = simple_desc(&d, 2, nx, ny, 1, type, 1);
    return r != CUFFT_SUCCESS ? r : make(plan, &d, 0, workSize);
}

cufftResult cufftMakePlan3d(cufftHandle plan, int nx, int ny, int nz, cufftType type, size_t *workSize)
{
    fftl_desc d;
    cufftResult r = simple_desc(&d, 3, nx, ny, nz, type, 1);
    return r != CUFFT_SUCCESS ? r : make(plan, &d, 0, workSize);
}

cufftResult cufftMakePlanMany(cufftHandle plan, int rank, int *n, int *inembed, int istride, int idist, int *onembed,
                              int ostride, int odist, cufftType type, int batch, size_t *workSize)
{
    fftl_desc d;
    memset(&d, 0, sizeof d);
    if (!type_desc(type, &d))
        return CUFFT_INVALID_TYPE;
    cufftResult r = many_desc_int(&d, rank, n, inembed, istride, idist, onembed, ostride, odist, batch);
    return r != CUFFT_SUCCESS ? r : make(plan, &d, 0, workSize);
}

cufftResult cufftMakePlanMany64(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                                long long int istride, long long int idist, long long int *onembed,
                                long long int ostride, long long int odist, cufftType type, long long int batch,
                                size_t *workSize)
{
    fftl_desc d;
    memset(&d, 0, sizeof d);
    if (!type_desc(type, &d))
        return CUFFT_INVALID_TYPE;
    cufftResult r = many_desc(&d, rank, n, inembed, istride, idist, onembed, ostride, odist, batch);
    return r != CUFFT_SUCCESS ? r : make(plan, &d, 0, workSize);
}

/* cufftPlan*: create, make, and on failure no handle */
static cufftResult plan_new(cufftHandle *plan, const fftl_desc *d, cufftResult r)
{
    if (!plan)
        return CUFFT_INVALID_VALUE;
    if (r != CUFFT_SUCCESS)
        return r;
    cufftHandle h;
    r = cufftCreate(&h);
    if (r != CUFFT_SUCCESS)
        return r;
    r = make(h, d, 0, NULL);
    if (r != CUFFT_SUCCESS) {
        cufftDestroy(h);
        return r;
    }
    *plan = h;
    return CUFFT_SUCCESS;
}

cufftResult cufftPlan1d(cufftHandle *plan, int nx, cufftType type, int batch)
{
    fftl_desc d;
    return plan_new(plan, &d, simple_desc(&d, 1, nx, 1, 1, type, batch));
}

cufftResult cufftPlan2d(cufftHandle *plan, int nx, int ny, cufftType type)
{
    fftl_desc d;
    return plan_new(plan, &d, simple_desc(&d, 2, nx, ny, 1, type, 1));
}

cufftResult cufftPlan3d(cufftHandle *plan, int nx, int ny, int nz, cufftType type)
{
    fftl_desc d;
    return plan_new(plan, &d, simple_desc(&d, 3, nx, ny, nz, type, 1));
}

cufftResult cufftPlanMany(cufftHandle *plan, int rank, int *n, int *inembed, int istride, int idist, int *onembed,
                          int ostride, int odist, cufftType type, int batch)
{
    fftl_desc d;
    memset(&d, 0, sizeof d);
    if (!type_desc(type, &d))
        return CUFFT_INVALID_TYPE;
    return plan_new(plan, &d, many_desc_int(&d, rank, n, inembed, istride, idist, onembed, ostride, odist, batch));
}

/* ---- sizes ---------------------------------------------------------------- */

static cufftResult size_zero(size_t *workSize, cufftResult r)
{
    if (r == CUFFT_SUCCESS && workSize)
        *workSize = 0;
    return r;
}

cufftResult cufftEstimate1d(int nx, cufftType type, int batch, size_t *workSize)
{
    fftl_desc d;
    return size_zero(workSize, simple_desc(&d, 1, nx, 1, 1, type, batch));
}

cufftResult cufftEstimate2d(int nx, int ny, cufftType type, size_t *workSize)
{
    fftl_desc d;
    return size_zero(workSize, simple_desc(&d, 2, nx, ny, 1, type, 1));
}

cufftResult cufftEstimate3d(int nx, int ny, int nz, cufftType type, size_t *workSize)
{
    fftl_desc d;
    return size_zero(workSize, simple_desc(&d, 3, nx, ny, nz, type, 1));
}

cufftResult cufftEstimateMany(int rank, int *n, int *inembed, int istride, int idist, int *onembed, int ostride,
                              int odist, cufftType type, int batch, size_t *workSize)
{
    fftl_desc d;
    memset(&d, 0, sizeof d);
    if (!type_desc(type, &d))
        return CUFFT_INVALID_TYPE;
    return size_zero(workSize, many_desc_int(&d, rank, n, inembed, istride, idist, onembed, ostride, odist, batch));
}

static cufftResult handle_ok(cufftHandle h)
{
    cufft_planobj *p = cufft_plan_get(h);
    if (!p)
        return CUFFT_INVALID_PLAN;
    cufft_plan_put(p);
    return CUFFT_SUCCESS;
}

cufftResult cufftGetSize1d(cufftHandle handle, int nx, cufftType type, int batch, size_t *workSize)
{
    cufftResult r = handle_ok(handle);
    return r != CUFFT_SUCCESS ? r : cufftEstimate1d(nx, type, batch, workSize);
}

cufftResult cufftGetSize2d(cufftHandle handle, int nx, int ny, cufftType type, size_t *workSize)
{
    cufftResult r = handle_ok(handle);
    return r != CUFFT_SUCCESS ? r : cufftEstimate2d(nx, ny, type, workSize);
}

cufftResult cufftGetSize3d(cufftHandle handle, int nx, int ny, int nz, cufftType type, size_t *workSize)
{
    cufftResult r = handle_ok(handle);
    return r != CUFFT_SUCCESS ? r : cufftEstimate3d(nx, ny, nz, type, workSize);
}

cufftResult cufftGetSizeMany(cufftHandle handle, int rank, int *n, int *inembed, int istride, int idist,
                             int *onembed, int ostride, int odist, cufftType type, int batch, size_t *workArea)
{
    cufftResult r = handle_ok(handle);
    return r != CUFFT_SUCCESS ? r
                              : cufftEstimateMany(rank, n, inembed, istride, idist, onembed, ostride, odist, type,
                                                  batch, workArea);
}

cufftResult cufftGetSizeMany64(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                               long long int istride, long long int idist, long long int *onembed,
                               long long int ostride, long long int odist, cufftType type, long long int batch,
                               size_t *workSize)
{
    cufftResult r = handle_ok(plan);
    if (r != CUFFT_SUCCESS)
        return r;
    fftl_desc d;
    memset(&d, 0, sizeof d);
    if (!type_desc(type, &d))
        return CUFFT_INVALID_TYPE;
    return size_zero(workSize, many_desc(&d, rank, n, inembed, istride, idist, onembed, ostride, odist, batch));
}

cufftResult cufftGetSize(cufftHandle handle, size_t *workSize)
{
    cufft_planobj *p = cufft_plan_get(handle);
    if (!p)
        return CUFFT_INVALID_PLAN;
    if (workSize)
        *workSize = 0;
    cufft_plan_put(p);
    return CUFFT_SUCCESS;
}

/* ---- settings ------------------------------------------------------------ */

cufftResult cufftSetWorkArea(cufftHandle plan, void *workArea)
{
    cufft_planobj *p = cufft_plan_get(plan);
    if (!p)
        return CUFFT_INVALID_PLAN;
    p->work_area = workArea;
    cufft_plan_put(p);
    return CUFFT_SUCCESS;
}

cufftResult cufftSetAutoAllocation(cufftHandle plan, int autoAllocate)
{
    cufft_planobj *p = cufft_plan_get(plan);
    if (!p)
        return CUFFT_INVALID_PLAN;
    p->auto_allocation = autoAllocate != 0;
    cufft_plan_put(p);
    return CUFFT_SUCCESS;
}

cufftResult cufftSetStream(cufftHandle plan, cudaStream_t stream)
{
    cufft_planobj *p = cufft_plan_get(plan);
    if (!p)
        return CUFFT_INVALID_PLAN;
    p->stream = (CUstream)stream;
    cufft_plan_put(p);
    return CUFFT_SUCCESS;
}

cufftResult cufftGetVersion(int *version)
{
    if (!version)
        return CUFFT_INVALID_VALUE;
    *version = CUFFT_VERSION;
    return CUFFT_SUCCESS;
}

cufftResult cufftGetProperty(libraryPropertyType type, int *value)
{
    if (!value)
        return CUFFT_INVALID_VALUE;
    switch (type) {
    case MAJOR_VERSION: *value = CUFFT_VER_MAJOR; return CUFFT_SUCCESS;
    case MINOR_VERSION: *value = CUFFT_VER_MINOR; return CUFFT_SUCCESS;
    case PATCH_LEVEL: *value = CUFFT_VER_PATCH; return CUFFT_SUCCESS;
    }
    return CUFFT_INVALID_TYPE;
}

cufftResult cufftSetPlanPropertyInt64(cufftHandle plan, cufftProperty property, const long long int inputValueInt)
{
    if (property != NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT && property != NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS)
        return CUFFT_INVALID_VALUE;
    if (inputValueInt < 0)
        return CUFFT_INVALID_VALUE;
    cufft_planobj *p = cufft_plan_get(plan);
    if (!p)
        return CUFFT_INVALID_PLAN;
    p->property[property] = inputValueInt;   /* no JIT here: remembered, no effect */
    cufft_plan_put(p);
    return CUFFT_SUCCESS;
}

cufftResult cufftGetPlanPropertyInt64(cufftHandle plan, cufftProperty property, long long int *returnPtrValue)
{
    if (property != NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT && property != NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS)
        return CUFFT_INVALID_VALUE;
    if (!returnPtrValue)
        return CUFFT_INVALID_VALUE;
    cufft_planobj *p = cufft_plan_get(plan);
    if (!p)
        return CUFFT_INVALID_PLAN;
    *returnPtrValue = p->property[property];
    cufft_plan_put(p);
    return CUFFT_SUCCESS;
}

cufftResult cufftResetPlanProperty(cufftHandle plan, cufftProperty property)
{
    if (property != NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT && property != NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS)
        return CUFFT_INVALID_VALUE;
    cufft_planobj *p = cufft_plan_get(plan);
    if (!p)
        return CUFFT_INVALID_PLAN;
    p->property[property] = 0;
    cufft_plan_put(p);
    return CUFFT_SUCCESS;
}

/* ---- cufftXt: one GPU, any precision -------------------------------------- */

/* elem and complexity of a cudaDataType, or 0 */
static int xt_type(cudaDataType t, fftl_elem *e, int *cpx)
{
    switch ((int)t) {
    case CUDA_R_32F: *e = FFTL_F32; *cpx = 0; return 1;
    case CUDA_C_32F: *e = FFTL_F32; *cpx = 1; return 1;
    case CUDA_R_64F: *e = FFTL_F64; *cpx = 0; return 1;
    case CUDA_C_64F: *e = FFTL_F64; *cpx = 1; return 1;
    case CUDA_R_16F: *e = FFTL_F16; *cpx = 0; return 1;
    case CUDA_C_16F: *e = FFTL_F16; *cpx = 1; return 1;
    case CUDA_R_16BF: *e = FFTL_BF16; *cpx = 0; return 1;
    case CUDA_C_16BF: *e = FFTL_BF16; *cpx = 1; return 1;
    }
    return 0;
}

static cufftResult xt_desc(fftl_desc *d, int rank, long long *n, long long *inembed, long long istride,
                           long long idist, cudaDataType inputtype, long long *onembed, long long ostride,
                           long long odist, cudaDataType outputtype, long long batch, cudaDataType executiontype)
{
    fftl_elem ei, eo, ex;
    int ci, co, cx;
    memset(d, 0, sizeof *d);
    if (!xt_type(inputtype, &ei, &ci) || !xt_type(outputtype, &eo, &co) || !xt_type(executiontype, &ex, &cx))
        return CUFFT_INVALID_TYPE;
    if (ei != eo || ei != ex || !cx || (!ci && !co))
        return CUFFT_INVALID_TYPE;   /* one precision throughout, complex execution, not real to real */
    d->elem = ei;
    d->type = ci && co ? FFTL_C2C : co ? FFTL_R2C : FFTL_C2R;
    return many_desc(d, rank, n, inembed, istride, idist, onembed, ostride, odist, batch);
}

cufftResult cufftXtMakePlanMany(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                                long long int istride, long long int idist, cudaDataType inputtype,
                                long long int *onembed, long long int ostride, long long int odist,
                                cudaDataType outputtype, long long int batch, size_t *workSize,
                                cudaDataType executiontype)
{
    fftl_desc d;
    cufftResult r = xt_desc(&d, rank, n, inembed, istride, idist, inputtype, onembed, ostride, odist, outputtype,
                            batch, executiontype);
    return r != CUFFT_SUCCESS ? r : make(plan, &d, 1, workSize);
}

cufftResult cufftXtGetSizeMany(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                               long long int istride, long long int idist, cudaDataType inputtype,
                               long long int *onembed, long long int ostride, long long int odist,
                               cudaDataType outputtype, long long int batch, size_t *workSize,
                               cudaDataType executiontype)
{
    cufftResult r = handle_ok(plan);
    if (r != CUFFT_SUCCESS)
        return r;
    fftl_desc d;
    return size_zero(workSize, xt_desc(&d, rank, n, inembed, istride, idist, inputtype, onembed, ostride, odist,
                                       outputtype, batch, executiontype));
}

cufftResult cufftXtSetWorkArea(cufftHandle plan, void **workArea)
{
    return cufftSetWorkArea(plan, workArea ? workArea[0] : NULL);
}

/* Callbacks run user device code inside cuFFT's kernels; cubridge's FFT has no
 * kernels to call them from: refused, as the issue asks. */
cufftResult cufftXtSetCallback(cufftHandle plan, void **callback_routine, cufftXtCallbackType cbType,
                               void **caller_info)
{
    (void)plan; (void)callback_routine; (void)cbType; (void)caller_info;
    return (cufftResult)cbl_unsupported_mode(CUFFT_LIB, "cufftXtSetCallback", "cuFFT callbacks");
}

cufftResult cufftXtSetJITCallback(cufftHandle plan, const char *lto_callback_symbol_name,
                                  const void *lto_callback_fatbin, size_t lto_callback_fatbin_size,
                                  cufftXtCallbackType type, void **caller_info)
{
    (void)plan; (void)lto_callback_symbol_name; (void)lto_callback_fatbin; (void)lto_callback_fatbin_size;
    (void)type; (void)caller_info;
    return (cufftResult)cbl_unsupported_mode(CUFFT_LIB, "cufftXtSetJITCallback", "cuFFT LTO callbacks");
}

cufftResult cufftXtSetGPUs(cufftHandle handle, int nGPUs, int *whichGPUs)
{
    (void)handle; (void)nGPUs; (void)whichGPUs;
    return (cufftResult)cbl_unsupported_mode(CUFFT_LIB, "cufftXtSetGPUs", "multi-GPU plans");
}
