/* cudnn_backend_desc.c: the backend API's descriptors and their attributes
 * (cudnn_backend.h): cudnnBackendCreateDescriptor, DestroyDescriptor,
 * Initialize, SetAttribute, GetAttribute and Finalize.
 *
 * The rules (NVIDIA's cuDNN 9 documentation of the backend API, and where
 * it is silent cubridge's choice, docs/cudnn.md):
 *   - a descriptor type of cuDNN's enum that cubridge does not compute
 *     (resample, normalization, RNG, the fused SDPA operations ...) is
 *     created, takes any attribute and finalizes, so that a program builds
 *     its graph as with NVIDIA's library; the operation graph holding it
 *     is refused at its Finalize with NOT_SUPPORTED (counted), and its
 *     attributes cannot be read back (NOT_SUPPORTED); a value outside the
 *     enum or a NULL pointer for the descriptor: BAD_PARAM;
 *   - Set on a finalized descriptor, an attribute the type does not have,
 *     a wrong element count: BAD_PARAM; the wrong attribute type:
 *     BAD_PARAM_ATTRIBUTE_TYPE; a NULL array: BAD_PARAM_NULL_POINTER; a
 *     descriptor argument of the wrong type: BAD_PARAM_DESCRIPTOR_TYPE,
 *     or not finalized: BAD_PARAM_NOT_FINALIZED;
 *   - Get before Finalize: NOT_INITIALIZED (cuDNN 9.14 on the H200, for a
 *     convolution descriptor; it lets tensors be read back before, and so
 *     does cubridge); elementCount gets
 *     the attribute's count and at most requestedElementCount elements
 *     are written;
 *   - Finalize without a required attribute, or with inconsistent ones:
 *     BAD_PARAM; with what cubridge does not compute: NOT_SUPPORTED.
 */
#include "cudnn_backend.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

static const char *const FN_SET = "cudnnBackendSetAttribute";
static const char *const FN_GET = "cudnnBackendGetAttribute";
static const char *const FN_FIN = "cudnnBackendFinalize";

static int implemented_type(int t)
{
    switch (t) {
    case CUDNN_BACKEND_TENSOR_DESCRIPTOR: case CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR:
    case CUDNN_BACKEND_POINTWISE_DESCRIPTOR: case CUDNN_BACKEND_MATMUL_DESCRIPTOR:
    case CUDNN_BACKEND_REDUCTION_DESCRIPTOR: case CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR: case CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR: case CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR:
    case CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR: case CUDNN_BACKEND_ENGINECFG_DESCRIPTOR:
    case CUDNN_BACKEND_ENGINE_DESCRIPTOR: case CUDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR:
    case CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: case CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR:
        return 1;
    default:
        return 0;
    }
}

/* A type of cuDNN 9's enum that cubridge does not compute. */
static int opaque_type(int t)
{
    return t >= 0 && t <= CUDNN_BACKEND_OPERATION_SDPA_BWD_DESCRIPTOR && !implemented_type(t);
}

static int is_operation(int t)
{
    switch (t) {   /* operations cubridge does not compute: accepted into graphs, refused at their Finalize */
    case CUDNN_BACKEND_OPERATION_GEN_STATS_DESCRIPTOR: case CUDNN_BACKEND_OPERATION_BN_FINALIZE_STATISTICS_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_BN_BWD_WEIGHTS_DESCRIPTOR: case CUDNN_BACKEND_OPERATION_RESAMPLE_FWD_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_RESAMPLE_BWD_DESCRIPTOR: case CUDNN_BACKEND_OPERATION_CONCAT_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_SIGNAL_DESCRIPTOR: case CUDNN_BACKEND_OPERATION_NORM_FORWARD_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_NORM_BACKWARD_DESCRIPTOR: case CUDNN_BACKEND_OPERATION_RESHAPE_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_RNG_DESCRIPTOR: case CUDNN_BACKEND_OPERATION_PAGED_CACHE_LOAD_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_BLOCK_SCALE_QUANTIZE_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_BLOCK_SCALE_DEQUANTIZE_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_EXPAND_BAND_MATRIX_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_CONTRACT_BAND_MATRIX_DESCRIPTOR: case CUDNN_BACKEND_OPERATION_SDPA_FWD_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_MOE_GROUPED_MATMUL_DESCRIPTOR: case CUDNN_BACKEND_OPERATION_SDPA_BWD_DESCRIPTOR:
        return 1;
    default:
        break;
    }
    return t == CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR ||
           t == CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR ||
           t == CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR ||
           t == CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR || t == CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR ||
           t == CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR;
}

static cudnn_bdesc *desc_of(cudnnBackendDescriptor_t d)
{
    cudnn_bdesc *b = d;
    return b && b->magic == CUDNN_MAGIC_BACKEND ? b : NULL;
}

/* Puts d back to its state after Create (Initialize's job). */
static void desc_clear(cudnn_bdesc *d)
{
    int type = d->type;
    free(d->ops), free(d->uids), free(d->ptrs);
    if (d->graph)
        bk_graph_release(d->graph);
    memset(d, 0, sizeof *d);
    d->magic = CUDNN_MAGIC_BACKEND;
    d->type = type;
    d->tensor.vector_count = 1;
    d->tensor.vector_dim = -1;
    d->conv.mode = d->conv.comp = -1;
    d->pw.mode = d->pw.prec = -1;
    d->pw.relu_upper = INFINITY;
    d->pw.elu_alpha = d->pw.softplus_beta = d->pw.swish_beta = 1;
    d->mm_comp = -1;
    d->red.op = d->red.comp = -1;
    d->op.kind = type;
    d->op.alpha = 1;
    d->op.beta = type == CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR ? 1 : 0;
    d->heur_mode = -1;
    d->engine_index = -1;
}

cudnnStatus_t cudnnBackendCreateDescriptor(cudnnBackendDescriptorType_t descriptorType,
                                           cudnnBackendDescriptor_t *descriptor)
{
    const char *fn = "cudnnBackendCreateDescriptor";
    if (!descriptor)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "NULL descriptor pointer");
    if (!implemented_type((int)descriptorType) && !opaque_type((int)descriptorType))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "%d is not a backend descriptor type", (int)descriptorType);
    cudnn_bdesc *d = calloc(1, sizeof *d);
    if (!d)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    d->type = (int)descriptorType;
    desc_clear(d);
    *descriptor = d;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnBackendDestroyDescriptor(cudnnBackendDescriptor_t descriptor)
{
    cudnn_bdesc *d = desc_of(descriptor);
    if (!d)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnBackendDestroyDescriptor", "not a backend descriptor");
    desc_clear(d);
    d->magic = 0;
    free(d);
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnBackendInitialize(cudnnBackendDescriptor_t descriptor)
{
    cudnn_bdesc *d = desc_of(descriptor);
    if (!d)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnBackendInitialize", "not a backend descriptor");
    desc_clear(d);
    return CUDNN_STATUS_SUCCESS;
}

/* ---- setting ------------------------------------------------------------------ */

typedef struct set_args {
    int type;
    int64_t count;
    const void *v;
} set_args;

static cudnnStatus_t bad(cudnnStatus_t st, const char *fn, const char *what, int name)
{
    return cudnn_fail(st, fn, "attribute %d: %s", name, what);
}

/* The checks every setter makes: type, count in [lo, hi], array. */
static cudnnStatus_t want(const set_args *a, int type, int64_t lo, int64_t hi, int name)
{
    if (a->type != type)
        return bad(CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE, FN_SET, "wrong attribute type", name);
    if (a->count < lo || a->count > hi)
        return bad(CUDNN_STATUS_BAD_PARAM, FN_SET, "wrong element count", name);
    if (!a->v && a->count > 0)
        return bad(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, FN_SET, "NULL array of elements", name);
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t set_i64(const set_args *a, int name, int64_t *dst)
{
    cudnnStatus_t st = want(a, CUDNN_TYPE_INT64, 1, 1, name);
    if (st == CUDNN_STATUS_SUCCESS)
        *dst = *(const int64_t *)a->v;
    return st;
}

static cudnnStatus_t set_i64s(const set_args *a, int name, int64_t *dst, int max, int64_t *n)
{
    cudnnStatus_t st = want(a, CUDNN_TYPE_INT64, 1, max, name);
    if (st == CUDNN_STATUS_SUCCESS) {
        memcpy(dst, a->v, (size_t)a->count * sizeof(int64_t));
        *n = a->count;
    }
    return st;
}

/* An enum-valued attribute (its own attribute type, one int-sized element). */
static cudnnStatus_t set_enum(const set_args *a, int type, int name, int *dst)
{
    cudnnStatus_t st = want(a, type, 1, 1, name);
    if (st == CUDNN_STATUS_SUCCESS)
        *dst = *(const int *)a->v;
    return st;
}

static cudnnStatus_t set_bool(const set_args *a, int name, int *dst)
{
    cudnnStatus_t st = want(a, CUDNN_TYPE_BOOLEAN, 1, 1, name);
    if (st == CUDNN_STATUS_SUCCESS)
        *dst = *(const unsigned char *)a->v != 0;   /* the caller's byte may hold any value */
    return st;
}

/* A float or double scalar (alpha, beta, clips). */
static cudnnStatus_t set_real(const set_args *a, int name, double *dst)
{
    if (a->type != CUDNN_TYPE_FLOAT && a->type != CUDNN_TYPE_DOUBLE)
        return bad(CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE, FN_SET, "wants FLOAT or DOUBLE", name);
    cudnnStatus_t st = want(a, a->type, 1, 1, name);
    if (st == CUDNN_STATUS_SUCCESS)
        *dst = a->type == CUDNN_TYPE_FLOAT ? *(const float *)a->v : *(const double *)a->v;
    return st;
}

/* One backend descriptor of type `type`, finalized. */
static cudnnStatus_t set_desc(const set_args *a, int name, int type, const cudnn_bdesc **out)
{
    cudnnStatus_t st = want(a, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, 1, name);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    const cudnn_bdesc *d = desc_of(*(cudnnBackendDescriptor_t const *)a->v);
    if (!d || (type >= 0 && d->type != type))
        return bad(CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE, FN_SET, "descriptor of the wrong type", name);
    if (!d->finalized)
        return bad(CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED, FN_SET, "descriptor not finalized", name);
    *out = d;
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t set_handle(const set_args *a, int name, cudnnHandle_t *dst)
{
    cudnnStatus_t st = want(a, CUDNN_TYPE_HANDLE, 1, 1, name);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    cudnnHandle_t h = *(cudnnHandle_t const *)a->v;
    if (cudnn_handle_check(h) != CUDNN_STATUS_SUCCESS)
        return bad(CUDNN_STATUS_BAD_PARAM, FN_SET, "not a cuDNN handle", name);
    *dst = h;
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t no_attr(int name)
{
    return bad(CUDNN_STATUS_BAD_PARAM, FN_SET, "not an attribute of this descriptor type", name);
}

static cudnnStatus_t set_tensor(cudnn_bdesc *d, int name, const set_args *a)
{
    bk_tensor *t = &d->tensor;
    cudnnStatus_t st;
    int v;
    switch (name) {
    case CUDNN_ATTR_TENSOR_DATA_TYPE:
        if ((st = set_enum(a, CUDNN_TYPE_DATA_TYPE, name, &v)) == CUDNN_STATUS_SUCCESS)
            t->t.dtype = (cudnnDataType_t)v, t->set |= BK_TS_TYPE;
        return st;
    case CUDNN_ATTR_TENSOR_DIMENSIONS:
        if ((st = set_i64s(a, name, t->t.dim, CUDNN_DIM_MAX, &(int64_t){0})) == CUDNN_STATUS_SUCCESS)
            t->t.nd = (int)a->count, t->set |= BK_TS_DIMS;
        return st;
    case CUDNN_ATTR_TENSOR_STRIDES: {
        int64_t n = 0;
        if ((st = set_i64s(a, name, t->t.stride, CUDNN_DIM_MAX, &n)) == CUDNN_STATUS_SUCCESS)
            t->set |= BK_TS_STRIDES, t->t.format = (cudnnTensorFormat_t)(int)n;   /* stride count, checked at Finalize */
        return st;
    }
    case CUDNN_ATTR_TENSOR_UNIQUE_ID:
        if ((st = set_i64(a, name, &t->uid)) == CUDNN_STATUS_SUCCESS)
            t->set |= BK_TS_UID;
        return st;
    case CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT:
        if ((st = set_i64(a, name, &t->align)) == CUDNN_STATUS_SUCCESS)
            t->set |= BK_TS_ALIGN;
        return st;
    case CUDNN_ATTR_TENSOR_IS_VIRTUAL: return set_bool(a, name, &t->is_virtual);
    case CUDNN_ATTR_TENSOR_IS_BY_VALUE: return set_bool(a, name, &t->by_value);
    case CUDNN_ATTR_TENSOR_VECTOR_COUNT: return set_i64(a, name, &t->vector_count);
    case CUDNN_ATTR_TENSOR_VECTORIZED_DIMENSION: return set_i64(a, name, &t->vector_dim);
    case CUDNN_ATTR_TENSOR_REORDERING_MODE: return set_enum(a, CUDNN_TYPE_TENSOR_REORDERING_MODE, name, &t->reorder);
    default: return no_attr(name);
    }
}

static cudnnStatus_t set_conv(cudnn_bdesc *d, int name, const set_args *a)
{
    bk_conv *c = &d->conv;
    switch (name) {
    case CUDNN_ATTR_CONVOLUTION_COMP_TYPE: return set_enum(a, CUDNN_TYPE_DATA_TYPE, name, &c->comp);
    case CUDNN_ATTR_CONVOLUTION_CONV_MODE: return set_enum(a, CUDNN_TYPE_CONVOLUTION_MODE, name, &c->mode);
    case CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS: return set_i64(a, name, &c->nsp);
    case CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS: return set_i64s(a, name, c->pre, CB_DNN_MAX_SPATIAL, &c->npre);
    case CUDNN_ATTR_CONVOLUTION_POST_PADDINGS: return set_i64s(a, name, c->post, CB_DNN_MAX_SPATIAL, &c->npost);
    case CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES:
        return set_i64s(a, name, c->stride, CB_DNN_MAX_SPATIAL, &c->nstride);
    case CUDNN_ATTR_CONVOLUTION_DILATIONS:
        return set_i64s(a, name, c->dilation, CB_DNN_MAX_SPATIAL, &c->ndilation);
    default: return no_attr(name);
    }
}

static cudnnStatus_t set_pointwise(cudnn_bdesc *d, int name, const set_args *a)
{
    bk_pointwise *p = &d->pw;
    int nan;
    switch (name) {
    case CUDNN_ATTR_POINTWISE_MODE: return set_enum(a, CUDNN_TYPE_POINTWISE_MODE, name, &p->mode);
    case CUDNN_ATTR_POINTWISE_MATH_PREC: return set_enum(a, CUDNN_TYPE_DATA_TYPE, name, &p->prec);
    case CUDNN_ATTR_POINTWISE_NAN_PROPAGATION: return set_enum(a, CUDNN_TYPE_NAN_PROPOGATION, name, &nan);
    case CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP: return set_real(a, name, &p->relu_lower);
    case CUDNN_ATTR_POINTWISE_RELU_UPPER_CLIP: return set_real(a, name, &p->relu_upper);
    case CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP_SLOPE: return set_real(a, name, &p->relu_slope);
    case CUDNN_ATTR_POINTWISE_ELU_ALPHA: return set_real(a, name, &p->elu_alpha);
    case CUDNN_ATTR_POINTWISE_SOFTPLUS_BETA: return set_real(a, name, &p->softplus_beta);
    case CUDNN_ATTR_POINTWISE_SWISH_BETA: return set_real(a, name, &p->swish_beta);
    case CUDNN_ATTR_POINTWISE_AXIS: return set_i64(a, name, &p->axis);
    default: return no_attr(name);
    }
}

/* The operations' tensor attributes: attribute name -> (operation, slot). */
static const struct {
    int name, kind, slot;
} op_tensor_attrs[] = {
    {CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, BK_X},
    {CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, BK_W},
    {CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, BK_Y},
    {CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W, CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR, BK_W},
    {CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX, CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR,
     BK_DX},
    {CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY, CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR,
     BK_DY},
    {CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X, CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR,
     BK_X},
    {CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW, CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR,
     BK_DW},
    {CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY, CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR,
     BK_DY},
    {CUDNN_ATTR_OPERATION_POINTWISE_XDESC, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, BK_X},
    {CUDNN_ATTR_OPERATION_POINTWISE_BDESC, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, BK_W},
    {CUDNN_ATTR_OPERATION_POINTWISE_YDESC, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, BK_Y},
    {CUDNN_ATTR_OPERATION_POINTWISE_TDESC, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, BK_T},
    {CUDNN_ATTR_OPERATION_POINTWISE_DXDESC, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, BK_DX},
    {CUDNN_ATTR_OPERATION_POINTWISE_DYDESC, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, BK_DY},
    {CUDNN_ATTR_OPERATION_MATMUL_ADESC, CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR, BK_X},
    {CUDNN_ATTR_OPERATION_MATMUL_BDESC, CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR, BK_W},
    {CUDNN_ATTR_OPERATION_MATMUL_CDESC, CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR, BK_Y},
    {CUDNN_ATTR_OPERATION_REDUCTION_XDESC, CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR, BK_X},
    {CUDNN_ATTR_OPERATION_REDUCTION_YDESC, CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR, BK_Y},
};

static cudnnStatus_t set_operation(cudnn_bdesc *d, int name, const set_args *a)
{
    bk_operation *op = &d->op;
    const cudnn_bdesc *s;
    cudnnStatus_t st;
    for (size_t i = 0; i < sizeof op_tensor_attrs / sizeof op_tensor_attrs[0]; i++) {
        if (op_tensor_attrs[i].name != name || op_tensor_attrs[i].kind != d->type)
            continue;
        if ((st = set_desc(a, name, CUDNN_BACKEND_TENSOR_DESCRIPTOR, &s)) == CUDNN_STATUS_SUCCESS) {
            op->t[op_tensor_attrs[i].slot] = s->tensor;
            op->have |= 1u << op_tensor_attrs[i].slot;
        }
        return st;
    }
    switch (d->type) {
    case CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR: {
        int base = d->type == CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR       ? 700
                   : d->type == CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR ? 706
                                                                                            : 712;
        if (name == base)
            return set_real(a, name, &op->alpha);
        if (name == base + 1)
            return set_real(a, name, &op->beta);
        if (name == base + 2) {
            if ((st = set_desc(a, name, CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR, &s)) == CUDNN_STATUS_SUCCESS)
                op->conv = s->conv, op->have_desc = 1;
            return st;
        }
        return no_attr(name);
    }
    case CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR:
        if (name == CUDNN_ATTR_OPERATION_POINTWISE_ALPHA1)
            return set_real(a, name, &op->alpha);
        if (name == CUDNN_ATTR_OPERATION_POINTWISE_ALPHA2)
            return set_real(a, name, &op->beta);
        if (name == CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR) {
            if ((st = set_desc(a, name, CUDNN_BACKEND_POINTWISE_DESCRIPTOR, &s)) == CUDNN_STATUS_SUCCESS)
                op->pw = s->pw, op->have_desc = 1;
            return st;
        }
        return no_attr(name);
    case CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR:
        if (name == CUDNN_ATTR_OPERATION_MATMUL_DESC) {
            if ((st = set_desc(a, name, CUDNN_BACKEND_MATMUL_DESCRIPTOR, &s)) == CUDNN_STATUS_SUCCESS)
                op->mm_comp = s->mm_comp, op->have_desc = 1;
            return st;
        }
        return no_attr(name);
    default:
        if (name == CUDNN_ATTR_OPERATION_REDUCTION_DESC) {
            if ((st = set_desc(a, name, CUDNN_BACKEND_REDUCTION_DESCRIPTOR, &s)) == CUDNN_STATUS_SUCCESS)
                op->red = s->red, op->have_desc = 1;
            return st;
        }
        return no_attr(name);
    }
}

static cudnnStatus_t set_graph(cudnn_bdesc *d, int name, const set_args *a)
{
    if (name == CUDNN_ATTR_OPERATIONGRAPH_HANDLE)
        return set_handle(a, name, &d->handle);
    if (name == CUDNN_ATTR_OPERATIONGRAPH_IS_DYNAMIC_SHAPE_ENABLED)
        return set_bool(a, name, &d->dynamic_shape);   /* true: refused at Finalize */
    if (name != CUDNN_ATTR_OPERATIONGRAPH_OPS)
        return no_attr(name);
    cudnnStatus_t st = want(a, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, 4096, name);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    const cudnnBackendDescriptor_t *v = a->v;
    for (int64_t i = 0; i < a->count; i++) {
        const cudnn_bdesc *s = desc_of(v[i]);
        if (!s || !is_operation(s->type))
            return bad(CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE, FN_SET, "not an operation descriptor", name);
        if (!s->finalized)
            return bad(CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED, FN_SET, "operation not finalized", name);
    }
    bk_operation *ops = malloc((size_t)a->count * sizeof *ops);
    if (!ops)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    for (int64_t i = 0; i < a->count; i++)
        ops[i] = desc_of(v[i])->op;
    free(d->ops);
    d->ops = ops;
    d->nops = (int)a->count;
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t set_vpack(cudnn_bdesc *d, int name, const set_args *a)
{
    cudnnStatus_t st;
    if (name == CUDNN_ATTR_VARIANT_PACK_WORKSPACE) {
        if ((st = want(a, CUDNN_TYPE_VOID_PTR, 1, 1, name)) == CUDNN_STATUS_SUCCESS)
            d->workspace = *(void *const *)a->v, d->have_workspace = 1;
        return st;
    }
    if (name != CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS && name != CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS)
        return no_attr(name);
    int ids = name == CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS;
    if ((st = want(a, ids ? CUDNN_TYPE_INT64 : CUDNN_TYPE_VOID_PTR, 0, 1 << 20, name)) != CUDNN_STATUS_SUCCESS)
        return st;
    size_t bytes = (size_t)(a->count ? a->count : 1) * 8;
    void *copy = malloc(bytes);
    if (!copy)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    if (a->count)
        memcpy(copy, a->v, (size_t)a->count * 8);
    if (ids) {
        free(d->uids);
        d->uids = copy, d->nuids = a->count;
    } else {
        free(d->ptrs);
        d->ptrs = copy, d->nptrs = a->count;
    }
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t set_on(cudnn_bdesc *d, int name, const set_args *a)
{
    const cudnn_bdesc *s;
    cudnnStatus_t st;
    if (opaque_type(d->type))
        return CUDNN_STATUS_SUCCESS;   /* kept nowhere: the graph holding it is refused at its Finalize */
    switch (d->type) {
    case CUDNN_BACKEND_TENSOR_DESCRIPTOR: return set_tensor(d, name, a);
    case CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR: return set_conv(d, name, a);
    case CUDNN_BACKEND_POINTWISE_DESCRIPTOR: return set_pointwise(d, name, a);
    case CUDNN_BACKEND_MATMUL_DESCRIPTOR:
        if (name == CUDNN_ATTR_MATMUL_COMP_TYPE)
            return set_enum(a, CUDNN_TYPE_DATA_TYPE, name, &d->mm_comp);
        return no_attr(name);
    case CUDNN_BACKEND_REDUCTION_DESCRIPTOR:
        if (name == CUDNN_ATTR_REDUCTION_OPERATOR)
            return set_enum(a, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, name, &d->red.op);
        if (name == CUDNN_ATTR_REDUCTION_COMP_TYPE)
            return set_enum(a, CUDNN_TYPE_DATA_TYPE, name, &d->red.comp);
        return no_attr(name);
    case CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR: return set_graph(d, name, a);
    case CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR:
        if (name == CUDNN_ATTR_ENGINEHEUR_MODE)
            return set_enum(a, CUDNN_TYPE_HEUR_MODE, name, &d->heur_mode);
        if (name == CUDNN_ATTR_ENGINEHEUR_SM_COUNT_TARGET)
            return want(a, CUDNN_TYPE_INT32, 1, 1, name);   /* a hint: no effect on the CPU */
        if (name != CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH)
            return no_attr(name);
        goto graph_ref;
    case CUDNN_BACKEND_ENGINE_DESCRIPTOR:
        if (name == CUDNN_ATTR_ENGINE_GLOBAL_INDEX)
            return set_i64(a, name, &d->engine_index);
        if (name == CUDNN_ATTR_ENGINE_SM_COUNT_TARGET)
            return want(a, CUDNN_TYPE_INT32, 1, 1, name);
        if (name != CUDNN_ATTR_ENGINE_OPERATION_GRAPH)
            return no_attr(name);
    graph_ref:
        if ((st = set_desc(a, name, CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &s)) == CUDNN_STATUS_SUCCESS) {
            bk_graph_retain(s->graph);
            if (d->graph)
                bk_graph_release(d->graph);
            d->graph = s->graph;
        }
        return st;
    case CUDNN_BACKEND_ENGINECFG_DESCRIPTOR:
        if (name == CUDNN_ATTR_ENGINECFG_KNOB_CHOICES) {
            if ((st = want(a, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, 64, name)) == CUDNN_STATUS_SUCCESS)
                d->nknobs = (int)a->count;
            return st;
        }
        if (name != CUDNN_ATTR_ENGINECFG_ENGINE)
            return no_attr(name);
        if ((st = set_desc(a, name, CUDNN_BACKEND_ENGINE_DESCRIPTOR, &s)) == CUDNN_STATUS_SUCCESS) {
            bk_graph_retain(s->graph);
            if (d->graph)
                bk_graph_release(d->graph);
            d->graph = s->graph, d->engine_index = s->engine_index, d->have_engine = 1;
        }
        return st;
    case CUDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR:
        if (name == CUDNN_ATTR_KNOB_CHOICE_KNOB_VALUE)
            return set_i64(a, name, &d->knob_value);
        if (name == CUDNN_ATTR_KNOB_CHOICE_KNOB_TYPE) {
            int v;
            if ((st = set_enum(a, CUDNN_TYPE_KNOB_TYPE, name, &v)) == CUDNN_STATUS_SUCCESS)
                d->knob_type = v, d->have_knob_type = 1;
            return st;
        }
        return no_attr(name);
    case CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR:
        if (name == CUDNN_ATTR_EXECUTION_PLAN_HANDLE)
            return set_handle(a, name, &d->handle);
        if (name != CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG)
            return no_attr(name);
        if ((st = set_desc(a, name, CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, &s)) == CUDNN_STATUS_SUCCESS) {
            bk_graph_retain(s->graph);
            if (d->graph)
                bk_graph_release(d->graph);
            d->graph = s->graph, d->engine_index = s->engine_index, d->have_engine = 1;
        }
        return st;
    case CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR: return set_vpack(d, name, a);
    default: return set_operation(d, name, a);
    }
}

cudnnStatus_t cudnnBackendSetAttribute(cudnnBackendDescriptor_t descriptor, cudnnBackendAttributeName_t attributeName,
                                       cudnnBackendAttributeType_t attributeType, int64_t elementCount,
                                       const void *arrayOfElements)
{
    cudnn_bdesc *d = desc_of(descriptor);
    if (!d)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_SET, "not a backend descriptor");
    if (d->finalized)
        return bad(CUDNN_STATUS_BAD_PARAM, FN_SET, "descriptor already finalized", (int)attributeName);
    if (!arrayOfElements)
        return bad(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, FN_SET, "NULL array of elements", (int)attributeName);
    if (elementCount < 0)
        return bad(CUDNN_STATUS_BAD_PARAM, FN_SET, "negative element count", (int)attributeName);
    set_args a = {(int)attributeType, elementCount, arrayOfElements};
    return set_on(d, (int)attributeName, &a);
}

/* ---- getting --------------------------------------------------------------------- */

typedef struct get_args {
    int type;
    int64_t requested;
    int64_t *count;
    void *out;
} get_args;

static cudnnStatus_t get_check(const get_args *a, int type, int name)
{
    if (a->type != type)
        return bad(CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE, FN_GET, "wrong attribute type", name);
    if (a->requested < 0)
        return bad(CUDNN_STATUS_BAD_PARAM, FN_GET, "negative requested count", name);
    if (a->requested > 0 && !a->out)
        return bad(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, FN_GET, "NULL array of elements", name);
    return CUDNN_STATUS_SUCCESS;
}

/* Copies n elements of size es (at most the requested count). */
static cudnnStatus_t get_elems(const get_args *a, int type, int name, const void *src, int64_t n, size_t es)
{
    cudnnStatus_t st = get_check(a, type, name);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    if (a->count)
        *a->count = n;
    int64_t k = n < a->requested ? n : a->requested;
    if (k > 0)
        memcpy(a->out, src, (size_t)k * es);
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t get_i64(const get_args *a, int name, int64_t v)
{
    return get_elems(a, CUDNN_TYPE_INT64, name, &v, 1, sizeof v);
}

static cudnnStatus_t get_enum(const get_args *a, int type, int name, int v)
{
    return get_elems(a, type, name, &v, 1, sizeof v);
}

static cudnnStatus_t get_bool(const get_args *a, int name, int v)
{
    bool b = v != 0;
    return get_elems(a, CUDNN_TYPE_BOOLEAN, name, &b, 1, sizeof b);
}

static cudnnStatus_t get_real(const get_args *a, int name, double v)
{
    if (a->type == CUDNN_TYPE_FLOAT) {
        float f = (float)v;
        return get_elems(a, CUDNN_TYPE_FLOAT, name, &f, 1, sizeof f);
    }
    return get_elems(a, CUDNN_TYPE_DOUBLE, name, &v, 1, sizeof v);
}

static cudnnStatus_t no_get(int name)
{
    return bad(CUDNN_STATUS_BAD_PARAM, FN_GET, "not an attribute of this descriptor type (or not readable)", name);
}

/* Fills the caller's descriptor (the first requested element) of type
 * `type` from fill, or only counts when none is requested. */
static cudnnStatus_t get_desc(const get_args *a, int name, int type, const cudnn_bdesc *from, int64_t n)
{
    cudnnStatus_t st = get_check(a, CUDNN_TYPE_BACKEND_DESCRIPTOR, name);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    int64_t k = n < a->requested ? n : a->requested;
    cudnnBackendDescriptor_t *out = a->out;
    for (int64_t i = 0; i < k; i++) {
        cudnn_bdesc *t = desc_of(out[i]);
        if (!t || t->type != type)
            return bad(CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE, FN_GET, "output descriptor of the wrong type", name);
    }
    for (int64_t i = 0; i < k; i++) {
        cudnn_bdesc *t = desc_of(out[i]);
        desc_clear(t);
        if (from->graph)
            bk_graph_retain(from->graph);
        t->graph = from->graph;
        t->engine_index = from->engine_index < 0 ? 0 : from->engine_index;
        t->have_engine = 1;
        t->finalized = 1;
    }
    if (a->count)
        *a->count = n;
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t get_tensor(const cudnn_bdesc *d, int name, const get_args *a)
{
    const bk_tensor *t = &d->tensor;
    switch (name) {
    case CUDNN_ATTR_TENSOR_DATA_TYPE: return get_enum(a, CUDNN_TYPE_DATA_TYPE, name, (int)t->t.dtype);
    case CUDNN_ATTR_TENSOR_DIMENSIONS:
        return get_elems(a, CUDNN_TYPE_INT64, name, t->t.dim, t->t.nd, sizeof(int64_t));
    case CUDNN_ATTR_TENSOR_STRIDES:
        return get_elems(a, CUDNN_TYPE_INT64, name, t->t.stride, t->t.nd, sizeof(int64_t));
    case CUDNN_ATTR_TENSOR_UNIQUE_ID: return get_i64(a, name, t->uid);
    case CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT: return get_i64(a, name, t->align);
    case CUDNN_ATTR_TENSOR_IS_VIRTUAL: return get_bool(a, name, t->is_virtual);
    case CUDNN_ATTR_TENSOR_IS_BY_VALUE: return get_bool(a, name, t->by_value);
    case CUDNN_ATTR_TENSOR_VECTOR_COUNT: return get_i64(a, name, t->vector_count);
    case CUDNN_ATTR_TENSOR_VECTORIZED_DIMENSION: return get_i64(a, name, t->vector_dim);
    case CUDNN_ATTR_TENSOR_REORDERING_MODE: return get_enum(a, CUDNN_TYPE_TENSOR_REORDERING_MODE, name, t->reorder);
    default: return no_get(name);
    }
}

static cudnnStatus_t get_on(const cudnn_bdesc *d, int name, const get_args *a)
{
    const bk_conv *c = &d->conv;
    const bk_pointwise *p = &d->pw;
    if (opaque_type(d->type)) {
        char why[96];
        snprintf(why, sizeof why, "attributes of backend descriptor type %d", d->type);
        return cudnn_unsupported(FN_GET, why);
    }
    switch (d->type) {
    case CUDNN_BACKEND_TENSOR_DESCRIPTOR: return get_tensor(d, name, a);
    case CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR:
        switch (name) {
        case CUDNN_ATTR_CONVOLUTION_COMP_TYPE: return get_enum(a, CUDNN_TYPE_DATA_TYPE, name, c->comp);
        case CUDNN_ATTR_CONVOLUTION_CONV_MODE: return get_enum(a, CUDNN_TYPE_CONVOLUTION_MODE, name, c->mode);
        case CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS: return get_i64(a, name, c->nsp);
        case CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS: return get_elems(a, CUDNN_TYPE_INT64, name, c->pre, c->nsp, 8);
        case CUDNN_ATTR_CONVOLUTION_POST_PADDINGS: return get_elems(a, CUDNN_TYPE_INT64, name, c->post, c->nsp, 8);
        case CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES:
            return get_elems(a, CUDNN_TYPE_INT64, name, c->stride, c->nsp, 8);
        case CUDNN_ATTR_CONVOLUTION_DILATIONS: return get_elems(a, CUDNN_TYPE_INT64, name, c->dilation, c->nsp, 8);
        default: return no_get(name);
        }
    case CUDNN_BACKEND_POINTWISE_DESCRIPTOR:
        switch (name) {
        case CUDNN_ATTR_POINTWISE_MODE: return get_enum(a, CUDNN_TYPE_POINTWISE_MODE, name, p->mode);
        case CUDNN_ATTR_POINTWISE_MATH_PREC: return get_enum(a, CUDNN_TYPE_DATA_TYPE, name, p->prec);
        case CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP: return get_real(a, name, p->relu_lower);
        case CUDNN_ATTR_POINTWISE_RELU_UPPER_CLIP: return get_real(a, name, p->relu_upper);
        case CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP_SLOPE: return get_real(a, name, p->relu_slope);
        case CUDNN_ATTR_POINTWISE_ELU_ALPHA: return get_real(a, name, p->elu_alpha);
        case CUDNN_ATTR_POINTWISE_SOFTPLUS_BETA: return get_real(a, name, p->softplus_beta);
        case CUDNN_ATTR_POINTWISE_SWISH_BETA: return get_real(a, name, p->swish_beta);
        case CUDNN_ATTR_POINTWISE_AXIS: return get_i64(a, name, p->axis);
        default: return no_get(name);
        }
    case CUDNN_BACKEND_MATMUL_DESCRIPTOR:
        if (name == CUDNN_ATTR_MATMUL_COMP_TYPE)
            return get_enum(a, CUDNN_TYPE_DATA_TYPE, name, d->mm_comp);
        return no_get(name);
    case CUDNN_BACKEND_REDUCTION_DESCRIPTOR:
        if (name == CUDNN_ATTR_REDUCTION_OPERATOR)
            return get_enum(a, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, name, d->red.op);
        if (name == CUDNN_ATTR_REDUCTION_COMP_TYPE)
            return get_enum(a, CUDNN_TYPE_DATA_TYPE, name, d->red.comp);
        return no_get(name);
    case CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR:
        if (name == CUDNN_ATTR_OPERATIONGRAPH_ENGINE_GLOBAL_COUNT)
            return get_i64(a, name, 1);
        if (name == CUDNN_ATTR_OPERATIONGRAPH_HANDLE)
            return get_elems(a, CUDNN_TYPE_HANDLE, name, &d->handle, 1, sizeof d->handle);
        if (name == CUDNN_ATTR_OPERATIONGRAPH_IS_DYNAMIC_SHAPE_ENABLED)
            return get_bool(a, name, d->dynamic_shape);
        return no_get(name);
    case CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR:
        if (name == CUDNN_ATTR_ENGINEHEUR_MODE)
            return get_enum(a, CUDNN_TYPE_HEUR_MODE, name, d->heur_mode);
        if (name == CUDNN_ATTR_ENGINEHEUR_RESULTS)
            return get_desc(a, name, CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, d, 1);
        return no_get(name);
    case CUDNN_BACKEND_ENGINE_DESCRIPTOR:
        switch (name) {
        case CUDNN_ATTR_ENGINE_GLOBAL_INDEX: return get_i64(a, name, d->engine_index);
        case CUDNN_ATTR_ENGINE_KNOB_INFO: return get_desc(a, name, CUDNN_BACKEND_KNOB_INFO_DESCRIPTOR, d, 0);
        case CUDNN_ATTR_ENGINE_LAYOUT_INFO: return get_desc(a, name, CUDNN_BACKEND_LAYOUT_INFO_DESCRIPTOR, d, 0);
        case CUDNN_ATTR_ENGINE_NUMERICAL_NOTE: return get_elems(a, CUDNN_TYPE_NUMERICAL_NOTE, name, NULL, 0, 4);
        case CUDNN_ATTR_ENGINE_BEHAVIOR_NOTE: return get_elems(a, CUDNN_TYPE_BEHAVIOR_NOTE, name, NULL, 0, 4);
        default: return no_get(name);
        }
    case CUDNN_BACKEND_ENGINECFG_DESCRIPTOR:
        switch (name) {
        case CUDNN_ATTR_ENGINECFG_ENGINE: return get_desc(a, name, CUDNN_BACKEND_ENGINE_DESCRIPTOR, d, 1);
        case CUDNN_ATTR_ENGINECFG_KNOB_CHOICES:
            return get_desc(a, name, CUDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, d, 0);
        case CUDNN_ATTR_ENGINECFG_WORKSPACE_SIZE: return get_i64(a, name, (int64_t)d->graph->workspace);
        case CUDNN_ATTR_ENGINECFG_SHARED_MEMORY_USED: return get_i64(a, name, 0);
        default: return no_get(name);
        }
    case CUDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR:
        if (name == CUDNN_ATTR_KNOB_CHOICE_KNOB_VALUE)
            return get_i64(a, name, d->knob_value);
        if (name == CUDNN_ATTR_KNOB_CHOICE_KNOB_TYPE)
            return get_enum(a, CUDNN_TYPE_KNOB_TYPE, name, (int)d->knob_type);
        return no_get(name);
    case CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR:
        if (name == CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE)
            return get_i64(a, name, (int64_t)d->graph->workspace);
        if (name == CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG)
            return get_desc(a, name, CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, d, 1);
        if (name == CUDNN_ATTR_EXECUTION_PLAN_HANDLE)
            return get_elems(a, CUDNN_TYPE_HANDLE, name, &d->handle, 1, sizeof d->handle);
        if (name == CUDNN_ATTR_EXECUTION_PLAN_JSON_REPRESENTATION)
            return cudnn_unsupported(FN_GET, "execution plans' JSON representation");
        return no_get(name);
    case CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR:
        if (name == CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS)
            return get_elems(a, CUDNN_TYPE_INT64, name, d->uids, d->nuids, 8);
        if (name == CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS)
            return get_elems(a, CUDNN_TYPE_VOID_PTR, name, d->ptrs, d->nptrs, 8);
        if (name == CUDNN_ATTR_VARIANT_PACK_WORKSPACE)
            return get_elems(a, CUDNN_TYPE_VOID_PTR, name, &d->workspace, 1, sizeof d->workspace);
        return no_get(name);
    default:
        if (d->type == CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR && name == CUDNN_ATTR_OPERATION_POINTWISE_ALPHA1)
            return get_real(a, name, d->op.alpha);
        if (d->type == CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR && name == CUDNN_ATTR_OPERATION_POINTWISE_ALPHA2)
            return get_real(a, name, d->op.beta);
        return no_get(name);
    }
}

cudnnStatus_t cudnnBackendGetAttribute(cudnnBackendDescriptor_t const descriptor,
                                       cudnnBackendAttributeName_t attributeName,
                                       cudnnBackendAttributeType_t attributeType, int64_t requestedElementCount,
                                       int64_t *elementCount, void *arrayOfElements)
{
    const cudnn_bdesc *d = desc_of(descriptor);
    if (!d)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_GET, "not a backend descriptor");
    if (!elementCount && !arrayOfElements)
        return bad(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, FN_GET, "NULL count and array", (int)attributeName);
    if (!d->finalized && d->type != CUDNN_BACKEND_TENSOR_DESCRIPTOR)
        return bad(CUDNN_STATUS_NOT_INITIALIZED, FN_GET, "descriptor not finalized", (int)attributeName);
    get_args a = {(int)attributeType, requestedElementCount, elementCount, arrayOfElements};
    return get_on(d, (int)attributeName, &a);
}

/* ---- finalizing the leaf descriptors ---------------------------------------------------- */

static cudnnStatus_t finalize_tensor(cudnn_bdesc *d)
{
    bk_tensor *t = &d->tensor;
    unsigned need = BK_TS_TYPE | BK_TS_DIMS | BK_TS_STRIDES | BK_TS_UID;
    if ((t->set & need) != need)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "tensor without data type, dims, strides or unique id");
    if ((int)t->t.format != t->t.nd)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "tensor with %d dims and %d strides", t->t.nd,
                          (int)t->t.format);
    if (!(t->set & BK_TS_ALIGN))
        t->align = 16;   /* cuDNN 9 wants it; cudnn-frontend always sets it: we take the common value */
    if (t->align <= 0 || (t->align & (t->align - 1)))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "byte alignment %lld", (long long)t->align);
    for (int i = 0; i < t->t.nd; i++)
        if (t->t.dim[i] <= 0 || t->t.stride[i] < 0 || t->t.dim[i] > INT32_MAX || t->t.stride[i] > ((int64_t)1 << 40))
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "dim %d: %lld, stride %lld", i, (long long)t->t.dim[i],
                              (long long)t->t.stride[i]);
    size_t n = 1;
    for (int i = 0; i < t->t.nd; i++) {
        if (n > ((size_t)1 << 40) / (size_t)t->t.dim[i])
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "tensor of more than 2^40 elements");
        n *= (size_t)t->t.dim[i];
    }
    if (t->vector_count != 1)
        return cudnn_unsupported(FN_FIN, "vectorized tensors (VECTOR_COUNT other than 1)");
    t->t.format = CUDNN_TENSOR_NCHW;
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t finalize_conv(cudnn_bdesc *d)
{
    bk_conv *c = &d->conv;
    if (c->mode < 0 || c->comp < 0 || c->nsp < 1 || c->nsp > CB_DNN_MAX_SPATIAL || c->npre != c->nsp ||
        c->npost != c->nsp || c->nstride != c->nsp || c->ndilation != c->nsp)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN,
                          "convolution needs a mode, a compute type and spatial dims, paddings, strides and dilations "
                          "of one count");
    if (c->mode != CUDNN_CONVOLUTION && c->mode != CUDNN_CROSS_CORRELATION)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "convolution mode %d", c->mode);
    for (int i = 0; i < c->nsp; i++)
        if (c->pre[i] < 0 || c->post[i] < 0 || c->stride[i] < 1 || c->dilation[i] < 1 || c->pre[i] > INT32_MAX ||
            c->post[i] > INT32_MAX || c->stride[i] > INT32_MAX || c->dilation[i] > INT32_MAX)
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "convolution padding, stride or dilation out of range");
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t finalize_operation(cudnn_bdesc *d)
{
    bk_operation *op = &d->op;
    unsigned need;
    switch (d->type) {
    case CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR: need = 1u << BK_X | 1u << BK_W | 1u << BK_Y; break;
    case CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR:
        need = 1u << BK_W | 1u << BK_DX | 1u << BK_DY;
        break;
    case CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR:
        need = 1u << BK_X | 1u << BK_DW | 1u << BK_DY;
        break;
    case CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR:
        need = 0;
        if (op->have_desc && bk_pointwise_backward(op->pw.mode)) {
            need = 1u << BK_X | 1u << BK_DX | 1u << BK_DY;
        } else if (op->have_desc) {
            need = 1u << BK_X | 1u << BK_Y;
            if (bk_pointwise_arity(op->pw.mode) >= 1)
                need |= 1u << BK_W;
            if (bk_pointwise_arity(op->pw.mode) == 2)
                need |= 1u << BK_T;
        }
        break;
    case CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR: need = 1u << BK_X | 1u << BK_W | 1u << BK_Y; break;
    default: need = 1u << BK_X | 1u << BK_Y; break;
    }
    if (!op->have_desc || (op->have & need) != need)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "operation (type %d) lacks its descriptor or a tensor",
                          d->type);
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t finalize_on(cudnn_bdesc *d)
{
    if (opaque_type(d->type))
        return CUDNN_STATUS_SUCCESS;   /* refused where it would be used: the graph's Finalize */
    switch (d->type) {
    case CUDNN_BACKEND_TENSOR_DESCRIPTOR: return finalize_tensor(d);
    case CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR: return finalize_conv(d);
    case CUDNN_BACKEND_POINTWISE_DESCRIPTOR:
        if (d->pw.mode < 0)
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "pointwise descriptor without a mode");
        if (bk_pointwise_arity(d->pw.mode) < 0) {
            char why[80];
            snprintf(why, sizeof why, "pointwise mode %d", d->pw.mode);
            return cudnn_unsupported(FN_FIN, why);
        }
        return CUDNN_STATUS_SUCCESS;
    case CUDNN_BACKEND_MATMUL_DESCRIPTOR:
        if (d->mm_comp < 0)
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "matmul descriptor without a compute type");
        return CUDNN_STATUS_SUCCESS;
    case CUDNN_BACKEND_REDUCTION_DESCRIPTOR:
        if (d->red.op < 0)
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "reduction descriptor without an operator");
        if (d->red.op > CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS)
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "reduction operator %d", d->red.op);
        return CUDNN_STATUS_SUCCESS;
    case CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR: return bk_graph_finalize(d);
    case CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR: return bk_heur_finalize(d);
    case CUDNN_BACKEND_ENGINE_DESCRIPTOR: return bk_engine_finalize(d);
    case CUDNN_BACKEND_ENGINECFG_DESCRIPTOR: return bk_cfg_finalize(d);
    case CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: return bk_plan_finalize(d);
    case CUDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR:
        if (!d->have_knob_type)
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "knob choice without a knob type");
        return CUDNN_STATUS_SUCCESS;
    case CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR:
        if (d->nuids != d->nptrs)
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "variant pack with %lld ids and %lld pointers",
                              (long long)d->nuids, (long long)d->nptrs);
        return CUDNN_STATUS_SUCCESS;
    default: return finalize_operation(d);
    }
}

cudnnStatus_t cudnnBackendFinalize(cudnnBackendDescriptor_t descriptor)
{
    cudnn_bdesc *d = desc_of(descriptor);
    if (!d)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "not a backend descriptor");
    if (d->finalized)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "descriptor already finalized");
    cudnnStatus_t st = finalize_on(d);
    if (st == CUDNN_STATUS_SUCCESS)
        d->finalized = 1;
    return st;
}
