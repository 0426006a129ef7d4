/* ref_level2.c: plain C references of cuBLAS level 2, in (complex)
 * double, on host copies, over every storage form (full, band, packed).
 * Operand order as in level2.c. */
#include "cublas_internal.h"

#include <stdlib.h>

#define OP(p) ((cublas_op *)(p))

/* Offset of stored element (i, j) of a symmetric or triangular matrix in
 * o's storage form, or -1 when the form keeps no such element (outside
 * the band). (i, j) must lie in the stored triangle. */
static int64_t stored_at(const cublas_op *o, int64_t i, int64_t j)
{
    switch (o->form) {
    case 1:
        if (o->uplo == CB_BLAS_UPPER)
            return j - i > o->k ? -1 : o->k + i - j + j * o->lda;
        return i - j > o->k ? -1 : i - j + j * o->lda;
    case 2:
        if (o->uplo == CB_BLAS_UPPER)
            return i + j * (j + 1) / 2;
        return i + j * (2 * o->n - j - 1) / 2;
    default: return i + j * o->lda;
    }
}

static int in_triangle(const cublas_op *o, int64_t i, int64_t j)
{
    return o->uplo == CB_BLAS_UPPER ? i <= j : i >= j;
}

/* Element (i, j) of the full symmetric/Hermitian matrix. */
static cb_cplx sym_elem(const cublas_op *o, const void *a, int64_t i, int64_t j)
{
    int swap = !in_triangle(o, i, j);
    int64_t at = swap ? stored_at(o, j, i) : stored_at(o, i, j);
    if (at < 0)
        return cx_real(0);
    cb_cplx v = cublas_ld(o->t, a, (size_t)at);
    if (o->herm && i == j)
        v.im = 0;
    if (o->herm && swap)
        v = cx_conj(v);
    return v;
}

/* Element (i, j) of the triangular matrix. */
static cb_cplx tri_elem(const cublas_op *o, const void *a, int64_t i, int64_t j)
{
    if (!in_triangle(o, i, j))
        return cx_real(0);
    if (i == j && o->diag == CB_BLAS_UNIT)
        return cx_real(1);
    int64_t at = stored_at(o, i, j);
    return at < 0 ? cx_real(0) : cublas_ld(o->t, a, (size_t)at);
}

static cb_cplx op_tri(const cublas_op *o, const void *a, int64_t i, int64_t j)
{
    if (o->ta == CB_BLAS_OP_N)
        return tri_elem(o, a, i, j);
    cb_cplx v = tri_elem(o, a, j, i);
    return o->ta == CB_BLAS_OP_C ? cx_conj(v) : v;
}

/* Element (i, j) of op(A) for gemv (form 0) and gbmv (form 1). */
static cb_cplx ge_elem(const cublas_op *o, const void *a, int64_t i, int64_t j)
{
    if (o->form == 1) {
        if (i < j - o->ku || i > j + o->kl)
            return cx_real(0);
        return cublas_ld(o->t, a, (size_t)(o->ku + i - j + j * o->lda));
    }
    return cublas_ld(o->t, a, (size_t)(i + j * o->lda));
}

void cublas_ref_gemv(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    cb_cplx alpha = cublas_sc(o, 0, o->t), beta = cublas_sc(o, 1, o->t);
    int64_t ylen = o->ta == CB_BLAS_OP_N ? o->m : o->n, xlen = o->ta == CB_BLAS_OP_N ? o->n : o->m;
    for (int64_t i = 0; i < ylen; i++) {
        cb_cplx s = {0, 0};
        for (int64_t l = 0; l < xlen && !cx_zero(alpha); l++) {
            cb_cplx a = o->ta == CB_BLAS_OP_N ? ge_elem(o, ops[0].ref, i, l) : ge_elem(o, ops[0].ref, l, i);
            if (o->ta == CB_BLAS_OP_C)
                a = cx_conj(a);
            s = cx_add(s, cx_mul(a, cublas_ld(o->t, ops[1].ref, cublas_vi(l, xlen, o->incx))));
        }
        size_t yi = cublas_vi(i, ylen, o->incy);
        cb_cplx y = cx_zero(beta) ? cx_real(0) : cx_mul(beta, cublas_ld(o->t, ops[2].ref, yi));
        cublas_st(o->t, ops[2].ref, yi, cx_add(cx_mul(alpha, s), y));
    }
}

void cublas_ref_ger(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    cb_cplx alpha = cublas_sc(o, 0, o->t);
    for (int64_t j = 0; j < o->n; j++) {
        cb_cplx y = cublas_ld(o->t, ops[1].ref, cublas_vi(j, o->n, o->incy));
        if (o->conj)
            y = cx_conj(y);
        for (int64_t i = 0; i < o->m; i++) {
            size_t at = (size_t)(i + j * o->lda);
            cb_cplx x = cublas_ld(o->t, ops[0].ref, cublas_vi(i, o->m, o->incx));
            cublas_st(o->t, ops[2].ref, at, cx_add(cublas_ld(o->t, ops[2].ref, at), cx_mul(alpha, cx_mul(x, y))));
        }
    }
}

void cublas_ref_symv(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    cb_cplx alpha = cublas_sc(o, 0, o->t), beta = cublas_sc(o, 1, o->t);
    for (int64_t i = 0; i < o->n; i++) {
        cb_cplx s = {0, 0};
        for (int64_t j = 0; j < o->n; j++)
            s = cx_add(s, cx_mul(sym_elem(o, ops[0].ref, i, j), cublas_ld(o->t, ops[1].ref, cublas_vi(j, o->n, o->incx))));
        size_t yi = cublas_vi(i, o->n, o->incy);
        cb_cplx y = cx_zero(beta) ? cx_real(0) : cx_mul(beta, cublas_ld(o->t, ops[2].ref, yi));
        cublas_st(o->t, ops[2].ref, yi, cx_add(cx_mul(alpha, s), y));
    }
}

void cublas_ref_syr(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    const void *x = ops[0].ref, *y = o->xform ? ops[1].ref : NULL;
    void *a = ops[o->xform ? 2 : 1].ref;
    cb_cplx alpha = cublas_sc(o, 0, o->alpha_real ? cublas_real(o->t) : o->t);
    for (int64_t j = 0; j < o->n; j++)
        for (int64_t i = 0; i < o->n; i++) {
            if (!in_triangle(o, i, j))
                continue;
            int64_t at = stored_at(o, i, j);
            cb_cplx xi = cublas_ld(o->t, x, cublas_vi(i, o->n, o->incx));
            cb_cplx xj = cublas_ld(o->t, x, cublas_vi(j, o->n, o->incx));
            cb_cplx v;
            if (!y) {
                v = cx_mul(alpha, cx_mul(xi, o->herm ? cx_conj(xj) : xj));
            } else {
                cb_cplx yi = cublas_ld(o->t, y, cublas_vi(i, o->n, o->incy));
                cb_cplx yj = cublas_ld(o->t, y, cublas_vi(j, o->n, o->incy));
                if (o->herm)
                    v = cx_add(cx_mul(alpha, cx_mul(xi, cx_conj(yj))), cx_mul(cx_conj(alpha), cx_mul(yi, cx_conj(xj))));
                else
                    v = cx_mul(alpha, cx_add(cx_mul(xi, yj), cx_mul(yi, xj)));
            }
            cb_cplx r = cx_add(cublas_ld(o->t, a, (size_t)at), v);
            if (o->herm && i == j)
                r.im = 0;
            cublas_st(o->t, a, (size_t)at, r);
        }
}

void cublas_ref_trmv(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    int64_t n = o->n;
    cb_cplx *x = malloc((size_t)n * sizeof *x), *r = malloc((size_t)n * sizeof *r);
    if (!x || !r) {
        free(x);
        free(r);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        x[i] = cublas_ld(o->t, ops[1].ref, cublas_vi(i, n, o->incx));
    const void *a = ops[0].ref;
    if (!o->solve) {
        for (int64_t i = 0; i < n; i++) {
            cb_cplx s = {0, 0};
            for (int64_t j = 0; j < n; j++)
                s = cx_add(s, cx_mul(op_tri(o, a, i, j), x[j]));
            r[i] = s;
        }
    } else {
        /* op(A) is lower triangular when (lower, N) or (upper, T/C) */
        int lower = (o->uplo == CB_BLAS_LOWER) == (o->ta == CB_BLAS_OP_N);
        for (int64_t step = 0; step < n; step++) {
            int64_t i = lower ? step : n - 1 - step;
            cb_cplx s = x[i];
            for (int64_t j = 0; j < n; j++)
                if (lower ? j < i : j > i)
                    s = cx_sub(s, cx_mul(op_tri(o, a, i, j), r[j]));
            r[i] = cx_div(s, op_tri(o, a, i, i));
        }
    }
    for (int64_t i = 0; i < n; i++)
        cublas_st(o->t, ops[1].ref, cublas_vi(i, n, o->incx), r[i]);
    free(x);
    free(r);
}
