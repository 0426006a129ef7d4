/* test_fft_layout: cuFFT's layouts on cubridge's FFT (src/lib/cufft/fft_layout.c)
 * against a naive multi-dimensional DFT in long double: C2C, R2C and C2R of
 * rank 1..3, even and odd lengths, batches, basic and advanced (strided,
 * embedded) layouts, in place and out of place, single, double and half; and
 * the validation of bad descriptions. */
#include "lib/cufft/fft_layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rng = 0x9E3779B97F4A7C15ull;
static double urand(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static int failures, checks;

/* element offset (in scalars) of logical index x of batch b on a side */
static long long off(const fftl_desc *d, const fftl_side *s, const long long dims[], int cpx, int inplace, int is_real,
                     long long b, const long long x[])
{
    long long embed[3], stride, dist;
    if (s->basic) {
        for (int i = 0; i < d->rank; i++)
            embed[i] = dims[i];
        if (inplace && is_real && d->type != FFTL_C2C)
            embed[d->rank - 1] = 2 * (d->n[d->rank - 1] / 2 + 1);
        long long t = 1;
        for (int i = 0; i < d->rank; i++)
            t *= embed[i];
        stride = 1;
        dist = t;
    } else {
        for (int i = 0; i < d->rank; i++)
            embed[i] = s->embed[i];
        stride = s->stride;
        dist = s->dist;
    }
    long long lin = x[0];
    for (int i = 1; i < d->rank; i++)
        lin = lin * embed[i] + x[i];
    long long e = b * dist + lin * stride;
    return cpx ? 2 * e : e;
}

static double get(const void *buf, fftl_elem e, long long i)
{
    if (e == FFTL_F64) return ((const double *)buf)[i];
    if (e == FFTL_F32) return ((const float *)buf)[i];
    uint16_t h = ((const uint16_t *)buf)[i];
    if (e == FFTL_BF16) { uint32_t u = (uint32_t)h << 16; float f; memcpy(&f, &u, 4); return f; }
    /* f16 */
    int ex = (h >> 10) & 31, m = h & 1023;
    double v = ex ? ldexp(1.0 + m / 1024.0, ex - 15) : ldexp(m / 1024.0, -14);
    return (h & 0x8000) ? -v : v;
}

static void put(void *buf, fftl_elem e, long long i, double v)
{
    if (e == FFTL_F64) ((double *)buf)[i] = v;
    else if (e == FFTL_F32) ((float *)buf)[i] = (float)v;
    else {   /* small values exactly representable in f16/bf16: multiples of 1/8 */
        float f = (float)v;
        if (e == FFTL_BF16) { uint32_t u; memcpy(&u, &f, 4); ((uint16_t *)buf)[i] = (uint16_t)(u >> 16); }
        else {
            /* v = k/8 with |k| < 64: encode directly */
            int neg = v < 0; double a = fabs(v); uint16_t h = 0;
            if (a != 0) { int ex = (int)floor(log2(a)); double m = a / ldexp(1, ex) - 1.0;
                h = (uint16_t)(((ex + 15) << 10) | (int)lround(m * 1024)); }
            ((uint16_t *)buf)[i] = (uint16_t)(h | (neg ? 0x8000 : 0));
        }
    }
}

static void run(const char *what, fftl_desc d, int inplace, int sign)
{
    checks++;
    char why[128];
    if (fftl_validate(&d, why, sizeof why) != FFTL_OK) {
        printf("FAIL: %s: refused: %s\n", what, why);
        failures++;
        return;
    }
    fftl_plan *p = fftl_plan_create(&d);
    uint64_t inb, outb;
    fftl_extents(p, inplace, &inb, &outb);
    size_t bytes = inb > outb ? inb : outb;
    char *in = calloc(1, bytes + 64), *out = inplace ? in : calloc(1, outb + 64);
    int r = d.rank;
    long long nd[3], cd[3], total = 1, ctotal = 1;
    for (int i = 0; i < r; i++) {
        nd[i] = d.n[i];
        cd[i] = (d.type != FFTL_C2C && i == r - 1) ? d.n[i] / 2 + 1 : d.n[i];
        total *= nd[i];
        ctotal *= cd[i];
    }
    int in_real = d.type == FFTL_R2C, out_real = d.type == FFTL_C2R;
    const long long *idims = d.type == FFTL_C2R ? cd : nd, *odims = d.type == FFTL_R2C ? cd : nd;
    long long icount = d.type == FFTL_C2R ? ctotal : total, ocount = d.type == FFTL_R2C ? ctotal : total;
    int half = d.elem == FFTL_F16 || d.elem == FFTL_BF16;
    /* input values (full logical arrays kept in long double for the reference) */
    long double *xin = calloc((size_t)(d.batch * icount * 2), sizeof(long double));
    for (long long b = 0; b < d.batch; b++)
        for (long long idx = 0; idx < icount; idx++) {
            long long x[3] = { 0, 0, 0 }, rem = idx;
            for (int i = r - 1; i >= 0; i--) { x[i] = rem % idims[i]; rem /= idims[i]; }
            long long o = off(&d, &d.in, idims, !in_real, inplace, in_real, b, x);
            for (int c = 0; c < (in_real ? 1 : 2); c++) {
                double v = half ? (double)((int)(urand() * 16)) / 8.0 : urand();
                if (d.type == FFTL_C2R && c == 1 &&
                    (x[r - 1] == 0 || (d.n[r - 1] % 2 == 0 && x[r - 1] == d.n[r - 1] / 2)))
                    v = 0;   /* keep the spectrum's DC/Nyquist real */
                put(in, d.elem, o + c, v);
                xin[(b * icount + idx) * 2 + c] = get(in, d.elem, o + c);
            }
        }
    /* C2R: build the Hermitian full spectrum from the half one for the reference,
     * in the multi-dimensional sense: X[k] for k_last > n/2 is conj(X[-k]) */
    void *work = malloc(fftl_work_bytes(p));
    fftl_execute(p, in, out, inplace, sign, work);
    int s = d.type == FFTL_R2C ? -1 : d.type == FFTL_C2R ? 1 : sign;
    const long double tp = 6.283185307179586476925286766559005768394L;
    long double err = 0, norm = 0;
    for (long long b = 0; b < d.batch; b++)
        for (long long oidx = 0; oidx < ocount; oidx++) {
            long long k[3] = { 0, 0, 0 }, rem = oidx;
            for (int i = r - 1; i >= 0; i--) { k[i] = rem % odims[i]; rem /= odims[i]; }
            long double re = 0, im = 0;
            for (long long j = 0; j < total; j++) {   /* sum over the full logical input */
                long long x[3] = { 0, 0, 0 }, rr = j;
                for (int i = r - 1; i >= 0; i--) { x[i] = rr % nd[i]; rr /= nd[i]; }
                long double vr, vi;
                if (d.type == FFTL_C2R) {
                    long long y[3]; int conj = 0;
                    for (int i = 0; i < r; i++) y[i] = x[i];
                    if (x[r - 1] >= cd[r - 1]) {
                        conj = 1;
                        for (int i = 0; i < r; i++) y[i] = (nd[i] - x[i]) % nd[i];
                    }
                    long long li = 0;
                    for (int i = 0; i < r; i++) li = li * cd[i] + y[i];
                    vr = xin[(b * icount + li) * 2];
                    vi = conj ? -xin[(b * icount + li) * 2 + 1] : xin[(b * icount + li) * 2 + 1];
                } else {
                    vr = xin[(b * icount + j) * 2];
                    vi = in_real ? 0 : xin[(b * icount + j) * 2 + 1];
                }
                long double ph = 0;
                for (int i = 0; i < r; i++)
                    ph += (long double)((x[i] * k[i]) % nd[i]) / nd[i];
                long double a = s * tp * ph, c = cosl(a), sn = sinl(a);
                re += vr * c - vi * sn;
                im += vr * sn + vi * c;
            }
            long long o = off(&d, &d.out, odims, !out_real, inplace, out_real, b, k);
            double gr = get(out, d.elem, o), gi = out_real ? 0 : get(out, d.elem, o + 1);
            if (out_real) im = 0;
            err += (gr - re) * (gr - re) + (gi - im) * (gi - im);
            norm += re * re + im * im;
        }
    double rel = (double)sqrtl(err / (norm > 0 ? norm : 1));
    double tol = d.elem == FFTL_F64 ? 1e-13 : d.elem == FFTL_F32 ? 5e-6 : d.elem == FFTL_F16 ? 4e-3 : 2e-2;
    if (!(rel <= tol)) {
        printf("FAIL: %s: relative L2 error %.3g > %.3g\n", what, rel, tol);
        failures++;
    }
    free(work); free(xin); free(in);
    if (!inplace) free(out);
    fftl_plan_destroy(p);
}

static fftl_desc basic(fftl_type t, fftl_elem e, int rank, long long n0, long long n1, long long n2, long long batch)
{
    fftl_desc d;
    memset(&d, 0, sizeof d);
    d.type = t; d.elem = e; d.rank = rank;
    d.n[0] = n0; d.n[1] = n1; d.n[2] = n2;
    d.batch = batch;
    d.in.basic = d.out.basic = 1;
    return d;
}

static void expect_refused(const char *what, fftl_desc d, int code)
{
    checks++;
    int got = fftl_validate(&d, NULL, 0);
    if (got != code) {
        printf("FAIL: %s: validate gave %d, expected %d\n", what, got, code);
        failures++;
    }
}

int main(void)
{
    static const fftl_type types[] = { FFTL_C2C, FFTL_R2C, FFTL_C2R };
    static const char *tn[] = { "C2C", "R2C", "C2R" };
    char what[160];
    for (int e = 0; e < 2; e++)
        for (int t = 0; t < 3; t++)
            for (int ip = 0; ip < 2; ip++) {
                long long lens[] = { 1, 2, 7, 8, 12, 15, 67, 128 };
                for (unsigned i = 0; i < sizeof lens / sizeof lens[0]; i++) {
                    snprintf(what, sizeof what, "%s %s 1-D n=%lld batch 3 %s", tn[t], e ? "f64" : "f32", lens[i],
                             ip ? "in place" : "out of place");
                    run(what, basic(types[t], (fftl_elem)e, 1, lens[i], 1, 1, 3), ip, -1);
                    if (types[t] == FFTL_C2C)
                        run(what, basic(types[t], (fftl_elem)e, 1, lens[i], 1, 1, 3), ip, +1);
                }
                snprintf(what, sizeof what, "%s %s 2-D 6x10 %s", tn[t], e ? "f64" : "f32", ip ? "in place" : "oop");
                run(what, basic(types[t], (fftl_elem)e, 2, 6, 10, 1, 2), ip, -1);
                snprintf(what, sizeof what, "%s %s 2-D 5x7 %s", tn[t], e ? "f64" : "f32", ip ? "in place" : "oop");
                run(what, basic(types[t], (fftl_elem)e, 2, 5, 7, 1, 1), ip, +1);
                snprintf(what, sizeof what, "%s %s 3-D 4x3x6 %s", tn[t], e ? "f64" : "f32", ip ? "in place" : "oop");
                run(what, basic(types[t], (fftl_elem)e, 3, 4, 3, 6, 2), ip, -1);
                snprintf(what, sizeof what, "%s %s 3-D 3x5x5 %s", tn[t], e ? "f64" : "f32", ip ? "in place" : "oop");
                run(what, basic(types[t], (fftl_elem)e, 3, 3, 5, 5, 1), ip, +1);
            }
    /* advanced layouts: interleaved batches (stride = batch, dist = 1), embedded rows */
    for (int t = 0; t < 3; t++) {
        fftl_desc d = basic(types[t], FFTL_F32, 1, 10, 1, 1, 4);
        d.in.basic = d.out.basic = 0;
        d.in.stride = d.out.stride = 4;
        d.in.dist = d.out.dist = 1;
        snprintf(what, sizeof what, "%s advanced stride 4 dist 1", tn[t]);
        run(what, d, 0, -1);
        fftl_desc e = basic(types[t], FFTL_F64, 2, 5, 6, 1, 3);
        e.in.basic = e.out.basic = 0;
        e.in.embed[1] = 9; e.in.stride = 2; e.in.dist = 5 * 9 * 2 + 3;
        e.out.embed[1] = 8; e.out.stride = 1; e.out.dist = 5 * 8 + 1;
        snprintf(what, sizeof what, "%s advanced 2-D embed 9/8 stride 2/1", tn[t]);
        run(what, e, 0, +1);
        fftl_desc f = basic(types[t], FFTL_F32, 3, 3, 4, 5, 2);
        f.in.basic = f.out.basic = 0;
        f.in.embed[1] = 6; f.in.embed[2] = 7; f.in.stride = 3; f.in.dist = 3 * 6 * 7 * 3;
        f.out.embed[1] = 5; f.out.embed[2] = 6; f.out.stride = 2; f.out.dist = 3 * 5 * 6 * 2 + 1;
        snprintf(what, sizeof what, "%s advanced 3-D embedded", tn[t]);
        run(what, f, 0, -1);
    }
    /* half and bf16 (powers of two) */
    for (int t = 0; t < 3; t++) {
        snprintf(what, sizeof what, "%s f16 1-D 16", tn[t]);
        run(what, basic(types[t], FFTL_F16, 1, 16, 1, 1, 2), 0, -1);
        snprintf(what, sizeof what, "%s bf16 2-D 8x4", tn[t]);
        run(what, basic(types[t], FFTL_BF16, 2, 8, 4, 1, 1), 0, +1);
    }
    /* the verify reference (naive long-double DFT for short lines) agrees with the FFT */
    for (int t = 0; t < 3; t++) {
        fftl_desc d = basic(types[t], FFTL_F64, 2, 12, 10, 1, 2);
        fftl_plan *p = fftl_plan_create(&d);
        uint64_t ib, ob;
        fftl_extents(p, 0, &ib, &ob);
        double *in = calloc(1, ib), *out = calloc(1, ob), *ref = calloc(1, ob);
        for (size_t i = 0; i < ib / 8; i++)
            in[i] = urand();
        if (types[t] == FFTL_C2R)   /* DC and Nyquist real */
            for (int b = 0; b < 2; b++)
                for (int r = 0; r < 12; r++) {
                    in[2 * ((b * 12 + r) * 6) + 1] = 0;
                    in[2 * ((b * 12 + r) * 6 + 5) + 1] = 0;
                }
        void *w = malloc(fftl_work_bytes(p));
        fftl_execute(p, in, out, 0, -1, w);
        checks++;
        if (fftl_reference(&d, in, ref, 0, -1) != 0) { printf("FAIL: reference\n"); failures++; }
        double e = 0, nn = 0;
        for (size_t i = 0; i < ob / 8; i++) e += (out[i] - ref[i]) * (out[i] - ref[i]), nn += ref[i] * ref[i];
        if (!(sqrt(e / nn) < 1e-14)) { printf("FAIL: %s reference differs: %.3g\n", tn[t], sqrt(e / nn)); failures++; }
        free(in); free(out); free(ref); free(w);
        fftl_plan_destroy(p);
    }
    /* refusals */
    expect_refused("rank 0", basic(FFTL_C2C, FFTL_F32, 0, 4, 1, 1, 1), FFTL_BAD_RANK);
    expect_refused("rank 4", basic(FFTL_C2C, FFTL_F32, 4, 4, 1, 1, 1), FFTL_BAD_RANK);
    expect_refused("n 0", basic(FFTL_C2C, FFTL_F32, 1, 0, 1, 1, 1), FFTL_BAD_SIZE);
    expect_refused("n -5", basic(FFTL_C2C, FFTL_F32, 2, 4, -5, 1, 1), FFTL_BAD_SIZE);
    expect_refused("batch 0", basic(FFTL_C2C, FFTL_F32, 1, 4, 1, 1, 0), FFTL_BAD_SIZE);
    expect_refused("huge", basic(FFTL_C2C, FFTL_F32, 3, 1LL << 20, 1LL << 20, 1LL << 20, 1), FFTL_BAD_SIZE);
    expect_refused("f16 n 12", basic(FFTL_C2C, FFTL_F16, 1, 12, 1, 1, 1), FFTL_BAD_TYPE);
    fftl_desc b = basic(FFTL_C2C, FFTL_F32, 2, 4, 4, 1, 2);
    b.in.basic = 0; b.in.embed[1] = 3; b.in.stride = 1; b.in.dist = 16;
    expect_refused("embed < n", b, FFTL_BAD_LAYOUT);
    b.in.embed[1] = 4; b.in.stride = 0;
    expect_refused("stride 0", b, FFTL_BAD_LAYOUT);
    b.in.stride = 1; b.in.dist = -1;
    expect_refused("dist -1", b, FFTL_BAD_LAYOUT);
    printf("fft_layout: %d checks, %d failed\n", checks, failures);
    return failures != 0;
}
