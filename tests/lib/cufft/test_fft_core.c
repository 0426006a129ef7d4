/* test_fft_core: cubridge's 1-D FFT (src/lib/cufft/fft_core.c) against a naive
 * DFT accumulated in long double, for every length 1..300, powers of 2, 3, 5, 7,
 * mixed lengths, primes done by the generic butterfly and by Bluestein, both
 * signs, single and double precision. The error measure is the relative L2
 * error ||X - ref|| / ||ref||, bounded by c * eps * log2(n) (docs/cufft.md). */
#include "lib/cufft/fft_core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long rng = 88172645463325252ull;
static double urand(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static double worst[2];

static int check(size_t n, fft_precision prec, int sign)
{
    double *x = malloc(2 * n * sizeof(double));
    long double *ref = malloc(2 * n * sizeof(long double));
    void *data = malloc(2 * n * sizeof(double));
    for (size_t i = 0; i < 2 * n; i++)
        x[i] = urand();
    if (prec == FFT_SINGLE)
        for (size_t i = 0; i < 2 * n; i++) {
            ((float *)data)[i] = (float)x[i];
            x[i] = (float)x[i];
        }
    else
        for (size_t i = 0; i < 2 * n; i++)
            ((double *)data)[i] = x[i];
    const long double two_pi = 6.283185307179586476925286766559005768394L;
    long double *ct = malloc(n * sizeof(long double)), *st = malloc(n * sizeof(long double));
    for (size_t e = 0; e < n; e++) {   /* exp(sign 2 pi i e / n), once per length */
        long double a = sign * two_pi * (long double)e / (long double)n;
        ct[e] = cosl(a);
        st[e] = sinl(a);
    }
    size_t ncheck = n <= 512 ? n : 48;   /* longer lengths: spot checks */
    for (size_t kk = 0; kk < ncheck; kk++) {
        size_t k = n <= 512 ? kk : (kk * 2654435761u) % n;
        long double re = 0, im = 0;
        for (size_t j = 0; j < n; j++) {
            unsigned long long e = (unsigned long long)((unsigned __int128)j * k % n);
            long double c = ct[e], s = st[e];
            re += x[2 * j] * c - x[2 * j + 1] * s;
            im += x[2 * j] * s + x[2 * j + 1] * c;
        }
        ref[2 * kk] = re;
        ref[2 * kk + 1] = im;
    }
    fft_plan *p = fft_plan_create(n, prec);
    if (!p) { printf("FAIL: plan %zu\n", n); return 1; }
    void *work = malloc(fft_work_elements(p) * (prec == FFT_DOUBLE ? 16 : 8));
    fft_execute(p, data, work, sign);
    long double err = 0, norm = 0;
    for (size_t kk = 0; kk < ncheck; kk++) {
        size_t k = n <= 512 ? kk : (kk * 2654435761u) % n;
        double re = prec == FFT_DOUBLE ? ((double *)data)[2 * k] : ((float *)data)[2 * k];
        double im = prec == FFT_DOUBLE ? ((double *)data)[2 * k + 1] : ((float *)data)[2 * k + 1];
        err += (re - ref[2 * kk]) * (re - ref[2 * kk]) + (im - ref[2 * kk + 1]) * (im - ref[2 * kk + 1]);
        norm += ref[2 * kk] * ref[2 * kk] + ref[2 * kk + 1] * ref[2 * kk + 1];
    }
    double rel = norm > 0 ? (double)sqrtl(err / norm) : (double)sqrtl(err);
    double eps = prec == FFT_DOUBLE ? 1.1102230246251565e-16 : 5.9604644775390625e-08;
    double lg = n > 1 ? log2((double)n) : 1.0;
    double bound = 4.0 * eps * (1.0 + lg);
    double score = rel / (eps * (1.0 + lg));
    if (score > worst[prec])
        worst[prec] = score;
    int bad = !(rel <= bound);
    if (bad)
        printf("FAIL: n=%zu %s sign=%d%s: relative L2 error %.3g > %.3g\n", n, prec ? "double" : "single", sign,
               fft_uses_bluestein(n) ? " (Bluestein)" : "", rel, bound);
    free(work);
    fft_plan_destroy(p);
    free(x); free(ref); free(data); free(ct); free(st);
    return bad;
}

int main(void)
{
    int fails = 0, count = 0;
    static const size_t extra[] = { 512, 1000, 1024, 2048, 2187, 3125, 2401, 4096, 1009, 134, 2431, 4093, 6561,
                                    30030, 65536, 100003, 131072, 1u << 20, 3 * 5 * 7 * 11 * 13 * 4, 59 * 61,
                                    67 * 2, 127 * 128 };
    for (int prec = 0; prec < 2; prec++)
        for (int sign = -1; sign <= 1; sign += 2) {
            for (size_t n = 1; n <= 300; n++, count++)
                fails += check(n, (fft_precision)prec, sign);
            for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++, count++)
                fails += check(extra[i], (fft_precision)prec, sign);
        }
    printf("fft_core: %d transforms checked, %d failed; worst error / (eps (1 + log2 n)): single %.2f, double %.2f\n",
           count, fails, worst[0], worst[1]);
    return fails != 0;
}
