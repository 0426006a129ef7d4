/* cufft_exec.c: cufftExec* as stream operations (docs/cufft.md).
 *
 * An execution is validated on the calling thread (the plan, its type against
 * the entry point, the direction), then submitted to the plan's stream
 * (cufftSetStream) as a library operation, in order with the stream's kernels
 * and copies, or captured into a graph. On the stream's worker it
 *   1. checks that the data lie in device memory (a stray pointer is
 *      CUDA_ERROR_ILLEGAL_ADDRESS, as the GPU's fault would be) and, in verify
 *      mode, snapshots them (lib/common/check.h);
 *   2. copies the input to host memory through the backend, runs
 *      cubridge's FFT (fft_layout.c), copies the output back;
 *   3. in verify mode, compares the output with the same transform computed in
 *      double precision (fftl_reference).
 */
#include "cufft_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct cufft_op {
    cbl_op base;
    cufft_planobj *plan;
    const char *function;
    uint64_t in, out;
    int inplace, sign;
} cufft_op;

static void op_release(cb_lib_op *lop)
{
    cufft_op *o = (cufft_op *)lop;
    cufft_plan_put(o->plan);
    free(o);
}

static cb_inspect_elem cmp_of(fftl_elem e)
{
    switch (e) {
    case FFTL_F64: return CB_ELEM_F64;
    case FFTL_F16: return CB_ELEM_F16;
    case FFTL_BF16: return CB_ELEM_BF16;
    default: return CB_ELEM_F32;
    }
}

static void reference(void *ctx, cbl_operand *ops)
{
    cufft_op *o = ctx;
    cbl_operand *out = o->inplace ? &ops[0] : &ops[1];
    fftl_reference(&o->plan->desc, ops[0].before, out->ref, o->inplace, o->sign);
}

/* 1 when every byte of the output's extent is written (no gaps to preserve) */
static int dense_output(const fftl_desc *d)
{
    return d->out.basic;
}

static CUresult op_run(cb_lib_op *lop)
{
    cufft_op *o = (cufft_op *)lop;
    const fftl_desc *d = &o->plan->desc;
    o->base.ran = 1;
    o->base.status = CUFFT_SUCCESS;
    uint64_t inb, outb;
    fftl_extents(o->plan->fp, o->inplace, &inb, &outb);
    size_t total = 1;
    for (int i = 0; i < d->rank; i++)
        total *= (size_t)d->n[i];
    cbl_operand ops[2];
    memset(ops, 0, sizeof ops);
    cb_inspect_elem cmp = cmp_of(d->elem);
    double scale = 1.0 + log2((double)total);
    if (o->inplace) {
        ops[0] = (cbl_operand){.name = "data", .addr = o->in, .bytes = inb > outb ? inb : outb, .out = 1,
                               .cmp = cmp, .tol_scale = scale};
    } else {
        ops[0] = (cbl_operand){.name = "idata", .addr = o->in, .bytes = inb, .cmp = cmp};
        ops[1] = (cbl_operand){.name = "odata", .addr = o->out, .bytes = outb, .out = 1, .cmp = cmp,
                               .tol_scale = scale};
    }
    cbl_checked c = {.op = &o->base, .library = "cufft", .function = o->function, .ops = ops,
                     .nops = o->inplace ? 1 : 2};
    snprintf(c.note, sizeof c.note, "rank %d n %lld%s%s%s batch %lld", d->rank, d->n[0],
             d->rank > 1 ? "x" : "", d->rank > 1 ? "..." : "", d->in.basic ? "" : " advanced", d->batch);
    CUresult r = cbl_check_begin(&c);
    if (r != CUDA_SUCCESS) {
        o->base.status = CUFFT_EXEC_FAILED;
        return r;
    }
    size_t hin_bytes = o->inplace ? ops[0].bytes : inb;
    size_t a = (hin_bytes + 63) & ~(size_t)63, b = o->inplace ? 0 : (outb + 63) & ~(size_t)63;
    size_t need = a + b + fftl_work_bytes(o->plan->fp);
    cufft_planobj *pl = o->plan;
    char *block = NULL;
    int cached = pthread_mutex_trylock(&pl->buffer_lock) == 0;
    if (cached) {   /* reuse the plan's buffers: no page faults on fresh memory */
        if (pl->buffer_bytes < need) {
            free(pl->buffer);
            pl->buffer = malloc(need);
            pl->buffer_bytes = pl->buffer ? need : 0;
        }
        block = pl->buffer;
    } else {
        block = malloc(need);
    }
    if (!block) {
        if (cached)
            pthread_mutex_unlock(&pl->buffer_lock);
        cbl_check_abandon(&c);
        o->base.status = CUFFT_ALLOC_FAILED;
        return CUDA_SUCCESS;
    }
    char *hin = block, *hout = o->inplace ? hin : block + a;
    void *work = block + a + b;
    r = cbl_read(&o->base, hin, o->in, hin_bytes);
    if (r == CUDA_SUCCESS && !o->inplace && !dense_output(d))
        r = cbl_read(&o->base, hout, o->out, outb);
    if (r == CUDA_SUCCESS) {
        fftl_execute(o->plan->fp, hin, hout, o->inplace, o->sign, work);
        r = cbl_write(&o->base, o->out, hout, outb);
    }
    if (cached)
        pthread_mutex_unlock(&pl->buffer_lock);
    else
        free(block);
    if (r != CUDA_SUCCESS) {
        cbl_check_abandon(&c);
        o->base.status = CUFFT_EXEC_FAILED;
        return r;
    }
    int drift = cbl_check_end(&c, reference, o);
    if (drift && (o->base.sv->inspect_flags() & CB_INSPECT_STRICT)) {
        cbl_log(CB_LOG_ERROR, "strict: DRIFT in cufft %s: the call fails with CUFFT_EXEC_FAILED", o->function);
        o->base.status = CUFFT_EXEC_FAILED;
    }
    return CUDA_SUCCESS;
}

cufftResult cufft_execute(cufft_planobj *p, const char *function, void *in, void *out, int sign)
{
    if (!in || !out) {
        cufft_plan_put(p);
        return CUFFT_INVALID_VALUE;
    }
    const cb_lib_services *sv = cbl_services();
    cb_context *ctx;
    if (!sv || sv->context(&ctx) != CUDA_SUCCESS) {
        cufft_plan_put(p);
        return CUFFT_EXEC_FAILED;
    }
    cufft_op *o = calloc(1, sizeof *o);
    if (!o) {
        cufft_plan_put(p);
        return CUFFT_ALLOC_FAILED;
    }
    o->plan = p;   /* the op owns the reference from here on */
    o->function = function;
    o->in = (uint64_t)(uintptr_t)in;
    o->out = (uint64_t)(uintptr_t)out;
    o->inplace = in == out;
    o->sign = sign;
    o->base.base.run = op_run;
    o->base.base.release = op_release;
    o->base.base.name = function;
    int wait = (cbl_trace_flags & CB_INSPECT_VERIFY) != 0, captured = 0, status = 0;
    CUresult r = cbl_submit(ctx, p->stream, &o->base, wait, &captured, &status);
    if (r != CUDA_SUCCESS)
        return CUFFT_EXEC_FAILED;
    if (wait && !captured && status > 0)
        return (cufftResult)status;
    return CUFFT_SUCCESS;
}

/* The plan of handle h when it was made for (type, elem) by the classic API. */
static cufftResult plan_for(cufftHandle h, fftl_type type, fftl_elem elem, cufft_planobj **out)
{
    cufft_planobj *p = cufft_plan_get(h);
    if (!p)
        return CUFFT_INVALID_PLAN;
    if (!p->made || !p->fp) {
        cufft_plan_put(p);
        return CUFFT_INVALID_PLAN;
    }
    if (p->desc.type != type || p->desc.elem != elem) {
        cufft_plan_put(p);
        return CUFFT_INVALID_TYPE;
    }
    *out = p;
    return CUFFT_SUCCESS;
}

static cufftResult exec_typed(cufftHandle plan, const char *fn, fftl_type type, fftl_elem elem, void *in, void *out,
                              int direction)
{
    if (type == FFTL_C2C && direction != CUFFT_FORWARD && direction != CUFFT_INVERSE)
        return CUFFT_INVALID_VALUE;
    cufft_planobj *p;
    cufftResult r = plan_for(plan, type, elem, &p);
    if (r != CUFFT_SUCCESS)
        return r;
    return cufft_execute(p, fn, in, out, type == FFTL_R2C ? -1 : type == FFTL_C2R ? 1 : direction);
}

cufftResult cufftExecC2C(cufftHandle plan, cufftComplex *idata, cufftComplex *odata, int direction)
{
    return exec_typed(plan, "cufftExecC2C", FFTL_C2C, FFTL_F32, idata, odata, direction);
}

cufftResult cufftExecR2C(cufftHandle plan, cufftReal *idata, cufftComplex *odata)
{
    return exec_typed(plan, "cufftExecR2C", FFTL_R2C, FFTL_F32, idata, odata, CUFFT_FORWARD);
}

cufftResult cufftExecC2R(cufftHandle plan, cufftComplex *idata, cufftReal *odata)
{
    return exec_typed(plan, "cufftExecC2R", FFTL_C2R, FFTL_F32, idata, odata, CUFFT_INVERSE);
}

cufftResult cufftExecZ2Z(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleComplex *odata, int direction)
{
    return exec_typed(plan, "cufftExecZ2Z", FFTL_C2C, FFTL_F64, idata, odata, direction);
}

cufftResult cufftExecD2Z(cufftHandle plan, cufftDoubleReal *idata, cufftDoubleComplex *odata)
{
    return exec_typed(plan, "cufftExecD2Z", FFTL_R2C, FFTL_F64, idata, odata, CUFFT_FORWARD);
}

cufftResult cufftExecZ2D(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleReal *odata)
{
    return exec_typed(plan, "cufftExecZ2D", FFTL_C2R, FFTL_F64, idata, odata, CUFFT_INVERSE);
}

/* cufftXtExec: any plan; the direction applies to C2C plans. */
cufftResult cufftXtExec(cufftHandle plan, void *input, void *output, int direction)
{
    cufft_planobj *p = cufft_plan_get(plan);
    if (!p)
        return CUFFT_INVALID_PLAN;
    if (!p->made || !p->fp) {
        cufft_plan_put(p);
        return CUFFT_INVALID_PLAN;
    }
    int sign = direction;
    if (p->desc.type == FFTL_C2C) {
        if (direction != CUFFT_FORWARD && direction != CUFFT_INVERSE) {
            cufft_plan_put(p);
            return CUFFT_INVALID_VALUE;
        }
    } else {
        sign = p->desc.type == FFTL_R2C ? -1 : 1;
    }
    return cufft_execute(p, "cufftXtExec", input, output, sign);
}
