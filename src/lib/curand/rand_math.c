/* rand_math.c: device-equivalent math for the distributions (rand_math.h).
 * Built with -ffp-contract=off: every fused multiply-add below is an explicit fmaf. */
#include "lib/curand/rand_math.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* CUDA's logf: scale subnormals by 2^23, split x = m * 2^e with m in
 * [0.666, 1.333), a degree-10 polynomial in m - 1 by Horner's rule with FMAs,
 * then e * ln 2 added with one more FMA. */
float rand_dev_logf(float x)
{
    int sub = x < 1.17549435e-38f;
    float a = sub ? x * 8388608.0f : x;
    float e0 = sub ? -23.0f : 0.0f;
    uint32_t ia = float_bits(a);
    uint32_t ie = (ia - 0x3f2aaaabu) & 0xff800000u;
    float m = bits_float(ia - ie);
    float e = fmaf((float)(int32_t)ie, 1.1920929e-07f, e0);
    float t = m - 1.0f;
    float p = fmaf(bits_float(0xbe055027u), t, bits_float(0x3e1039f6u));
    p = fmaf(p, t, bits_float(0xbdf8cdccu));
    p = fmaf(p, t, bits_float(0x3e0f2955u));
    p = fmaf(p, t, bits_float(0xbe2ad8b9u));
    p = fmaf(p, t, bits_float(0x3e4ced0bu));
    p = fmaf(p, t, bits_float(0xbe7fff22u));
    p = fmaf(p, t, bits_float(0x3eaaaa78u));
    p = fmaf(p, t, -0.5f);
    p = t * p;
    p = fmaf(p, t, t);
    float r = fmaf(e, bits_float(0x3f317218u), p);
    if (!(ia < 0x7f800000u))   /* +inf, NaN, negative: as the GPU */
        r = fmaf(a, INFINITY, INFINITY);
    if (a == 0.0f)
        r = -INFINITY;
    return r;
}

void rand_dev_sincosf(float x, float *s, float *c)
{
    *s = (float)sin((double)x);
    *c = (float)cos((double)x);
}

double rand_dev_log(double x) { return log(x); }

void rand_dev_sincospi(double x, double *s, double *c)
{
    const long double pi = 3.141592653589793238462643383279502884L;
    *s = (double)sinl(pi * (long double)x);
    *c = (double)cosl(pi * (long double)x);
}
