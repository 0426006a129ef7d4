/* exec.c: the stream operation every computing cuSOLVER call becomes.
 *
 * An entry point validates its arguments on the calling thread (the
 * statuses NVIDIA's cuSOLVER returns for bad input), fills a solver_op and
 * submits it on the handle's stream: it runs in order with the stream's
 * kernels and copies, or is captured into a graph. Its run:
 *   1. checks that the operands are device memory, snapshots them in
 *      verify mode (lib/common/check.h);
 *   2. calls the backend's LAPACK entries (routine->run) and writes the
 *      info they produced to devInfo (int, device memory), as cuSOLVER's
 *      kernels do;
 *   3. in verify mode compares every output (info included) with the C
 *      reference, accumulating in double (ref_dense.c, ref_spectral.c).
 * Calls do not wait for their op (every output is device memory), except
 * in verify mode, so that strict mode can return drift as the call's
 * status (CUSOLVER_STATUS_EXECUTION_FAILED).
 */
#include "cusolver_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

static cb_inspect_elem cmp_of(cb_blas_type t)
{
    return t == CB_BLAS_F32 || t == CB_BLAS_C32 ? CB_ELEM_F32 : CB_ELEM_F64;
}

cbl_operand solver_matrix(const char *name, uint64_t addr, int64_t rows, int64_t cols, int64_t ld, int out,
                          cb_blas_type t)
{
    return (cbl_operand){.name = name, .addr = addr, .bytes = cbl_matrix_bytes(rows, cols, ld, cb_blas_type_size(t)),
                         .out = out, .cmp = cmp_of(t)};
}

cbl_operand solver_vector(const char *name, uint64_t addr, int64_t n, int out, cb_blas_type t)
{
    return (cbl_operand){.name = name, .addr = addr, .bytes = n > 0 ? (size_t)n * cb_blas_type_size(t) : 0,
                         .out = out, .cmp = cmp_of(t)};
}

cbl_operand solver_ints(const char *name, uint64_t addr, int64_t n, int bytes, int out)
{
    return (cbl_operand){.name = name, .addr = addr, .bytes = n > 0 ? (size_t)n * (size_t)bytes : 0, .out = out,
                         .cmp = CB_ELEM_INT, .elem_bytes = (unsigned)bytes};
}

static cusolverStatus_t status_of(CUresult r)
{
    switch (r) {
    case CUDA_SUCCESS: return CUSOLVER_STATUS_SUCCESS;
    case CUDA_ERROR_NOT_SUPPORTED: return CUSOLVER_STATUS_NOT_SUPPORTED;
    case CUDA_ERROR_OUT_OF_MEMORY: return CUSOLVER_STATUS_ALLOC_FAILED;
    case CUDA_ERROR_NOT_INITIALIZED:
    case CUDA_ERROR_NO_DEVICE:
    case CUDA_ERROR_INVALID_CONTEXT: return CUSOLVER_STATUS_NOT_INITIALIZED;
    case CUDA_ERROR_INVALID_HANDLE:
    case CUDA_ERROR_INVALID_VALUE: return CUSOLVER_STATUS_INVALID_VALUE;
    default: return CUSOLVER_STATUS_EXECUTION_FAILED;
    }
}

static void op_release(cb_lib_op *lop) { free(lop); }

solver_op *solver_op_new(const solver_routine *r, const char *function, cb_blas_type t)
{
    solver_op *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->r = r;
    o->function = function;
    o->t = t;
    o->piv_bytes = 4;
    o->base.base.release = op_release;
    o->base.base.name = function;
    return o;
}

static CUresult op_run(cb_lib_op *lop)
{
    solver_op *o = (solver_op *)lop;
    o->base.ran = 1;
    o->base.status = CUSOLVER_STATUS_SUCCESS;
    cbl_operand ops[SOLVER_MAX_OPS];
    memset(ops, 0, sizeof ops);
    int nops = o->r->operands(o, ops);
    cbl_checked c = {.op = &o->base, .library = "cusolver", .function = o->function, .ops = ops, .nops = nops};
    snprintf(c.note, sizeof c.note, "%s m=%lld n=%lld", cb_blas_type_name(o->t), (long long)o->m, (long long)o->n);
    CUresult r = cbl_check_begin(&c);
    if (r != CUDA_SUCCESS) {
        o->base.status = CUSOLVER_STATUS_EXECUTION_FAILED;
        return r;   /* a stray pointer: sticky, as the GPU's fault would be */
    }
    cb_backend *b = o->base.backend;
    int64_t info = 0;
    r = o->r->run(o, b, &info);
    if (r != CUDA_SUCCESS) {
        cbl_check_abandon(&c);
        o->base.status = status_of(r);
        if (r == CUDA_ERROR_NOT_SUPPORTED)
            return cbl_refused(&o->base, CUSOLVER_LIB, o->function,
                               "the backend's library interface refused this type");
        return CUDA_SUCCESS;
    }
    if (o->info) {
        int v = (int)info;
        if (cbl_write(&o->base, o->info, &v, sizeof v) != CUDA_SUCCESS) {
            cbl_check_abandon(&c);
            return CUDA_ERROR_ILLEGAL_ADDRESS;
        }
    }
    int drift = cbl_check_end(&c, o->r->reference, o);
    if (drift && (o->base.sv->inspect_flags() & CB_INSPECT_STRICT)) {
        cbl_log(CB_LOG_ERROR, "strict: DRIFT in cusolver %s: the call fails with CUSOLVER_STATUS_EXECUTION_FAILED",
                o->function);
        o->base.status = CUSOLVER_STATUS_EXECUTION_FAILED;
        return o->in_graph ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS;
    }
    return CUDA_SUCCESS;
}

/* 1 when the backend of h's device has LAPACK entries; else logs. */
static int backend_ok(cusolverDnHandle_t h, const char *function)
{
    const cb_lib_services *s = cbl_services();
    cb_backend *b = s ? s->backend(h->ctx) : NULL;
    if (b && b->lib && b->lib->size >= offsetof(cb_backend_lib, lapack_syevd) + sizeof(void *) &&
        b->lib->lapack_getrf)
        return 1;
    cbl_unsupported_mode(CUSOLVER_LIB, function, "the device's backend has no LAPACK in its library interface");
    return 0;
}

cusolverStatus_t solver_submit(cusolverDnHandle_t h, solver_op *o)
{
    if (!backend_ok(h, o->function)) {
        op_release(&o->base.base);
        return CUSOLVER_STATUS_NOT_SUPPORTED;
    }
    o->base.base.run = op_run;
    int wait = (cbl_trace_flags & CB_INSPECT_VERIFY) != 0;
    const cb_lib_services *s = cbl_services();
    cb_stream *st;
    if (s && s->stream(h->ctx, (CUstream)h->stream, &st) == CUDA_SUCCESS && s->capturing(st))
        o->in_graph = 1;
    int captured = 0, status = 0;
    CUresult r = cbl_submit(h->ctx, (CUstream)h->stream, &o->base, wait, &captured, &status);
    if (r != CUDA_SUCCESS)
        return status_of(r);
    if (!wait || captured)
        return CUSOLVER_STATUS_SUCCESS;
    return status < 0 ? CUSOLVER_STATUS_EXECUTION_FAILED : (cusolverStatus_t)status;
}
