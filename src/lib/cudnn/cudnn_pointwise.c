/* cudnn_pointwise.c: the element-wise calls -- cudnnActivationForward and
 * Backward, AddTensor, OpTensor (and its descriptor), SetTensor,
 * ScaleTensor, TransformTensor.
 *
 * One routine serves them all: up to three inputs (t[0..2], each
 * broadcast to the output where its dims are 1) and the output t[3];
 * ew_value gives one output element from the inputs' elements, in double,
 * and the result is blended out = alpha * value + beta * out, rounded once
 * (cuDNN computes these in float for every type but double: results agree
 * to the output type's rounding). The reference walks the tensors' memory
 * through their strides (cudnn_ref_load) and applies the same formula: what
 * it checks is layout, broadcasting and blending; the formulas themselves
 * are cuDNN's definitions (docs/cudnn.md).
 */
#include "cudnn_internal.h"

#include <math.h>
#include <stdlib.h>

enum { EW_ACT_FWD, EW_ACT_BWD, EW_ADD, EW_OP, EW_SET, EW_SCALE, EW_TRANSFORM };
enum { T_OUT = 3 };

/* mode[0] kind, mode[1] activation mode or op, mode[2] NaN propagation,
 * mode[3] number of inputs; param[0] coef, param[1] swish beta, param[2]
 * SetTensor's value; alpha, alpha2 (OpTensor's second), beta. */

static double sigmoid(double x) { return 1 / (1 + exp(-x)); }

static double act_fwd(const cudnn_op *o, double x)
{
    double coef = o->param[0];
    if (x != x)
        return o->mode[2] == CUDNN_PROPAGATE_NAN || o->mode[1] == CUDNN_ACTIVATION_IDENTITY ? x : 0;
    switch (o->mode[1]) {
    case CUDNN_ACTIVATION_SIGMOID: return sigmoid(x);
    case CUDNN_ACTIVATION_RELU: return x > 0 ? x : 0;
    case CUDNN_ACTIVATION_TANH: return tanh(x);
    case CUDNN_ACTIVATION_CLIPPED_RELU: return x > 0 ? (x < coef ? x : coef) : 0;
    case CUDNN_ACTIVATION_ELU: return x > 0 ? x : coef * expm1(x);
    case CUDNN_ACTIVATION_SWISH: return x * sigmoid(o->param[1] * x);
    default: return x;   /* IDENTITY */
    }
}

/* dx from y (the forward's output), dy and x */
static double act_bwd(const cudnn_op *o, double y, double dy, double x)
{
    double coef = o->param[0];
    switch (o->mode[1]) {
    case CUDNN_ACTIVATION_SIGMOID: return dy * y * (1 - y);
    case CUDNN_ACTIVATION_RELU: return x > 0 ? dy : 0;
    case CUDNN_ACTIVATION_TANH: return dy * (1 - y * y);
    case CUDNN_ACTIVATION_CLIPPED_RELU: return x > 0 && x < coef ? dy : 0;
    case CUDNN_ACTIVATION_ELU: return x > 0 ? dy : dy * (y + coef);
    case CUDNN_ACTIVATION_SWISH: {
        double b = o->param[1], s = sigmoid(b * x);
        return dy * (s + b * x * s * (1 - s));
    }
    default: return dy;
    }
}

/* One output element (before alpha/beta) from the inputs' elements. */
static double ew_value(const cudnn_op *o, const double *in)
{
    switch (o->mode[0]) {
    case EW_ACT_FWD: return act_fwd(o, in[0]);
    case EW_ACT_BWD: return act_bwd(o, in[0], in[1], in[2]);
    case EW_OP: {
        double a = o->alpha * in[0], b = o->alpha2 * in[1];
        switch (o->mode[1]) {
        case CUDNN_OP_TENSOR_ADD: return a + b;
        case CUDNN_OP_TENSOR_MUL: return a * b;
        case CUDNN_OP_TENSOR_MIN: return a < b ? a : b;
        case CUDNN_OP_TENSOR_MAX: return a > b ? a : b;
        case CUDNN_OP_TENSOR_SQRT: return sqrt(a);
        default: return 1 - a;   /* NOT */
        }
    }
    case EW_SET: return o->param[2];
    default: return in[0];   /* ADD, SCALE, TRANSFORM: scaled by alpha in the blend */
    }
}

/* OpTensor applies its factors inside the op; SetTensor writes the value. */
static double out_alpha(const cudnn_op *o) { return o->mode[0] == EW_OP || o->mode[0] == EW_SET ? 1 : o->alpha; }
static double out_beta(const cudnn_op *o)
{
    return o->mode[0] == EW_SET ? 0 : o->mode[0] == EW_SCALE ? 0 : o->beta;
}

static int ew_operands(cudnn_op *o, cbl_operand *ops)
{
    static const char *const names[3] = {"a", "b", "c"};
    int n = 0;
    for (int i = 0; i < o->mode[3]; i++)
        ops[n++] = cudnn_operand(o, i, names[i], 0);
    ops[n++] = cudnn_operand(o, T_OUT, "y", 1);
    return n;
}

static CUresult ew_run(cudnn_op *o)
{
    double *in[3] = {NULL, NULL, NULL};
    size_t n = cudnn_tensor_count(&o->t[T_OUT]);
    double *out = malloc((n ? n : 1) * sizeof(double));
    CUresult r = out ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < o->mode[3] && r == CUDA_SUCCESS; i++)
        if (!(in[i] = cudnn_op_values(o, i, NULL)))
            r = CUDA_ERROR_OUT_OF_MEMORY;
    if (r == CUDA_SUCCESS) {
        for (size_t e = 0; e < n; e++) {
            double v[3] = {0, 0, 0};
            for (int i = 0; i < o->mode[3]; i++)
                v[i] = in[i][cudnn_broadcast_index(&o->t[i], &o->t[T_OUT], e)];
            out[e] = ew_value(o, v);
        }
        r = cudnn_op_store(o, T_OUT, out, out_alpha(o), out_beta(o));
    }
    for (int i = 0; i < 3; i++)
        free(in[i]);
    free(out);
    return r;
}

static void ew_reference(void *vo, cbl_operand *ops)
{
    cudnn_op *o = vo;
    int k = o->mode[3];
    size_t n = cudnn_tensor_count(&o->t[T_OUT]);
    double *out = malloc((n ? n : 1) * sizeof(double));
    if (!out)
        return;
    for (size_t e = 0; e < n; e++) {
        double v[3] = {0, 0, 0};
        for (int i = 0; i < k; i++) {
            /* the input's own multi-index: the output's, 0 where the input's dim is 1 */
            size_t rem = e, idx = 0, mul = 1;
            for (int d = o->t[T_OUT].nd - 1; d >= 0; d--) {
                size_t id = rem % (size_t)o->t[T_OUT].dim[d];
                rem /= (size_t)o->t[T_OUT].dim[d];
                idx += (o->t[i].dim[d] == 1 ? 0 : id) * mul;
                mul *= (size_t)o->t[i].dim[d];
            }
            v[i] = cudnn_ref_load(&o->t[i], ops[i].before, idx);
        }
        out[e] = ew_value(o, v);
    }
    cudnn_blend(&o->t[T_OUT], ops[k].ref, out, out_alpha(o), out_beta(o));
    free(out);
}

static const cudnn_routine ew_routine = {ew_run, ew_operands, ew_reference};

static int float_type(cudnnDataType_t t)
{
    return t == CUDNN_DATA_FLOAT || t == CUDNN_DATA_DOUBLE || t == CUDNN_DATA_HALF || t == CUDNN_DATA_BFLOAT16;
}

/* Validates and submits one element-wise call: nin inputs (descriptors and
 * data), the output; each input must broadcast to the output (same dims
 * when exact is set). */
static cudnnStatus_t ew_submit(cudnnHandle_t h, const char *fn, int kind, int nin, const cudnnTensorDescriptor_t *ind,
                               const void *const *inp, cudnnTensorDescriptor_t outd, void *out, int exact,
                               cudnn_op **keep)
{
    cudnnStatus_t st = cudnn_handle_check(h);
    if (st != CUDNN_STATUS_SUCCESS)
        return cudnn_fail(st, fn, "not a handle");
    const cudnn_tensor *ot = cudnn_tensor_of(outd);
    if (!ot)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "output descriptor not set");
    if (!out)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL output");
    if (cudnn_blas_type(ot->dtype) < 0)
        return cudnn_unsupported(fn, "this data type");
    cudnn_op *o = cudnn_op_new(&ew_routine, fn);
    if (!o)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    for (int i = 0; i < nin; i++) {
        const cudnn_tensor *t = cudnn_tensor_of(ind[i]);
        if (!t || !(exact ? cudnn_same_dims(t, ot) : cudnn_broadcastable(t, ot)) || !inp[i] ||
            cudnn_blas_type(t->dtype) < 0) {
            o->base.base.release(&o->base.base);
            return cudnn_fail(!inp[i] && t ? CUDNN_STATUS_BAD_PARAM_NULL_POINTER : CUDNN_STATUS_BAD_PARAM, fn,
                              "input %d: not set, NULL, of another shape or an unsupported type", i);
        }
        o->t[i] = *t;
        o->addr[i] = (uint64_t)(uintptr_t)inp[i];
    }
    o->t[T_OUT] = *ot;
    o->addr[T_OUT] = (uint64_t)(uintptr_t)out;
    o->mode[0] = kind;
    o->mode[3] = nin;
    *keep = o;
    return CUDNN_STATUS_SUCCESS;
}

/* ---- activations ---------------------------------------------------------------- */

static cudnnStatus_t act_setup(cudnn_op *o, cudnnActivationDescriptor_t act, const char *fn)
{
    if (!act || act->magic != CUDNN_MAGIC_ACTIVATION) {
        o->base.base.release(&o->base.base);
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "not an activation descriptor");
    }
    o->mode[1] = act->mode;
    o->mode[2] = act->nan;
    o->param[0] = act->coef;
    o->param[1] = act->swish_beta;
    snprintf(o->note, sizeof o->note, "mode %d", (int)act->mode);
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnActivationForward(cudnnHandle_t handle, cudnnActivationDescriptor_t activationDesc,
                                     const void *alpha, const cudnnTensorDescriptor_t xDesc, const void *x,
                                     const void *beta, const cudnnTensorDescriptor_t yDesc, void *y)
{
    const char *fn = "cudnnActivationForward";
    cudnn_op *o;
    cudnnStatus_t st = ew_submit(handle, fn, EW_ACT_FWD, 1, &xDesc, &x, yDesc, y, 1, &o);
    if (st != CUDNN_STATUS_SUCCESS || (st = act_setup(o, activationDesc, fn)) != CUDNN_STATUS_SUCCESS)
        return st;
    if (!alpha || !beta) {
        o->base.base.release(&o->base.base);
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL alpha or beta");
    }
    o->alpha = cudnn_scalar(alpha, o->t[T_OUT].dtype);
    o->beta = cudnn_scalar(beta, o->t[T_OUT].dtype);
    return cudnn_op_submit(handle, o);
}

cudnnStatus_t cudnnActivationBackward(cudnnHandle_t handle, cudnnActivationDescriptor_t activationDesc,
                                      const void *alpha, const cudnnTensorDescriptor_t yDesc, const void *y,
                                      const cudnnTensorDescriptor_t dyDesc, const void *dy,
                                      const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
                                      const cudnnTensorDescriptor_t dxDesc, void *dx)
{
    const char *fn = "cudnnActivationBackward";
    cudnnTensorDescriptor_t ind[3] = {yDesc, dyDesc, xDesc};
    const void *inp[3] = {y, dy, x};
    cudnn_op *o;
    cudnnStatus_t st = ew_submit(handle, fn, EW_ACT_BWD, 3, ind, inp, dxDesc, dx, 1, &o);
    if (st != CUDNN_STATUS_SUCCESS || (st = act_setup(o, activationDesc, fn)) != CUDNN_STATUS_SUCCESS)
        return st;
    if (!alpha || !beta) {
        o->base.base.release(&o->base.base);
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL alpha or beta");
    }
    o->alpha = cudnn_scalar(alpha, o->t[T_OUT].dtype);
    o->beta = cudnn_scalar(beta, o->t[T_OUT].dtype);
    return cudnn_op_submit(handle, o);
}

/* ---- tensor arithmetic ----------------------------------------------------------- */

cudnnStatus_t cudnnAddTensor(cudnnHandle_t handle, const void *alpha, const cudnnTensorDescriptor_t aDesc, const void *A,
                             const void *beta, const cudnnTensorDescriptor_t cDesc, void *C)
{
    const char *fn = "cudnnAddTensor";
    cudnn_op *o;
    cudnnStatus_t st = ew_submit(handle, fn, EW_ADD, 1, &aDesc, &A, cDesc, C, 0, &o);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    if (!alpha || !beta || !float_type(o->t[T_OUT].dtype)) {
        o->base.base.release(&o->base.base);
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "NULL alpha/beta or a non-floating type");
    }
    o->alpha = cudnn_scalar(alpha, o->t[T_OUT].dtype);
    o->beta = cudnn_scalar(beta, o->t[T_OUT].dtype);
    return cudnn_op_submit(handle, o);
}

cudnnStatus_t cudnnSetTensor(cudnnHandle_t handle, const cudnnTensorDescriptor_t yDesc, void *y, const void *valuePtr)
{
    const char *fn = "cudnnSetTensor";
    cudnn_op *o;
    cudnnStatus_t st = ew_submit(handle, fn, EW_SET, 0, NULL, NULL, yDesc, y, 1, &o);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    if (!valuePtr) {
        o->base.base.release(&o->base.base);
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL value");
    }
    /* the value is of y's own data type */
    o->param[2] = cb_blas_load((cb_blas_type)cudnn_blas_type(o->t[T_OUT].dtype), valuePtr, 0).re;
    return cudnn_op_submit(handle, o);
}

cudnnStatus_t cudnnScaleTensor(cudnnHandle_t handle, const cudnnTensorDescriptor_t yDesc, void *y, const void *alpha)
{
    const char *fn = "cudnnScaleTensor";
    cudnn_op *o;
    cudnnStatus_t st = ew_submit(handle, fn, EW_SCALE, 1, &yDesc, (const void *const *)&y, yDesc, y, 1, &o);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    if (!alpha) {
        o->base.base.release(&o->base.base);
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL alpha");
    }
    o->alpha = cudnn_scalar(alpha, o->t[T_OUT].dtype);
    return cudnn_op_submit(handle, o);
}

cudnnStatus_t cudnnTransformTensor(cudnnHandle_t handle, const void *alpha, const cudnnTensorDescriptor_t xDesc,
                                   const void *x, const void *beta, const cudnnTensorDescriptor_t yDesc, void *y)
{
    const char *fn = "cudnnTransformTensor";
    cudnn_op *o;
    cudnnStatus_t st = ew_submit(handle, fn, EW_TRANSFORM, 1, &xDesc, &x, yDesc, y, 1, &o);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    if (!alpha || !beta) {
        o->base.base.release(&o->base.base);
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL alpha or beta");
    }
    /* the factors are double when either side is double */
    cudnnDataType_t st_type = o->t[0].dtype == CUDNN_DATA_DOUBLE || o->t[T_OUT].dtype == CUDNN_DATA_DOUBLE ?
                                  CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    o->alpha = cudnn_scalar(alpha, st_type);
    o->beta = cudnn_scalar(beta, st_type);
    snprintf(o->note, sizeof o->note, "type %d -> %d", (int)o->t[0].dtype, (int)o->t[T_OUT].dtype);
    return cudnn_op_submit(handle, o);
}

/* ---- OpTensor --------------------------------------------------------------------- */

struct cudnnOpTensorStruct {
    uint32_t magic;
    cudnnOpTensorOp_t op;
    cudnnDataType_t compute;
    cudnnNanPropagation_t nan;
};

cudnnStatus_t cudnnCreateOpTensorDescriptor(cudnnOpTensorDescriptor_t *desc)
{
    if (!desc)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnCreateOpTensorDescriptor", "NULL");
    cudnnOpTensorDescriptor_t d = calloc(1, sizeof *d);
    if (!d)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    d->magic = CUDNN_MAGIC_OPTENSOR;
    d->compute = CUDNN_DATA_FLOAT;
    *desc = d;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroyOpTensorDescriptor(cudnnOpTensorDescriptor_t d)
{
    if (!d)
        return CUDNN_STATUS_SUCCESS;
    if (d->magic != CUDNN_MAGIC_OPTENSOR)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnDestroyOpTensorDescriptor", "not an op-tensor descriptor");
    d->magic = 0;
    free(d);
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetOpTensorDescriptor(cudnnOpTensorDescriptor_t d, cudnnOpTensorOp_t op,
                                         cudnnDataType_t opTensorCompType, cudnnNanPropagation_t opTensorNanOpt)
{
    if (!d || d->magic != CUDNN_MAGIC_OPTENSOR || (unsigned)op > CUDNN_OP_TENSOR_NOT ||
        (opTensorCompType != CUDNN_DATA_FLOAT && opTensorCompType != CUDNN_DATA_DOUBLE &&
         opTensorCompType != CUDNN_DATA_HALF && opTensorCompType != CUDNN_DATA_BFLOAT16) ||
        (unsigned)opTensorNanOpt > CUDNN_PROPAGATE_NAN)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnSetOpTensorDescriptor", "bad descriptor, op or type");
    d->op = op;
    d->compute = opTensorCompType;
    d->nan = opTensorNanOpt;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetOpTensorDescriptor(const cudnnOpTensorDescriptor_t d, cudnnOpTensorOp_t *op,
                                         cudnnDataType_t *opTensorCompType, cudnnNanPropagation_t *opTensorNanOpt)
{
    if (!d || d->magic != CUDNN_MAGIC_OPTENSOR || !op || !opTensorCompType || !opTensorNanOpt)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetOpTensorDescriptor", "bad descriptor or NULL output");
    *op = d->op;
    *opTensorCompType = d->compute;
    *opTensorNanOpt = d->nan;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnOpTensor(cudnnHandle_t handle, const cudnnOpTensorDescriptor_t opTensorDesc, const void *alpha1,
                            const cudnnTensorDescriptor_t aDesc, const void *A, const void *alpha2,
                            const cudnnTensorDescriptor_t bDesc, const void *B, const void *beta,
                            const cudnnTensorDescriptor_t cDesc, void *C)
{
    const char *fn = "cudnnOpTensor";
    if (!opTensorDesc || opTensorDesc->magic != CUDNN_MAGIC_OPTENSOR)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "not an op-tensor descriptor");
    int unary = opTensorDesc->op == CUDNN_OP_TENSOR_SQRT || opTensorDesc->op == CUDNN_OP_TENSOR_NOT;
    cudnnTensorDescriptor_t ind[2] = {aDesc, bDesc};
    const void *inp[2] = {A, B};
    cudnn_op *o;
    cudnnStatus_t st = ew_submit(handle, fn, EW_OP, unary ? 1 : 2, ind, inp, cDesc, C, 0, &o);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    if (!alpha1 || !beta || (!unary && !alpha2)) {
        o->base.base.release(&o->base.base);
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL scaling factor");
    }
    if (!cudnn_same_dims(&o->t[0], &o->t[T_OUT])) {   /* only B broadcasts */
        o->base.base.release(&o->base.base);
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "A must have C's dims");
    }
    o->mode[1] = opTensorDesc->op;
    o->alpha = cudnn_scalar(alpha1, o->t[T_OUT].dtype);
    o->alpha2 = unary ? 0 : cudnn_scalar(alpha2, o->t[T_OUT].dtype);
    o->beta = cudnn_scalar(beta, o->t[T_OUT].dtype);
    snprintf(o->note, sizeof o->note, "op %d", (int)opTensorDesc->op);
    return cudnn_op_submit(handle, o);
}
