/* XORWOW: Marsaglia's xorshift generator of five words combined with a Weyl
 * sequence (d += 362437), seeded the way cuRAND seeds it (docs/curand.md).
 *
 * Skip-ahead: the xorshift part is linear over GF(2), so n steps are the
 * one-step matrix raised to the power n.  We keep M^(2^k) for k = 0..63 (offsets)
 * and M^(2^(67+k)) (subsequences, 2^67 apart), built once by repeated squaring.
 * The Weyl part is d += 362437 * n, which is 0 mod 2^32 for a whole subsequence.
 */
#include "rand_engines.h"

#include <pthread.h>
#include <string.h>

#define XW_BITS 160

/* A linear map on the 160-bit state: col[b] is the image of bit b (word b/32, bit b%32). */
typedef struct {
    uint32_t col[XW_BITS][5];
} xw_matrix;

static xw_matrix xw_offset_pow[64];     /* M^(2^k) */
static xw_matrix xw_sequence_pow[64];   /* M^(2^(67+k)) */
static pthread_once_t xw_once = PTHREAD_ONCE_INIT;

static void xw_apply(const xw_matrix *m, const uint32_t in[5], uint32_t out[5])
{
    uint32_t r[5] = { 0, 0, 0, 0, 0 };
    for (int w = 0; w < 5; w++)
        for (uint32_t bits = in[w]; bits; bits &= bits - 1) {
            const uint32_t *c = m->col[w * 32 + __builtin_ctz(bits)];
            r[0] ^= c[0]; r[1] ^= c[1]; r[2] ^= c[2]; r[3] ^= c[3]; r[4] ^= c[4];
        }
    memcpy(out, r, sizeof r);
}

/* dst = a * b (apply b first) */
static void xw_compose(xw_matrix *dst, const xw_matrix *a, const xw_matrix *b)
{
    xw_matrix t;
    for (int i = 0; i < XW_BITS; i++)
        xw_apply(a, b->col[i], t.col[i]);
    *dst = t;
}

static void xw_step_vector(uint32_t v[5])
{
    uint32_t t = v[0] ^ (v[0] >> 2);
    v[0] = v[1];
    v[1] = v[2];
    v[2] = v[3];
    v[3] = v[4];
    v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
}

static void xw_build_tables(void)
{
    xw_matrix m;
    for (int i = 0; i < XW_BITS; i++) {
        memset(m.col[i], 0, sizeof m.col[i]);
        m.col[i][i / 32] = 1u << (i % 32);
        xw_step_vector(m.col[i]);
    }
    xw_offset_pow[0] = m;
    for (int k = 1; k < 64; k++)
        xw_compose(&xw_offset_pow[k], &xw_offset_pow[k - 1], &xw_offset_pow[k - 1]);
    xw_matrix p = xw_offset_pow[63];   /* 2^63 -> 2^67 */
    for (int k = 0; k < 4; k++)
        xw_compose(&p, &p, &p);
    xw_sequence_pow[0] = p;
    for (int k = 1; k < 64; k++)
        xw_compose(&xw_sequence_pow[k], &xw_sequence_pow[k - 1], &xw_sequence_pow[k - 1]);
}

static void xw_skip_with(rand_xorwow *s, uint64_t n, const xw_matrix *pow)
{
    pthread_once(&xw_once, xw_build_tables);
    for (int k = 0; n; k++, n >>= 1)
        if (n & 1)
            xw_apply(&pow[k], s->v, s->v);
}

void rand_xorwow_skip(rand_xorwow *s, uint64_t n)
{
    if (n < 64) {   /* cheaper to step */
        uint32_t d = s->d;
        for (uint64_t i = 0; i < n; i++)
            xw_step_vector(s->v);
        s->d = d + 362437u * (uint32_t)n;
        return;
    }
    xw_skip_with(s, n, xw_offset_pow);
    s->d += 362437u * (uint32_t)n;
}

void rand_xorwow_skip_sequence(rand_xorwow *s, uint64_t n)
{
    xw_skip_with(s, n, xw_sequence_pow);
}

void rand_xorwow_init(rand_xorwow *s, uint64_t seed, uint64_t subsequence, uint64_t offset)
{
    uint32_t s0 = (uint32_t)seed ^ 0xaad26b49u;
    uint32_t s1 = (uint32_t)(seed >> 32) ^ 0xf7dcefddu;
    uint32_t t0 = 1099087573u * s0;
    uint32_t t1 = 2591861531u * s1;
    s->d = 6615241u + t1 + t0;
    s->v[0] = 123456789u + t0;
    s->v[1] = 362436069u ^ t0;
    s->v[2] = 521288629u + t1;
    s->v[3] = 88675123u ^ t1;
    s->v[4] = 5783321u + t0;
    if (subsequence)
        rand_xorwow_skip_sequence(s, subsequence);
    if (offset)
        rand_xorwow_skip(s, offset);
}
