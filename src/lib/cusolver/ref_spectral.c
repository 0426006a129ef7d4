/* ref_spectral.c: the cuSOLVER facade's C references for eigenvalues and
 * singular values, in (complex) double: the cyclic Jacobi method for a
 * Hermitian matrix, the one-sided (Hestenes) Jacobi method for the SVD,
 * and the alignment of a reference's vectors with a result's (a vector
 * is unique only up to a phase, a cluster's basis up to a unitary factor).
 * Jacobi's methods are slow (O(n^3) per sweep) but simple and accurate to
 * a few ulps of double, which is what a reference needs.
 */
#include "cusolver_internal.h"

#include <math.h>
#include <stdlib.h>

enum { MAX_SWEEPS = 80 };

/* The 2 x 2 unitary G that zeroes the (p, q) element of the Hermitian
 * [[app, apq], [conj(apq), aqq]] under G^H . G: G = diag(1, e^-i.phi) R,
 * R the real rotation of the symmetric [[app, |apq|], [|apq|, aqq]]. */
typedef struct rot {
    cb_cplx pp, pq, qp, qq;
} rot;

static rot jacobi_rot(double app, double aqq, cb_cplx apq)
{
    double g = rc_abs(apq);
    cb_cplx e = {apq.re / g, apq.im / g};   /* e^i.phi */
    double theta = (aqq - app) / (2 * g);
    double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
    double c = 1 / sqrt(t * t + 1), s = t * c;
    cb_cplx ec = rc_conj(e);
    return (rot){{c, 0}, {s, 0}, rc_scale(ec, -s), rc_scale(ec, c)};
}

/* m := m G on columns p, q. */
static void rot_cols(ref_mat *m, int64_t p, int64_t q, rot g)
{
    for (int64_t i = 0; i < m->rows; i++) {
        cb_cplx x = RM(*m, i, p), y = RM(*m, i, q);
        RM(*m, i, p) = rc_add(rc_mul(x, g.pp), rc_mul(y, g.qp));
        RM(*m, i, q) = rc_add(rc_mul(x, g.pq), rc_mul(y, g.qq));
    }
}

/* m := G^H m on rows p, q. */
static void rot_rows(ref_mat *m, int64_t p, int64_t q, rot g)
{
    for (int64_t j = 0; j < m->cols; j++) {
        cb_cplx x = RM(*m, p, j), y = RM(*m, q, j);
        RM(*m, p, j) = rc_add(rc_mul(rc_conj(g.pp), x), rc_mul(rc_conj(g.qp), y));
        RM(*m, q, j) = rc_add(rc_mul(rc_conj(g.pq), x), rc_mul(rc_conj(g.qq), y));
    }
}

void ref_heev(const ref_mat *a, int uplo, double *w, ref_mat *vectors)
{
    int64_t n = a->rows;
    ref_mat h = ref_new(n, n), v = ref_new(n, n);
    if (!h.v || !v.v) {
        ref_free(&h);
        ref_free(&v);
        return;
    }
    int up = uplo == CB_BLAS_UPPER;
    double norm = 0;
    for (int64_t j = 0; j < n; j++) {
        RM(v, j, j) = (cb_cplx){1, 0};
        for (int64_t i = 0; i < n; i++) {
            int stored = up ? i <= j : i >= j;
            cb_cplx x = stored ? RM(*a, i, j) : rc_conj(RM(*a, j, i));
            if (i == j)
                x.im = 0;
            RM(h, i, j) = x;
            norm += rc_abs2(x);
        }
    }
    norm = sqrt(norm);
    for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
        int rotated = 0;
        for (int64_t p = 0; p < n - 1; p++)
            for (int64_t q = p + 1; q < n; q++) {
                cb_cplx apq = RM(h, p, q);
                double g = rc_abs(apq), app = RM(h, p, p).re, aqq = RM(h, q, q).re;
                if (g == 0 || g <= 1e-18 * norm || g <= 1e-17 * sqrt(fabs(app * aqq)))
                    continue;
                rot r = jacobi_rot(app, aqq, apq);
                rot_cols(&h, p, q, r);
                rot_rows(&h, p, q, r);
                rot_cols(&v, p, q, r);
                RM(h, p, q) = RM(h, q, p) = (cb_cplx){0, 0};
                RM(h, p, p).im = RM(h, q, q).im = 0;
                rotated = 1;
            }
        if (!rotated)
            break;
    }
    /* ascending, vectors alongside (selection sort: n is small) */
    int64_t *order = malloc((size_t)n * sizeof *order);
    if (order) {
        for (int64_t i = 0; i < n; i++)
            order[i] = i;
        for (int64_t i = 0; i < n; i++) {
            int64_t best = i;
            for (int64_t j = i + 1; j < n; j++)
                if (RM(h, order[j], order[j]).re < RM(h, order[best], order[best]).re)
                    best = j;
            int64_t t = order[i];
            order[i] = order[best];
            order[best] = t;
        }
        for (int64_t i = 0; i < n; i++) {
            w[i] = RM(h, order[i], order[i]).re;
            for (int64_t r = 0; vectors && vectors->v && r < n; r++)
                RM(*vectors, r, i) = RM(v, r, order[i]);
        }
        free(order);
    }
    ref_free(&h);
    ref_free(&v);
}

/* Completes the columns r.. of u (rows x cols) to an orthonormal basis
 * from the standard basis, Gram-Schmidt twice. */
static void complete(ref_mat *u, int64_t r)
{
    int64_t m = u->rows, j = r;
    for (int64_t e = 0; e < m && j < u->cols; e++) {
        for (int64_t i = 0; i < m; i++)
            RM(*u, i, j) = (cb_cplx){i == e, 0};
        for (int pass = 0; pass < 2; pass++)
            for (int64_t c = 0; c < j; c++) {
                cb_cplx d = {0, 0};
                for (int64_t i = 0; i < m; i++)
                    d = rc_add(d, rc_mul(rc_conj(RM(*u, i, c)), RM(*u, i, j)));
                for (int64_t i = 0; i < m; i++)
                    RM(*u, i, j) = rc_sub(RM(*u, i, j), rc_mul(RM(*u, i, c), d));
            }
        double nrm = 0;
        for (int64_t i = 0; i < m; i++)
            nrm += rc_abs2(RM(*u, i, j));
        nrm = sqrt(nrm);
        if (nrm < 0.5)
            continue;   /* e was (nearly) in the span: the next one */
        for (int64_t i = 0; i < m; i++)
            RM(*u, i, j) = rc_scale(RM(*u, i, j), 1 / nrm);
        j++;
    }
}

/* One-sided Jacobi on a tall (m >= n) matrix: w = a V with orthogonal
 * columns; s = their norms (descending), u = w / s completed. */
static int svd_tall(const ref_mat *a, double *s, ref_mat *u, ref_mat *v)
{
    int64_t m = a->rows, n = a->cols;
    ref_mat w = ref_new(m, n);
    if (!w.v)
        return -1;
    memcpy(w.v, a->v, (size_t)(m * n) * sizeof *w.v);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            RM(*v, i, j) = (cb_cplx){i == j, 0};
    int converged = 0;
    for (int sweep = 0; sweep < MAX_SWEEPS && !converged; sweep++) {
        converged = 1;
        for (int64_t p = 0; p < n - 1; p++)
            for (int64_t q = p + 1; q < n; q++) {
                double al = 0, be = 0;
                cb_cplx ga = {0, 0};
                for (int64_t i = 0; i < m; i++) {
                    al += rc_abs2(RM(w, i, p));
                    be += rc_abs2(RM(w, i, q));
                    ga = rc_add(ga, rc_mul(rc_conj(RM(w, i, p)), RM(w, i, q)));
                }
                double g = rc_abs(ga);
                if (g == 0 || g <= 1e-16 * sqrt(al * be))
                    continue;
                converged = 0;
                rot r = jacobi_rot(al, be, ga);
                rot_cols(&w, p, q, r);
                rot_cols(v, p, q, r);
            }
    }
    double *nrm = malloc((size_t)n * sizeof *nrm);
    int64_t *order = malloc((size_t)n * sizeof *order);
    ref_mat vs = ref_new(n, n);
    if (!nrm || !order || !vs.v) {
        free(nrm);
        free(order);
        ref_free(&vs);
        ref_free(&w);
        return -1;
    }
    for (int64_t j = 0; j < n; j++) {
        double t = 0;
        for (int64_t i = 0; i < m; i++)
            t += rc_abs2(RM(w, i, j));
        nrm[j] = sqrt(t);
        order[j] = j;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t best = i;
        for (int64_t j = i + 1; j < n; j++)
            if (nrm[order[j]] > nrm[order[best]])
                best = j;
        int64_t t = order[i];
        order[i] = order[best];
        order[best] = t;
    }
    double top = n > 0 ? nrm[order[0]] : 0;
    int64_t r = 0;
    for (int64_t j = 0; j < n; j++) {
        int64_t c = order[j];
        s[j] = nrm[c];
        for (int64_t i = 0; i < n; i++)
            RM(vs, i, j) = RM(*v, i, c);
        if (s[j] > 1e-15 * top && s[j] > 0) {
            for (int64_t i = 0; i < m; i++)
                RM(*u, i, j) = rc_scale(RM(w, i, c), 1 / s[j]);
            r = j + 1;
        }
    }
    memcpy(v->v, vs.v, (size_t)(n * n) * sizeof *vs.v);
    complete(u, r);
    free(nrm);
    free(order);
    ref_free(&vs);
    ref_free(&w);
    return converged ? 0 : -1;
}

int ref_gesvd(const ref_mat *a, double *s, ref_mat *u, ref_mat *v)
{
    int64_t m = a->rows, n = a->cols;
    if (m >= n)
        return svd_tall(a, s, u, v);
    /* A^H = U' S V'^H, so A = V' S U'^H */
    ref_mat ah = ref_new(n, m);
    if (!ah.v)
        return -1;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
            RM(ah, j, i) = rc_conj(RM(*a, i, j));
    int r = svd_tall(&ah, s, v, u);
    ref_free(&ah);
    return r;
}

void ref_align(ref_mat *ref, int64_t kb, const ref_mat *res, int64_t first, int64_t k, ref_mat *partner)
{
    int64_t rows = ref->rows;
    if (k <= 0 || kb < k || first + kb > ref->cols || first + k > res->cols)
        return;
    ref_mat mm = ref_new(kb, k), x = ref_new(kb, kb), y = ref_new(k, k), w = ref_new(kb, k), out = ref_new(rows, k);
    double *sv = malloc((size_t)k * sizeof *sv);
    if (!mm.v || !x.v || !y.v || !w.v || !out.v || !sv)
        goto done;
    /* M = Q^H R */
    for (int64_t i = 0; i < kb; i++)
        for (int64_t j = 0; j < k; j++) {
            cb_cplx d = {0, 0};
            for (int64_t r = 0; r < rows; r++)
                d = rc_add(d, rc_mul(rc_conj(RM(*ref, r, first + i)), RM(*res, r, first + j)));
            RM(mm, i, j) = d;
        }
    /* W = X Y^H, the polar factor of M = X S Y^H (thin) */
    (void)svd_tall(&mm, sv, &x, &y);   /* a k x k problem: it converges; a zero M gives some unitary W */
    for (int64_t i = 0; i < kb; i++)
        for (int64_t j = 0; j < k; j++) {
            cb_cplx d = {0, 0};
            for (int64_t c = 0; c < k; c++)
                d = rc_add(d, rc_mul(RM(x, i, c), rc_conj(RM(y, j, c))));
            RM(w, i, j) = d;
        }
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < k; j++) {
            cb_cplx d = {0, 0};
            for (int64_t i = 0; i < kb; i++)
                d = rc_add(d, rc_mul(RM(*ref, r, first + i), RM(w, i, j)));
            RM(out, r, j) = d;
        }
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < k; j++)
            RM(*ref, r, first + j) = RM(out, r, j);
    if (partner && partner->v && kb == k && first + k <= partner->cols) {
        ref_mat pout = ref_new(partner->rows, k);
        for (int64_t r = 0; pout.v && r < partner->rows; r++)
            for (int64_t j = 0; j < k; j++) {
                cb_cplx d = {0, 0};
                for (int64_t i = 0; i < k; i++)
                    d = rc_add(d, rc_mul(RM(*partner, r, first + i), RM(w, i, j)));
                RM(pout, r, j) = d;
            }
        for (int64_t r = 0; pout.v && r < partner->rows; r++)
            for (int64_t j = 0; j < k; j++)
                RM(*partner, r, first + j) = RM(pout, r, j);
        ref_free(&pout);
    }
done:
    ref_free(&mm);
    ref_free(&x);
    ref_free(&y);
    ref_free(&w);
    ref_free(&out);
    free(sv);
}

double ref_clusters(const double *vals, int64_t n, double tol, int64_t *cluster)
{
    double gap = INFINITY;
    for (int64_t i = 0; i < n; i++) {
        if (i > 0 && fabs(vals[i] - vals[i - 1]) <= tol) {
            cluster[i] = cluster[i - 1];
            continue;
        }
        cluster[i] = i;
        if (i > 0 && fabs(vals[i] - vals[i - 1]) < gap)
            gap = fabs(vals[i] - vals[i - 1]);
    }
    return gap;
}
