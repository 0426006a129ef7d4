/* The pseudo- and quasi-random engines behind cubridge's libcurand.
 *
 * Each engine reproduces, bit for bit, the sequence of the generator of the same
 * name in NVIDIA's cuRAND (device API, curand_kernel.h): same seeding, same
 * subsequence spacing, same skip-ahead.  The algorithms are public; where their
 * parameters come from is written in docs/curand.md.  The host API's layout
 * (how many engines run side by side and how their outputs interleave) lives in
 * rand_layout.c, not here.
 */
#ifndef CB_RAND_ENGINES_H
#define CB_RAND_ENGINES_H

#include <stdint.h>

/* XORWOW (Marsaglia's xorshift with a Weyl sequence). Subsequences are 2^67 apart. */
typedef struct {
    uint32_t d, v[5];
} rand_xorwow;
void rand_xorwow_init(rand_xorwow *s, uint64_t seed, uint64_t subsequence, uint64_t offset);
void rand_xorwow_skip(rand_xorwow *s, uint64_t n);           /* n outputs ahead */
void rand_xorwow_skip_sequence(rand_xorwow *s, uint64_t n);  /* n * 2^67 outputs ahead */
static inline uint32_t rand_xorwow_next(rand_xorwow *s)
{
    uint32_t t = s->v[0] ^ (s->v[0] >> 2);
    s->v[0] = s->v[1];
    s->v[1] = s->v[2];
    s->v[2] = s->v[3];
    s->v[3] = s->v[4];
    s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
    s->d += 362437u;
    return s->v[4] + s->d;
}

/* MRG32k3a (L'Ecuyer). Subsequences are 2^76 apart, sequences 2^127. */
typedef struct {
    uint32_t s1[3], s2[3];
} rand_mrg32k3a;
void rand_mrg32k3a_init(rand_mrg32k3a *s, uint64_t seed, uint64_t subsequence, uint64_t offset);
void rand_mrg32k3a_skip(rand_mrg32k3a *s, uint64_t n);
void rand_mrg32k3a_skip_subsequence(rand_mrg32k3a *s, uint64_t n);
void rand_mrg32k3a_skip_sequence(rand_mrg32k3a *s, uint64_t n);
/* The next value of the combined recurrence, in (0, m1]: an integer held in a double. */
double rand_mrg32k3a_next(rand_mrg32k3a *s);
/* 32 random bits, as curand() makes them from the value above. */
uint32_t rand_mrg32k3a_bits(double v);

/* Philox4x32-10 (Salmon et al., Random123). Counter-based: 4 outputs per counter. */
typedef struct {
    uint32_t ctr[4], out[4], key[2];
    unsigned idx;   /* next output of out[] to hand out, 0..3 */
} rand_philox;
void rand_philox_block(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);
void rand_philox_init(rand_philox *s, uint64_t seed, uint64_t subsequence, uint64_t offset);
void rand_philox_skip(rand_philox *s, uint64_t n);
void rand_philox_skip_sequence(rand_philox *s, uint64_t n);
uint32_t rand_philox_next(rand_philox *s);
void rand_philox_next4(rand_philox *s, uint32_t r[4]);

#endif
