/* Philox4x32-10 (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy as
 * 1, 2, 3", SC'11), with cuRAND's conventions: the key is the 64-bit seed, the
 * subsequence is the upper half of the 128-bit counter, the offset counts outputs
 * (4 per counter value).
 */
#include "rand_engines.h"

#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u
#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u

void rand_philox_block(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
    uint32_t k0 = key[0], k1 = key[1];
    for (int r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)PHILOX_M0 * c0;
        uint64_t p1 = (uint64_t)PHILOX_M1 * c2;
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
        uint32_t n1 = (uint32_t)p1;
        uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        uint32_t n3 = (uint32_t)p0;
        c0 = n0; c1 = n1; c2 = n2; c3 = n3;
        k0 += PHILOX_W0;
        k1 += PHILOX_W1;
    }
    out[0] = c0; out[1] = c1; out[2] = c2; out[3] = c3;
}

/* counter += n, with cuRAND's carry rule (the carry out of word 1 is tested after
 * adding, and the top words are incremented one at a time) */
static void philox_incr(rand_philox *s, uint64_t n)
{
    uint32_t lo = (uint32_t)n, hi = (uint32_t)(n >> 32);
    s->ctr[0] += lo;
    if (s->ctr[0] < lo)
        hi++;
    s->ctr[1] += hi;
    if (hi <= s->ctr[1])
        return;
    if (++s->ctr[2])
        return;
    ++s->ctr[3];
}

static void philox_incr1(rand_philox *s)
{
    if (++s->ctr[0]) return;
    if (++s->ctr[1]) return;
    if (++s->ctr[2]) return;
    ++s->ctr[3];
}

void rand_philox_skip(rand_philox *s, uint64_t n)
{
    s->idx += (unsigned)(n & 3);
    n /= 4;
    if (s->idx > 3) {
        n += 1;
        s->idx -= 4;
    }
    philox_incr(s, n);
    rand_philox_block(s->ctr, s->key, s->out);
}

void rand_philox_skip_sequence(rand_philox *s, uint64_t n)
{
    uint32_t lo = (uint32_t)n, hi = (uint32_t)(n >> 32);
    s->ctr[2] += lo;
    if (s->ctr[2] < lo)
        hi++;
    s->ctr[3] += hi;
    rand_philox_block(s->ctr, s->key, s->out);
}

void rand_philox_init(rand_philox *s, uint64_t seed, uint64_t subsequence, uint64_t offset)
{
    s->ctr[0] = s->ctr[1] = s->ctr[2] = s->ctr[3] = 0;
    s->key[0] = (uint32_t)seed;
    s->key[1] = (uint32_t)(seed >> 32);
    s->idx = 0;
    rand_philox_skip_sequence(s, subsequence);
    rand_philox_skip(s, offset);
}

uint32_t rand_philox_next(rand_philox *s)
{
    uint32_t r = s->out[s->idx++];
    if (s->idx == 4) {
        philox_incr1(s);
        rand_philox_block(s->ctr, s->key, s->out);
        s->idx = 0;
    }
    return r;
}

void rand_philox_next4(rand_philox *s, uint32_t r[4])
{
    uint32_t old[4] = { s->out[0], s->out[1], s->out[2], s->out[3] };
    philox_incr1(s);
    rand_philox_block(s->ctr, s->key, s->out);
    for (unsigned i = 0; i < 4; i++) {
        unsigned j = s->idx + i;
        r[i] = j < 4 ? old[j] : s->out[j - 4];
    }
}
