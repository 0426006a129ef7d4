/* cpu_sparse.c: the CPU backend's sparse kernels (backend_lib.h, "sparse
 * kernels"), cuSPARSE's generic API, conversions and geam as plain loops on the
 * host views of device memory (the CPU's device memory is host memory).
 *
 * Values are read into complex doubles and products accumulate in double
 * (complex), then are stored in the output's type: the result is at least
 * as accurate as cuSPARSE's single-precision accumulation. Indices are 16,
 * 32 or 64 bits wide (idx_bytes 2, 4, 8), base 0 or 1.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/backend_lib.h"
#include "backend/blas_elem.h"
#include "backend/cpu/cpu_lib.h"

#define PTR(a) ((void *)(uintptr_t)(a))

typedef struct { double re, im; } zd;

/* Element i of a vector of type t at base. Through memcpy: a scalar the
 * caller hands over (alpha, beta) need not be aligned to its type. */
static zd ld_v(cb_blas_type t, uint64_t base, int64_t i)
{
    const unsigned char *p = PTR(base);
    float f[2];
    double d[2];
    switch (t) {
    case CB_BLAS_F32: memcpy(f, p + 4 * i, 4); return (zd){f[0], 0};
    case CB_BLAS_F64: memcpy(d, p + 8 * i, 8); return (zd){d[0], 0};
    case CB_BLAS_C32: memcpy(f, p + 8 * i, 8); return (zd){f[0], f[1]};
    default: memcpy(d, p + 16 * i, 16); return (zd){d[0], d[1]};
    }
}

static void st_v(cb_blas_type t, uint64_t base, int64_t i, zd v)
{
    unsigned char *p = PTR(base);
    float f[2] = {(float)v.re, (float)v.im};
    double d[2] = {v.re, v.im};
    switch (t) {
    case CB_BLAS_F32: memcpy(p + 4 * i, f, 4); break;
    case CB_BLAS_F64: memcpy(p + 8 * i, d, 8); break;
    case CB_BLAS_C32: memcpy(p + 8 * i, f, 8); break;
    default: memcpy(p + 16 * i, d, 16); break;
    }
}

static int64_t ld_i(uint64_t base, int bytes, int64_t i)
{
    switch (bytes) {
    case 2: return ((const uint16_t *)PTR(base))[i];
    case 8: return ((const int64_t *)PTR(base))[i];
    default: return ((const int32_t *)PTR(base))[i];
    }
}

static void st_i(uint64_t base, int bytes, int64_t i, int64_t v)
{
    switch (bytes) {
    case 2: ((uint16_t *)PTR(base))[i] = (uint16_t)v; break;
    case 8: ((int64_t *)PTR(base))[i] = v; break;
    default: ((int32_t *)PTR(base))[i] = (int32_t)v; break;
    }
}

static zd zmul(zd a, zd b) { return (zd){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
static zd zadd(zd a, zd b) { return (zd){a.re + b.re, a.im + b.im}; }
static zd zconj(zd a) { return (zd){a.re, -a.im}; }
static int zzero(zd a) { return a.re == 0 && a.im == 0; }

static zd scalar(cb_blas_type t, const void *p)
{
    return ld_v(t, (uint64_t)(uintptr_t)p, 0);
}

/* Calls f(ctx, row, col, value) for every stored entry of batch entry bi. */
typedef void entry_fn(void *ctx, int64_t r, int64_t c, zd v);

static int each_entry(const cb_sparse *a, int64_t bi, entry_fn *f, void *ctx)
{
    uint64_t off = a->offsets + (uint64_t)(bi * a->off_stride * a->off_bytes);
    uint64_t ri = a->rowind + (uint64_t)(bi * a->idx_stride * a->idx_bytes);
    uint64_t ci = a->colind + (uint64_t)(bi * a->idx_stride * a->idx_bytes);
    uint64_t val = a->values + (uint64_t)(bi * a->val_stride * (int64_t)cb_blas_type_size(a->type));
    switch (a->format) {
    case CB_SP_CSR:
        for (int64_t r = 0; r < a->rows; r++)
            for (int64_t k = ld_i(off, a->off_bytes, r) - a->base; k < ld_i(off, a->off_bytes, r + 1) - a->base; k++)
                f(ctx, r, ld_i(ci, a->idx_bytes, k) - a->base, ld_v(a->type, val, k));
        return 0;
    case CB_SP_CSC:
        for (int64_t c = 0; c < a->cols; c++)
            for (int64_t k = ld_i(off, a->off_bytes, c) - a->base; k < ld_i(off, a->off_bytes, c + 1) - a->base; k++)
                f(ctx, ld_i(ri, a->idx_bytes, k) - a->base, c, ld_v(a->type, val, k));
        return 0;
    case CB_SP_COO:
        for (int64_t k = 0; k < a->nnz; k++)
            f(ctx, ld_i(ri, a->idx_bytes, k) - a->base, ld_i(ci, a->idx_bytes, k) - a->base, ld_v(a->type, val, k));
        return 0;
    default: return -1;
    }
}

/* ---- SpMV / SpMM ------------------------------------------------------------------ */

typedef struct mm_ctx {
    int trans_a;          /* 0 N, 1 T, 2 C */
    zd *acc;              /* op(A) rows x ncols, column-major */
    int64_t rows, ncols;  /* of the accumulator */
    const cb_dense *b;    /* NULL: a vector x */
    int trans_b;
    int64_t bi;
} mm_ctx;

static zd dense_at(const cb_dense *d, int64_t bi, int64_t i, int64_t j)
{
    int64_t idx = d->row_major ? i * d->ld + j : i + j * d->ld;
    return ld_v(d->type, d->values, bi * d->stride + idx);
}

static void dense_put(const cb_dense *d, int64_t bi, int64_t i, int64_t j, zd v)
{
    int64_t idx = d->row_major ? i * d->ld + j : i + j * d->ld;
    st_v(d->type, d->values, bi * d->stride + idx, v);
}

static void mm_entry(void *p, int64_t r, int64_t c, zd v)
{
    mm_ctx *m = p;
    if (m->trans_a) {
        int64_t t = r;
        r = c;
        c = t;
        if (m->trans_a == 2)
            v = zconj(v);
    }
    /* an index outside the operands' shapes (the caller's data; on a GPU an
     * illegal address or garbage) is left out rather than read past them */
    int64_t brows = m->b ? (m->trans_b ? m->b->cols : m->b->rows) : 0;
    if (r < 0 || r >= m->rows || (m->b && (c < 0 || c >= brows)))
        return;
    /* op(A)(r, c) = v: acc(r, j) += v * op(B)(c, j) */
    for (int64_t j = 0; j < m->ncols; j++) {
        zd bv;
        if (!m->b)
            bv = (zd){0, 0};
        else if (m->trans_b == 0)
            bv = dense_at(m->b, m->bi, c, j);
        else {
            bv = dense_at(m->b, m->bi, j, c);
            if (m->trans_b == 2)
                bv = zconj(bv);
        }
        m->acc[r + j * m->rows] = zadd(m->acc[r + j * m->rows], zmul(v, bv));
    }
}

static CUresult mm_common(int trans_a, int trans_b, const void *alpha, const cb_sparse *a, const cb_dense *bm,
                          const void *beta, const cb_dense *c, cb_blas_type compute)
{
    int64_t rows = c->rows, ncols = c->cols;
    zd al = scalar(compute, alpha), be = scalar(compute, beta);
    zd *acc = calloc((size_t)(rows * ncols) + 1, sizeof *acc);
    if (!acc)
        return CUDA_ERROR_OUT_OF_MEMORY;
    int64_t batches = c->batch > 0 ? c->batch : 1;
    CUresult r = CUDA_SUCCESS;
    for (int64_t bi = 0; bi < batches && r == CUDA_SUCCESS; bi++) {
        memset(acc, 0, (size_t)(rows * ncols) * sizeof *acc);
        mm_ctx m = {trans_a, acc, rows, ncols, bm, trans_b, bi};
        int64_t abi = a->batch > 1 ? bi : 0;
        if (each_entry(a, abi, mm_entry, &m) != 0) {
            r = CUDA_ERROR_NOT_SUPPORTED;
            break;
        }
        for (int64_t j = 0; j < ncols; j++)
            for (int64_t i = 0; i < rows; i++) {
                zd v = zmul(al, acc[i + j * rows]);
                if (!zzero(be))
                    v = zadd(v, zmul(be, dense_at(c, bi, i, j)));
                dense_put(c, bi, i, j, v);
            }
    }
    free(acc);
    return r;
}

static CUresult cpu_sparse_mv(struct cb_backend *b, int trans, const void *alpha, const cb_sparse *a, const cb_dense *x,
                              const void *beta, const cb_dense *y, cb_blas_type compute)
{
    (void)b;
    /* x as an n x 1 column-major matrix, y as m x 1 */
    cb_dense xm = *x, ym = *y;
    xm.cols = ym.cols = 1;
    xm.ld = xm.rows > 0 ? xm.rows : 1;
    ym.ld = ym.rows > 0 ? ym.rows : 1;
    xm.row_major = ym.row_major = 0;
    xm.batch = ym.batch = 1;
    return mm_common(trans, 0, alpha, a, &xm, beta, &ym, compute);
}

static CUresult cpu_sparse_mm(struct cb_backend *b, int trans_a, int trans_b, const void *alpha, const cb_sparse *a,
                              const cb_dense *bm, const void *beta, const cb_dense *c, cb_blas_type compute)
{
    (void)b;
    return mm_common(trans_a, trans_b, alpha, a, bm, beta, c, compute);
}

/* ---- sparse vectors ----------------------------------------------------------------- */

static CUresult cpu_sparse_vec(struct cb_backend *b, int kind, const cb_sparse *x, const cb_dense *y,
                               const void *alpha, const void *beta, void *result, cb_blas_type compute)
{
    (void)b;
    zd sum = {0, 0};
    if (kind == CB_SPVEC_AXPBY) {
        /* y = alpha x + beta y: y scaled everywhere, x added at its indices */
        zd be = scalar(compute, beta);
        for (int64_t i = 0; i < y->rows; i++)
            st_v(y->type, y->values, i, zzero(be) ? (zd){0, 0} : zmul(be, ld_v(y->type, y->values, i)));
    }
    for (int64_t k = 0; k < x->nnz; k++) {
        int64_t i = ld_i(x->colind, x->idx_bytes, k) - x->base;
        switch (kind) {
        case CB_SPVEC_AXPBY: {
            zd al = scalar(compute, alpha);
            st_v(y->type, y->values, i, zadd(ld_v(y->type, y->values, i), zmul(al, ld_v(x->type, x->values, k))));
            break;
        }
        case CB_SPVEC_GATHER: st_v(x->type, x->values, k, ld_v(y->type, y->values, i)); break;
        case CB_SPVEC_SCATTER: st_v(y->type, y->values, i, ld_v(x->type, x->values, k)); break;
        case CB_SPVEC_DOT: sum = zadd(sum, zmul(ld_v(x->type, x->values, k), ld_v(y->type, y->values, i))); break;
        case CB_SPVEC_DOTC:
            sum = zadd(sum, zmul(zconj(ld_v(x->type, x->values, k)), ld_v(y->type, y->values, i)));
            break;
        default: return CUDA_ERROR_NOT_SUPPORTED;
        }
    }
    if ((kind == CB_SPVEC_DOT || kind == CB_SPVEC_DOTC) && result)
        st_v(compute, (uint64_t)(uintptr_t)result, 0, sum);
    return CUDA_SUCCESS;
}

/* ---- conversions ---------------------------------------------------------------------- */

static void dense_entry(void *p, int64_t r, int64_t c, zd v)
{
    const cb_dense *d = p;
    dense_put(d, 0, r, c, zadd(dense_at(d, 0, r, c), v));
}

static CUresult cpu_sparse_to_dense(struct cb_backend *b, const cb_sparse *a, const cb_dense *d)
{
    (void)b;
    for (int64_t j = 0; j < d->cols; j++)
        for (int64_t i = 0; i < d->rows; i++)
            dense_put(d, 0, i, j, (zd){0, 0});
    return each_entry(a, 0, dense_entry, (void *)d) == 0 ? CUDA_SUCCESS : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult cpu_sparse_from_dense(struct cb_backend *b, const cb_dense *d, const cb_sparse *a, int count_only,
                                      int64_t *nnz)
{
    (void)b;
    int64_t k = 0;
    int csc = a->format == CB_SP_CSC, coo = a->format == CB_SP_COO;
    if (a->format != CB_SP_CSR && !csc && !coo)
        return CUDA_ERROR_NOT_SUPPORTED;
    int64_t outer = csc ? d->cols : d->rows, inner = csc ? d->rows : d->cols;
    for (int64_t o = 0; o < outer; o++) {
        if (!coo && count_only)
            st_i(a->offsets, a->off_bytes, o, k + a->base);
        for (int64_t in = 0; in < inner; in++) {
            int64_t i = csc ? in : o, j = csc ? o : in;
            zd v = dense_at(d, 0, i, j);
            if (zzero(v))
                continue;
            if (!count_only) {
                if (coo) {
                    st_i(a->rowind, a->idx_bytes, k, i + a->base);
                    st_i(a->colind, a->idx_bytes, k, j + a->base);
                } else {
                    st_i(csc ? a->rowind : a->colind, a->idx_bytes, k, (csc ? i : j) + a->base);
                }
                st_v(a->type, a->values, k, v);
            }
            k++;
        }
    }
    if (!coo && count_only)
        st_i(a->offsets, a->off_bytes, outer, k + a->base);
    *nnz = k;
    return CUDA_SUCCESS;
}

static CUresult cpu_sparse_csr2csc(struct cb_backend *b, cb_blas_type t, int64_t m, int64_t n, int64_t nnz,
                                   uint64_t val, uint64_t rowptr, uint64_t colind, uint64_t cscval, uint64_t cscptr,
                                   uint64_t cscrow, int values, int base)
{
    (void)b;
    (void)nnz;
    int64_t *count = calloc((size_t)n + 1, sizeof *count);
    if (!count)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (int64_t r = 0; r < m; r++)
        for (int64_t k = ld_i(rowptr, 4, r) - base; k < ld_i(rowptr, 4, r + 1) - base; k++)
            count[ld_i(colind, 4, k) - base + 1]++;
    for (int64_t c = 0; c < n; c++)
        count[c + 1] += count[c];
    for (int64_t c = 0; c <= n; c++)
        st_i(cscptr, 4, c, count[c] + base);
    /* stable: rows ascend within each column */
    for (int64_t r = 0; r < m; r++)
        for (int64_t k = ld_i(rowptr, 4, r) - base; k < ld_i(rowptr, 4, r + 1) - base; k++) {
            int64_t c = ld_i(colind, 4, k) - base, dst = count[c]++;
            st_i(cscrow, 4, dst, r + base);
            if (values)
                st_v(t, cscval, dst, ld_v(t, val, k));
        }
    free(count);
    return CUDA_SUCCESS;
}

typedef struct sort_key {
    int64_t a, b, pos;
} sort_key;

static int key_cmp(const void *x, const void *y)
{
    const sort_key *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return p->pos < q->pos ? -1 : p->pos > q->pos;
}

static CUresult cpu_sparse_sort(struct cb_backend *b, int kind, int64_t m, int64_t n, int64_t nnz, uint64_t ptr,
                                uint64_t ind, uint64_t perm, int base)
{
    (void)b;
    if (nnz <= 0)
        return CUDA_SUCCESS;
    sort_key *k = malloc((size_t)nnz * sizeof *k);
    if (!k)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (kind == CB_SPSORT_CSR || kind == CB_SPSORT_CSC) {
        int64_t outer = kind == CB_SPSORT_CSR ? m : n;
        for (int64_t o = 0; o < outer; o++)
            for (int64_t e = ld_i(ptr, 4, o) - base; e < ld_i(ptr, 4, o + 1) - base; e++)
                k[e] = (sort_key){o, ld_i(ind, 4, e), e};
    } else {
        for (int64_t e = 0; e < nnz; e++) {
            int64_t r = ld_i(ptr, 4, e), c = ld_i(ind, 4, e);
            k[e] = kind == CB_SPSORT_COO_ROW ? (sort_key){r, c, e} : (sort_key){c, r, e};
        }
    }
    qsort(k, (size_t)nnz, sizeof *k, key_cmp);
    int64_t *pv = NULL;
    if (perm) {
        pv = malloc((size_t)nnz * sizeof *pv);
        if (!pv) {
            free(k);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        for (int64_t e = 0; e < nnz; e++)
            pv[e] = ld_i(perm, 4, k[e].pos);
    }
    for (int64_t e = 0; e < nnz; e++) {
        if (kind == CB_SPSORT_CSR || kind == CB_SPSORT_CSC)
            st_i(ind, 4, e, k[e].b);
        else if (kind == CB_SPSORT_COO_ROW) {
            st_i(ptr, 4, e, k[e].a);
            st_i(ind, 4, e, k[e].b);
        } else {
            st_i(ptr, 4, e, k[e].b);
            st_i(ind, 4, e, k[e].a);
        }
        if (pv)
            st_i(perm, 4, e, pv[e]);
    }
    free(pv);
    free(k);
    return CUDA_SUCCESS;
}

static CUresult cpu_sparse_compress(struct cb_backend *b, int expand, int64_t m, int64_t nnz, uint64_t rows,
                                    uint64_t offsets, int base)
{
    (void)b;
    if (expand) {
        for (int64_t r = 0; r < m; r++)
            for (int64_t k = ld_i(offsets, 4, r) - base; k < ld_i(offsets, 4, r + 1) - base; k++)
                st_i(rows, 4, k, r + base);
        return CUDA_SUCCESS;
    }
    int64_t k = 0;
    for (int64_t r = 0; r <= m; r++) {
        while (k < nnz && ld_i(rows, 4, k) - base < r)
            k++;
        st_i(offsets, 4, r, k + base);
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_sparse_identity(struct cb_backend *b, int64_t n, uint64_t p)
{
    (void)b;
    for (int64_t i = 0; i < n; i++)
        st_i(p, 4, i, i);
    return CUDA_SUCCESS;
}

/* ---- SpGEMM (Gustavson's row by row product) --------------------------------------------- */

static CUresult cpu_spgemm_products(struct cb_backend *b, const cb_sparse *a, const cb_sparse *bm, int64_t *products)
{
    (void)b;
    int64_t p = 0;
    for (int64_t r = 0; r < a->rows; r++)
        for (int64_t k = ld_i(a->offsets, a->off_bytes, r) - a->base;
             k < ld_i(a->offsets, a->off_bytes, r + 1) - a->base; k++) {
            int64_t c = ld_i(a->colind, a->idx_bytes, k) - a->base;
            p += ld_i(bm->offsets, bm->off_bytes, c + 1) - ld_i(bm->offsets, bm->off_bytes, c);
        }
    *products = p;
    return CUDA_SUCCESS;
}

static CUresult cpu_spgemm_compute(struct cb_backend *b, const void *alpha, const cb_sparse *a, const cb_sparse *bm,
                                   cb_blas_type compute, uint64_t scratch, int64_t *nnz)
{
    (void)b;
    int64_t n = bm->cols;
    int64_t products = 0;
    cpu_spgemm_products(b, a, bm, &products);
    int64_t *hdr = PTR(scratch), *off = hdr + 1;
    hdr[0] = products;
    int64_t *cols = off + a->rows + 1;
    uint64_t vals = (uint64_t)(uintptr_t)(cols + products);
    zd al = scalar(compute, alpha);
    zd *acc = calloc((size_t)n + 1, sizeof *acc);
    int64_t *mark = malloc(((size_t)n + 1) * sizeof *mark);
    if (!acc || !mark) {
        free(acc);
        free(mark);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (int64_t j = 0; j < n; j++)
        mark[j] = -1;
    int64_t k_out = 0;
    for (int64_t r = 0; r < a->rows; r++) {
        off[r] = k_out;
        int64_t start = k_out;
        for (int64_t k = ld_i(a->offsets, a->off_bytes, r) - a->base;
             k < ld_i(a->offsets, a->off_bytes, r + 1) - a->base; k++) {
            int64_t c = ld_i(a->colind, a->idx_bytes, k) - a->base;
            zd av = ld_v(a->type, a->values, k);
            for (int64_t q = ld_i(bm->offsets, bm->off_bytes, c) - bm->base;
                 q < ld_i(bm->offsets, bm->off_bytes, c + 1) - bm->base; q++) {
                int64_t j = ld_i(bm->colind, bm->idx_bytes, q) - bm->base;
                if (mark[j] != r) {
                    mark[j] = r;
                    acc[j] = (zd){0, 0};
                    cols[k_out++] = j;
                }
                acc[j] = zadd(acc[j], zmul(av, ld_v(bm->type, bm->values, q)));
            }
        }
        /* columns ascending within the row */
        for (int64_t x = start + 1; x < k_out; x++) {
            int64_t v = cols[x], y = x;
            while (y > start && cols[y - 1] > v) {
                cols[y] = cols[y - 1];
                y--;
            }
            cols[y] = v;
        }
        for (int64_t x = start; x < k_out; x++)
            st_v(compute, vals, x, zmul(al, acc[cols[x]]));
    }
    off[a->rows] = k_out;
    free(acc);
    free(mark);
    *nnz = k_out;
    return CUDA_SUCCESS;
}

static CUresult cpu_spgemm_copy(struct cb_backend *b, uint64_t scratch, const cb_sparse *c)
{
    (void)b;
    /* spgemm_compute's layout: the number of products, the row offsets,
     * the columns (room for every product), the values */
    const int64_t *hdr = PTR(scratch), *off = hdr + 1;
    int64_t products = hdr[0], nnz = off[c->rows];
    const int64_t *cols = off + c->rows + 1;
    uint64_t vals = (uint64_t)(uintptr_t)(cols + products);
    for (int64_t r = 0; r <= c->rows; r++)
        st_i(c->offsets, c->off_bytes, r, off[r] + c->base);
    for (int64_t k = 0; k < nnz; k++) {
        st_i(c->colind, c->idx_bytes, k, cols[k] + c->base);
        st_v(c->type, c->values, k, ld_v(c->type, vals, k));
    }
    return CUDA_SUCCESS;
}

/* ---- geam, C = alpha A + beta B (a marker per column, as Gustavson's) ----------------------- */

/* The stored range [k0, k1) of row r of the CSR matrix s, cut to [0, s->nnz). */
static void row_range(const cb_sparse *s, int64_t r, int64_t *k0, int64_t *k1)
{
    int64_t lo = ld_i(s->offsets, s->off_bytes, r) - s->base, hi = ld_i(s->offsets, s->off_bytes, r + 1) - s->base;
    *k0 = lo < 0 ? 0 : lo;
    *k1 = hi > s->nnz ? s->nnz : hi;
}

typedef struct geam_row {
    int64_t *mark, *cols;   /* mark[j] == r: column j is in row r; cols: the row's columns */
    zd *acc;
    int64_t count;
} geam_row;

static void geam_add(geam_row *w, const cb_sparse *s, int64_t r, int64_t cols, zd scale, int values)
{
    int64_t k0, k1;
    row_range(s, r, &k0, &k1);
    for (int64_t k = k0; k < k1; k++) {
        int64_t j = ld_i(s->colind, s->idx_bytes, k) - s->base;
        if (j < 0 || j >= cols)
            continue;
        if (w->mark[j] != r) {
            w->mark[j] = r;
            w->acc[j] = (zd){0, 0};
            w->cols[w->count++] = j;
        }
        if (values)
            w->acc[j] = zadd(w->acc[j], zmul(scale, ld_v(s->type, s->values, k)));
    }
}

static CUresult cpu_sparse_geam(struct cb_backend *b, const void *alpha, const cb_sparse *a, const void *beta,
                                const cb_sparse *bm, const cb_sparse *c, cb_blas_type compute, int count_only,
                                int64_t *nnz)
{
    (void)b;
    if (a->format != CB_SP_CSR || bm->format != CB_SP_CSR || c->format != CB_SP_CSR)
        return CUDA_ERROR_NOT_SUPPORTED;
    int64_t n = c->cols;
    zd al = count_only ? (zd){0, 0} : scalar(compute, alpha), be = count_only ? (zd){0, 0} : scalar(compute, beta);
    geam_row w = {malloc(((size_t)n + 1) * sizeof *w.mark), malloc(((size_t)n + 1) * sizeof *w.cols),
                  malloc(((size_t)n + 1) * sizeof *w.acc), 0};
    if (!w.mark || !w.cols || !w.acc) {
        free(w.mark);
        free(w.cols);
        free(w.acc);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (int64_t j = 0; j < n; j++)
        w.mark[j] = -1;
    int64_t total = 0;
    for (int64_t r = 0; r < c->rows; r++) {
        w.count = 0;
        geam_add(&w, a, r, n, al, !count_only && !zzero(al));
        geam_add(&w, bm, r, n, be, !count_only && !zzero(be));
        if (count_only) {
            st_i(c->offsets, c->off_bytes, r, total + c->base);
            total += w.count;
            continue;
        }
        /* columns ascending within the row */
        for (int64_t x = 1; x < w.count; x++) {
            int64_t v = w.cols[x], y = x;
            while (y > 0 && w.cols[y - 1] > v) {
                w.cols[y] = w.cols[y - 1];
                y--;
            }
            w.cols[y] = v;
        }
        /* the x-th column into slot lo + x of the row's [lo, hi), inside C's arrays */
        int64_t lo = ld_i(c->offsets, c->off_bytes, r) - c->base, hi = ld_i(c->offsets, c->off_bytes, r + 1) - c->base;
        for (int64_t x = 0; x < w.count && lo + x < hi && lo + x < c->nnz; x++) {
            if (lo + x < 0)
                continue;
            st_i(c->colind, c->idx_bytes, lo + x, w.cols[x] + c->base);
            st_v(c->type, c->values, lo + x, w.acc[w.cols[x]]);
        }
        total += w.count;
    }
    if (count_only)
        st_i(c->offsets, c->off_bytes, c->rows, total + c->base);
    free(w.mark);
    free(w.cols);
    free(w.acc);
    if (nnz)
        *nnz = total;
    return CUDA_SUCCESS;
}

void cb_cpu_sparse_fill(cb_backend_lib *lib)
{
    lib->sparse_mv = cpu_sparse_mv;
    lib->sparse_mm = cpu_sparse_mm;
    lib->sparse_vec = cpu_sparse_vec;
    lib->sparse_to_dense = cpu_sparse_to_dense;
    lib->sparse_from_dense = cpu_sparse_from_dense;
    lib->sparse_csr2csc = cpu_sparse_csr2csc;
    lib->sparse_sort = cpu_sparse_sort;
    lib->sparse_compress = cpu_sparse_compress;
    lib->sparse_identity = cpu_sparse_identity;
    lib->spgemm_products = cpu_spgemm_products;
    lib->spgemm_compute = cpu_spgemm_compute;
    lib->spgemm_copy = cpu_spgemm_copy;
    lib->sparse_geam = cpu_sparse_geam;
}
