/* rand_dist.h: cuRAND's transforms of random bits into distributions, with
 * the exact formulas of its device code (curand_uniform.h and friends), so that
 * results match NVIDIA's bit for bit. Every product below by a power of two is
 * exact, so whether the GPU fuses the following add (FMA) does not change the
 * result; the files that compute them are built with -ffp-contract=off anyway.
 */
#ifndef CB_RAND_DIST_H
#define CB_RAND_DIST_H

#include <stdint.h>

/* (0, 1]: u * 2^-32 + 2^-33 in float */
static inline float rand_uniform_f(uint32_t u)
{
    return (float)u * 2.3283064365386963e-10f + 1.1641532182693481e-10f;
}

/* (0, 1]: u * 2^-32 + 2^-32 in double (one 32-bit draw) */
static inline double rand_uniform_d(uint32_t u)
{
    return (double)u * 2.3283064365386963e-10 + 2.3283064365386963e-10;
}

/* (0, 1]: 53 bits from two draws, x ^ (y << 21), times 2^-53 plus 2^-54 */
static inline double rand_uniform_d_hq(uint32_t x, uint32_t y)
{
    uint64_t z = (uint64_t)x ^ ((uint64_t)y << 21);
    return (double)z * 1.1102230246251565e-16 + 5.5511151231257827e-17;
}

/* MRG32k3a: its value v in (0, m1] times the inverse of m1 cuRAND uses */
#define RAND_MRG_NORM 2.3283065498378288e-10
static inline float rand_mrg_uniform_f(double v) { return (float)(v * RAND_MRG_NORM); }
static inline double rand_mrg_uniform_d(double v) { return v * RAND_MRG_NORM; }

#endif
