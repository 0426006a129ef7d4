/* ref_dense.c: the cuSOLVER facade's C references for LU, Cholesky and
 * Householder QR, in (complex) double, written from the textbook
 * algorithms with LAPACK's conventions (pivot choice, reflector signs) so
 * that a correct backend's results match them to rounding.
 */
#include "cusolver_internal.h"

#include <math.h>
#include <stdlib.h>

/* ---- matrices ------------------------------------------------------------------------------- */

ref_mat ref_new(int64_t rows, int64_t cols)
{
    ref_mat m = {rows, cols, NULL};
    if (rows > 0 && cols > 0)
        m.v = calloc((size_t)rows * (size_t)cols, sizeof *m.v);
    return m;
}

void ref_free(ref_mat *m)
{
    free(m->v);
    m->v = NULL;
}

ref_mat ref_load(cb_blas_type t, const void *p, int64_t rows, int64_t cols, int64_t ld)
{
    ref_mat m = ref_new(rows, cols);
    for (int64_t j = 0; m.v && p && j < cols; j++)
        for (int64_t i = 0; i < rows; i++)
            RM(m, i, j) = cb_blas_load(t, p, (size_t)i + (size_t)j * (size_t)ld);
    return m;
}

void ref_store(const ref_mat *m, cb_blas_type t, void *p, int64_t ld)
{
    for (int64_t j = 0; m->v && p && j < m->cols; j++)
        for (int64_t i = 0; i < m->rows; i++) {
            cb_cplx v = RM(*m, i, j);
            if (t == CB_BLAS_F32 || t == CB_BLAS_F64)
                v.im = 0;
            cb_blas_store(t, p, (size_t)i + (size_t)j * (size_t)ld, v);
        }
}

cb_cplx rc_div(cb_cplx a, cb_cplx b)
{
    /* Smith's division: no overflow for large b */
    if (fabs(b.re) >= fabs(b.im)) {
        double r = b.im / b.re, d = b.re + b.im * r;
        return (cb_cplx){(a.re + a.im * r) / d, (a.im - a.re * r) / d};
    }
    double r = b.re / b.im, d = b.re * r + b.im;
    return (cb_cplx){(a.re * r + a.im) / d, (a.im * r - a.re) / d};
}

double rc_abs(cb_cplx a) { return hypot(a.re, a.im); }

static double mag1(cb_cplx a) { return fabs(a.re) + fabs(a.im); }

/* ---- LU ------------------------------------------------------------------------------------ */

int64_t ref_getrf(ref_mat *a, const int64_t *hint, int64_t *piv, int pivoting)
{
    int64_t m = a->rows, n = a->cols, mn = m < n ? m : n, info = 0;
    for (int64_t k = 0; k < mn; k++) {
        int64_t p = k;
        if (pivoting) {
            double best = -1;
            for (int64_t i = k; i < m; i++) {
                double v = mag1(RM(*a, i, k));
                if (v > best) {
                    best = v;
                    p = i;
                }
            }
            if (hint) {
                int64_t h = hint[k] - 1;
                if (h >= k && h < m && mag1(RM(*a, h, k)) >= best * (1 - 1e-3))
                    p = h;
            }
            piv[k] = p + 1;
            if (p != k)
                for (int64_t j = 0; j < n; j++) {
                    cb_cplx x = RM(*a, k, j);
                    RM(*a, k, j) = RM(*a, p, j);
                    RM(*a, p, j) = x;
                }
        }
        cb_cplx d = RM(*a, k, k);
        if (d.re == 0 && d.im == 0) {
            if (!info)
                info = k + 1;
            continue;
        }
        for (int64_t i = k + 1; i < m; i++)
            RM(*a, i, k) = rc_div(RM(*a, i, k), d);
        for (int64_t j = k + 1; j < n; j++) {
            cb_cplx u = RM(*a, k, j);
            for (int64_t i = k + 1; i < m; i++)
                RM(*a, i, j) = rc_sub(RM(*a, i, j), rc_mul(RM(*a, i, k), u));
        }
    }
    return info;
}

/* x := op(T)^-1 x for the triangle of t: lower/unit as given. */
static void trsv(const ref_mat *t, int lower, int unit, int trans, cb_cplx *x)
{
    int64_t n = t->rows;
    int cj = trans == CB_BLAS_OP_C;
#define T_(i, j) (trans == CB_BLAS_OP_N ? RM(*t, i, j) : cj ? rc_conj(RM(*t, j, i)) : RM(*t, j, i))
    /* op(T) is lower when (lower and N) or (upper and T/C) */
    int eff_lower = trans == CB_BLAS_OP_N ? lower : !lower;
    if (eff_lower) {
        for (int64_t i = 0; i < n; i++) {
            cb_cplx s = x[i];
            for (int64_t j = 0; j < i; j++)
                s = rc_sub(s, rc_mul(T_(i, j), x[j]));
            x[i] = unit ? s : rc_div(s, T_(i, i));
        }
    } else {
        for (int64_t i = n - 1; i >= 0; i--) {
            cb_cplx s = x[i];
            for (int64_t j = i + 1; j < n; j++)
                s = rc_sub(s, rc_mul(T_(i, j), x[j]));
            x[i] = unit ? s : rc_div(s, T_(i, i));
        }
    }
#undef T_
}

void ref_getrs(const ref_mat *lu, const int64_t *piv, int trans, ref_mat *b)
{
    int64_t n = lu->rows;
    for (int64_t c = 0; c < b->cols; c++) {
        cb_cplx *x = &RM(*b, 0, c);
        if (trans == CB_BLAS_OP_N) {
            for (int64_t k = 0; k < n; k++) {
                int64_t p = piv[k] - 1;
                if (p != k && p >= 0 && p < n) {
                    cb_cplx t = x[k];
                    x[k] = x[p];
                    x[p] = t;
                }
            }
            trsv(lu, 1, 1, CB_BLAS_OP_N, x);
            trsv(lu, 0, 0, CB_BLAS_OP_N, x);
        } else {
            trsv(lu, 0, 0, trans, x);
            trsv(lu, 1, 1, trans, x);
            for (int64_t k = n - 1; k >= 0; k--) {
                int64_t p = piv[k] - 1;
                if (p != k && p >= 0 && p < n) {
                    cb_cplx t = x[k];
                    x[k] = x[p];
                    x[p] = t;
                }
            }
        }
    }
}

/* ---- Cholesky ------------------------------------------------------------------------------ */

/* The factor's element (i, j) of the lower view: L(i, j), or conj(U(j, i)). */
#define FL(A, up, i, j) ((up) ? rc_conj(RM(A, j, i)) : RM(A, i, j))

int64_t ref_potrf(ref_mat *a, int uplo)
{
    int64_t n = a->rows;
    int up = uplo == CB_BLAS_UPPER;
    for (int64_t j = 0; j < n; j++) {
        double d = RM(*a, j, j).re;
        for (int64_t k = 0; k < j; k++)
            d -= rc_abs2(FL(*a, up, j, k));
        if (!(d > 0))
            return j + 1;   /* not positive, or NaN */
        double l = sqrt(d);
        RM(*a, j, j) = (cb_cplx){l, 0};
        for (int64_t i = j + 1; i < n; i++) {
            cb_cplx s = FL(*a, up, i, j);
            for (int64_t k = 0; k < j; k++)
                s = rc_sub(s, rc_mul(FL(*a, up, i, k), rc_conj(FL(*a, up, j, k))));
            s = rc_scale(s, 1 / l);
            if (up)
                RM(*a, j, i) = rc_conj(s);
            else
                RM(*a, i, j) = s;
        }
    }
    return 0;
}

void ref_potrs(const ref_mat *f, int uplo, ref_mat *b)
{
    /* A = L L^H: L y = b, L^H x = y; A = U^H U: U^H y = b, U x = y */
    int lower = uplo != CB_BLAS_UPPER;
    for (int64_t c = 0; c < b->cols; c++) {
        cb_cplx *x = &RM(*b, 0, c);
        if (lower) {
            trsv(f, 1, 0, CB_BLAS_OP_N, x);
            trsv(f, 1, 0, CB_BLAS_OP_C, x);
        } else {
            trsv(f, 0, 0, CB_BLAS_OP_C, x);
            trsv(f, 0, 0, CB_BLAS_OP_N, x);
        }
    }
}

int64_t ref_potri(ref_mat *a, int uplo)
{
    int64_t n = a->rows;
    int up = uplo == CB_BLAS_UPPER;
    for (int64_t i = 0; i < n; i++)
        if (RM(*a, i, i).re == 0 && RM(*a, i, i).im == 0)
            return i + 1;
    /* X = L^-1 (lower view), column by column */
    ref_mat x = ref_new(n, n);
    if (!x.v)
        return 0;
    for (int64_t c = 0; c < n; c++) {
        for (int64_t i = 0; i < n; i++)
            RM(x, i, c) = (cb_cplx){i == c, 0};
        for (int64_t i = c; i < n; i++) {
            cb_cplx s = RM(x, i, c);
            for (int64_t k = c; k < i; k++)
                s = rc_sub(s, rc_mul(FL(*a, up, i, k), RM(x, k, c)));
            RM(x, i, c) = rc_div(s, FL(*a, up, i, i));
        }
    }
    /* A^-1 = (L L^H)^-1 = X^H X; its lower (i >= j) or upper triangle */
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            cb_cplx s = {0, 0};
            for (int64_t k = i; k < n; k++)
                s = rc_add(s, rc_mul(rc_conj(RM(x, k, i)), RM(x, k, j)));
            if (up)
                RM(*a, j, i) = s;   /* conjugated below: (j, i) = conj((i, j)) */
            else
                RM(*a, i, j) = s;
        }
    if (up)   /* the upper triangle holds (i, j) for i <= j: conj of the lower's (j, i) */
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i <= j; i++)
                RM(*a, i, j) = rc_conj(RM(*a, i, j));
    ref_free(&x);
    return 0;
}

/* ---- Householder QR ---------------------------------------------------------------------------- */

/* LAPACK's larfg on (alpha, x[0..n-2]) with x's elements at column j,
 * rows j+1..m-1: returns tau; alpha becomes beta, x becomes v(2:). */
static cb_cplx larfg(ref_mat *a, int64_t j)
{
    int64_t m = a->rows;
    cb_cplx alpha = RM(*a, j, j);
    double xnorm = 0;
    for (int64_t i = j + 1; i < m; i++)
        xnorm = hypot(xnorm, rc_abs(RM(*a, i, j)));
    if (xnorm == 0 && alpha.im == 0)
        return (cb_cplx){0, 0};
    double norm = hypot(hypot(alpha.re, alpha.im), xnorm);
    double beta = alpha.re >= 0 ? -norm : norm;
    cb_cplx tau = {(beta - alpha.re) / beta, -alpha.im / beta};
    cb_cplx scale = rc_div((cb_cplx){1, 0}, (cb_cplx){alpha.re - beta, alpha.im});
    for (int64_t i = j + 1; i < m; i++)
        RM(*a, i, j) = rc_mul(RM(*a, i, j), scale);
    RM(*a, j, j) = (cb_cplx){beta, 0};
    return tau;
}

/* c := (I - tau v v^H) c from the left, on rows r0.. of c's columns
 * c0..c1-1, v: rows r0.. of column vj of a with v(r0) = 1. */
static void apply_left(const ref_mat *v, int64_t vj, int64_t r0, cb_cplx tau, ref_mat *c, int64_t c0, int64_t c1)
{
    if (tau.re == 0 && tau.im == 0)
        return;
    int64_t m = c->rows;
    for (int64_t j = c0; j < c1; j++) {
        cb_cplx w = RM(*c, r0, j);   /* v^H c, v(r0) = 1 */
        for (int64_t i = r0 + 1; i < m; i++)
            w = rc_add(w, rc_mul(rc_conj(RM(*v, i, vj)), RM(*c, i, j)));
        w = rc_mul(tau, w);
        RM(*c, r0, j) = rc_sub(RM(*c, r0, j), w);
        for (int64_t i = r0 + 1; i < m; i++)
            RM(*c, i, j) = rc_sub(RM(*c, i, j), rc_mul(RM(*v, i, vj), w));
    }
}

/* c := c (I - tau v v^H) from the right, v: rows r0.. of column vj of a
 * (v(r0) = 1) acting on c's columns r0.. */
static void apply_right(const ref_mat *v, int64_t vj, int64_t r0, cb_cplx tau, ref_mat *c)
{
    if (tau.re == 0 && tau.im == 0)
        return;
    int64_t n = c->cols;
    for (int64_t i = 0; i < c->rows; i++) {
        cb_cplx w = RM(*c, i, r0);   /* c v */
        for (int64_t j = r0 + 1; j < n; j++)
            w = rc_add(w, rc_mul(RM(*c, i, j), RM(*v, j, vj)));
        w = rc_mul(w, tau);
        RM(*c, i, r0) = rc_sub(RM(*c, i, r0), w);
        for (int64_t j = r0 + 1; j < n; j++)
            RM(*c, i, j) = rc_sub(RM(*c, i, j), rc_mul(w, rc_conj(RM(*v, j, vj))));
    }
}

void ref_geqrf(ref_mat *a, cb_cplx *tau)
{
    int64_t mn = a->rows < a->cols ? a->rows : a->cols;
    for (int64_t j = 0; j < mn; j++) {
        tau[j] = larfg(a, j);
        /* H(j)^H = I - conj(tau) v v^H on the trailing columns */
        apply_left(a, j, j, rc_conj(tau[j]), a, j + 1, a->cols);
    }
}

void ref_orgqr(ref_mat *a, int64_t k, const cb_cplx *tau)
{
    int64_t m = a->rows, n = a->cols;
    ref_mat v = ref_new(m, k > 0 ? k : 1);
    if (!v.v)
        return;
    for (int64_t j = 0; j < k; j++)
        for (int64_t i = 0; i < m; i++)
            RM(v, i, j) = RM(*a, i, j);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            RM(*a, i, j) = (cb_cplx){i == j, 0};
    for (int64_t j = k - 1; j >= 0; j--)
        apply_left(&v, j, j, tau[j], a, 0, n);
    ref_free(&v);
}

void ref_ormqr(const ref_mat *v, int64_t k, const cb_cplx *tau, int side, int trans, ref_mat *c)
{
    int herm = trans != CB_BLAS_OP_N;
    if (side == CB_BLAS_LEFT) {
        /* Q C = H1 (... (Hk C)); Q^H C = Hk^H (... (H1^H C)) */
        for (int64_t s = 0; s < k; s++) {
            int64_t j = herm ? s : k - 1 - s;
            apply_left(v, j, j, herm ? rc_conj(tau[j]) : tau[j], c, 0, c->cols);
        }
    } else {
        /* C Q = ((C H1) ...) Hk; C Q^H = ((C Hk^H) ...) H1^H */
        for (int64_t s = 0; s < k; s++) {
            int64_t j = herm ? k - 1 - s : s;
            apply_right(v, j, j, herm ? rc_conj(tau[j]) : tau[j], c);
        }
    }
}
