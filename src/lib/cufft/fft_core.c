/* fft_core.c: plans and execution of the 1-D complex FFT (fft_core.h). */
#include "lib/cufft/fft_core.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FFT_REAL float
#define FFT_NAME(x) x##_f
#include "lib/cufft/fft_passes.h"
#undef FFT_REAL
#undef FFT_NAME
#define FFT_REAL double
#define FFT_NAME(x) x##_d
#include "lib/cufft/fft_passes.h"
#undef FFT_REAL
#undef FFT_NAME

#define FFT_MAX_STAGES 64

typedef struct fft_stage {
    int radix;
    size_t ns;        /* product of the radices before this pass */
    size_t tw;        /* offset of its twiddles (complex elements) */
    size_t roots;     /* offset of the roots of unity of a generic radix */
} fft_stage;

struct fft_plan {
    size_t n;
    fft_precision prec;
    int nstages;
    fft_stage stage[FFT_MAX_STAGES];
    void *table;                 /* twiddles and roots, complex of the plan's precision */
    /* Bluestein */
    int bluestein;
    size_t m;                    /* power of two >= 2n - 1 */
    fft_plan *sub;               /* length m */
    void *chirp;                 /* n: exp(-i pi k^2 / n) */
    void *filter;                /* 2m: FFT_m of the conjugate chirp / m, for sign -1 then +1 */
};

static size_t elem_size(fft_precision p) { return p == FFT_DOUBLE ? 16 : 8; }

/* exp(-2 pi i num / den), accurate: num reduced modulo den first. */
static void unit_root(uint64_t num, uint64_t den, long double *re, long double *im)
{
    num %= den;
    const long double two_pi = 6.283185307179586476925286766559005768394L;
    long double a = two_pi * (long double)num / (long double)den;
    *re = cosl(a);
    *im = -sinl(a);
}

static void store(void *table, fft_precision p, size_t i, long double re, long double im)
{
    if (p == FFT_DOUBLE) {
        ((double *)table)[2 * i] = (double)re;
        ((double *)table)[2 * i + 1] = (double)im;
    } else {
        ((float *)table)[2 * i] = (float)re;
        ((float *)table)[2 * i + 1] = (float)im;
    }
}

static int smallest_prime_factor(size_t n)
{
    if (n % 2 == 0)
        return 2;
    for (size_t p = 3; p * p <= n; p += 2)
        if (n % p == 0)
            return (int)p;
    return n > (size_t)FFT_MAX_GENERIC_RADIX ? 0 : (int)n;   /* 0: a prime too large */
}

int fft_uses_bluestein(size_t n)
{
    while (n > 1) {
        int p = smallest_prime_factor(n);
        if (p == 0 || p > FFT_MAX_GENERIC_RADIX)
            return 1;
        n /= (size_t)p;
    }
    return 0;
}

/* Radices for n (no factor above FFT_MAX_GENERIC_RADIX): 8s, then a 4 or 2,
 * then 3s, 5s, and the other primes. */
static int factor(size_t n, int *radix)
{
    int k = 0;
    while (n % 8 == 0) {
        radix[k++] = 8;
        n /= 8;
    }
    if (n % 4 == 0) { radix[k++] = 4; n /= 4; }
    if (n % 2 == 0) { radix[k++] = 2; n /= 2; }
    while (n > 1 && k < FFT_MAX_STAGES) {
        int p = smallest_prime_factor(n);
        radix[k++] = p;
        n /= (size_t)p;
    }
    return k;
}

static int build_stockham(fft_plan *p)
{
    int radix[FFT_MAX_STAGES];
    int k = p->n > 1 ? factor(p->n, radix) : 0;
    size_t tw = 0, roots = 0, ns = 1;
    for (int i = 0; i < k; i++) {
        p->stage[i].radix = radix[i];
        p->stage[i].ns = ns;
        p->stage[i].tw = tw;
        tw += ns * (size_t)(radix[i] - 1);
        ns *= (size_t)radix[i];
    }
    for (int i = 0; i < k; i++) {
        p->stage[i].roots = tw + roots;
        if (radix[i] >= 7 && radix[i] != 8)
            roots += (size_t)radix[i];
    }
    p->nstages = k;
    size_t total = tw + roots;
    p->table = malloc((total ? total : 1) * elem_size(p->prec));
    if (!p->table)
        return 0;
    for (int i = 0; i < k; i++) {
        const fft_stage *s = &p->stage[i];
        size_t len = s->ns * (size_t)s->radix;
        for (size_t j = 0; j < s->ns; j++)
            for (int r = 1; r < s->radix; r++) {
                long double re, im;
                unit_root((uint64_t)r * j, len, &re, &im);
                store(p->table, p->prec, s->tw + j * (size_t)(s->radix - 1) + (size_t)(r - 1), re, im);
            }
        if (s->radix >= 7 && s->radix != 8)
            for (int r = 0; r < s->radix; r++) {
                long double re, im;
                unit_root((uint64_t)r, (uint64_t)s->radix, &re, &im);
                store(p->table, p->prec, s->roots + (size_t)r, re, im);
            }
    }
    return 1;
}

static void stockham_f(const fft_plan *p, void *data, void *work, int sign)
{
    cpx_f *a = data, *b = work;
    const cpx_f *t = p->table;
    for (int i = 0; i < p->nstages; i++) {
        const fft_stage *s = &p->stage[i];
        pass_f(a, b, p->n, s->radix, s->ns, t + s->tw, t + s->roots, sign);
        cpx_f *x = a; a = b; b = x;
    }
    if (a != data)
        memcpy(data, a, p->n * sizeof(cpx_f));
}

static void stockham_d(const fft_plan *p, void *data, void *work, int sign)
{
    cpx_d *a = data, *b = work;
    const cpx_d *t = p->table;
    for (int i = 0; i < p->nstages; i++) {
        const fft_stage *s = &p->stage[i];
        pass_d(a, b, p->n, s->radix, s->ns, t + s->tw, t + s->roots, sign);
        cpx_d *x = a; a = b; b = x;
    }
    if (a != data)
        memcpy(data, a, p->n * sizeof(cpx_d));
}

/* ---- Bluestein: X_k = w_k sum_j (x_j w_j) conj(w_{k-j}), w_k = exp(-i pi k^2 / n) */

static int build_bluestein(fft_plan *p)
{
    size_t n = p->n, m = 1;
    while (m < 2 * n - 1)
        m <<= 1;
    p->bluestein = 1;
    p->m = m;
    p->sub = fft_plan_create(m, p->prec);
    size_t es = elem_size(p->prec);
    p->chirp = malloc(n * es);
    p->filter = malloc(2 * m * es);
    void *work = malloc(m * es);
    if (!p->sub || !p->chirp || !p->filter || !work) {
        free(work);
        return 0;
    }
    long double *wre = malloc(n * sizeof(long double)), *wim = malloc(n * sizeof(long double));
    if (!wre || !wim) {
        free(wre); free(wim); free(work);
        return 0;
    }
    for (size_t k = 0; k < n; k++) {
        unsigned __int128 k2 = (unsigned __int128)k * k % (2 * (unsigned __int128)n);
        unit_root((uint64_t)k2, 2 * (uint64_t)n, &wre[k], &wim[k]);   /* exp(-2 pi i k^2 / 2n) */
        store(p->chirp, p->prec, k, wre[k], wim[k]);
    }
    for (int dir = 0; dir < 2; dir++) {   /* 0: sign -1 (conj(w)), 1: sign +1 (w) */
        char *f = (char *)p->filter + (size_t)dir * m * es;
        memset(f, 0, m * es);
        long double scale = 1.0L / (long double)m;
        for (size_t l = 0; l < n; l++) {
            long double re = wre[l] * scale, im = (dir ? wim[l] : -wim[l]) * scale;
            store(f, p->prec, l, re, im);
            if (l)
                store(f, p->prec, m - l, re, im);
        }
        fft_execute(p->sub, f, work, -1);
    }
    free(wre);
    free(wim);
    free(work);
    return 1;
}

#define BLUESTEIN_BODY(CXT, SUFFIX)                                                       \
    static void bluestein_##SUFFIX(const fft_plan *p, void *data, void *work, int sign)  \
    {                                                                                     \
        size_t n = p->n, m = p->m;                                                        \
        CXT *x = data, *a = work, *sub_work = (CXT *)work + m;                            \
        const CXT *w = p->chirp;                                                          \
        const CXT *f = (const CXT *)p->filter + (sign > 0 ? m : 0);                       \
        for (size_t k = 0; k < n; k++) {                                                  \
            CXT c = w[k];                                                                 \
            if (sign > 0)                                                                 \
                c.im = -c.im;                                                             \
            a[k] = cmul_##SUFFIX(x[k], c);                                                \
        }                                                                                 \
        memset(a + n, 0, (m - n) * sizeof(CXT));                                          \
        fft_execute(p->sub, a, sub_work, -1);                                             \
        for (size_t k = 0; k < m; k++)                                                    \
            a[k] = cmul_##SUFFIX(a[k], f[k]);                                             \
        fft_execute(p->sub, a, sub_work, +1);                                             \
        for (size_t k = 0; k < n; k++) {                                                  \
            CXT c = w[k];                                                                 \
            if (sign > 0)                                                                 \
                c.im = -c.im;                                                             \
            x[k] = cmul_##SUFFIX(a[k], c);                                                \
        }                                                                                 \
    }
BLUESTEIN_BODY(cpx_f, f)
BLUESTEIN_BODY(cpx_d, d)

/* ---- plans ------------------------------------------------------------- */

fft_plan *fft_plan_create(size_t n, fft_precision prec)
{
    if (n == 0)
        return NULL;
    fft_plan *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->n = n;
    p->prec = prec;
    int ok = fft_uses_bluestein(n) ? build_bluestein(p) : build_stockham(p);
    if (!ok) {
        fft_plan_destroy(p);
        return NULL;
    }
    return p;
}

void fft_plan_destroy(fft_plan *p)
{
    if (!p)
        return;
    free(p->table);
    fft_plan_destroy(p->sub);
    free(p->chirp);
    free(p->filter);
    free(p);
}

size_t fft_plan_length(const fft_plan *p) { return p->n; }

size_t fft_work_elements(const fft_plan *p)
{
    if (p->bluestein)
        return p->m + fft_work_elements(p->sub);
    return p->n;
}

void fft_execute(const fft_plan *p, void *data, void *work, int sign)
{
    sign = sign > 0 ? 1 : -1;
    if (p->bluestein) {
        if (p->prec == FFT_DOUBLE)
            bluestein_d(p, data, work, sign);
        else
            bluestein_f(p, data, work, sign);
    } else if (p->prec == FFT_DOUBLE) {
        stockham_d(p, data, work, sign);
    } else {
        stockham_f(p, data, work, sign);
    }
}
