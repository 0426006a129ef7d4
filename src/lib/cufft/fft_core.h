/* fft_core.h: cubridge's own FFT (1-D complex, any length), the engine behind
 * libcufft (docs/cufft.md).
 *
 * A length factors into radices 8, 4, 2, 3, 5 and small odd primes (a generic
 * butterfly, up to FFT_MAX_GENERIC_RADIX); a length with a larger prime factor
 * is done by Bluestein's algorithm (a chirp convolution through a power-of-two
 * FFT of length >= 2n - 1). The passes are Stockham's autosort form: out of
 * place between the data and a work buffer of the same size, no bit reversal.
 * Twiddle factors are computed in long double and rounded once.
 *
 * Data are interleaved complex (re, im) of float (single) or double. The
 * transform is unnormalised: sign -1 is cuFFT's CUFFT_FORWARD, +1 its INVERSE.
 * A plan is immutable after creation and may be executed from several threads
 * at once, each with its own work buffer.
 */
#ifndef CB_FFT_CORE_H
#define CB_FFT_CORE_H

#include <stddef.h>

#define FFT_MAX_GENERIC_RADIX 61

typedef enum fft_precision { FFT_SINGLE = 0, FFT_DOUBLE = 1 } fft_precision;

typedef struct fft_plan fft_plan;

/* A plan for length n >= 1, or NULL when out of memory. */
fft_plan *fft_plan_create(size_t n, fft_precision prec);
void fft_plan_destroy(fft_plan *p);
size_t fft_plan_length(const fft_plan *p);

/* Complex elements of work buffer fft_execute needs (never 0). */
size_t fft_work_elements(const fft_plan *p);

/* Transforms data (n complex, in place) with sign -1 or +1; work holds
 * fft_work_elements(p) complex elements of the plan's precision. */
void fft_execute(const fft_plan *p, void *data, void *work, int sign);

/* 1 when n is done by Bluestein's algorithm (for tests and reports). */
int fft_uses_bluestein(size_t n);

#endif
