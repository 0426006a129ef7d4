/* rand_math.h: the math functions cuRAND's device code calls, computed the way
 * the GPU computes them (docs/curand.md).
 *
 * rand_dev_logf is CUDA's logf step for step (its range reduction and FMA
 * polynomial, as nvcc emits it into PTX), so it is bit-exact. sin and cos come
 * from the GPU's special function unit (__sincosf: sin.approx/cos.approx), whose
 * tables are not public: rand_dev_sincosf is the correctly rounded value, which
 * the SFU's differs from by a few units in the last place. The double functions
 * are the C library's (within an ulp of CUDA's).
 */
#ifndef CB_RAND_MATH_H
#define CB_RAND_MATH_H

float rand_dev_logf(float x);
void rand_dev_sincosf(float x, float *s, float *c);
double rand_dev_log(double x);
void rand_dev_sincospi(double x, double *s, double *c);

#endif
