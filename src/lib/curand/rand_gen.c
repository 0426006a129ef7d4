/* rand_gen.c: the host-API generator (rand_gen.h).
 *
 * The layout of NVIDIA's host API, measured on an H200 against our engines
 * (docs/curand.md has the tables):
 *   - XORWOW: T = 4096 engines, engine t is curand_init(seed, t, 0); MRG32k3a:
 *     T = 81920 (LEGACY: 4096); the engines' states persist between calls.
 *     A call starts at engine p mod T, p the generator's position (the offset
 *     plus what earlier calls produced), and hands each successive output slot
 *     to the next engine cyclically; a slot that needs k draws takes k
 *     consecutive outputs of its engine.
 *   - Philox4x32-10: counter based; output g (g = p + i) is word g mod 4 of the
 *     block of counter (g / 4 / 65536, subsequence g / 4 mod 65536).
 *   - Setting the seed or the offset re-initialises the engines at position p:
 *     engine t then stands at step p / T, plus one when t < p mod T.
 */
#include "lib/curand/rand_gen.h"

#include <curand.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/curand/rand_dist.h"
#include "lib/curand/rand_engines.h"
#include "lib/curand/rand_math.h"

struct rand_gen {
    int rng;                     /* curandRngType_t (PSEUDO_DEFAULT resolved) */
    int ordering;
    unsigned long long seed;
    unsigned long long offset;   /* as set by the user */
    unsigned long long pos;      /* slots produced since the engines were set up, plus offset */
    unsigned dims;               /* quasi */
    /* engine states (XORWOW, MRG32k3a) */
    unsigned nthreads;
    int ready;                   /* 0: set up at the next generate */
    rand_xorwow *xw;
    rand_mrg32k3a *mrg;
};

size_t rand_fn_size(rand_fn fn)
{
    switch (fn) {
    case RAND_RAW64:
    case RAND_UNIFORM_D:
    case RAND_NORMAL_D:
    case RAND_LOGNORMAL_D: return 8;
    default: return 4;
    }
}

static int is_pseudo(int rng) { return rng >= 100 && rng < 200; }

int rand_gen_create(rand_gen **out, int rng)
{
    *out = NULL;
    if (rng == CURAND_RNG_PSEUDO_DEFAULT)
        rng = CURAND_RNG_PSEUDO_XORWOW;
    if (rng == CURAND_RNG_QUASI_DEFAULT)
        rng = CURAND_RNG_QUASI_SOBOL32;
    switch (rng) {
    case CURAND_RNG_PSEUDO_XORWOW:
    case CURAND_RNG_PSEUDO_MRG32K3A:
    case CURAND_RNG_PSEUDO_PHILOX4_32_10:
        break;
    case CURAND_RNG_TEST:
    case CURAND_RNG_PSEUDO_MTGP32:
    case CURAND_RNG_PSEUDO_MT19937:
    case CURAND_RNG_QUASI_SOBOL32:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL32:
    case CURAND_RNG_QUASI_SOBOL64:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL64:
        return RAND_STATUS_UNSUPPORTED;   /* NVIDIA's types that cubridge does not have yet */
    default:
        return CURAND_STATUS_TYPE_ERROR;
    }
    rand_gen *g = calloc(1, sizeof *g);
    if (!g)
        return CURAND_STATUS_ALLOCATION_FAILED;
    g->rng = rng;
    g->ordering = is_pseudo(rng) ? CURAND_ORDERING_PSEUDO_DEFAULT : CURAND_ORDERING_QUASI_DEFAULT;
    g->seed = 0;   /* cuRAND's default seed */
    g->dims = 1;
    *out = g;
    return CURAND_STATUS_SUCCESS;
}

void rand_gen_destroy(rand_gen *g)
{
    if (!g)
        return;
    free(g->xw);
    free(g->mrg);
    free(g);
}

int rand_gen_type(const rand_gen *g) { return g->rng; }

int rand_gen_set_seed(rand_gen *g, unsigned long long seed)
{
    if (!is_pseudo(g->rng))
        return CURAND_STATUS_TYPE_ERROR;
    g->seed = seed;
    g->pos = g->offset;
    g->ready = 0;
    return CURAND_STATUS_SUCCESS;
}

int rand_gen_set_offset(rand_gen *g, unsigned long long offset)
{
    g->offset = offset;
    g->pos = offset;
    g->ready = 0;
    return CURAND_STATUS_SUCCESS;
}

int rand_gen_set_ordering(rand_gen *g, int ordering)
{
    if (is_pseudo(g->rng)) {
        switch (ordering) {
        case CURAND_ORDERING_PSEUDO_BEST:
        case CURAND_ORDERING_PSEUDO_DEFAULT:
        case CURAND_ORDERING_PSEUDO_LEGACY:
        case CURAND_ORDERING_PSEUDO_DYNAMIC:   /* ours: the default layout (the choice is the device's) */
            break;
        case CURAND_ORDERING_PSEUDO_SEEDED:
            if (g->rng != CURAND_RNG_PSEUDO_XORWOW)
                return CURAND_STATUS_OUT_OF_RANGE;
            return RAND_STATUS_UNSUPPORTED;   /* not implemented yet: see docs/curand.md */
        default:
            return CURAND_STATUS_OUT_OF_RANGE;
        }
    } else if (ordering != CURAND_ORDERING_QUASI_DEFAULT) {
        return CURAND_STATUS_OUT_OF_RANGE;
    }
    g->ordering = ordering;
    g->pos = g->offset;
    g->ready = 0;
    return CURAND_STATUS_SUCCESS;
}

int rand_gen_set_dimensions(rand_gen *g, unsigned dims)
{
    if (is_pseudo(g->rng))
        return CURAND_STATUS_TYPE_ERROR;
    if (dims < 1 || dims > 20000)
        return CURAND_STATUS_OUT_OF_RANGE;
    g->dims = dims;
    g->pos = g->offset;
    g->ready = 0;
    return CURAND_STATUS_SUCCESS;
}

int rand_gen_check(const rand_gen *g, rand_fn fn, size_t n, double a, double b)
{
    (void)b;
    if (fn == RAND_RAW64)
        return CURAND_STATUS_TYPE_ERROR;   /* 64-bit outputs: Sobol64 only */
    if ((fn == RAND_NORMAL || fn == RAND_NORMAL_D || fn == RAND_LOGNORMAL || fn == RAND_LOGNORMAL_D) &&
        is_pseudo(g->rng) && g->rng != CURAND_RNG_PSEUDO_PHILOX4_32_10 && (n & 1))
        return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
    if (fn == RAND_POISSON && !(a > 0))
        return CURAND_STATUS_OUT_OF_RANGE;
    return CURAND_STATUS_SUCCESS;
}

/* ---- engines of the state-based generators ------------------------------ */

static unsigned threads_of(const rand_gen *g)
{
    if (g->rng == CURAND_RNG_PSEUDO_MRG32K3A)
        return g->ordering == CURAND_ORDERING_PSEUDO_LEGACY ? 4096u : 81920u;
    return 4096u;
}

static int setup(rand_gen *g)
{
    if (g->ready)
        return CURAND_STATUS_SUCCESS;
    unsigned T = threads_of(g);
    unsigned long long base = g->pos / T, extra = g->pos % T;
    if (g->rng == CURAND_RNG_PSEUDO_XORWOW) {
        if (!g->xw || g->nthreads != T) {
            free(g->xw);
            g->xw = malloc(T * sizeof *g->xw);
            if (!g->xw)
                return CURAND_STATUS_ALLOCATION_FAILED;
        }
        rand_xorwow s;
        rand_xorwow_init(&s, g->seed, 0, 0);
        for (unsigned t = 0; t < T; t++) {   /* engine t + 1 is engine t one subsequence on */
            g->xw[t] = s;
            rand_xorwow_skip(&g->xw[t], base + (t < extra));
            rand_xorwow_skip_sequence(&s, 1);
        }
    } else if (g->rng == CURAND_RNG_PSEUDO_MRG32K3A) {
        if (!g->mrg || g->nthreads != T) {
            free(g->mrg);
            g->mrg = malloc(T * sizeof *g->mrg);
            if (!g->mrg)
                return CURAND_STATUS_ALLOCATION_FAILED;
        }
        rand_mrg32k3a s;
        rand_mrg32k3a_init(&s, g->seed, 0, 0);
        for (unsigned t = 0; t < T; t++) {
            g->mrg[t] = s;
            rand_mrg32k3a_skip(&g->mrg[t], base + (t < extra));
            rand_mrg32k3a_skip_subsequence(&s, 1);
        }
    }
    g->nthreads = T;
    g->ready = 1;
    return CURAND_STATUS_SUCCESS;
}

/* The k draws of one output slot from engine t. */
static void draws(rand_gen *g, unsigned t, uint32_t *u, double *mv, int k)
{
    for (int i = 0; i < k; i++) {
        if (g->rng == CURAND_RNG_PSEUDO_XORWOW) {
            u[i] = rand_xorwow_next(&g->xw[t]);
        } else {
            double v = rand_mrg32k3a_next(&g->mrg[t]);
            mv[i] = v;
            u[i] = rand_mrg32k3a_bits(v);
        }
    }
}

/* Philox output g of the host layout */
static void philox_block(const rand_gen *g, unsigned long long blk, uint32_t out[4])
{
    unsigned long long sub = blk % 65536u, step = blk / 65536u;
    uint32_t ctr[4] = { (uint32_t)step, (uint32_t)(step >> 32), (uint32_t)sub, 0 };
    uint32_t key[2] = { (uint32_t)g->seed, (uint32_t)(g->seed >> 32) };
    rand_philox_block(ctr, key, out);
}

static void philox_words(const rand_gen *g, unsigned long long first, uint32_t *u, size_t n)
{
    uint32_t blk[4];
    unsigned long long have = ~0ull;
    for (size_t i = 0; i < n; i++) {
        unsigned long long x = first + i;
        if (x / 4 != have) {
            have = x / 4;
            philox_block(g, have, blk);
        }
        u[i] = blk[x % 4];
    }
}

/* Box-Muller as cuRAND's device code does it (curand_normal.h): a pair of
 * normals from two 32-bit draws (float) or four (double, 53-bit uniforms). */
static void box_muller_f(uint32_t x, uint32_t y, float *r0, float *r1)
{
    const float c = 6.2831855f * 2.3283064365386963e-10f;   /* CURAND_2POW32_INV_2PI */
    float u = rand_uniform_f(x);
    float v = fmaf((float)y, c, c * 0.5f);
    float s = sqrtf(-2.0f * rand_dev_logf(u));
    float sn, cs;
    rand_dev_sincosf(v, &sn, &cs);
    *r0 = sn * s;
    *r1 = cs * s;
}

static void box_muller_mrg_f(double vx, double vy, float *r0, float *r1)
{
    float x = rand_mrg_uniform_f(vx), y = rand_mrg_uniform_f(vy) * 6.2831855f;
    float s = sqrtf(-2.0f * rand_dev_logf(x));
    float sn, cs;
    rand_dev_sincosf(y, &sn, &cs);
    *r0 = sn * s;
    *r1 = cs * s;
}

static void box_muller_d(const uint32_t *w, double *r0, double *r1)
{
    uint64_t zx = (uint64_t)w[0] ^ ((uint64_t)w[1] << 21), zy = (uint64_t)w[2] ^ ((uint64_t)w[3] << 21);
    double u = (double)zx * 1.1102230246251565e-16 + 5.5511151231257827e-17;
    double v = (double)zy * 2.2204460492503131e-16 + 1.1102230246251565e-16;
    double s = sqrt(-2.0 * rand_dev_log(u)), sn, cs;
    rand_dev_sincospi(v, &sn, &cs);
    *r0 = sn * s;
    *r1 = cs * s;
}

static void box_muller_mrg_d(double vx, double vy, double *r0, double *r1)
{
    double x = rand_mrg_uniform_d(vx), y = rand_mrg_uniform_d(vy) * 2.0;
    double s = sqrt(-2.0 * rand_dev_log(x)), sn, cs;
    rand_dev_sincospi(y, &sn, &cs);
    *r0 = sn * s;
    *r1 = cs * s;
}

/* Normals and log-normals of the state-based engines: output pair j (outputs
 * 2j and 2j + 1) comes from the next engine in turn; the position advances by
 * one per pair. */
static void normals(rand_gen *g, rand_fn fn, void *out, size_t n, double mean, double stddev)
{
    unsigned T = g->nthreads, t = (unsigned)(g->pos % T);
    int dbl = fn == RAND_NORMAL_D || fn == RAND_LOGNORMAL_D, logn = fn == RAND_LOGNORMAL || fn == RAND_LOGNORMAL_D;
    int mrg = g->rng == CURAND_RNG_PSEUDO_MRG32K3A;
    uint32_t u[4];
    double mv[4];
    for (size_t j = 0; j < n / 2; j++) {
        if (dbl) {
            double z0, z1;
            if (mrg) {
                draws(g, t, u, mv, 2);
                box_muller_mrg_d(mv[0], mv[1], &z0, &z1);
            } else {
                draws(g, t, u, mv, 4);
                box_muller_d(u, &z0, &z1);
            }
            z0 = fma(z0, stddev, mean);
            z1 = fma(z1, stddev, mean);
            if (logn) {
                z0 = exp(z0);
                z1 = exp(z1);
            }
            ((double *)out)[2 * j] = z0;
            ((double *)out)[2 * j + 1] = z1;
        } else {
            float z0, z1;
            draws(g, t, u, mv, 2);
            if (mrg)
                box_muller_mrg_f(mv[0], mv[1], &z0, &z1);
            else
                box_muller_f(u[0], u[1], &z0, &z1);
            z0 = fmaf(z0, (float)stddev, (float)mean);
            z1 = fmaf(z1, (float)stddev, (float)mean);
            if (logn) {
                z0 = expf(z0);
                z1 = expf(z1);
            }
            ((float *)out)[2 * j] = z0;
            ((float *)out)[2 * j + 1] = z1;
        }
        if (++t == T)
            t = 0;
    }
    g->pos += n / 2;
}

int rand_gen_generate(rand_gen *g, rand_fn fn, void *out, size_t n, double a, double b)
{
    int st = rand_gen_check(g, fn, n, a, b);
    if (st != CURAND_STATUS_SUCCESS || n == 0)
        return st;
    if (g->rng == CURAND_RNG_PSEUDO_PHILOX4_32_10) {
        uint32_t *u = out;
        if (fn == RAND_RAW32 || fn == RAND_UNIFORM) {
            philox_words(g, g->pos, u, n);
            if (fn == RAND_UNIFORM)
                for (size_t i = 0; i < n; i++)
                    ((float *)out)[i] = rand_uniform_f(u[i]);
            g->pos += n;
            return CURAND_STATUS_SUCCESS;
        }
        /* normals from an even position: pair j is words 2j, 2j + 1 and the
         * position advances by n (measured); from an odd position NVIDIA's
         * pairs differ, not measured yet */
        if ((fn == RAND_NORMAL || fn == RAND_LOGNORMAL) && g->pos % 2 == 0) {
            uint32_t w[2];
            for (size_t j = 0; 2 * j < n; j++) {
                float z0, z1;
                philox_words(g, g->pos + 2 * j, w, 2);
                box_muller_f(w[0], w[1], &z0, &z1);
                z0 = fmaf(z0, (float)b, (float)a);
                z1 = fmaf(z1, (float)b, (float)a);
                if (fn == RAND_LOGNORMAL) {
                    z0 = expf(z0);
                    z1 = expf(z1);
                }
                ((float *)out)[2 * j] = z0;
                if (2 * j + 1 < n)
                    ((float *)out)[2 * j + 1] = z1;
            }
            g->pos += n;
            return CURAND_STATUS_SUCCESS;
        }
        return RAND_STATUS_UNSUPPORTED;   /* layout not measured yet: the facade reports it */
    }
    st = setup(g);
    if (st != CURAND_STATUS_SUCCESS)
        return st;
    unsigned T = g->nthreads;
    unsigned t = (unsigned)(g->pos % T);
    uint32_t u[4];
    double mv[4];
    switch (fn) {
    case RAND_RAW32:
    case RAND_UNIFORM:
        for (size_t i = 0; i < n; i++) {
            draws(g, t, u, mv, 1);
            if (fn == RAND_RAW32)
                ((uint32_t *)out)[i] = u[0];
            else
                ((float *)out)[i] = g->rng == CURAND_RNG_PSEUDO_MRG32K3A ? rand_mrg_uniform_f(mv[0]) : rand_uniform_f(u[0]);
            if (++t == T)
                t = 0;
        }
        g->pos += n;
        return CURAND_STATUS_SUCCESS;
    case RAND_UNIFORM_D:
        for (size_t i = 0; i < n; i++) {
            if (g->rng == CURAND_RNG_PSEUDO_MRG32K3A) {
                draws(g, t, u, mv, 1);
                ((double *)out)[i] = rand_mrg_uniform_d(mv[0]);
            } else {
                draws(g, t, u, mv, 2);
                ((double *)out)[i] = rand_uniform_d_hq(u[0], u[1]);
            }
            if (++t == T)
                t = 0;
        }
        g->pos += n;
        return CURAND_STATUS_SUCCESS;
    case RAND_NORMAL:
    case RAND_NORMAL_D:
    case RAND_LOGNORMAL:
    case RAND_LOGNORMAL_D:
        normals(g, fn, out, n, a, b);
        return CURAND_STATUS_SUCCESS;
    default:
        return RAND_STATUS_UNSUPPORTED;   /* layout not measured yet */
    }
}
