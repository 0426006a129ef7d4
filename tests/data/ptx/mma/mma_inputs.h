/* mma_inputs.h: the input words of the tensor-core probe kernels (mma.ptx),
 * shared by the GPU recorder (golden_mma_gpu.c) and the CPU test
 * (tests/unit/test_cpu_mma_golden.c). Word w of lane l of case k is
 * mma_word(k, l, w, class), class from mma_cases.h:
 *   'h' f16x2 of k/4 (k in -8..8)     'H' f16x2, random bits of moderate exponent
 *   'g' bf16x2 of k/4                 'k' f16x2 of k/4 (k in -64..64), accumulators
 *   't','u' tf32 of random 10-bit mantissa near 1, with random low 13 bits
 *   'T' f32 of a small integer (-3..3)
 *   'e' 4 x e4m3 of integers -8..8   'w' 4 x e5m2 of integers -8..8
 *   'E' 4 x e4m3, random bytes but NaN
 *   'i' random bits                   'I' s32 in -100000..100000
 *   'f' f32 of an integer in -1000..1000   'F' f32, random bits of moderate exponent
 *   'd' a double of a small integer (two words, low half first)
 *   'm' sparse metadata: 8 nibbles from {0b0100, 0b1000, 0b1001, 0b1100, 0b1101, 0b1110}
 *   'n' sparse tf32 metadata: 8 nibbles from {0b0100, 0b1110}
 *   'z' zero
 * Everything but 'H', 'E', 'F' keeps products and partial sums exact. */
#ifndef CB_MMA_INPUTS_H
#define CB_MMA_INPUTS_H

#include <stdint.h>
#include <string.h>

#define MMA_WORDS 64

static uint32_t mma_hash(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t h = a * 0x9e3779b9u ^ (b + 0x7f4a7c15u) * 0x85ebca6bu ^ (c + 0x165667b1u) * 0xc2b2ae35u;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    return h ^ h >> 16;
}

static uint32_t mma_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* f16 bits of q/4 for |q| <= 64 (exact) */
static uint32_t mma_f16_quarter(int q)
{
    if (q == 0)
        return 0;
    uint32_t s = q < 0 ? 0x8000u : 0, a = (uint32_t)(q < 0 ? -q : q), e = 0;
    while ((a >> e) > 1)
        e++;
    uint32_t mant = (a << 10 >> e) & 0x3ffu;   /* a = 1.mant * 2^e, value a/4 = 1.mant * 2^(e-2) */
    return s | (e - 2 + 15) << 10 | mant;
}

/* e4m3 (e5m2 when e5) bits of the integer q, |q| <= 8 */
static uint32_t mma_fp8_int(int q, int e5)
{
    if (q == 0)
        return 0;
    uint32_t s = q < 0 ? 0x80u : 0, a = (uint32_t)(q < 0 ? -q : q), e = 0;
    while ((a >> e) > 1)
        e++;
    if (e5)
        return s | (e + 15) << 2 | ((a << 2 >> e) & 3u);
    return s | (e + 7) << 3 | ((a << 3 >> e) & 7u);
}

static uint32_t mma_word(uint32_t k, uint32_t lane, uint32_t w, char cls)
{
    uint32_t h = mma_hash(k, lane, w), h2 = mma_hash(k + 1000, lane, w);
    switch (cls) {
    case 'h': return mma_f16_quarter((int)(h % 17) - 8) | mma_f16_quarter((int)(h2 % 17) - 8) << 16;
    case 'k': return mma_f16_quarter((int)(h % 129) - 64) | mma_f16_quarter((int)(h2 % 129) - 64) << 16;
    case 'H': return (h & 0x83ffu) | (9 + h2 % 12) << 10 | ((h >> 16 & 0x83ffu) | (9 + (h2 >> 8) % 12) << 10) << 16;
    case 'g': return mma_f32_bits((float)((int)(h % 17) - 8) / 4) >> 16 | (mma_f32_bits((float)((int)(h2 % 17) - 8) / 4) & 0xffff0000u);
    case 't': case 'u': return (h & 0x80000000u) | (126 + h2 % 3) << 23 | (h & 0x7fe000u) | (h2 >> 8 & 0x1fffu);
    case 'T': return mma_f32_bits((float)((int)(h % 7) - 3));
    case 'e': case 'w': {
        uint32_t v = 0;
        for (int i = 0; i < 4; i++)
            v |= mma_fp8_int((int)(mma_hash(h, (uint32_t)i, 7) % 17) - 8, cls == 'w') << (8 * i);
        return v;
    }
    case 'E': {
        uint32_t v = 0;
        for (int i = 0; i < 4; i++) {
            uint32_t b = h >> (8 * i) & 0xffu;
            if ((b & 0x7fu) == 0x7fu)
                b ^= 1;
            v |= b << (8 * i);
        }
        return v;
    }
    case 'i': return h;
    case 'I': return (uint32_t)((int)(h % 200001) - 100000);
    case 'f': return mma_f32_bits((float)((int)(h % 2001) - 1000));
    case 'F': return (h & 0x807fffffu) | (120 + h2 % 14) << 23;
    case 'd': {
        uint32_t hp = mma_hash(k, lane, w & ~1u);
        double d = (double)((int)(hp % 9) - 4);
        uint64_t u;
        memcpy(&u, &d, 8);
        return w & 1 ? (uint32_t)(u >> 32) : (uint32_t)u;
    }
    case 'm': case 'n': {
        static const uint32_t f16[] = {4, 8, 9, 12, 13, 14}, tf[] = {4, 14};
        uint32_t v = 0;
        for (int i = 0; i < 8; i++) {
            uint32_t r = mma_hash(h, (uint32_t)i, 11);
            v |= (cls == 'm' ? f16[r % 6] : tf[r % 2]) << (4 * i);
        }
        return v;
    }
    default: return 0;
    }
}

#endif
