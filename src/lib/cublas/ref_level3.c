/* ref_level3.c: plain C references of cuBLAS level 3, in (complex)
 * double, on host copies. Operand order as in level3.c. */
#include "cublas_internal.h"

#include <stdlib.h>

#define OP(p) ((cublas_op *)(p))

/* Element (i, j) of op(X), X stored with leading dimension ld. */
static cb_cplx opel(cb_blas_type t, const void *x, int64_t ld, int trans, int64_t i, int64_t j)
{
    if (trans == CB_BLAS_OP_N)
        return cublas_ld(t, x, (size_t)(i + j * ld));
    cb_cplx v = cublas_ld(t, x, (size_t)(j + i * ld));
    return trans == CB_BLAS_OP_C ? cx_conj(v) : v;
}

static cb_cplx scaled_c(cb_cplx beta, cb_blas_type t, const void *c, size_t at)
{
    return cx_zero(beta) ? cx_real(0) : cx_mul(beta, cublas_ld(t, c, at));
}

void cublas_ref_gemm(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    cb_cplx alpha = cublas_sc(o, 0, o->t), beta = cublas_sc(o, 1, o->t);
    cb_blas_input_round r = o->g.round;
    for (int64_t j = 0; j < o->n; j++)
        for (int64_t i = 0; i < o->m; i++) {
            cb_cplx s = {0, 0};
            for (int64_t l = 0; l < o->k && !cx_zero(alpha); l++) {
                cb_cplx a = opel(o->t, ops[0].ref, o->lda, o->ta, i, l), b = opel(o->t, ops[1].ref, o->ldb, o->tb, l, j);
                if (r != CB_BLAS_ROUND_NONE) {
                    a = (cb_cplx){cb_blas_round_input(r, a.re), cb_blas_round_input(r, a.im)};
                    b = (cb_cplx){cb_blas_round_input(r, b.re), cb_blas_round_input(r, b.im)};
                }
                s = cx_add(s, cx_mul(a, b));
            }
            size_t at = (size_t)(i + j * o->ldc);
            cublas_st(o->t, ops[2].ref, at, cx_add(cx_mul(alpha, s), scaled_c(beta, o->t, ops[2].ref, at)));
        }
}

/* Element (i, j) of the full symmetric/Hermitian matrix stored in the uplo
 * triangle of a (leading dimension ld). */
static cb_cplx sym(const cublas_op *o, const void *a, int64_t i, int64_t j)
{
    int stored = o->uplo == CB_BLAS_UPPER ? i <= j : i >= j;
    cb_cplx v = stored ? cublas_ld(o->t, a, (size_t)(i + j * o->lda)) : cublas_ld(o->t, a, (size_t)(j + i * o->lda));
    if (o->herm && i == j)
        v.im = 0;
    if (o->herm && !stored)
        v = cx_conj(v);
    return v;
}

void cublas_ref_symm(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    cb_cplx alpha = cublas_sc(o, 0, o->t), beta = cublas_sc(o, 1, o->t);
    int left = o->side == CB_BLAS_LEFT;
    int64_t ka = left ? o->m : o->n;
    for (int64_t j = 0; j < o->n; j++)
        for (int64_t i = 0; i < o->m; i++) {
            cb_cplx s = {0, 0};
            for (int64_t l = 0; l < ka; l++) {
                if (left)
                    s = cx_add(s, cx_mul(sym(o, ops[0].ref, i, l), cublas_ld(o->t, ops[1].ref, (size_t)(l + j * o->ldb))));
                else
                    s = cx_add(s, cx_mul(cublas_ld(o->t, ops[1].ref, (size_t)(i + l * o->ldb)), sym(o, ops[0].ref, l, j)));
            }
            size_t at = (size_t)(i + j * o->ldc);
            cublas_st(o->t, ops[2].ref, at, cx_add(cx_mul(alpha, s), scaled_c(beta, o->t, ops[2].ref, at)));
        }
}

/* syrk/herk (xform 0), syr2k/her2k (1), syrkx/herkx (2): only the uplo
 * triangle of C changes; herk's diagonal stays real. */
void cublas_ref_syrk(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    cb_blas_type rt = cublas_real(o->t);
    cb_cplx alpha = cublas_sc(o, 0, o->herm && o->xform == 0 ? rt : o->t);
    cb_cplx beta = cublas_sc(o, 1, o->herm ? rt : o->t);
    const void *a = ops[0].ref, *b = o->xform ? ops[1].ref : ops[0].ref;
    void *c = ops[o->xform ? 2 : 1].ref;
    int64_t lda = o->lda, ldb = o->xform ? o->ldb : o->lda;
    /* op(X) is n x k: X itself (trans N) or its (conjugate) transpose */
    int tr = o->ta == CB_BLAS_OP_N ? CB_BLAS_OP_N : CB_BLAS_OP_T;
    for (int64_t j = 0; j < o->n; j++)
        for (int64_t i = 0; i < o->n; i++) {
            if (o->uplo == CB_BLAS_UPPER ? i > j : i < j)
                continue;
            cb_cplx s = {0, 0};
            for (int64_t l = 0; l < o->k; l++) {
                cb_cplx ai = opel(o->t, a, lda, tr, i, l), bj = opel(o->t, b, ldb, tr, j, l);
                if (o->herm && o->ta != CB_BLAS_OP_N) {   /* op(X) = X^H */
                    ai = cx_conj(ai);
                    bj = cx_conj(bj);
                }
                cb_cplx term = cx_mul(ai, o->herm ? cx_conj(bj) : bj);
                if (o->xform == 1) {   /* + op(B) op(A)^T */
                    cb_cplx bi = opel(o->t, b, ldb, tr, i, l), aj = opel(o->t, a, lda, tr, j, l);
                    if (o->herm && o->ta != CB_BLAS_OP_N) {
                        bi = cx_conj(bi);
                        aj = cx_conj(aj);
                    }
                    cb_cplx t2 = cx_mul(bi, o->herm ? cx_conj(aj) : aj);
                    s = cx_add(s, cx_add(cx_mul(alpha, term), cx_mul(o->herm ? cx_conj(alpha) : alpha, t2)));
                } else {
                    s = cx_add(s, cx_mul(alpha, term));
                }
            }
            size_t at = (size_t)(i + j * o->ldc);
            cb_cplx v = cx_add(s, scaled_c(beta, o->t, c, at));
            if (o->herm && i == j)
                v.im = 0;
            cublas_st(o->t, c, at, v);
        }
}

static int in_tri(const cublas_op *o, int64_t i, int64_t j) { return o->uplo == CB_BLAS_UPPER ? i <= j : i >= j; }

/* Element (i, j) of op(T), T the triangular A. */
static cb_cplx optri(const cublas_op *o, const void *a, int64_t i, int64_t j)
{
    int64_t r = o->ta == CB_BLAS_OP_N ? i : j, c = o->ta == CB_BLAS_OP_N ? j : i;
    if (!in_tri(o, r, c))
        return cx_real(0);
    cb_cplx v = r == c && o->diag == CB_BLAS_UNIT ? cx_real(1) : cublas_ld(o->t, a, (size_t)(r + c * o->lda));
    return o->ta == CB_BLAS_OP_C ? cx_conj(v) : v;
}

/* trmm: C = alpha op(T) B (left) or alpha B op(T); trsm: solve in place. */
void cublas_ref_trmm(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    cb_cplx alpha = cublas_sc(o, 0, o->t);
    int left = o->side == CB_BLAS_LEFT;
    int64_t m = o->m, n = o->n, ka = left ? m : n;
    const void *a = ops[0].ref, *b = ops[1].before;
    cb_cplx *x = malloc((size_t)m * (size_t)n * sizeof *x);
    if (!x)
        return;
    if (!o->solve) {
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++) {
                cb_cplx s = {0, 0};
                for (int64_t l = 0; l < ka; l++)
                    s = left ? cx_add(s, cx_mul(optri(o, a, i, l), cublas_ld(o->t, b, (size_t)(l + j * o->ldb))))
                             : cx_add(s, cx_mul(cublas_ld(o->t, b, (size_t)(i + l * o->ldb)), optri(o, a, l, j)));
                x[i + j * m] = cx_mul(alpha, s);
            }
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++)
                cublas_st(o->t, ops[2].ref, (size_t)(i + j * o->ldc), x[i + j * m]);
        free(x);
        return;
    }
    /* op(T) lower when (lower, N) or (upper, T/C) */
    int lower = (o->uplo == CB_BLAS_LOWER) == (o->ta == CB_BLAS_OP_N);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            x[i + j * m] = cx_mul(alpha, cublas_ld(o->t, b, (size_t)(i + j * o->ldb)));
    if (left) {   /* op(T) X = alpha B, column by column */
        for (int64_t j = 0; j < n; j++)
            for (int64_t step = 0; step < m; step++) {
                int64_t i = lower ? step : m - 1 - step;
                cb_cplx s = x[i + j * m];
                for (int64_t l = 0; l < m; l++)
                    if (lower ? l < i : l > i)
                        s = cx_sub(s, cx_mul(optri(o, a, i, l), x[l + j * m]));
                x[i + j * m] = cx_div(s, optri(o, a, i, i));
            }
    } else {      /* X op(T) = alpha B, row by row: x_j depends on the columns l of T's column j */
        for (int64_t i = 0; i < m; i++)
            for (int64_t step = 0; step < n; step++) {
                int64_t j = lower ? n - 1 - step : step;
                cb_cplx s = x[i + j * m];
                for (int64_t l = 0; l < n; l++)
                    if (lower ? l > j : l < j)
                        s = cx_sub(s, cx_mul(x[i + l * m], optri(o, a, l, j)));
                x[i + j * m] = cx_div(s, optri(o, a, j, j));
            }
    }
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            cublas_st(o->t, ops[1].ref, (size_t)(i + j * o->ldb), x[i + j * m]);
    free(x);
}

void cublas_ref_geam(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    cb_cplx alpha = cublas_sc(o, 0, o->t), beta = cublas_sc(o, 1, o->t);
    for (int64_t j = 0; j < o->n; j++)
        for (int64_t i = 0; i < o->m; i++) {
            cb_cplx v = {0, 0};
            if (!cx_zero(alpha))
                v = cx_mul(alpha, opel(o->t, ops[0].before ? ops[0].before : ops[0].ref, o->lda, o->ta, i, j));
            if (!cx_zero(beta))
                v = cx_add(v, cx_mul(beta, opel(o->t, ops[1].before ? ops[1].before : ops[1].ref, o->ldb, o->tb, i, j)));
            cublas_st(o->t, ops[2].ref, (size_t)(i + j * o->ldc), v);
        }
}

void cublas_ref_dgmm(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    int left = o->side == CB_BLAS_LEFT;
    for (int64_t j = 0; j < o->n; j++)
        for (int64_t i = 0; i < o->m; i++) {
            int64_t len = left ? o->m : o->n;
            cb_cplx d = cublas_ld(o->t, ops[1].ref, cublas_vi(left ? i : j, len, o->incx));
            cublas_st(o->t, ops[2].ref, (size_t)(i + j * o->ldc),
                      cx_mul(cublas_ld(o->t, ops[0].before, (size_t)(i + j * o->lda)), d));
        }
}
