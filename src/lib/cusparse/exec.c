/* exec.c: the stream operation every computing cuSPARSE call becomes.
 *
 * An entry point validates its arguments on the calling thread, fills an
 * sp_op (the backend's cb_sparse / cb_dense views, the operands' extents,
 * the scalars) and submits it on the handle's stream, in order with the
 * stream's kernels and copies, or captured into a graph. Its run checks
 * that every operand is device memory (snapshots them in verify mode),
 * reads device scalars (CUSPARSE_POINTER_MODE_DEVICE), calls the backend's
 * sparse kernel and, in verify mode, compares the outputs with the C
 * reference in double (ref.c). Calls whose results the host needs (the nnz
 * of DenseToSparse_analysis and SpGEMM_compute) wait for their op.
 */
#include "cusparse_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

static cb_inspect_elem cmp_of(cb_blas_type t)
{
    return t == CB_BLAS_F64 || t == CB_BLAS_C64 ? CB_ELEM_F64 : CB_ELEM_F32;
}

static void add(sp_op *o, cbl_operand op)
{
    if (o->nops < SP_MAX_OPS && op.bytes > 0)
        o->ops[o->nops++] = op;
}

void sp_add_ints(sp_op *o, const char *name, uint64_t addr, int64_t n, int out)
{
    add(o, (cbl_operand){.name = name, .addr = addr, .bytes = n > 0 ? (size_t)n * 4 : 0, .out = out,
                         .cmp = CB_ELEM_INT, .elem_bytes = 4});
}

void sp_add_host(sp_op *o, const char *name, void *host, size_t bytes, cb_inspect_elem cmp, unsigned elem_bytes)
{
    if (o->nops < SP_MAX_OPS)
        o->ops[o->nops++] = (cbl_operand){.name = name, .host = host, .bytes = bytes, .out = 1, .cmp = cmp,
                                          .elem_bytes = elem_bytes};
}

void sp_add_bytes(sp_op *o, const char *name, uint64_t addr, size_t bytes, int out)
{
    add(o, (cbl_operand){.name = name, .addr = addr, .bytes = bytes, .out = out, .cmp = CB_ELEM_BYTES,
                         .elem_bytes = 1});
}

void sp_add_values(sp_op *o, const char *name, uint64_t addr, int64_t n, cb_blas_type t, int out)
{
    add(o, (cbl_operand){.name = name, .addr = addr, .bytes = n > 0 ? (size_t)n * cb_blas_type_size(t) : 0,
                         .out = out, .cmp = cmp_of(t)});
}

void sp_add_idx(sp_op *o, const char *name, uint64_t addr, int64_t n, int bytes, int out)
{
    add(o, (cbl_operand){.name = name, .addr = addr, .bytes = n > 0 ? (size_t)n * (size_t)bytes : 0, .out = out,
                         .cmp = CB_ELEM_INT, .elem_bytes = (unsigned)bytes});
}

void sp_add_sparse(sp_op *o, const char *name, const cb_sparse *s, int out)
{
    int64_t batch = s->batch > 1 ? s->batch : 1;
    int64_t nnz = s->nnz + (batch - 1) * s->val_stride;
    (void)name;
    switch (s->format) {
    case CB_SP_CSR:
        sp_add_idx(o, "offsets", s->offsets, s->rows + 1 + (batch - 1) * s->off_stride, s->off_bytes, out);
        sp_add_idx(o, "columns", s->colind, nnz, s->idx_bytes, out);
        break;
    case CB_SP_CSC:
        sp_add_idx(o, "offsets", s->offsets, s->cols + 1 + (batch - 1) * s->off_stride, s->off_bytes, out);
        sp_add_idx(o, "rows", s->rowind, nnz, s->idx_bytes, out);
        break;
    case CB_SP_COO:
        sp_add_idx(o, "rows", s->rowind, nnz, s->idx_bytes, out);
        sp_add_idx(o, "columns", s->colind, nnz, s->idx_bytes, out);
        break;
    default:
        sp_add_idx(o, "indices", s->colind, s->nnz, s->idx_bytes, out);
        break;
    }
    sp_add_values(o, "values", s->values, nnz, s->type, out);
}

void sp_add_dense(sp_op *o, const char *name, const cb_dense *d, int out)
{
    int64_t r = d->row_major ? d->cols : d->rows, c = d->row_major ? d->rows : d->cols;
    size_t w = cb_blas_type_size(d->type);
    size_t one = cbl_matrix_bytes(r, c, d->ld, w);
    size_t bytes = d->batch > 1 ? (size_t)(d->batch - 1) * (size_t)d->stride * w + one : one;
    add(o, (cbl_operand){.name = name, .addr = d->values, .bytes = bytes, .out = out, .cmp = cmp_of(d->type)});
}

static void op_release(cb_lib_op *lop) { free(lop); }

sp_op *sp_op_new(const char *function, CUresult (*run)(sp_op *, cb_backend *))
{
    sp_op *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->function = function;
    o->run = run;
    o->base.base.release = op_release;
    o->base.base.name = function;
    return o;
}

void sp_scalars(cusparseHandle_t h, sp_op *o, const void *alpha, const void *beta)
{
    size_t w = cb_blas_type_size(o->compute);
    if (h->pointer_mode == CUSPARSE_POINTER_MODE_DEVICE) {
        o->alpha_dev = (uint64_t)(uintptr_t)alpha;
        o->beta_dev = (uint64_t)(uintptr_t)beta;
    } else {
        if (alpha)
            memcpy(o->alpha, alpha, w);
        if (beta)
            memcpy(o->beta, beta, w);
    }
}

static cusparseStatus_t status_of(CUresult r)
{
    switch (r) {
    case CUDA_SUCCESS: return CUSPARSE_STATUS_SUCCESS;
    case CUDA_ERROR_NOT_SUPPORTED: return CUSPARSE_STATUS_NOT_SUPPORTED;
    case CUDA_ERROR_OUT_OF_MEMORY: return CUSPARSE_STATUS_ALLOC_FAILED;
    case CUDA_ERROR_INVALID_VALUE: return CUSPARSE_STATUS_INVALID_VALUE;
    default: return CUSPARSE_STATUS_EXECUTION_FAILED;
    }
}

static CUresult op_run(cb_lib_op *lop)
{
    sp_op *o = (sp_op *)lop;
    o->base.ran = 1;
    o->base.status = CUSPARSE_STATUS_SUCCESS;
    if (o->prepare && o->prepare(o) != CUDA_SUCCESS) {
        o->base.status = CUSPARSE_STATUS_EXECUTION_FAILED;
        return CUDA_ERROR_ILLEGAL_ADDRESS;
    }
    cbl_checked c = {.op = &o->base, .library = "cusparse", .function = o->function, .ops = o->ops,
                     .nops = o->nops};
    snprintf(c.note, sizeof c.note, "%s m=%lld n=%lld nnz=%lld", cb_blas_type_name(o->compute),
             (long long)o->a.rows, (long long)o->a.cols, (long long)o->a.nnz);
    CUresult r = cbl_check_begin(&c);
    if (r != CUDA_SUCCESS) {
        o->base.status = CUSPARSE_STATUS_EXECUTION_FAILED;
        return r;
    }
    size_t w = cb_blas_type_size(o->compute);
    if ((o->alpha_dev && cbl_read(&o->base, o->alpha, o->alpha_dev, w) != CUDA_SUCCESS) ||
        (o->beta_dev && cbl_read(&o->base, o->beta, o->beta_dev, w) != CUDA_SUCCESS)) {
        cbl_check_abandon(&c);
        return CUDA_ERROR_ILLEGAL_ADDRESS;
    }
    r = o->run(o, o->base.backend);
    if (r != CUDA_SUCCESS) {
        cbl_check_abandon(&c);
        o->base.status = status_of(r);
        if (r == CUDA_ERROR_NOT_SUPPORTED)
            return cbl_refused(&o->base, CUSPARSE_LIB, o->function, "the backend's sparse kernel refused this form");
        return r == CUDA_ERROR_ILLEGAL_ADDRESS ? r : CUDA_SUCCESS;
    }
    int drift = cbl_check_end(&c, o->reference, o);
    if (drift && (o->base.sv->inspect_flags() & CB_INSPECT_STRICT)) {
        cbl_log(CB_LOG_ERROR, "strict: DRIFT in cusparse %s: the call fails with CUSPARSE_STATUS_EXECUTION_FAILED",
                o->function);
        o->base.status = CUSPARSE_STATUS_EXECUTION_FAILED;
        return o->in_graph ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS;
    }
    return CUDA_SUCCESS;
}

const cb_backend_lib *sp_backend_lib(cusparseHandle_t h, const char *function)
{
    const cb_lib_services *s = cbl_services();
    cb_backend *b = s ? s->backend(h->ctx) : NULL;
    if (b && b->lib && b->lib->size >= offsetof(cb_backend_lib, spgemm_copy) + sizeof(void *) && b->lib->sparse_mv)
        return b->lib;
    cbl_unsupported_mode(CUSPARSE_LIB, function, "the device's backend has no sparse kernels");
    return NULL;
}

cusparseStatus_t sp_submit(cusparseHandle_t h, sp_op *o, int wait)
{
    if (!sp_backend_lib(h, o->function)) {
        op_release(&o->base.base);
        return CUSPARSE_STATUS_NOT_SUPPORTED;
    }
    o->base.base.run = op_run;
    wait |= (cbl_trace_flags & CB_INSPECT_VERIFY) != 0;
    const cb_lib_services *s = cbl_services();
    cb_stream *st;
    if (s && s->stream(h->ctx, (CUstream)h->stream, &st) == CUDA_SUCCESS && s->capturing(st))
        o->in_graph = 1;
    int captured = 0, status = 0;
    CUresult r = cbl_submit(h->ctx, (CUstream)h->stream, &o->base, wait, &captured, &status);
    if (r != CUDA_SUCCESS)
        return status_of(r);
    if (!wait || captured)
        return CUSPARSE_STATUS_SUCCESS;
    return status < 0 ? CUSPARSE_STATUS_EXECUTION_FAILED : (cusparseStatus_t)status;
}
