/* blas_elem.h: reading and writing one element of any cb_blas_type as a
 * complex double, with the GPU's rounding. Shared by the backends' library
 * code (mixed-precision products) and the facades' C references.
 *
 * Stores round to nearest even (f16, bf16, TF32 rounding is ties-away, see
 * cb_blas_round_tf32) and saturate integers, as cuBLAS's conversions do.
 * fp8 (E4M3/E5M2) is not handled: cb_blas_elem_supported() says 0.
 */
#ifndef CB_BACKEND_BLAS_ELEM_H
#define CB_BACKEND_BLAS_ELEM_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "backend/backend_lib.h"

typedef struct cb_cplx {
    double re, im;
} cb_cplx;

static inline int cb_blas_elem_supported(cb_blas_type t)
{
    return (unsigned)t < CB_BLAS_TYPE_COUNT && t != CB_BLAS_E4M3 && t != CB_BLAS_E5M2;
}

static inline float cb_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023, bits;
    if (exp == 0) {
        if (man == 0) {
            bits = sign;
        } else {   /* subnormal: normalise */
            int e = -1;
            do {
                e++;
                man <<= 1;
            } while (!(man & 1024));
            bits = sign | (uint32_t)(127 - 15 - e) << 23 | (man & 1023) << 13;
        }
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | man << 13;
    } else {
        bits = sign | (exp + 127 - 15) << 23 | man << 13;
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Nearest even, overflow to infinity, NaN kept quiet. */
static inline uint16_t cb_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u)
        return (uint16_t)(sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u : 0));
    if (ax >= 0x477ff000u)   /* rounds to >= 65520: infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (ax < 0x38800000u) {  /* below the smallest normal half: a multiple of 2^-24 */
        float a;
        memcpy(&a, &ax, 4);
        return (uint16_t)(sign | (uint32_t)nearbyintf(a * 16777216.0f));   /* exact scaling; 1024 is the smallest normal */
    }
    uint32_t e = (ax >> 23) - 127 + 15, man = ax & 0x7fffffu;
    uint32_t q = e << 10 | man >> 13, rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (q & 1)))
        q++;
    return (uint16_t)(sign | q);
}

static inline float cb_bf16_to_float(uint16_t h)
{
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static inline uint16_t cb_float_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40);
    x += 0x7fffu + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

/* TF32: 10 mantissa bits, round to nearest, ties to even, as cuBLAS's TF32
 * products round their f32 inputs on the H200 (tests/lib/cublas_level3's
 * ties; not cvt.rna's ties away); the result is an f32 with the low 13 bits
 * zero. */
static inline float cb_blas_round_tf32(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7f800000u) != 0x7f800000u) {
        x += 0xfffu + ((x >> 13) & 1u);
        x &= 0xffffe000u;
    }
    memcpy(&f, &x, 4);
    return f;
}

static inline double cb_sat(double v, double lo, double hi)
{
    if (v != v)
        return 0;
    return v < lo ? lo : v > hi ? hi : v;
}

/* Element i of p (type t). */
static inline cb_cplx cb_blas_load(cb_blas_type t, const void *p, size_t i)
{
    cb_cplx v = {0, 0};
    switch (t) {
    case CB_BLAS_F32: v.re = ((const float *)p)[i]; break;
    case CB_BLAS_F64: v.re = ((const double *)p)[i]; break;
    case CB_BLAS_C32: v.re = ((const float *)p)[2 * i]; v.im = ((const float *)p)[2 * i + 1]; break;
    case CB_BLAS_C64: v.re = ((const double *)p)[2 * i]; v.im = ((const double *)p)[2 * i + 1]; break;
    case CB_BLAS_F16: v.re = cb_half_to_float(((const uint16_t *)p)[i]); break;
    case CB_BLAS_BF16: v.re = cb_bf16_to_float(((const uint16_t *)p)[i]); break;
    case CB_BLAS_I8: v.re = ((const int8_t *)p)[i]; break;
    case CB_BLAS_U8: v.re = ((const uint8_t *)p)[i]; break;
    case CB_BLAS_I32: v.re = ((const int32_t *)p)[i]; break;
    case CB_BLAS_U32: v.re = ((const uint32_t *)p)[i]; break;
    case CB_BLAS_C16F:
        v.re = cb_half_to_float(((const uint16_t *)p)[2 * i]);
        v.im = cb_half_to_float(((const uint16_t *)p)[2 * i + 1]);
        break;
    case CB_BLAS_C16BF:
        v.re = cb_bf16_to_float(((const uint16_t *)p)[2 * i]);
        v.im = cb_bf16_to_float(((const uint16_t *)p)[2 * i + 1]);
        break;
    case CB_BLAS_CI8: v.re = ((const int8_t *)p)[2 * i]; v.im = ((const int8_t *)p)[2 * i + 1]; break;
    case CB_BLAS_CU8: v.re = ((const uint8_t *)p)[2 * i]; v.im = ((const uint8_t *)p)[2 * i + 1]; break;
    case CB_BLAS_CI32: v.re = ((const int32_t *)p)[2 * i]; v.im = ((const int32_t *)p)[2 * i + 1]; break;
    default: break;
    }
    return v;
}

/* Stores v (its real part for real types) as element i of p (type t). */
static inline void cb_blas_store(cb_blas_type t, void *p, size_t i, cb_cplx v)
{
    switch (t) {
    case CB_BLAS_F32: ((float *)p)[i] = (float)v.re; break;
    case CB_BLAS_F64: ((double *)p)[i] = v.re; break;
    case CB_BLAS_C32: ((float *)p)[2 * i] = (float)v.re; ((float *)p)[2 * i + 1] = (float)v.im; break;
    case CB_BLAS_C64: ((double *)p)[2 * i] = v.re; ((double *)p)[2 * i + 1] = v.im; break;
    case CB_BLAS_F16: ((uint16_t *)p)[i] = cb_float_to_half((float)v.re); break;
    case CB_BLAS_BF16: ((uint16_t *)p)[i] = cb_float_to_bf16((float)v.re); break;
    case CB_BLAS_I8: ((int8_t *)p)[i] = (int8_t)cb_sat(nearbyint(v.re), -128, 127); break;
    case CB_BLAS_U8: ((uint8_t *)p)[i] = (uint8_t)cb_sat(nearbyint(v.re), 0, 255); break;
    case CB_BLAS_I32: ((int32_t *)p)[i] = (int32_t)cb_sat(nearbyint(v.re), -2147483648.0, 2147483647.0); break;
    case CB_BLAS_U32: ((uint32_t *)p)[i] = (uint32_t)cb_sat(nearbyint(v.re), 0, 4294967295.0); break;
    case CB_BLAS_C16F:
        ((uint16_t *)p)[2 * i] = cb_float_to_half((float)v.re);
        ((uint16_t *)p)[2 * i + 1] = cb_float_to_half((float)v.im);
        break;
    case CB_BLAS_C16BF:
        ((uint16_t *)p)[2 * i] = cb_float_to_bf16((float)v.re);
        ((uint16_t *)p)[2 * i + 1] = cb_float_to_bf16((float)v.im);
        break;
    case CB_BLAS_CI8:
        ((int8_t *)p)[2 * i] = (int8_t)cb_sat(nearbyint(v.re), -128, 127);
        ((int8_t *)p)[2 * i + 1] = (int8_t)cb_sat(nearbyint(v.im), -128, 127);
        break;
    case CB_BLAS_CU8:
        ((uint8_t *)p)[2 * i] = (uint8_t)cb_sat(nearbyint(v.re), 0, 255);
        ((uint8_t *)p)[2 * i + 1] = (uint8_t)cb_sat(nearbyint(v.im), 0, 255);
        break;
    case CB_BLAS_CI32:
        ((int32_t *)p)[2 * i] = (int32_t)cb_sat(nearbyint(v.re), -2147483648.0, 2147483647.0);
        ((int32_t *)p)[2 * i + 1] = (int32_t)cb_sat(nearbyint(v.im), -2147483648.0, 2147483647.0);
        break;
    default: break;
    }
}

/* Rounds an input value the way a mixed-precision product does before
 * multiplying (cb_blas_input_round). */
static inline double cb_blas_round_input(cb_blas_input_round r, double v)
{
    switch (r) {
    case CB_BLAS_ROUND_TF32: return cb_blas_round_tf32((float)v);
    case CB_BLAS_ROUND_F16: return cb_half_to_float(cb_float_to_half((float)v));
    case CB_BLAS_ROUND_BF16: return cb_bf16_to_float(cb_float_to_bf16((float)v));
    default: return v;
    }
}

/* GELU, the tanh form cuBLASLt uses, and its derivative. */
static inline double cb_blas_gelu(double x)
{
    const double k = 0.7978845608028654;   /* sqrt(2 / pi) */
    return 0.5 * x * (1.0 + tanh(k * (x + 0.044715 * x * x * x)));
}

static inline double cb_blas_gelu_grad(double x)
{
    const double k = 0.7978845608028654;
    double u = k * (x + 0.044715 * x * x * x), t = tanh(u);
    return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * k * (1.0 + 3 * 0.044715 * x * x);
}

#endif
