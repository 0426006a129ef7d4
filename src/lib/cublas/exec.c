/* exec.c: the stream operation every computing cuBLAS call becomes.
 *
 * An entry point validates its arguments on the calling thread (the
 * statuses NVIDIA's cuBLAS returns for bad input), fills a cublas_op and
 * submits it on the handle's stream. The op runs on the stream's worker (or
 * inline when the stream is idle), in order with kernels and copies, or is
 * captured into a graph. Its run:
 *   1. reads device-side scalars (CUBLAS_POINTER_MODE_DEVICE);
 *   2. checks that the operands are device memory, and snapshots them in
 *      verify mode (lib/common/check.h);
 *   3. calls the backend's library interface (routine->run);
 *   4. applies the test break switch, checks the result against the C
 *      reference in verify mode;
 *   5. delivers scalar results to host or device memory.
 * A call whose result goes to host memory waits for its op, as cuBLAS
 * blocks then; in verify mode every call waits, so that strict mode can
 * return the drift as the call's status (CUBLAS_STATUS_EXECUTION_FAILED).
 */
#include "cublas_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

cb_inspect_elem cublas_cmp_type(cb_blas_type t)
{
    switch (t) {
    case CB_BLAS_F32:
    case CB_BLAS_C32: return CB_ELEM_F32;
    case CB_BLAS_F64:
    case CB_BLAS_C64: return CB_ELEM_F64;
    case CB_BLAS_F16:
    case CB_BLAS_C16F: return CB_ELEM_F16;
    case CB_BLAS_BF16:
    case CB_BLAS_C16BF: return CB_ELEM_BF16;
    default: return CB_ELEM_INT;
    }
}

cb_cplx cx_div(cb_cplx a, cb_cplx b)
{
    double d = b.re * b.re + b.im * b.im;
    return (cb_cplx){(a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d};
}

/* A sum of k products in f32 drifts from the exact one by up to about
 * sqrt(k) rounding errors in practice (docs/libraries.md, "Tolerances"). */
double cublas_sum_scale(int64_t terms) { return terms > 1 ? sqrt((double)terms) : 1; }

static void op_release(cb_lib_op *lop)
{
    cublas_op *o = (cublas_op *)lop;
    for (int i = 0; i < 4; i++)
        free(o->arr_host[i]);
    free(o->ops_dyn);
    free(o);
}

cublas_op *cublas_op_new(const cublas_routine *r, const char *function, cb_blas_type t)
{
    cublas_op *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->r = r;
    o->function = function;
    o->t = t;
    o->base.base.release = op_release;
    o->base.base.name = function;
    return o;
}

void cublas_op_scalar(cublas_op *o, cublasHandle_t h, int i, const void *p, size_t bytes)
{
    o->ssize[i] = bytes;
    if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE) {
        o->dev = 1;
        o->sdev[i] = (uint64_t)(uintptr_t)p;
    } else {
        memcpy(o->sval[i], p, bytes);
    }
}

void cublas_op_result(cublas_op *o, cublasHandle_t h, int i, void *p, size_t bytes)
{
    o->out_bytes[i] = bytes;
    if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE)
        o->dev_out[i] = (uint64_t)(uintptr_t)p;
    else
        o->host_out[i] = p;
    if (i + 1 > o->nout)
        o->nout = i + 1;
}

int cublas_read_arrays(cublas_op *o, int64_t count)
{
    for (int i = 0; i < 4; i++) {
        if (!o->arr_dev[i])
            continue;
        free(o->arr_host[i]);   /* read at every run: a graph replays with the arrays' contents then */
        o->arr_host[i] = NULL;
        size_t bytes = (size_t)count * sizeof(uint64_t);
        if (!o->base.sv->mem_valid(o->arr_dev[i], bytes))
            return -1;
        o->arr_host[i] = malloc(bytes);
        if (!o->arr_host[i] || cbl_read(&o->base, o->arr_host[i], o->arr_dev[i], bytes) != CUDA_SUCCESS)
            return -1;
    }
    return 0;
}

static CUresult op_run(cb_lib_op *lop)
{
    cublas_op *o = (cublas_op *)lop;
    o->base.ran = 1;
    o->base.status = CUBLAS_STATUS_SUCCESS;
    for (int i = 0; o->dev && i < CUBLAS_MAX_SCALARS; i++)
        if (o->ssize[i] && o->sdev[i] && cbl_read(&o->base, o->sval[i], o->sdev[i], o->ssize[i]) != CUDA_SUCCESS) {
            o->base.status = CUBLAS_STATUS_EXECUTION_FAILED;
            return CUDA_ERROR_ILLEGAL_ADDRESS;
        }
    cbl_operand fixed[CUBLAS_MAX_OPS];
    cbl_operand *ops = o->ops_dyn ? o->ops_dyn : fixed;
    memset(ops, 0, sizeof(cbl_operand) * (size_t)(o->ops_dyn ? o->nops_dyn : CUBLAS_MAX_OPS));
    int nops = o->r->operands(o, ops);
    cbl_checked c = {.op = &o->base, .library = "cublas", .function = o->function, .ops = ops, .nops = nops};
    CUresult r = cbl_check_begin(&c);
    if (r != CUDA_SUCCESS) {
        o->base.status = CUBLAS_STATUS_EXECUTION_FAILED;
        return r;   /* a stray pointer: sticky, as the GPU's fault would be */
    }
    r = o->r->run(o, o->base.backend);
    if (r != CUDA_SUCCESS) {
        cbl_check_abandon(&c);
        o->base.status = cublas_status_of(r);
        if (r == CUDA_ERROR_NOT_SUPPORTED)
            return cbl_refused(&o->base, CUBLAS_LIB, o->function,
                               "the backend's library interface refused this type or mode");
        return CUDA_SUCCESS;
    }
    int drift = cbl_check_end(&c, o->r->reference, o);
    for (int i = 0; i < o->nout; i++) {
        if (o->host_out[i])
            memcpy(o->host_out[i], o->out[i], o->out_bytes[i]);
        else if (o->dev_out[i] && cbl_write(&o->base, o->dev_out[i], o->out[i], o->out_bytes[i]) != CUDA_SUCCESS)
            return CUDA_ERROR_ILLEGAL_ADDRESS;
    }
    if (drift && (o->base.sv->inspect_flags() & CB_INSPECT_STRICT)) {
        cbl_log(CB_LOG_ERROR, "strict: DRIFT in cublas %s: the call fails with CUBLAS_STATUS_EXECUTION_FAILED",
                o->function);
        o->base.status = CUBLAS_STATUS_EXECUTION_FAILED;
        return o->in_graph ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS;
    }
    return CUDA_SUCCESS;
}

cublasStatus_t cublas_op_submit(cublasHandle_t h, cublas_op *o)
{
    if (!cublas_backend_ok(h, o->function)) {
        op_release(&o->base.base);
        return CUBLAS_STATUS_NOT_SUPPORTED;
    }
    cublas_log_call(o->function);
    o->base.base.run = op_run;
    int wait = (cbl_trace_flags & CB_INSPECT_VERIFY) != 0;
    for (int i = 0; i < o->nout; i++)
        wait |= o->host_out[i] != NULL;
    if (o->info_host)
        wait = 1;
    int captured = 0, status = 0;
    /* in_graph must be known before a replay can run: set it for a capture
     * now (a capturing stream only records) */
    const cb_lib_services *s = cbl_services();
    cb_stream *st;
    if (s && s->stream(h->ctx, (CUstream)h->stream, &st) == CUDA_SUCCESS && s->capturing(st))
        o->in_graph = 1;
    CUresult r = cbl_submit(h->ctx, (CUstream)h->stream, &o->base, wait, &captured, &status);
    if (r != CUDA_SUCCESS)
        return cublas_status_of(r);
    if (!wait || captured)
        return CUBLAS_STATUS_SUCCESS;
    return status < 0 ? CUBLAS_STATUS_EXECUTION_FAILED : (cublasStatus_t)status;
}
