/* ref_level1.c: plain C references of cuBLAS level 1, accumulating in
 * (complex) double, on the host copies the checked call made (check.h).
 * Each reads its operands in the order level1.c's operand lists give. */
#include "cublas_internal.h"

#include <math.h>

#define OP(p) ((cublas_op *)(p))

void cublas_ref_axpy(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    cb_cplx alpha = cublas_sc(o, 0, cublas_alpha_type(o));
    for (int64_t i = 0; i < o->n; i++) {
        size_t xi = cublas_vi(i, o->n, o->incx), yi = cublas_vi(i, o->n, o->incy);
        cb_cplx y = cublas_ld(o->t, ops[1].ref, yi);
        cublas_st(o->t, ops[1].ref, yi, cx_add(y, cx_mul(alpha, cublas_ld(o->t, ops[0].ref, xi))));
    }
}

void cublas_ref_scal(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    cb_cplx alpha = cublas_sc(o, 0, cublas_alpha_type(o));
    for (int64_t i = 0; i < o->n; i++) {
        size_t xi = cublas_vi(i, o->n, o->incx);
        cublas_st(o->t, ops[0].ref, xi, cx_mul(alpha, cublas_ld(o->t, ops[0].ref, xi)));
    }
}

void cublas_ref_copy(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    for (int64_t i = 0; i < o->n; i++)
        cublas_st(o->t, ops[1].ref, cublas_vi(i, o->n, o->incy), cublas_ld(o->t, ops[0].ref, cublas_vi(i, o->n, o->incx)));
}

void cublas_ref_swap(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    for (int64_t i = 0; i < o->n; i++) {
        size_t xi = cublas_vi(i, o->n, o->incx), yi = cublas_vi(i, o->n, o->incy);
        /* in place, element by element: with a zero increment the swaps chain through one element, as
         * cuBLAS's do (tests/lib/cublas_arg_probe) */
        cb_cplx x = cublas_ld(o->t, ops[0].ref, xi), y = cublas_ld(o->t, ops[1].ref, yi);
        cublas_st(o->t, ops[0].ref, xi, y);
        cublas_st(o->t, ops[1].ref, yi, x);
    }
}

void cublas_ref_dot(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    cb_cplx s = {0, 0};
    for (int64_t i = 0; i < o->n; i++) {
        cb_cplx x = cublas_ld(o->t, ops[0].ref, cublas_vi(i, o->n, o->incx));
        cb_cplx y = cublas_ld(o->t, ops[1].ref, cublas_vi(i, o->n, o->incy));
        s = cx_add(s, cx_mul(o->conj ? cx_conj(x) : x, y));
    }
    cublas_st(o->t, ops[2].ref, 0, s);
}

void cublas_ref_nrm2(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    double s = 0;
    for (int64_t i = 0; i < o->n; i++) {
        cb_cplx x = cublas_ld(o->t, ops[0].ref, (size_t)i * (size_t)o->incx);
        s += x.re * x.re + x.im * x.im;
    }
    cublas_st(cublas_real(o->t), ops[1].ref, 0, cx_real(sqrt(s)));
}

void cublas_ref_asum(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    double s = 0;
    for (int64_t i = 0; i < o->n; i++) {
        cb_cplx x = cublas_ld(o->t, ops[0].ref, (size_t)i * (size_t)o->incx);
        s += fabs(x.re) + fabs(x.im);
    }
    cublas_st(cublas_real(o->t), ops[1].ref, 0, cx_real(s));
}

/* The first index of the largest (smallest) |re| + |im|, 1-based, compared
 * in the element's own precision as cuBLAS compares. */
void cublas_ref_iamax(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    int64_t best = 0;
    double bv = 0;
    for (int64_t i = 0; i < o->n; i++) {
        cb_cplx x = cublas_ld(o->t, ops[0].ref, (size_t)i * (size_t)o->incx);
        double v = fabs(x.re) + fabs(x.im);
        if (o->t == CB_BLAS_F32 || o->t == CB_BLAS_C32)
            v = (float)fabs(x.re) + (float)fabs(x.im);
        if (i == 0 || (o->min ? v < bv : v > bv)) {
            bv = v;
            best = i + 1;
        }
    }
    if (ops[1].bytes == 8)
        memcpy(ops[1].ref, &best, 8);
    else {
        int b = (int)best;
        memcpy(ops[1].ref, &b, 4);
    }
}

void cublas_ref_rot(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    cb_cplx c = cublas_sc(o, 0, cublas_real(o->t)), s = cublas_sc(o, 1, o->s_real ? cublas_real(o->t) : o->t);
    for (int64_t i = 0; i < o->n; i++) {
        size_t xi = cublas_vi(i, o->n, o->incx), yi = cublas_vi(i, o->n, o->incy);
        cb_cplx x = cublas_ld(o->t, ops[0].ref, xi), y = cublas_ld(o->t, ops[1].ref, yi);   /* in place, as swap */
        cublas_st(o->t, ops[0].ref, xi, cx_add(cx_mul(c, x), cx_mul(s, y)));
        cublas_st(o->t, ops[1].ref, yi, cx_sub(cx_mul(c, y), cx_mul(cx_conj(s), x)));
    }
}

void cublas_ref_rotm(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    double prm[5];
    for (int i = 0; i < 5; i++)
        prm[i] = cb_blas_load(o->t, o->sval[0], (size_t)i).re;
    double h11, h12, h21, h22, flag = prm[0];
    if (flag == -2)
        return;
    if (flag == -1) {
        h11 = prm[1], h21 = prm[2], h12 = prm[3], h22 = prm[4];
    } else if (flag == 0) {
        h11 = 1, h21 = prm[2], h12 = prm[3], h22 = 1;
    } else {
        h11 = prm[1], h21 = -1, h12 = 1, h22 = prm[4];
    }
    for (int64_t i = 0; i < o->n; i++) {
        size_t xi = cublas_vi(i, o->n, o->incx), yi = cublas_vi(i, o->n, o->incy);
        double x = cublas_ld(o->t, ops[0].ref, xi).re, y = cublas_ld(o->t, ops[1].ref, yi).re;   /* in place */
        cublas_st(o->t, ops[0].ref, xi, cx_real(h11 * x + h12 * y));
        cublas_st(o->t, ops[1].ref, yi, cx_real(h21 * x + h22 * y));
    }
}

static double sign_of(double v, double s) { return s < 0 ? -fabs(v) : fabs(v); }

/* The reference BLAS's rotg (real) and LAPACK's crotg (complex). */
void cublas_ref_rotg(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    cb_cplx a = cublas_sc(o, 0, o->t), b = cublas_sc(o, 1, o->t);
    cb_blas_type rt = cublas_real(o->t);
    if (!cb_blas_type_complex(o->t)) {
        double roe = fabs(a.re) > fabs(b.re) ? a.re : b.re, scale = fabs(a.re) + fabs(b.re), c, s, r, z;
        if (scale == 0) {
            c = 1, s = 0, r = 0, z = 0;
        } else {
            r = scale * sqrt((a.re / scale) * (a.re / scale) + (b.re / scale) * (b.re / scale));
            r = sign_of(r, roe);
            c = a.re / r;
            s = b.re / r;
            z = 1;
            if (fabs(a.re) > fabs(b.re))
                z = s;
            if (fabs(b.re) >= fabs(a.re) && c != 0)
                z = 1 / c;
        }
        cublas_st(o->t, ops[0].ref, 0, cx_real(r));
        cublas_st(o->t, ops[1].ref, 0, cx_real(z));
        cublas_st(rt, ops[2].ref, 0, cx_real(c));
        cublas_st(o->t, ops[3].ref, 0, cx_real(s));
        return;
    }
    double aa = hypot(a.re, a.im), ab = hypot(b.re, b.im);
    cb_cplx s, b_in = b;
    double c;
    if (aa == 0) {
        c = 0;
        s = cx_real(1);
        a = b;
    } else {
        double scale = aa + ab, norm = scale * sqrt((aa / scale) * (aa / scale) + (ab / scale) * (ab / scale));
        cb_cplx alpha = {a.re / aa, a.im / aa};
        c = aa / norm;
        s = cx_mul(alpha, cx_conj(b));
        s = (cb_cplx){s.re / norm, s.im / norm};
        a = (cb_cplx){alpha.re * norm, alpha.im * norm};
    }
    cublas_st(o->t, ops[0].ref, 0, a);
    cublas_st(o->t, ops[1].ref, 0, b_in);   /* b is only read (written back unchanged) */
    cublas_st(rt, ops[2].ref, 0, cx_real(c));
    cublas_st(o->t, ops[3].ref, 0, s);
}

/* The reference BLAS's rotmg (modified Givens), in double. */
void cublas_ref_rotmg(void *p, cbl_operand *ops)
{
    cublas_op *o = OP(p);
    double d1 = cublas_sc(o, 0, o->t).re, d2 = cublas_sc(o, 1, o->t).re, x1 = cublas_sc(o, 2, o->t).re;
    double y1 = cublas_sc(o, 3, o->t).re;
    const double gam = 4096, gamsq = gam * gam, rgamsq = 1 / gamsq;
    double flag, h11 = 0, h12 = 0, h21 = 0, h22 = 0;
    double prm[5];
    for (int i = 0; i < 5; i++)
        prm[i] = cb_blas_load(o->t, ops[3].before, (size_t)i).re;
    if (d1 < 0) {
        flag = -1;
        d1 = d2 = x1 = 0;
    } else {
        double p2 = d2 * y1;
        if (p2 == 0) {
            prm[0] = -2;
            for (int i = 0; i < 5; i++)
                cublas_st(o->t, ops[3].ref, (size_t)i, cx_real(prm[i]));
            return;
        }
        double p1 = d1 * x1, q2 = p2 * y1, q1 = p1 * x1;
        if (fabs(q1) > fabs(q2)) {
            h21 = -y1 / x1;
            h12 = p2 / p1;
            double u = 1 - h12 * h21;
            if (u > 0) {
                flag = 0;
                d1 /= u;
                d2 /= u;
                x1 *= u;
            } else {
                flag = -1;
                h11 = h12 = h21 = h22 = 0;
                d1 = d2 = x1 = 0;
            }
        } else if (q2 < 0) {
            flag = -1;
            h11 = h12 = h21 = h22 = 0;
            d1 = d2 = x1 = 0;
        } else {
            flag = 1;
            h11 = p1 / p2;
            h22 = x1 / y1;
            double u = 1 + h11 * h22, temp = d2 / u;
            d2 = d1 / u;
            d1 = temp;
            x1 = y1 * u;
        }
        if (d1 != 0) {
            while (d1 <= rgamsq || d1 >= gamsq) {
                if (flag == 0) {
                    h11 = 1, h22 = 1;
                } else {
                    h21 = -1, h12 = 1;
                }
                flag = -1;
                if (d1 <= rgamsq) {
                    d1 *= gamsq, x1 /= gam, h11 /= gam, h12 /= gam;
                } else {
                    d1 /= gamsq, x1 *= gam, h11 *= gam, h12 *= gam;
                }
            }
        }
        if (d2 != 0) {
            while (fabs(d2) <= rgamsq || fabs(d2) >= gamsq) {
                if (flag == 0) {
                    h11 = 1, h22 = 1;
                } else {
                    h21 = -1, h12 = 1;
                }
                flag = -1;
                if (fabs(d2) <= rgamsq) {
                    d2 *= gamsq, h21 /= gam, h22 /= gam;
                } else {
                    d2 /= gamsq, h21 *= gam, h22 *= gam;
                }
            }
        }
    }
    if (flag < 0) {
        prm[1] = h11, prm[2] = h21, prm[3] = h12, prm[4] = h22;
    } else if (flag == 0) {
        prm[2] = h21, prm[3] = h12;
    } else {
        prm[1] = h11, prm[4] = h22;
    }
    prm[0] = flag;
    cublas_st(o->t, ops[0].ref, 0, cx_real(d1));
    cublas_st(o->t, ops[1].ref, 0, cx_real(d2));
    cublas_st(o->t, ops[2].ref, 0, cx_real(x1));
    for (int i = 0; i < 5; i++)
        cublas_st(o->t, ops[3].ref, (size_t)i, cx_real(prm[i]));
}
