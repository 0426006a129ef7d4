/* rand_gen.h: a cuRAND host-API generator computed on the host (docs/curand.md).
 *
 * This is the whole of a generator's behaviour -- its settings, the statuses
 * NVIDIA's library answers for bad settings, the layout of the outputs of the
 * host API (how many engines, which output comes from which engine and step,
 * per ordering) and the distributions -- with outputs written to host memory.
 * The libcurand facade (curand_api.c) puts it behind curandGenerator_t and
 * brings the outputs to device memory in stream order.
 *
 * Statuses are curandStatus_t values. A generator is not thread-safe; the
 * facade serialises the calls on one generator.
 */
#ifndef CB_RAND_GEN_H
#define CB_RAND_GEN_H

#include <stddef.h>
#include <stdint.h>

/* What a generate call produces (curandGenerate*, in the order of curand.h). */
typedef enum rand_fn {
    RAND_RAW32,        /* curandGenerate */
    RAND_RAW64,        /* curandGenerateLongLong */
    RAND_UNIFORM,      /* float in (0, 1] */
    RAND_UNIFORM_D,
    RAND_NORMAL,       /* float, mean a, stddev b */
    RAND_NORMAL_D,
    RAND_LOGNORMAL,
    RAND_LOGNORMAL_D,
    RAND_POISSON,      /* unsigned int, lambda a */
} rand_fn;

typedef struct rand_gen rand_gen;

/* cuRAND has no NOT_SUPPORTED status: what cubridge answers for a generator,
 * ordering or distribution it does not implement is CURAND_STATUS_ARCH_MISMATCH
 * ("GPU does not support requested feature"), counted and logged by the facade. */
#define RAND_STATUS_UNSUPPORTED 204

/* rng: a curandRngType_t. Returns CURAND_STATUS_SUCCESS, TYPE_ERROR (unknown
 * type) or ALLOCATION_FAILED. */
int rand_gen_create(rand_gen **out, int rng);
void rand_gen_destroy(rand_gen *g);
int rand_gen_type(const rand_gen *g);

int rand_gen_set_seed(rand_gen *g, unsigned long long seed);
int rand_gen_set_offset(rand_gen *g, unsigned long long offset);
int rand_gen_set_ordering(rand_gen *g, int ordering);
int rand_gen_set_dimensions(rand_gen *g, unsigned dims);

/* Checks a call without producing anything: the status NVIDIA's library
 * returns for these arguments (length rules, types, lambda). */
int rand_gen_check(const rand_gen *g, rand_fn fn, size_t n, double a, double b);

/* Produces n outputs of fn into host memory out (4 or 8 bytes each) and
 * advances the generator. Arguments must have passed rand_gen_check. */
int rand_gen_generate(rand_gen *g, rand_fn fn, void *out, size_t n, double a, double b);

/* Bytes of one output of fn. */
size_t rand_fn_size(rand_fn fn);

#endif
