/* ref.c: the C references of cuSPARSE's products, in double (complex),
 * on the host copies verify mode takes (lib/common/check.h): SpMV and
 * SpMM, C = alpha op(A) op(B) + beta C for CSR, CSC and COO A, any index
 * width and base, every batch entry. They walk the stored entries one by
 * one, independently of the backend's kernels.
 */
#include "cusparse_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct { double re, im; } rz;

/* The host copy of device address a (NULL when no operand holds it). */
static void *host_of(const cbl_operand *ops, int nops, uint64_t a)
{
    for (int i = 0; i < nops; i++)
        if (ops[i].addr && a >= ops[i].addr && a < ops[i].addr + ops[i].bytes)
            return (char *)ops[i].ref + (a - ops[i].addr);
    return NULL;
}

/* Element i of type t at p. Through memcpy: the scalars (sp_op.alpha,
 * beta) are byte arrays, not aligned to their type. */
static rz get(cb_blas_type t, const void *p, int64_t i)
{
    const unsigned char *b = p;
    float f[2];
    double d[2];
    switch (t) {
    case CB_BLAS_F32: memcpy(f, b + 4 * i, 4); return (rz){f[0], 0};
    case CB_BLAS_F64: memcpy(d, b + 8 * i, 8); return (rz){d[0], 0};
    case CB_BLAS_C32: memcpy(f, b + 8 * i, 8); return (rz){f[0], f[1]};
    default: memcpy(d, b + 16 * i, 16); return (rz){d[0], d[1]};
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

/* ---- the other calls: vectors, conversions, SpGEMM's counts and copy ------------------------- */

static cbl_operand *named(cbl_operand *ops, int nops, const char *name)
{
    for (int i = 0; i < nops; i++)
        if (strcmp(ops[i].name, name) == 0)
            return &ops[i];
    return NULL;
}

static void put_idx(void *p, int bytes, int64_t i, int64_t v)
{
    if (bytes == 8)
        ((int64_t *)p)[i] = v;
    else if (bytes == 2)
        ((uint16_t *)p)[i] = (uint16_t)v;
    else
        ((int32_t *)p)[i] = (int32_t)v;
}

void sp_ref_vec(void *p, cbl_operand *ops)
{
    sp_op *o = p;
    const cb_sparse *x = &o->a;
    const cb_dense *y = &o->y;
    const void *ind = host_of(ops, o->nops, x->colind);
    void *xv = host_of(ops, o->nops, x->values), *yv = host_of(ops, o->nops, y->values);
    if (o->kind == CB_SPVEC_AXPBY && yv) {
        rz al = get(o->compute, o->alpha, 0), be = get(o->compute, o->beta, 0);
        for (int64_t i = 0; i < y->rows; i++)
            put(y->type, yv, i, be.re == 0 && be.im == 0 ? (rz){0, 0} : mul(be, get(y->type, yv, i)));
        for (int64_t k = 0; k < x->nnz && ind && xv; k++) {
            int64_t i = idx(ind, x->idx_bytes, k) - x->base;
            rz v = get(y->type, yv, i), a = mul(al, get(x->type, xv, k));
            put(y->type, yv, i, (rz){v.re + a.re, v.im + a.im});
        }
        return;
    }
    rz sum = {0, 0};
    for (int64_t k = 0; k < x->nnz && ind && xv && yv; k++) {
        int64_t i = idx(ind, x->idx_bytes, k) - x->base;
        if (o->kind == CB_SPVEC_GATHER)
            put(x->type, xv, k, get(y->type, yv, i));
        else if (o->kind == CB_SPVEC_SCATTER)
            put(y->type, yv, i, get(x->type, xv, k));
        else {
            rz a = get(x->type, xv, k);
            if (o->kind == CB_SPVEC_DOTC)
                a.im = -a.im;
            rz pr = mul(a, get(y->type, yv, i));
            sum.re += pr.re, sum.im += pr.im;
        }
    }
    cbl_operand *r = named(ops, o->nops, "result");
    if ((o->kind == CB_SPVEC_DOT || o->kind == CB_SPVEC_DOTC) && r)
        put(o->compute, r->ref, 0, sum);
}

void sp_ref_to_dense(void *p, cbl_operand *ops)
{
    sp_op *o = p;
    const cb_sparse *a = &o->a;
    const cb_dense *d = &o->y;
    void *dv = host_of(ops, o->nops, d->values);
    if (!dv)
        return;
    for (int64_t j = 0; j < d->cols; j++)
        for (int64_t i = 0; i < d->rows; i++)
            put(d->type, dv, pos(d, 0, i, j), (rz){0, 0});
    const char *vals = host_of(ops, o->nops, a->values), *of = host_of(ops, o->nops, a->offsets);
    const char *ri = host_of(ops, o->nops, a->rowind), *ci = host_of(ops, o->nops, a->colind);
    int64_t outer = a->format == CB_SP_CSR ? a->rows : a->format == CB_SP_CSC ? a->cols : 1;
    for (int64_t q = 0; q < outer && vals; q++) {
        int64_t k0 = a->format == CB_SP_COO ? 0 : idx(of, a->off_bytes, q) - a->base;
        int64_t k1 = a->format == CB_SP_COO ? a->nnz : idx(of, a->off_bytes, q + 1) - a->base;
        for (int64_t k = k0; k < k1; k++) {
            int64_t r = a->format == CB_SP_CSR ? q : idx(ri, a->idx_bytes, k) - a->base;
            int64_t c = a->format == CB_SP_CSC ? q : idx(ci, a->idx_bytes, k) - a->base;
            rz old = get(d->type, dv, pos(d, 0, r, c)), v = get(a->type, vals, k);
            put(d->type, dv, pos(d, 0, r, c), (rz){old.re + v.re, old.im + v.im});
        }
    }
}

void sp_ref_from_dense(void *p, cbl_operand *ops)
{
    sp_op *o = p;
    const cb_sparse *a = &o->a;
    const cb_dense *d = &o->y;
    const void *dv = host_of(ops, o->nops, d->values);
    void *of = host_of(ops, o->nops, a->offsets), *ri = host_of(ops, o->nops, a->rowind);
    void *ci = host_of(ops, o->nops, a->colind), *vals = host_of(ops, o->nops, a->values);
    int csc = a->format == CB_SP_CSC, coo = a->format == CB_SP_COO;
    int64_t outer = csc ? d->cols : d->rows, inner = csc ? d->rows : d->cols, k = 0;
    for (int64_t q = 0; q < outer && dv; q++) {
        if (o->count_only && !coo && of)
            put_idx(of, a->off_bytes, q, k + a->base);
        for (int64_t t = 0; t < inner; t++) {
            int64_t i = csc ? t : q, j = csc ? q : t;
            rz v = get(d->type, dv, pos(d, 0, i, j));
            if (v.re == 0 && v.im == 0)
                continue;
            if (!o->count_only) {
                if (coo || csc)
                    ri ? put_idx(ri, a->idx_bytes, k, i + a->base) : (void)0;
                if (!csc)
                    ci ? put_idx(ci, a->idx_bytes, k, j + a->base) : (void)0;
                if (vals)
                    put(a->type, vals, k, v);
            }
            k++;
        }
    }
    if (o->count_only && !coo && of)
        put_idx(of, a->off_bytes, outer, k + a->base);
    cbl_operand *n = named(ops, o->nops, "nnz");
    if (n)
        *(int64_t *)n->ref = k;
}

/* csr2cscEx2 on host copies (counting sort by column, rows ascending). */
void sp_ref_c2c(void *p, cbl_operand *ops)
{
    sp_op *o = p;
    const int *rp = host_of(ops, o->nops, o->p1), *ci = host_of(ops, o->nops, o->p2);
    const void *val = o->values ? host_of(ops, o->nops, o->p0) : NULL;
    int *cp = host_of(ops, o->nops, o->p4), *rr = host_of(ops, o->nops, o->p5);
    void *cv = o->values ? host_of(ops, o->nops, o->p3) : NULL;
    int b = o->base_ix;
    if (!rp || !cp)
        return;
    for (int64_t j = 0; j <= o->n; j++)
        cp[j] = 0;
    for (int64_t r = 0; r < o->m; r++)
        for (int64_t k = rp[r] - b; k < rp[r + 1] - b; k++)
            cp[ci[k] - b + 1]++;
    for (int64_t j = 0; j < o->n; j++)
        cp[j + 1] += cp[j];
    int64_t *next = malloc(((size_t)o->n + 1) * sizeof *next);
    if (!next)
        return;
    for (int64_t j = 0; j < o->n; j++)
        next[j] = cp[j];
    for (int64_t r = 0; r < o->m; r++)
        for (int64_t k = rp[r] - b; k < rp[r + 1] - b; k++) {
            int64_t d = next[ci[k] - b]++;
            rr[d] = (int)r + b;
            if (cv && val)
                put(o->compute, cv, d, get(o->compute, val, k));
        }
    for (int64_t j = 0; j <= o->n; j++)
        cp[j] += b;
    free(next);
}

/* The sorts: insertion sort of (key1, key2, original position). */
void sp_ref_sort(void *p, cbl_operand *ops)
{
    sp_op *o = p;
    int *ptr = host_of(ops, o->nops, o->p0), *ind = host_of(ops, o->nops, o->p1);
    int *perm = o->p2 ? host_of(ops, o->nops, o->p2) : NULL;
    int64_t n = o->nnz;
    int64_t(*k)[3] = malloc((size_t)n * sizeof *k);
    if (!k || !ptr || !ind) {
        free(k);
        return;
    }
    int coo = o->kind == CB_SPSORT_COO_ROW || o->kind == CB_SPSORT_COO_COL;
    if (!coo) {
        int64_t outer = o->kind == CB_SPSORT_CSR ? o->m : o->n;
        for (int64_t q = 0; q < outer; q++)
            for (int64_t e = ptr[q] - o->base_ix; e < ptr[q + 1] - o->base_ix; e++)
                k[e][0] = q, k[e][1] = ind[e], k[e][2] = e;
    } else
        for (int64_t e = 0; e < n; e++) {
            int colfirst = o->kind == CB_SPSORT_COO_COL;
            k[e][0] = colfirst ? ind[e] : ptr[e], k[e][1] = colfirst ? ptr[e] : ind[e], k[e][2] = e;
        }
    for (int64_t i = 1; i < n; i++) {
        int64_t t[3] = {k[i][0], k[i][1], k[i][2]}, j = i;
        while (j > 0 && (k[j - 1][0] > t[0] || (k[j - 1][0] == t[0] && k[j - 1][1] > t[1]))) {
            memcpy(k[j], k[j - 1], sizeof k[j]);
            j--;
        }
        memcpy(k[j], t, sizeof t);
    }
    int *pv = perm ? malloc((size_t)n * sizeof *pv) : NULL;
    for (int64_t e = 0; e < n && pv; e++)
        pv[e] = perm[k[e][2]];
    for (int64_t e = 0; e < n; e++) {
        if (!coo)
            ind[e] = (int)k[e][1];
        else if (o->kind == CB_SPSORT_COO_ROW)
            ptr[e] = (int)k[e][0], ind[e] = (int)k[e][1];
        else
            ptr[e] = (int)k[e][1], ind[e] = (int)k[e][0];
        if (pv)
            perm[e] = pv[e];
    }
    free(pv);
    free(k);
}

void sp_ref_compress(void *p, cbl_operand *ops)
{
    sp_op *o = p;
    int *rows = host_of(ops, o->nops, o->p0), *off = host_of(ops, o->nops, o->p1);
    int b = o->base_ix;
    if (!off)
        return;
    if (o->kind) {   /* csr2coo */
        for (int64_t r = 0; r < o->m && rows; r++)
            for (int64_t k = off[r] - b; k < off[r + 1] - b; k++)
                rows[k] = (int)r + b;
        return;
    }
    for (int64_t r = 0; r <= o->m; r++)
        off[r] = b;
    for (int64_t k = 0; k < o->nnz && rows; k++)
        off[rows[k] - b + 1]++;
    for (int64_t r = 0; r < o->m; r++)
        off[r + 1] += off[r] - b;
}

void sp_ref_identity(void *p, cbl_operand *ops)
{
    sp_op *o = p;
    int *v = host_of(ops, o->nops, o->p0);
    for (int64_t i = 0; i < o->n && v; i++)
        v[i] = (int)i;
}

/* SpGEMM: the product's structure and values, row by row (a dense row). */
static int64_t ref_spgemm(sp_op *o, cbl_operand *ops, void *c_off, void *c_col, void *c_val, int64_t *products)
{
    const cb_sparse *a = &o->a, *b = &o->b;
    const char *ao = host_of(ops, o->nops, a->offsets), *ac = host_of(ops, o->nops, a->colind);
    const char *av = host_of(ops, o->nops, a->values), *bo = host_of(ops, o->nops, b->offsets);
    const char *bc = host_of(ops, o->nops, b->colind), *bv = host_of(ops, o->nops, b->values);
    if (!ao || !bo)
        return 0;
    rz al = get(o->compute, o->alpha, 0);
    rz *row = calloc((size_t)b->cols + 1, sizeof *row);
    char *hit = calloc((size_t)b->cols + 1, 1);
    int64_t nnz = 0, prods = 0;
    for (int64_t r = 0; r < a->rows && row && hit; r++) {
        if (c_off)
            put_idx(c_off, o->c.off_bytes, r, nnz + o->c.base);
        for (int64_t k = idx(ao, a->off_bytes, r) - a->base; k < idx(ao, a->off_bytes, r + 1) - a->base; k++) {
            int64_t q = idx(ac, a->idx_bytes, k) - a->base;
            for (int64_t t = idx(bo, b->off_bytes, q) - b->base; t < idx(bo, b->off_bytes, q + 1) - b->base; t++) {
                int64_t j = idx(bc, b->idx_bytes, t) - b->base;
                rz pr = av && bv ? mul(get(a->type, av, k), get(b->type, bv, t)) : (rz){0, 0};
                row[j].re += pr.re, row[j].im += pr.im;
                hit[j] = 1;
                prods++;
            }
        }
        for (int64_t j = 0; j < b->cols; j++) {
            if (!hit[j])
                continue;
            if (c_col)
                put_idx(c_col, o->c.idx_bytes, nnz, j + o->c.base);
            if (c_val)
                put(o->c.type, c_val, nnz, mul(al, row[j]));
            nnz++;
            hit[j] = 0;
            row[j] = (rz){0, 0};
        }
    }
    if (c_off)
        put_idx(c_off, o->c.off_bytes, a->rows, nnz + o->c.base);
    free(row);
    free(hit);
    *products = prods;
    return nnz;
}

void sp_ref_spgemm_count(void *p, cbl_operand *ops)
{
    sp_op *o = p;
    int64_t prods = 0, nnz = ref_spgemm(o, ops, NULL, NULL, NULL, &prods);
    cbl_operand *n = named(ops, o->nops, "products");
    if (n)
        *(int64_t *)n->ref = prods;
    n = named(ops, o->nops, "nnz");
    if (n)
        *(int64_t *)n->ref = nnz;
}

void sp_ref_spgemm_copy(void *p, cbl_operand *ops)
{
    sp_op *o = p;
    int64_t prods = 0;
    ref_spgemm(o, ops, host_of(ops, o->nops, o->c.offsets), host_of(ops, o->nops, o->c.colind),
               host_of(ops, o->nops, o->c.values), &prods);
}

/* csrgeam2: each row's union of A's and B's columns, ascending (a dense
 * row of flags and sums); the nnz step writes C's offsets and the count,
 * the compute step C's columns and values into the slots of its offsets. */
static void geam_row(const cb_sparse *s, cbl_operand *ops, int nops, int64_t r, rz scale, int values, rz *row,
                     char *hit)
{
    const char *of = host_of(ops, nops, s->offsets), *ci = host_of(ops, nops, s->colind);
    const char *v = values ? host_of(ops, nops, s->values) : NULL;
    if (!of)
        return;
    int64_t k0 = idx(of, s->off_bytes, r) - s->base, k1 = idx(of, s->off_bytes, r + 1) - s->base;
    for (int64_t k = k0 < 0 ? 0 : k0; k < k1 && k < s->nnz && ci; k++) {
        int64_t j = idx(ci, s->idx_bytes, k) - s->base;
        if (j < 0 || j >= s->cols)
            continue;
        hit[j] = 1;
        if (v && (scale.re != 0 || scale.im != 0)) {
            rz p = mul(scale, get(s->type, v, k));
            row[j].re += p.re, row[j].im += p.im;
        }
    }
}

void sp_ref_geam(void *p, cbl_operand *ops)
{
    sp_op *o = p;
    const cb_sparse *c = &o->c;
    int count = o->count_only;
    void *co = host_of(ops, o->nops, c->offsets);
    void *cc = count ? NULL : host_of(ops, o->nops, c->colind), *cv = count ? NULL : host_of(ops, o->nops, c->values);
    rz al = count ? (rz){0, 0} : get(o->compute, o->alpha, 0), be = count ? (rz){0, 0} : get(o->compute, o->beta, 0);
    rz *row = calloc((size_t)c->cols + 1, sizeof *row);
    char *hit = calloc((size_t)c->cols + 1, 1);
    int64_t nnz = 0;
    for (int64_t r = 0; r < c->rows && co && row && hit; r++) {
        if (count)
            put_idx(co, c->off_bytes, r, nnz + c->base);
        geam_row(&o->a, ops, o->nops, r, al, !count, row, hit);
        geam_row(&o->b, ops, o->nops, r, be, !count, row, hit);
        int64_t k = count ? 0 : idx(co, c->off_bytes, r) - c->base, end = count ? 0 : idx(co, c->off_bytes, r + 1) - c->base;
        for (int64_t j = 0; j < c->cols; j++) {
            if (!hit[j])
                continue;
            if (!count && k >= 0 && k < end && k < c->nnz) {
                if (cc)
                    put_idx(cc, c->idx_bytes, k, j + c->base);
                if (cv)
                    put(c->type, cv, k, row[j]);
            }
            k++;
            nnz++;
            hit[j] = 0;
            row[j] = (rz){0, 0};
        }
    }
    if (count && co)
        put_idx(co, c->off_bytes, c->rows, nnz + c->base);
    free(row);
    free(hit);
    cbl_operand *n = named(ops, o->nops, "nnzTotal");
    if (n)
        *(int32_t *)n->ref = (int32_t)nnz;
}
