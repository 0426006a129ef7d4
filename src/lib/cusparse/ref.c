/* ref.c: the C references of cuSPARSE's products, in double (complex),
 * on the host copies verify mode takes (lib/common/check.h): SpMV and
 * SpMM, C = alpha op(A) op(B) + beta C for CSR, CSC and COO A, any index
 * width and base, every batch entry. They walk the stored entries one by
 * one, independently of the backend's kernels.
 */
#include "cusparse_internal.h"

#include <stdlib.h>

typedef struct { double re, im; } rz;

/* The host copy of device address a (NULL when no operand holds it). */
static void *host_of(const cbl_operand *ops, int nops, uint64_t a)
{
    for (int i = 0; i < nops; i++)
        if (ops[i].addr && a >= ops[i].addr && a < ops[i].addr + ops[i].bytes)
            return (char *)ops[i].ref + (a - ops[i].addr);
    return NULL;
}

static rz get(cb_blas_type t, const void *p, int64_t i)
{
    switch (t) {
    case CB_BLAS_F32: return (rz){((const float *)p)[i], 0};
    case CB_BLAS_F64: return (rz){((const double *)p)[i], 0};
    case CB_BLAS_C32: return (rz){((const float *)p)[2 * i], ((const float *)p)[2 * i + 1]};
    default: return (rz){((const double *)p)[2 * i], ((const double *)p)[2 * i + 1]};
    }
}

static void put(cb_blas_type t, void *p, int64_t i, rz v)
{
    switch (t) {
    case CB_BLAS_F32: ((float *)p)[i] = (float)v.re; break;
    case CB_BLAS_F64: ((double *)p)[i] = v.re; break;
    case CB_BLAS_C32: ((float *)p)[2 * i] = (float)v.re, ((float *)p)[2 * i + 1] = (float)v.im; break;
    default: ((double *)p)[2 * i] = v.re, ((double *)p)[2 * i + 1] = v.im; break;
    }
}

static int64_t idx(const void *p, int bytes, int64_t i)
{
    return bytes == 8 ? ((const int64_t *)p)[i] : bytes == 2 ? ((const uint16_t *)p)[i] : ((const int32_t *)p)[i];
}

static rz mul(rz a, rz b) { return (rz){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }

static int64_t pos(const cb_dense *d, int64_t bi, int64_t i, int64_t j)
{
    return bi * d->stride + (d->row_major ? i * d->ld + j : i + j * d->ld);
}

void sp_ref_mm(void *p, cbl_operand *ops)
{
    sp_op *o = p;
    const cb_sparse *a = &o->a;
    const cb_dense *b = &o->x, *c = &o->y;
    int nops = o->nops;
    void *cv = host_of(ops, nops, c->values);
    const void *bv = host_of(ops, nops, b->values);
    int64_t m = c->rows, n = c->cols;
    if (!cv || m <= 0 || n <= 0)
        return;
    rz al = get(o->compute, o->alpha, 0), be = get(o->compute, o->beta, 0);
    rz *acc = malloc((size_t)(m * n) * sizeof *acc);
    if (!acc)
        return;
    int64_t batches = c->batch > 1 ? c->batch : 1;
    size_t vb = cb_blas_type_size(a->type);
    for (int64_t bi = 0; bi < batches; bi++) {
        for (int64_t k = 0; k < m * n; k++)
            acc[k] = (rz){0, 0};
        int64_t ab = a->batch > 1 ? bi : 0;
        const char *vals = host_of(ops, nops, a->values + (uint64_t)(ab * a->val_stride) * vb);
        const char *ri = a->rowind ? host_of(ops, nops, a->rowind + (uint64_t)(ab * a->idx_stride * a->idx_bytes)) : NULL;
        const char *ci = a->colind ? host_of(ops, nops, a->colind + (uint64_t)(ab * a->idx_stride * a->idx_bytes)) : NULL;
        const char *of = a->offsets ? host_of(ops, nops, a->offsets + (uint64_t)(ab * a->off_stride * a->off_bytes)) : NULL;
        int64_t outer = a->format == CB_SP_CSR ? a->rows : a->format == CB_SP_CSC ? a->cols : 1;
        for (int64_t q = 0; q < outer && vals; q++) {
            int64_t k0 = a->format == CB_SP_COO ? 0 : idx(of, a->off_bytes, q) - a->base;
            int64_t k1 = a->format == CB_SP_COO ? a->nnz : idx(of, a->off_bytes, q + 1) - a->base;
            for (int64_t k = k0; k < k1; k++) {
                int64_t r = a->format == CB_SP_CSR ? q : idx(ri, a->idx_bytes, k) - a->base;
                int64_t col = a->format == CB_SP_CSC ? q : idx(ci, a->idx_bytes, k) - a->base;
                rz v = get(a->type, vals, k);
                if (o->trans_a) {
                    int64_t t = r;
                    r = col, col = t;
                    if (o->trans_a == 2)
                        v.im = -v.im;
                }
                for (int64_t j = 0; j < n; j++) {
                    rz x;
                    if (o->trans_b == 0)
                        x = get(b->type, bv, pos(b, bi, col, j));
                    else {
                        x = get(b->type, bv, pos(b, bi, j, col));
                        if (o->trans_b == 2)
                            x.im = -x.im;
                    }
                    rz pr = mul(v, x);
                    acc[r + j * m].re += pr.re;
                    acc[r + j * m].im += pr.im;
                }
            }
        }
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++) {
                rz v = mul(al, acc[i + j * m]);
                if (be.re != 0 || be.im != 0) {
                    rz old = mul(be, get(c->type, cv, pos(c, bi, i, j)));
                    v.re += old.re, v.im += old.im;
                }
                put(c->type, cv, pos(c, bi, i, j), v);
            }
    }
    free(acc);
}
