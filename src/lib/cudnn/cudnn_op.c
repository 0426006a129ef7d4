/* cudnn_op.c: computing calls as stream operations, checked runs, and host
 * staging of strided tensors (cudnn_internal.h).
 *
 * A call validates its descriptors on the calling thread, fills a cudnn_op
 * (the descriptors' contents are copied: the caller may change or destroy
 * them at once, and a captured graph replays what was asked) and submits
 * it to the handle's stream. On the worker, op_run checks that every
 * operand lies in device memory (a stray pointer fails the call with an
 * illegal address, as the GPU's fault would), snapshots them in verify mode,
 * runs the routine, and hands result and C reference to the inspector
 * (lib/common/check.h). Strict mode turns drift into
 * CUDNN_STATUS_EXECUTION_FAILED.
 */
#include "cudnn_internal.h"

#include <math.h>
#include <stdlib.h>

double cudnn_sum_scale(double terms) { return terms > 1 ? sqrt(terms) : 1; }

double cudnn_scalar(const void *p, cudnnDataType_t data_type)
{
    if (data_type == CUDNN_DATA_DOUBLE)
        return *(const double *)p;
    return *(const float *)p;
}

/* ---- staging ---------------------------------------------------------------- */

/* Calls fn for each element of t in row-major order with its byte offset
 * from the tensor's base and its packed index. */
#define CUDNN_FOR_EACH(t, OFF, IDX, BODY)                                                                              \
    do {                                                                                                               \
        int64_t idx_[CUDNN_DIM_MAX] = {0};                                                                             \
        size_t n_ = cudnn_tensor_count(t), es_ = cudnn_type_size((t)->dtype);                                          \
        int last_ = (t)->nd - 1;                                                                                       \
        for (size_t IDX = 0; IDX < n_;) {                                                                              \
            int64_t row_ = 0;                                                                                          \
            for (int d_ = 0; d_ < last_; d_++)                                                                         \
                row_ += idx_[d_] * (t)->stride[d_];                                                                    \
            for (int64_t j_ = 0; j_ < (t)->dim[last_]; j_++, IDX++) {                                                  \
                size_t OFF = (size_t)(row_ + j_ * (t)->stride[last_]) * es_;                                           \
                BODY;                                                                                                  \
            }                                                                                                          \
            for (int d_ = last_ - 1; d_ >= 0; d_--) {                                                                  \
                if (++idx_[d_] < (t)->dim[d_])                                                                         \
                    break;                                                                                             \
                idx_[d_] = 0;                                                                                          \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)

void cudnn_gather(const cudnn_tensor *t, const void *base, double *out)
{
    cb_blas_type bt = (cb_blas_type)cudnn_blas_type(t->dtype);
    const char *b = base;
    CUDNN_FOR_EACH(t, off, i, out[i] = cb_blas_load(bt, b + off, 0).re);
}

void cudnn_blend(const cudnn_tensor *t, void *base, const double *vals, double alpha, double beta)
{
    cb_blas_type bt = (cb_blas_type)cudnn_blas_type(t->dtype);
    char *b = base;
    CUDNN_FOR_EACH(t, off, i, {
        double v = alpha * vals[i];
        if (beta != 0)
            v += beta * cb_blas_load(bt, b + off, 0).re;
        cb_blas_store(bt, b + off, 0, (cb_cplx){v, 0});
    });
}

double cudnn_ref_load(const cudnn_tensor *t, const void *base, size_t e)
{
    size_t off = 0;
    for (int d = t->nd - 1; d >= 0; d--) {
        off += (e % (size_t)t->dim[d]) * (size_t)t->stride[d];
        e /= (size_t)t->dim[d];
    }
    return cb_blas_load((cb_blas_type)cudnn_blas_type(t->dtype), (const char *)base + off * cudnn_type_size(t->dtype),
                        0).re;
}

int cudnn_broadcastable(const cudnn_tensor *src, const cudnn_tensor *dst)
{
    if (src->nd != dst->nd)
        return 0;
    for (int d = 0; d < src->nd; d++)
        if (src->dim[d] != dst->dim[d] && src->dim[d] != 1)
            return 0;
    return 1;
}

size_t cudnn_broadcast_index(const cudnn_tensor *src, const cudnn_tensor *dst, size_t e)
{
    size_t idx = 0, mul = 1;
    for (int d = dst->nd - 1; d >= 0; d--) {
        size_t i = e % (size_t)dst->dim[d];
        e /= (size_t)dst->dim[d];
        if (src->dim[d] != 1)
            idx += i * mul;
        mul *= (size_t)src->dim[d];
    }
    return idx;
}

/* ---- operands ----------------------------------------------------------------- */

cb_inspect_elem cudnn_cmp_of(cudnnDataType_t t, unsigned *elem_bytes)
{
    *elem_bytes = 0;
    switch (t) {
    case CUDNN_DATA_FLOAT: return CB_ELEM_F32;
    case CUDNN_DATA_DOUBLE: return CB_ELEM_F64;
    case CUDNN_DATA_HALF: return CB_ELEM_F16;
    case CUDNN_DATA_BFLOAT16: return CB_ELEM_BF16;
    default: *elem_bytes = (unsigned)cudnn_type_size(t); return CB_ELEM_INT;
    }
}

cbl_operand cudnn_operand(cudnn_op *o, int i, const char *name, int out)
{
    cbl_operand op = {.name = name, .addr = o->addr[i], .bytes = o->addr[i] ? cudnn_tensor_extent(&o->t[i]) : 0,
                      .out = out};
    op.cmp = cudnn_cmp_of(o->t[i].dtype, &op.elem_bytes);
    return op;
}

void *cudnn_op_read(cudnn_op *o, int i)
{
    size_t bytes = cudnn_tensor_extent(&o->t[i]);
    void *h = malloc(bytes ? bytes : 1);
    if (h && bytes && cbl_read(&o->base, h, o->addr[i], bytes) != CUDA_SUCCESS) {
        free(h);
        return NULL;
    }
    return h;
}

CUresult cudnn_op_write(cudnn_op *o, int i, const void *host)
{
    return cbl_write(&o->base, o->addr[i], host, cudnn_tensor_extent(&o->t[i]));
}

double *cudnn_op_values(cudnn_op *o, int i, void **host)
{
    void *h = cudnn_op_read(o, i);
    size_t n = cudnn_tensor_count(&o->t[i]);
    double *v = h ? malloc((n ? n : 1) * sizeof(double)) : NULL;
    if (v)
        cudnn_gather(&o->t[i], h, v);
    if (host && v)
        *host = h;
    else
        free(h);
    return v;
}

CUresult cudnn_op_store(cudnn_op *o, int i, const double *vals, double alpha, double beta)
{
    void *h = cudnn_op_read(o, i);
    if (!h)
        return CUDA_ERROR_OUT_OF_MEMORY;
    cudnn_blend(&o->t[i], h, vals, alpha, beta);
    CUresult r = cudnn_op_write(o, i, h);
    free(h);
    return r;
}

/* ---- the stream operation --------------------------------------------------------- */

static void op_release(cb_lib_op *lop)
{
    cudnn_op *o = (cudnn_op *)lop;
    if (o->extra_release)
        o->extra_release(o->extra);
    else
        free(o->extra);
    free(o);
}

cudnn_op *cudnn_op_new(const cudnn_routine *r, const char *function)
{
    cudnn_op *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->r = r;
    o->function = function;
    o->base.base.release = op_release;
    o->base.base.name = function;
    return o;
}

static int in_graph(cudnnHandle_t h)
{
    const cb_lib_services *s = cbl_services();
    cb_stream *st;
    return s && s->stream(h->ctx, (CUstream)h->stream, &st) == CUDA_SUCCESS && s->capturing(st);
}

static CUresult op_run(cb_lib_op *lop)
{
    cudnn_op *o = (cudnn_op *)lop;
    o->base.ran = 1;
    o->base.status = CUDNN_STATUS_SUCCESS;
    cbl_operand ops[CUDNN_MAX_OPERANDS];
    memset(ops, 0, sizeof ops);
    int nops = o->r->operands(o, ops);
    cbl_checked c = {.op = &o->base, .library = "cudnn", .function = o->function, .ops = ops, .nops = nops};
    snprintf(c.note, sizeof c.note, "%s", o->note);
    CUresult r = cbl_check_begin(&c);
    if (r != CUDA_SUCCESS) {
        o->base.status = CUDNN_STATUS_EXECUTION_FAILED;
        return r;   /* a stray pointer: sticky, as the GPU's fault would be */
    }
    r = o->r->run(o);
    if (r != CUDA_SUCCESS) {
        cbl_check_abandon(&c);
        o->base.status = cudnn_status_of(r);
        if (r == CUDA_ERROR_NOT_SUPPORTED)
            return cbl_refused(&o->base, CUDNN_LIB, o->function,
                               "the backend's DNN interface refused this type or mode");
        return r == CUDA_ERROR_ILLEGAL_ADDRESS ? r : CUDA_SUCCESS;
    }
    int drift = cbl_check_end(&c, o->r->reference, o);
    if (drift && (o->base.sv->inspect_flags() & CB_INSPECT_STRICT)) {
        cbl_log(CB_LOG_ERROR, "strict: DRIFT in cudnn %s: the call fails with CUDNN_STATUS_EXECUTION_FAILED",
                o->function);
        o->base.status = CUDNN_STATUS_EXECUTION_FAILED;
        return o->in_graph ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS;
    }
    return CUDA_SUCCESS;
}

static cudnnStatus_t submit(cudnnHandle_t h, cudnn_op *o, int wait)
{
    if (!cudnn_backend_ok(h, o->function)) {
        op_release(&o->base.base);
        return CUDNN_STATUS_NOT_SUPPORTED;
    }
    o->base.base.run = op_run;
    wait |= (cbl_trace_flags & CB_INSPECT_VERIFY) != 0;
    o->in_graph = in_graph(h);
    int captured = 0, status = 0;
    CUresult r = cbl_submit(h->ctx, (CUstream)h->stream, &o->base, wait, &captured, &status);
    if (r != CUDA_SUCCESS)
        return cudnn_status_of(r);
    if (!wait || captured)
        return CUDNN_STATUS_SUCCESS;
    return status < 0 ? CUDNN_STATUS_EXECUTION_FAILED : (cudnnStatus_t)status;
}

cudnnStatus_t cudnn_op_submit(cudnnHandle_t h, cudnn_op *o) { return submit(h, o, 0); }

cudnnStatus_t cudnn_op_submit_wait(cudnnHandle_t h, cudnn_op *o) { return submit(h, o, 1); }
