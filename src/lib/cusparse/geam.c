/* geam.c: csrgeam2, C = alpha A + beta B of m x n CSR matrices with
 * 32-bit indices, the legacy API's two steps (CuPy's sparse + and -):
 *
 *   cusparse<t>csrgeam2_bufferSizeExt  the workspace's size (a token: the
 *                                      backend needs none);
 *   cusparseXcsrgeam2Nnz               C's row offsets (in descrC's base)
 *                                      and C's nnz into nnzTotalDevHostPtr:
 *                                      host memory in host pointer mode
 *                                      (the call waits for it), device
 *                                      memory in stream order otherwise;
 *   cusparse<t>csrgeam2                C's columns, ascending in each row,
 *                                      and values, into the rows that C's
 *                                      offsets give; alpha and beta by the
 *                                      handle's pointer mode.
 *
 * C's pattern is the union of A's and B's whatever alpha and beta are (the
 * nnz step does not see them): with alpha = 0, C holds zeros where only A
 * has entries, and A's values are not read. The extent of C's arrays is
 * its offsets' last entry, read in stream order when the call runs
 * (sp_op.prepare), since the nnz step may still be queued.
 *
 * Bad input (the H200's answers, tests/lib/cusparse_geam): bufferSizeExt
 * checks only the handle. A NULL handle is NOT_INITIALIZED; in the nnz
 * and compute steps negative m, n, nnzA or nnzB, a NULL
 * descriptor or size pointer INVALID_VALUE; a matrix type other than
 * CUSPARSE_MATRIX_TYPE_GENERAL in any of the three descriptors
 * MATRIX_TYPE_NOT_SUPPORTED (NVIDIA's documentation: "only
 * CUSPARSE_MATRIX_TYPE_GENERAL is supported"; the status is the one
 * cusparseStatus_t documents for it). cubridge also answers INVALID_VALUE
 * for a NULL alpha or beta of csrgeam2 and a NULL array of nonzero extent,
 * which NVIDIA's kernels would fault on.
 */
#include "cusparse_internal.h"

#include <stddef.h>
#include <string.h>

#define A(p) ((uint64_t)(uintptr_t)(p))

static cusparseStatus_t geam_check(cusparseHandle_t h, int m, int n, const cusparseMatDescr_t da, int nnza,
                                   const cusparseMatDescr_t db, int nnzb, const cusparseMatDescr_t dc)
{
    cusparseStatus_t st = sp_handle_legacy(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (m < 0 || n < 0 || nnza < 0 || nnzb < 0 || !da || !db || !dc)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (da->type != CUSPARSE_MATRIX_TYPE_GENERAL || db->type != CUSPARSE_MATRIX_TYPE_GENERAL ||
        dc->type != CUSPARSE_MATRIX_TYPE_GENERAL)
        return CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED;
    return CUSPARSE_STATUS_SUCCESS;
}

/* A's and B's arrays: offsets always, columns and values (values only
 * when read) where they hold entries. */
static int arrays_ok(int nnz, const int *rowptr, const int *col, const void *val, int values)
{
    return rowptr && (nnz == 0 || (col && (!values || val)));
}

static cb_sparse csr(int m, int n, int nnz, const void *val, const int *rowptr, const int *col,
                     const cusparseMatDescr_t d, cb_blas_type t)
{
    return (cb_sparse){.format = CB_SP_CSR, .rows = m, .cols = n, .nnz = nnz, .offsets = A(rowptr),
                       .colind = A(col), .values = A(val), .off_bytes = 4, .idx_bytes = 4,
                       .base = d->base == CUSPARSE_INDEX_BASE_ONE, .type = t, .batch = 1};
}

/* The backend's table when it has sparse_geam, else NULL (counted). */
static const cb_backend_lib *geam_lib(cusparseHandle_t h, const char *function)
{
    const cb_backend_lib *lib = sp_backend_lib(h, function);
    if (!lib)
        return NULL;
    if (lib->size >= offsetof(cb_backend_lib, sparse_geam) + sizeof(void *) && lib->sparse_geam)
        return lib;
    cbl_unsupported_mode(CUSPARSE_LIB, function, "the device's backend has no sparse geam");
    return NULL;
}

static CUresult backend_geam(sp_op *o, cb_backend *b, int count_only, int64_t *nnz)
{
    if (!b->lib || b->lib->size < offsetof(cb_backend_lib, sparse_geam) + sizeof(void *) || !b->lib->sparse_geam)
        return CUDA_ERROR_NOT_SUPPORTED;
    return b->lib->sparse_geam(b, o->alpha, &o->a, o->beta, &o->b, &o->c, o->compute, count_only, nnz);
}

/* Validation and the views of the three matrices (C: offsets only). */
static cusparseStatus_t geam_op(cusparseHandle_t h, const char *fn, CUresult (*run)(sp_op *, cb_backend *), int m,
                                int n, const cusparseMatDescr_t da, int nnza, const void *va, const int *rpa,
                                const int *ca, const cusparseMatDescr_t db, int nnzb, const void *vb,
                                const int *rpb, const int *cb, const cusparseMatDescr_t dc, int *rpc, cb_blas_type t,
                                int values, sp_op **out)
{
    cusparseStatus_t st = geam_check(h, m, n, da, nnza, db, nnzb, dc);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (!arrays_ok(nnza, rpa, ca, va, values) || !arrays_ok(nnzb, rpb, cb, vb, values) || !rpc)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (!geam_lib(h, fn))
        return CUSPARSE_STATUS_NOT_SUPPORTED;
    sp_op *o = sp_op_new(fn, run);
    if (!o)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    o->compute = t;
    o->m = m, o->n = n;
    o->a = csr(m, n, nnza, values ? va : NULL, rpa, ca, da, t);
    o->b = csr(m, n, nnzb, values ? vb : NULL, rpb, cb, db, t);
    o->c = csr(m, n, 0, NULL, rpc, NULL, dc, t);
    sp_add_ints(o, "csrRowPtrA", o->a.offsets, (int64_t)m + 1, 0);
    sp_add_ints(o, "csrColIndA", o->a.colind, nnza, 0);
    if (values)
        sp_add_values(o, "csrValA", o->a.values, nnza, t, 0);
    sp_add_ints(o, "csrRowPtrB", o->b.offsets, (int64_t)m + 1, 0);
    sp_add_ints(o, "csrColIndB", o->b.colind, nnzb, 0);
    if (values)
        sp_add_values(o, "csrValB", o->b.values, nnzb, t, 0);
    sp_add_ints(o, "csrRowPtrC", o->c.offsets, (int64_t)m + 1, !values);
    o->reference = sp_ref_geam;
    *out = o;
    return CUSPARSE_STATUS_SUCCESS;
}

/* ---- the buffer size ------------------------------------------------------------------------- */

static cusparseStatus_t buffer_size(cusparseHandle_t h, int m, int n, const cusparseMatDescr_t da, int nnza,
                                    const cusparseMatDescr_t db, int nnzb, const cusparseMatDescr_t dc,
                                    size_t *size)
{
    /* only the handle is checked, as on the H200 (negative sizes and
     * non-general descriptors succeed here; the next two steps refuse them) */
    (void)m, (void)n, (void)da, (void)nnza, (void)db, (void)nnzb, (void)dc;
    cusparseStatus_t st = sp_handle_legacy(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (!size)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *size = 64;
    return CUSPARSE_STATUS_SUCCESS;
}

#define BUFFER_SIZE(T, t)                                                                                            \
    cusparseStatus_t cusparse##t##csrgeam2_bufferSizeExt(                                                            \
        cusparseHandle_t h, int m, int n, const T *alpha, const cusparseMatDescr_t da, int nnza, const T *va,       \
        const int *rpa, const int *ca, const T *beta, const cusparseMatDescr_t db, int nnzb, const T *vb,           \
        const int *rpb, const int *cb, const cusparseMatDescr_t dc, const T *vc, const int *rpc, const int *cc,     \
        size_t *size)                                                                                                \
    {                                                                                                                \
        (void)alpha, (void)va, (void)rpa, (void)ca, (void)beta, (void)vb, (void)rpb, (void)cb, (void)vc, (void)rpc, \
            (void)cc;                                                                                                \
        return buffer_size(h, m, n, da, nnza, db, nnzb, dc, size);                                                   \
    }

BUFFER_SIZE(float, S)
BUFFER_SIZE(double, D)
BUFFER_SIZE(cuComplex, C)
BUFFER_SIZE(cuDoubleComplex, Z)

/* ---- step 1: C's offsets and nnz ------------------------------------------------------------- */

static CUresult run_nnz(sp_op *o, cb_backend *b)
{
    int64_t nnz = 0;
    CUresult r = backend_geam(o, b, 1, &nnz);
    if (r != CUDA_SUCCESS)
        return r;
    int v = (int)nnz;
    if (o->result_host)
        memcpy(o->result_host, &v, sizeof v);
    else if (o->result_dev)
        return cbl_write(&o->base, o->result_dev, &v, sizeof v);
    return CUDA_SUCCESS;
}

cusparseStatus_t cusparseXcsrgeam2Nnz(cusparseHandle_t h, int m, int n, const cusparseMatDescr_t da, int nnza,
                                      const int *rpa, const int *ca, const cusparseMatDescr_t db, int nnzb,
                                      const int *rpb, const int *cb, const cusparseMatDescr_t dc, int *rpc,
                                      int *nnz_total, void *workspace)
{
    (void)workspace;
    sp_op *o = NULL;
    cusparseStatus_t st = geam_op(h, "cusparseXcsrgeam2Nnz", run_nnz, m, n, da, nnza, NULL, rpa, ca, db, nnzb, NULL,
                                  rpb, cb, dc, rpc, CB_BLAS_I32, 0, &o);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    o->count_only = 1;
    int host = h->pointer_mode == CUSPARSE_POINTER_MODE_HOST;
    if (nnz_total && host) {
        o->result_host = nnz_total;
        sp_add_host(o, "nnzTotal", nnz_total, sizeof(int), CB_ELEM_INT, 4);
    } else if (nnz_total) {
        o->result_dev = A(nnz_total);
        sp_add_ints(o, "nnzTotal", o->result_dev, 1, 1);
    }
    return sp_submit(h, o, host && nnz_total);
}

/* ---- step 2: C's columns and values ---------------------------------------------------------- */

/* C's arrays reach to its last offset: read now, in stream order. */
static CUresult prepare_geam(sp_op *o)
{
    uint64_t last = o->c.offsets + (uint64_t)o->c.rows * 4;
    int32_t end = 0;
    if (!o->base.sv->mem_valid(o->c.offsets, ((size_t)o->c.rows + 1) * 4))
        return CUDA_SUCCESS;   /* cbl_check_begin reports the offsets' operand */
    if (cbl_read(&o->base, &end, last, sizeof end) != CUDA_SUCCESS)
        return CUDA_ERROR_ILLEGAL_ADDRESS;
    int64_t extent = (int64_t)end - o->c.base;
    o->c.nnz = extent > 0 ? extent : 0;
    if (o->c.nnz > 0 && (!o->c.colind || !o->c.values)) {
        cbl_log(CB_LOG_ERROR, "cusparse %s: C holds %lld entries but its columns or values are NULL: the call fails "
                              "with an illegal address, as on the GPU",
                o->function, (long long)o->c.nnz);
        return CUDA_ERROR_ILLEGAL_ADDRESS;
    }
    sp_add_ints(o, "csrColIndC", o->c.colind, o->c.nnz, 1);
    sp_add_values(o, "csrValC", o->c.values, o->c.nnz, o->compute, 1);
    return CUDA_SUCCESS;
}

static CUresult run_geam(sp_op *o, cb_backend *b) { return backend_geam(o, b, 0, NULL); }

static cusparseStatus_t geam(cusparseHandle_t h, const char *fn, cb_blas_type t, int m, int n, const void *alpha,
                             const cusparseMatDescr_t da, int nnza, const void *va, const int *rpa, const int *ca,
                             const void *beta, const cusparseMatDescr_t db, int nnzb, const void *vb, const int *rpb,
                             const int *cb, const cusparseMatDescr_t dc, void *vc, int *rpc, int *cc)
{
    cusparseStatus_t st = geam_check(h, m, n, da, nnza, db, nnzb, dc);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (!alpha || !beta)
        return CUSPARSE_STATUS_INVALID_VALUE;
    sp_op *o = NULL;
    st = geam_op(h, fn, run_geam, m, n, da, nnza, va, rpa, ca, db, nnzb, vb, rpb, cb, dc, rpc, t, 1, &o);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    o->c.colind = A(cc);
    o->c.values = A(vc);
    o->prepare = prepare_geam;
    sp_scalars(h, o, alpha, beta);
    return sp_submit(h, o, 0);
}

#define GEAM(T, t, bt)                                                                                               \
    cusparseStatus_t cusparse##t##csrgeam2(cusparseHandle_t h, int m, int n, const T *alpha,                       \
                                           const cusparseMatDescr_t da, int nnza, const T *va, const int *rpa,      \
                                           const int *ca, const T *beta, const cusparseMatDescr_t db, int nnzb,     \
                                           const T *vb, const int *rpb, const int *cb, const cusparseMatDescr_t dc, \
                                           T *vc, int *rpc, int *cc, void *buf)                                     \
    {                                                                                                                \
        (void)buf;                                                                                                   \
        return geam(h, "cusparse" #t "csrgeam2", bt, m, n, alpha, da, nnza, va, rpa, ca, beta, db, nnzb, vb, rpb,   \
                    cb, dc, vc, rpc, cc);                                                                            \
    }

GEAM(float, S, CB_BLAS_F32)
GEAM(double, D, CB_BLAS_F64)
GEAM(cuComplex, C, CB_BLAS_C32)
GEAM(cuDoubleComplex, Z, CB_BLAS_C64)
