/* fft_layout.c: cuFFT's transforms of any rank, batch and layout on the 1-D
 * FFT (fft_layout.h).
 *
 * Each batch element is gathered into a dense work array of the plan's compute
 * precision (single for f16/bf16/f32, double for f64), transformed dimension by
 * dimension (the last with unit stride in place, the others line by line through
 * a line buffer), and scattered to the output. Gathering the whole element
 * first makes in-place execution safe for any layout.
 *
 * Real transforms of even length n run as a complex FFT of n/2 points with the
 * usual split (R2C: X_k = (Z_k + conj Z_{n/2-k}) / 2 - i/2 w^k (Z_k - conj
 * Z_{n/2-k}), w = exp(-2 pi i / n)); odd lengths as a complex FFT of n points.
 * C2R takes the imaginary parts of X_0 (and X_{n/2}) as zero, i.e. it returns
 * the real part of the inverse of the Hermitian extension of its input.
 */
#include "lib/cufft/fft_layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cufft/fft_core.h"

struct fftl_plan {
    fftl_desc d;
    fft_precision prec;          /* compute precision */
    size_t cs;                   /* bytes of one complex of prec */
    long long cdims[FFTL_MAX_RANK];   /* dims of the complex (half) spectrum */
    size_t ccount, rcount;       /* complex elements of the spectrum, reals of the real side */
    fft_plan *dim[FFTL_MAX_RANK];     /* complex plan per dimension (last: n/2 for even real) */
    int half;                    /* real transform of even last length: packed */
    void *rtw;                   /* half: n/2 + 1 twiddles exp(-2 pi i k / n), prec */
    int naive;                   /* the reference: short lines by a long-double DFT */
    size_t work_bytes;
    /* offsets into work */
    size_t off_spec, off_real, off_line, off_fftw;
};

/* ---- helpers ----------------------------------------------------------- */

static int is_pow2(long long n) { return n > 0 && (n & (n - 1)) == 0; }

static int side_real(const fftl_desc *d, int out)
{
    return out ? d->type == FFTL_C2R : d->type == FFTL_R2C;
}

/* The logical dims of a side: the real lengths, or the complex spectrum's. */
static void side_dims(const fftl_desc *d, int out, long long dims[FFTL_MAX_RANK])
{
    for (int i = 0; i < d->rank; i++)
        dims[i] = d->n[i];
    if (d->type != FFTL_C2C && !side_real(d, out))
        dims[d->rank - 1] = d->n[d->rank - 1] / 2 + 1;
}

/* The effective layout of a side (basic layouts made explicit). */
static void side_layout(const fftl_desc *d, int out, int inplace, long long embed[FFTL_MAX_RANK],
                        long long *stride, long long *dist)
{
    const fftl_side *s = out ? &d->out : &d->in;
    long long dims[FFTL_MAX_RANK];
    side_dims(d, out, dims);
    if (!s->basic) {
        for (int i = 0; i < d->rank; i++)
            embed[i] = i ? s->embed[i] : dims[0];
        *stride = s->stride;
        *dist = s->dist;
        return;
    }
    for (int i = 0; i < d->rank; i++)
        embed[i] = dims[i];
    if (inplace && d->type != FFTL_C2C && side_real(d, out))
        embed[d->rank - 1] = 2 * (d->n[d->rank - 1] / 2 + 1);
    long long total = 1;
    for (int i = 0; i < d->rank; i++)
        total *= embed[i];
    *stride = 1;
    *dist = total;
}

static size_t elem_bytes(fftl_elem e)
{
    return e == FFTL_F64 ? 8 : e == FFTL_F32 ? 4 : 2;
}

static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023u, bits;
    if (exp == 0) {
        if (man == 0)
            bits = sign;
        else {   /* subnormal: normalise */
            int e = -1;
            do { man <<= 1; e++; } while (!(man & 1024u));
            bits = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 1023u) << 13);
        }
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | (man << 13);
    } else {
        bits = sign | ((exp + 112) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static uint16_t float_to_half(float f)   /* round to nearest even */
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 255u, man = x & 0x7fffffu;
    if (exp == 255)
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        man |= 0x800000u;
        int shift = 14 - e;
        uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++;
    return (uint16_t)(sign | h);
}

static float bf16_to_float(uint16_t b)
{
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static uint16_t float_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40);
    x += 0x7fffu + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

static double load(const void *base, fftl_elem e, long long i)
{
    switch (e) {
    case FFTL_F64: return ((const double *)base)[i];
    case FFTL_F32: return ((const float *)base)[i];
    case FFTL_F16: return half_to_float(((const uint16_t *)base)[i]);
    default: return bf16_to_float(((const uint16_t *)base)[i]);
    }
}

static void save(void *base, fftl_elem e, long long i, double v)
{
    switch (e) {
    case FFTL_F64: ((double *)base)[i] = v; break;
    case FFTL_F32: ((float *)base)[i] = (float)v; break;
    case FFTL_F16: ((uint16_t *)base)[i] = float_to_half((float)v); break;
    default: ((uint16_t *)base)[i] = float_to_bf16((float)v); break;
    }
}

/* ---- validation --------------------------------------------------------- */

#define FFTL_LIMIT (1LL << 50)   /* elements: beyond any memory */

static int refuse(char *why, size_t len, int code, const char *msg, long long a)
{
    if (why && len)
        snprintf(why, len, msg, a);
    return code;
}

int fftl_validate(const fftl_desc *d, char *why, size_t why_len)
{
    if (d->rank < 1 || d->rank > FFTL_MAX_RANK)
        return refuse(why, why_len, FFTL_BAD_RANK, "rank %lld is not 1, 2 or 3", d->rank);
    long long total = 1;
    for (int i = 0; i < d->rank; i++) {
        if (d->n[i] < 1 || d->n[i] > FFTL_LIMIT)
            return refuse(why, why_len, FFTL_BAD_SIZE, "length %lld out of range", d->n[i]);
        if (total > FFTL_LIMIT / d->n[i])
            return refuse(why, why_len, FFTL_BAD_SIZE, "%lld elements per transform or more", FFTL_LIMIT);
        total *= d->n[i];
    }
    if (d->batch < 1 || d->batch > FFTL_LIMIT / total)
        return refuse(why, why_len, FFTL_BAD_SIZE, "batch %lld out of range", d->batch);
    if (d->elem == FFTL_F16 || d->elem == FFTL_BF16)
        for (int i = 0; i < d->rank; i++)
            if (!is_pow2(d->n[i]))
                return refuse(why, why_len, FFTL_BAD_TYPE, "half-precision length %lld is not a power of two",
                              d->n[i]);
    for (int out = 0; out < 2; out++) {
        const fftl_side *s = out ? &d->out : &d->in;
        if (s->basic)
            continue;
        long long dims[FFTL_MAX_RANK];
        side_dims(d, out, dims);
        if (s->stride < 1 || s->stride > FFTL_LIMIT)
            return refuse(why, why_len, FFTL_BAD_LAYOUT, "stride %lld out of range", s->stride);
        if (s->dist < 1 || s->dist > FFTL_LIMIT)
            return refuse(why, why_len, FFTL_BAD_LAYOUT, "dist %lld out of range", s->dist);
        long long span = 1;   /* elements one transform spans, in units of stride */
        for (int i = 1; i < d->rank; i++) {
            if (s->embed[i] < dims[i] || s->embed[i] > FFTL_LIMIT)
                return refuse(why, why_len, FFTL_BAD_LAYOUT, "embed %lld smaller than its length", s->embed[i]);
            if (span > FFTL_LIMIT / s->embed[i])
                return refuse(why, why_len, FFTL_BAD_LAYOUT, "embedded size over %lld elements", FFTL_LIMIT);
            span *= s->embed[i];
        }
        if (span > FFTL_LIMIT / dims[0] || span * dims[0] > FFTL_LIMIT / s->stride)
            return refuse(why, why_len, FFTL_BAD_LAYOUT, "layout spans over %lld elements", FFTL_LIMIT);
        if (d->batch > 1 && s->dist > FFTL_LIMIT / (d->batch - 1))
            return refuse(why, why_len, FFTL_BAD_LAYOUT, "batch spans over %lld elements", FFTL_LIMIT);
    }
    return FFTL_OK;
}

/* ---- plans -------------------------------------------------------------- */

fftl_plan *fftl_plan_create(const fftl_desc *d)
{
    if (fftl_validate(d, NULL, 0) != FFTL_OK)
        return NULL;
    fftl_plan *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->d = *d;
    p->prec = d->elem == FFTL_F64 ? FFT_DOUBLE : FFT_SINGLE;
    p->cs = p->prec == FFT_DOUBLE ? 16 : 8;
    int r = d->rank;
    long long last = d->n[r - 1];
    p->ccount = 1;
    p->rcount = 1;
    for (int i = 0; i < r; i++) {
        p->cdims[i] = (d->type != FFTL_C2C && i == r - 1) ? last / 2 + 1 : d->n[i];
        p->ccount *= (size_t)p->cdims[i];
        p->rcount *= (size_t)d->n[i];
    }
    p->half = d->type != FFTL_C2C && last % 2 == 0;
    size_t maxline = 1, maxwork = 1;
    for (int i = 0; i < r; i++) {
        size_t len = (size_t)d->n[i];
        if (i == r - 1 && p->half)
            len /= 2;
        p->dim[i] = fft_plan_create(len, p->prec);
        if (!p->dim[i]) {
            fftl_plan_destroy(p);
            return NULL;
        }
        if ((size_t)d->n[i] > maxline)
            maxline = (size_t)d->n[i];
        if (fft_work_elements(p->dim[i]) > maxwork)
            maxwork = fft_work_elements(p->dim[i]);
    }
    if (maxwork < maxline)
        maxwork = maxline;   /* the naive reference's scratch */
    if (p->half) {
        size_t h = (size_t)last / 2;
        p->rtw = malloc((h + 1) * p->cs);
        if (!p->rtw) {
            fftl_plan_destroy(p);
            return NULL;
        }
        const long double two_pi = 6.283185307179586476925286766559005768394L;
        for (size_t k = 0; k <= h; k++) {
            long double a = two_pi * (long double)k / (long double)last;
            if (p->prec == FFT_DOUBLE) {
                ((double *)p->rtw)[2 * k] = (double)cosl(a);
                ((double *)p->rtw)[2 * k + 1] = (double)-sinl(a);
            } else {
                ((float *)p->rtw)[2 * k] = (float)cosl(a);
                ((float *)p->rtw)[2 * k + 1] = (float)-sinl(a);
            }
        }
    }
    /* work: spectrum, real array (real types), line buffer (n + 1), FFT work */
    size_t rs = p->cs / 2;
    p->off_spec = 0;
    p->off_real = p->off_spec + p->ccount * p->cs;
    p->off_line = p->off_real + (d->type != FFTL_C2C ? p->rcount * rs + p->cs : 0);
    p->off_fftw = p->off_line + (maxline + 1) * p->cs;
    p->work_bytes = p->off_fftw + maxwork * p->cs;
    return p;
}

void fftl_plan_destroy(fftl_plan *p)
{
    if (!p)
        return;
    for (int i = 0; i < FFTL_MAX_RANK; i++)
        fft_plan_destroy(p->dim[i]);
    free(p->rtw);
    free(p);
}

const fftl_desc *fftl_plan_desc(const fftl_plan *p) { return &p->d; }
size_t fftl_work_bytes(const fftl_plan *p) { return p->work_bytes; }

/* Offset (in scalars of the side's element, complex counting two) of element
 * idx (row-major in dims) of batch b. */
static long long side_offset(int rank, const long long dims[], const long long embed[], long long stride,
                             long long dist, long long b, long long idx, int complex_side)
{
    long long x[FFTL_MAX_RANK] = { 0 }, rem = idx;
    for (int i = rank - 1; i >= 0; i--) {
        x[i] = rem % dims[i];
        rem /= dims[i];
    }
    long long lin = x[0];
    for (int i = 1; i < rank; i++)
        lin = lin * embed[i] + x[i];
    long long e = b * dist + lin * stride;
    return complex_side ? 2 * e : e;
}

void fftl_extents(const fftl_plan *p, int inplace, uint64_t *in_bytes, uint64_t *out_bytes)
{
    const fftl_desc *d = &p->d;
    for (int out = 0; out < 2; out++) {
        long long embed[FFTL_MAX_RANK] = {0}, stride, dist, dims[FFTL_MAX_RANK] = {0};
        side_layout(d, out, inplace, embed, &stride, &dist);
        side_dims(d, out, dims);
        long long count = 1;
        for (int i = 0; i < d->rank; i++)
            count *= dims[i];
        int cpx = !side_real(d, out);
        /* the last element of the last batch is the farthest (all terms grow) */
        long long last = side_offset(d->rank, dims, embed, stride, dist, d->batch - 1, count - 1, cpx);
        uint64_t bytes = (uint64_t)(last + (cpx ? 2 : 1)) * elem_bytes(d->elem);
        if (out)
            *out_bytes = bytes;
        else
            *in_bytes = bytes;
    }
}

/* ---- execution ---------------------------------------------------------- */

/* A naive DFT accumulated in long double, in place, of n complex doubles. */
static void naive_dft(double *x, size_t n, int sign, double *tmp)
{
    const long double two_pi = 6.283185307179586476925286766559005768394L;
    for (size_t k = 0; k < n; k++) {
        long double re = 0, im = 0;
        for (size_t j = 0; j < n; j++) {
            long double a = sign * two_pi * (long double)((unsigned long long)j * k % n) / (long double)n;
            long double c = cosl(a), sn = sinl(a);
            re += x[2 * j] * c - x[2 * j + 1] * sn;
            im += x[2 * j] * sn + x[2 * j + 1] * c;
        }
        tmp[2 * k] = (double)re;
        tmp[2 * k + 1] = (double)im;
    }
    memcpy(x, tmp, 2 * n * sizeof(double));
}

#define NAIVE_MAX 1024   /* longer lines: the FFT in double */

static void run_1d(const fftl_plan *p, const fft_plan *fp, void *data, void *work, int sign)
{
    size_t n = fft_plan_length(fp);
    if (p->naive && p->prec == FFT_DOUBLE && n <= NAIVE_MAX)
        naive_dft(data, n, sign, work);
    else
        fft_execute(fp, data, work, sign);
}

/* Transforms every line along dimension dim of the dense complex array a
 * (dims cd), with plan fp of that length. */
static void lines(const fftl_plan *p, char *a, const long long cd[], int dim, const fft_plan *fp, int sign,
                  char *line, char *fftw)
{
    int r = p->d.rank;
    size_t cs = p->cs, len = (size_t)cd[dim], inner = 1, outer = 1;
    for (int i = dim + 1; i < r; i++)
        inner *= (size_t)cd[i];
    for (int i = 0; i < dim; i++)
        outer *= (size_t)cd[i];
    for (size_t o = 0; o < outer; o++) {
        char *base = a + o * len * inner * cs;
        if (inner == 1) {
            run_1d(p, fp, base, fftw, sign);
            continue;
        }
        for (size_t j = 0; j < inner; j++) {
            for (size_t k = 0; k < len; k++)
                memcpy(line + k * cs, base + (k * inner + j) * cs, cs);
            run_1d(p, fp, line, fftw, sign);
            for (size_t k = 0; k < len; k++)
                memcpy(base + (k * inner + j) * cs, line + k * cs, cs);
        }
    }
}

#define RT_GET(buf, i) (prec ? ((double *)(buf))[i] : (double)((float *)(buf))[i])
#define RT_SET(buf, i, v) (prec ? (void)(((double *)(buf))[i] = (v)) : (void)(((float *)(buf))[i] = (float)(v)))

/* Rows of the last dimension: real (rows x n) -> spectrum (rows x (n/2+1)). */
static void rows_r2c(const fftl_plan *p, const char *real, char *spec, char *line, char *fftw)
{
    int prec = p->prec == FFT_DOUBLE;
    size_t n = (size_t)p->d.n[p->d.rank - 1], h = n / 2, nc = h + 1;
    size_t rows = p->rcount / n;
    const fft_plan *fp = p->dim[p->d.rank - 1];
    for (size_t row = 0; row < rows; row++) {
        const char *x = real + row * n * (p->cs / 2);
        char *X = spec + row * nc * p->cs;
        if (!p->half) {   /* odd: full complex transform */
            for (size_t j = 0; j < n; j++) {
                RT_SET(line, 2 * j, RT_GET(x, j));
                RT_SET(line, 2 * j + 1, 0.0);
            }
            run_1d(p, fp, line, fftw, -1);
            memcpy(X, line, nc * p->cs);
            continue;
        }
        memcpy(line, x, n * (p->cs / 2));   /* z_j = x_2j + i x_2j+1 */
        run_1d(p, fp, line, fftw, -1);
        for (size_t k = 0; k <= h; k++) {
            size_t k1 = k % h, k2 = (h - k) % h;
            double zr = RT_GET(line, 2 * k1), zi = RT_GET(line, 2 * k1 + 1);
            double cr = RT_GET(line, 2 * k2), ci = -RT_GET(line, 2 * k2 + 1);   /* conj Z_{h-k} */
            double er = 0.5 * (zr + cr), ei = 0.5 * (zi + ci);                  /* even part */
            double orr = 0.5 * (zi - ci), oi = -0.5 * (zr - cr);                /* (Z - conjZ') / 2i */
            double wr = RT_GET(p->rtw, 2 * k), wi = RT_GET(p->rtw, 2 * k + 1);
            RT_SET(X, 2 * k, er + wr * orr - wi * oi);
            RT_SET(X, 2 * k + 1, ei + wr * oi + wi * orr);
        }
    }
}

/* Rows of the last dimension: spectrum (rows x (n/2+1)) -> real (rows x n),
 * unnormalised inverse. spec is used as scratch. */
static void rows_c2r(const fftl_plan *p, char *spec, char *real, char *line, char *fftw)
{
    int prec = p->prec == FFT_DOUBLE;
    size_t n = (size_t)p->d.n[p->d.rank - 1], h = n / 2, nc = h + 1;
    size_t rows = p->rcount / n;
    const fft_plan *fp = p->dim[p->d.rank - 1];
    for (size_t row = 0; row < rows; row++) {
        char *X = spec + row * nc * p->cs;
        char *x = real + row * n * (p->cs / 2);
        RT_SET(X, 1, 0.0);
        if (!p->half) {   /* odd: Hermitian extension, complex inverse */
            for (size_t k = 0; k < nc; k++) {
                RT_SET(line, 2 * k, RT_GET(X, 2 * k));
                RT_SET(line, 2 * k + 1, RT_GET(X, 2 * k + 1));
            }
            for (size_t k = nc; k < n; k++) {
                RT_SET(line, 2 * k, RT_GET(X, 2 * (n - k)));
                RT_SET(line, 2 * k + 1, -RT_GET(X, 2 * (n - k) + 1));
            }
            run_1d(p, fp, line, fftw, +1);
            for (size_t j = 0; j < n; j++)
                RT_SET(x, j, RT_GET(line, 2 * j));
            continue;
        }
        RT_SET(X, 2 * h + 1, 0.0);
        for (size_t k = 0; k < h; k++) {   /* Z_k = E_k + i conj(w^k) O_k ... */
            double ar = RT_GET(X, 2 * k), ai = RT_GET(X, 2 * k + 1);
            double br = RT_GET(X, 2 * (h - k)), bi = -RT_GET(X, 2 * (h - k) + 1);   /* conj X_{h-k} */
            double er = ar + br, ei = ai + bi, dr = ar - br, di = ai - bi;
            double wr = RT_GET(p->rtw, 2 * k), wi = -RT_GET(p->rtw, 2 * k + 1);    /* exp(+2 pi i k / n) */
            double tr = dr * wr - di * wi, ti = dr * wi + di * wr;
            RT_SET(line, 2 * k, er - ti);
            RT_SET(line, 2 * k + 1, ei + tr);
        }
        run_1d(p, fp, line, fftw, +1);
        memcpy(x, line, n * (p->cs / 2));
    }
}

/* gather one batch element of a side into a dense array of prec scalars */
static void gather(const fftl_plan *p, int out, int inplace, const void *src, long long b, char *dense)
{
    const fftl_desc *d = &p->d;
    int same = (d->elem == FFTL_F32 && p->prec == FFT_SINGLE) || (d->elem == FFTL_F64 && p->prec == FFT_DOUBLE);
    size_t es = p->cs / 2;
    long long embed[FFTL_MAX_RANK] = {0}, stride, dist, dims[FFTL_MAX_RANK] = {0};
    side_layout(d, out, inplace, embed, &stride, &dist);
    side_dims(d, out, dims);
    int cpx = !side_real(d, out), prec = p->prec == FFT_DOUBLE;
    long long count = 1;
    for (int i = 0; i < d->rank; i++)
        count *= dims[i];
    int contiguous = stride == 1;
    long long last = dims[d->rank - 1];
    for (long long idx = 0; idx < count; idx += contiguous ? last : 1) {
        long long o = side_offset(d->rank, dims, embed, stride, dist, b, idx, cpx);
        long long m = contiguous ? last : 1;
        if (same)   /* no conversion: copy the row */
            memcpy(dense + (size_t)(cpx ? 2 * idx : idx) * es, (const char *)src + (size_t)o * es,
                   (size_t)(cpx ? 2 * m : m) * es);
        else if (cpx)
            for (long long t = 0; t < 2 * m; t++)
                RT_SET(dense, 2 * idx + t, load(src, d->elem, o + t));
        else
            for (long long t = 0; t < m; t++)
                RT_SET(dense, idx + t, load(src, d->elem, o + t));
    }
}

static void scatter(const fftl_plan *p, int inplace, const char *dense, void *dst, long long b)
{
    const fftl_desc *d = &p->d;
    int same = (d->elem == FFTL_F32 && p->prec == FFT_SINGLE) || (d->elem == FFTL_F64 && p->prec == FFT_DOUBLE);
    size_t es = p->cs / 2;
    long long embed[FFTL_MAX_RANK] = {0}, stride, dist, dims[FFTL_MAX_RANK] = {0};
    side_layout(d, 1, inplace, embed, &stride, &dist);
    side_dims(d, 1, dims);
    int cpx = !side_real(d, 1), prec = p->prec == FFT_DOUBLE;
    long long count = 1;
    for (int i = 0; i < d->rank; i++)
        count *= dims[i];
    int contiguous = stride == 1;
    long long last = dims[d->rank - 1];
    for (long long idx = 0; idx < count; idx += contiguous ? last : 1) {
        long long o = side_offset(d->rank, dims, embed, stride, dist, b, idx, cpx);
        long long m = contiguous ? last : 1;
        if (same)
            memcpy((char *)dst + (size_t)o * es, dense + (size_t)(cpx ? 2 * idx : idx) * es,
                   (size_t)(cpx ? 2 * m : m) * es);
        else if (cpx)
            for (long long t = 0; t < 2 * m; t++)
                save(dst, d->elem, o + t, RT_GET(dense, 2 * idx + t));
        else
            for (long long t = 0; t < m; t++)
                save(dst, d->elem, o + t, RT_GET(dense, idx + t));
    }
}

void fftl_execute(const fftl_plan *p, const void *in, void *out, int inplace, int sign, void *work)
{
    const fftl_desc *d = &p->d;
    char *w = work, *spec = w + p->off_spec, *real = w + p->off_real, *line = w + p->off_line,
         *fftw = w + p->off_fftw;
    int r = d->rank;
    if (d->type == FFTL_R2C)
        sign = -1;
    else if (d->type == FFTL_C2R)
        sign = +1;
    int same = (d->elem == FFTL_F32 && p->prec == FFT_SINGLE) || (d->elem == FFTL_F64 && p->prec == FFT_DOUBLE);
    if (d->type == FFTL_C2C && same && d->in.basic && d->out.basic) {
        /* dense on both sides: transform the output buffer itself */
        size_t bytes = p->ccount * p->cs;
        for (long long b = 0; b < d->batch; b++) {
            char *x = (char *)out + (size_t)b * bytes;
            if (!inplace)
                memcpy(x, (const char *)in + (size_t)b * bytes, bytes);
            for (int i = r - 1; i >= 0; i--)
                lines(p, x, p->cdims, i, p->dim[i], sign, line, fftw);
        }
        return;
    }
    for (long long b = 0; b < d->batch; b++) {
        switch (d->type) {
        case FFTL_C2C:
            gather(p, 0, inplace, in, b, spec);
            for (int i = r - 1; i >= 0; i--)
                lines(p, spec, p->cdims, i, p->dim[i], sign, line, fftw);
            scatter(p, inplace, spec, out, b);
            break;
        case FFTL_R2C:
            gather(p, 0, inplace, in, b, real);
            rows_r2c(p, real, spec, line, fftw);
            for (int i = r - 2; i >= 0; i--)
                lines(p, spec, p->cdims, i, p->dim[i], -1, line, fftw);
            scatter(p, inplace, spec, out, b);
            break;
        case FFTL_C2R:
            gather(p, 0, inplace, in, b, spec);
            for (int i = r - 2; i >= 0; i--)
                lines(p, spec, p->cdims, i, p->dim[i], +1, line, fftw);
            rows_c2r(p, spec, real, line, fftw);
            scatter(p, inplace, real, out, b);
            break;
        }
    }
}

/* ---- the double-precision reference ------------------------------------- */

int fftl_reference(const fftl_desc *d, const void *in, void *ref_out, int inplace, int sign)
{
    fftl_desc dd = *d;
    dd.elem = FFTL_F64;
    fftl_plan *q = fftl_plan_create(&dd);
    if (!q)
        return -1;
    q->d.elem = d->elem;   /* reads and writes the caller's element type, computes in double */
    q->naive = 1;
    void *work = malloc(q->work_bytes);
    if (!work) {
        fftl_plan_destroy(q);
        return -1;
    }
    fftl_execute(q, in, ref_out, inplace, sign, work);
    free(work);
    fftl_plan_destroy(q);
    return 0;
}
