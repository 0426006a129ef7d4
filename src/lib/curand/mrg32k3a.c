/* MRG32k3a (P. L'Ecuyer, "Good parameters and implementations for combined
 * multiple recursive random number generators", Operations Research 47(1), 1999),
 * seeded and spaced as cuRAND does it: subsequences 2^76 apart, sequences 2^127.
 *
 * Each component is x_n = (a * x_{n-2} - b * x_{n-3}) mod m, a linear map on the
 * three last values; skip-ahead raises its 3x3 matrix to the power n modulo m,
 * with exact 64-bit arithmetic (every entry is below 2^32).
 */
#include "rand_engines.h"

#include <pthread.h>

#define M1 4294967087u
#define M2 4294944443u
#define A12 1403580u
#define A13N 810728u
#define A21 527612u
#define A23N 1370589u

typedef struct { uint32_t a[3][3]; } mrg_matrix;

/* powers of the one-step matrices: [k] is A^(2^(base+k)) */
static mrg_matrix mrg_pow1[3][64], mrg_pow2[3][64];   /* [0] offset, [1] subsequence, [2] sequence */
static pthread_once_t mrg_once = PTHREAD_ONCE_INIT;

static uint32_t mulmod(uint32_t a, uint32_t b, uint32_t m)
{
    return (uint32_t)((uint64_t)a * b % m);
}

static void mat_mul(mrg_matrix *dst, const mrg_matrix *x, const mrg_matrix *y, uint32_t m)
{
    mrg_matrix t;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            uint64_t s = 0;
            for (int k = 0; k < 3; k++)
                s += mulmod(x->a[i][k], y->a[k][j], m);
            t.a[i][j] = (uint32_t)(s % m);
        }
    *dst = t;
}

static void mat_vec(const mrg_matrix *x, uint32_t v[3], uint32_t m)
{
    uint32_t r[3];
    for (int i = 0; i < 3; i++) {
        uint64_t s = 0;
        for (int k = 0; k < 3; k++)
            s += mulmod(x->a[i][k], v[k], m);
        r[i] = (uint32_t)(s % m);
    }
    v[0] = r[0]; v[1] = r[1]; v[2] = r[2];
}

static void build_powers(mrg_matrix pow[3][64], const mrg_matrix *one, uint32_t m)
{
    static const int base[3] = { 0, 76, 127 };
    mrg_matrix p = *one;
    int have = 0;   /* p = one^(2^have) */
    for (int set = 0; set < 3; set++) {
        while (have < base[set]) {
            mat_mul(&p, &p, &p, m);
            have++;
        }
        pow[set][0] = p;
        for (int k = 1; k < 64; k++)
            mat_mul(&pow[set][k], &pow[set][k - 1], &pow[set][k - 1], m);
    }
}

static void mrg_build(void)
{
    mrg_matrix a1 = { { { 0, 1, 0 }, { 0, 0, 1 }, { M1 - A13N, A12, 0 } } };
    mrg_matrix a2 = { { { 0, 1, 0 }, { 0, 0, 1 }, { M2 - A23N, 0, A21 } } };
    build_powers(mrg_pow1, &a1, M1);
    build_powers(mrg_pow2, &a2, M2);
}

static void mrg_skip_set(rand_mrg32k3a *s, uint64_t n, int set)
{
    pthread_once(&mrg_once, mrg_build);
    for (int k = 0; n; k++, n >>= 1)
        if (n & 1) {
            mat_vec(&mrg_pow1[set][k], s->s1, M1);
            mat_vec(&mrg_pow2[set][k], s->s2, M2);
        }
}

void rand_mrg32k3a_skip(rand_mrg32k3a *s, uint64_t n) { mrg_skip_set(s, n, 0); }
void rand_mrg32k3a_skip_subsequence(rand_mrg32k3a *s, uint64_t n) { mrg_skip_set(s, n, 1); }
void rand_mrg32k3a_skip_sequence(rand_mrg32k3a *s, uint64_t n) { mrg_skip_set(s, n, 2); }

void rand_mrg32k3a_init(rand_mrg32k3a *s, uint64_t seed, uint64_t subsequence, uint64_t offset)
{
    for (int i = 0; i < 3; i++)
        s->s1[i] = s->s2[i] = 12345u;
    if (seed) {
        uint32_t x1 = (uint32_t)seed ^ 0x55555555u;
        uint32_t x2 = (uint32_t)(seed >> 32) ^ 0xAAAAAAAAu;
        s->s1[0] = mulmod(x1 % M1, 12345u, M1);
        s->s1[1] = mulmod(x2 % M1, 12345u, M1);
        s->s1[2] = mulmod(x1 % M1, 12345u, M1);
        s->s2[0] = mulmod(x2 % M2, 12345u, M2);
        s->s2[1] = mulmod(x1 % M2, 12345u, M2);
        s->s2[2] = mulmod(x2 % M2, 12345u, M2);
    }
    if (subsequence)
        rand_mrg32k3a_skip_subsequence(s, subsequence);
    if (offset)
        rand_mrg32k3a_skip(s, offset);
}

double rand_mrg32k3a_next(rand_mrg32k3a *s)
{
    uint64_t p1 = ((uint64_t)A12 * s->s1[1] + (uint64_t)A13N * (M1 - s->s1[0])) % M1;
    s->s1[0] = s->s1[1];
    s->s1[1] = s->s1[2];
    s->s1[2] = (uint32_t)p1;
    uint64_t p2 = ((uint64_t)A21 * s->s2[2] + (uint64_t)A23N * (M2 - s->s2[0])) % M2;
    s->s2[0] = s->s2[1];
    s->s2[1] = s->s2[2];
    s->s2[2] = (uint32_t)p2;
    return p1 > p2 ? (double)(p1 - p2) : (double)(p1 + M1 - p2);
}

uint32_t rand_mrg32k3a_bits(double v)
{
    return (uint32_t)(v * 1.000000048662);
}
