/* isa_inputs.h: the input words of the ISA test kernels, shared by
 * test_codegen_isa.c (the CPU side) and golden_gpu.c (the GPU that made the
 * golden outputs), so both run the kernels on the same data.
 * ISA_THREADS threads, each reading 4 words and writing 8. */
#ifndef ISA_INPUTS_H
#define ISA_INPUTS_H

#include <stdint.h>
#include <string.h>

#define ISA_THREADS 1024
#define ISA_BLOCK 128

static uint32_t isa_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (uint32_t)(*s >> 11);
}

static uint32_t isa_f32bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* A half (f16 or bf16 bits) that is often special, small or near 1. */
static uint16_t isa_half(uint64_t *s, int bf)
{
    static const uint16_t f16sp[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x0001, 0x83ff, 0x0400,
                                     0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x3800, 0x3c01, 0x3bff, 0x5640, 0x0200};
    static const uint16_t bfsp[] = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0x0001, 0x807f, 0x0080,
                                    0x7f7f, 0xff7f, 0x3f80, 0xbf80, 0x3f00, 0x3f81, 0x3f7f, 0x4348, 0x0040};
    uint32_t r = isa_rand(s);
    switch (r % 4) {
    case 0: return bf ? bfsp[(r >> 4) % 18] : f16sp[(r >> 4) % 18];
    case 1: return (uint16_t)(r >> 8);
    default: /* exponent near the bias */
        if (bf)
            return (uint16_t)(((r >> 8) & 0x8000u) | ((0x7c + ((r >> 4) & 7)) << 7) | ((r >> 12) & 0x7f));
        return (uint16_t)(((r >> 8) & 0x8000u) | ((12 + ((r >> 4) & 7)) << 10) | ((r >> 12) & 0x3ff));
    }
}

/* Word w of thread i. Threads differ in what their words hold: raw bits,
 * f32 near 1, f16 pairs, bf16 pairs, f32 specials, small and extreme
 * integers, f32 values near f16/bf16 rounding midpoints. */
static uint32_t isa_word(uint32_t i, uint32_t w)
{
    static const float fsp[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 3.0f, 65504.0f, 65520.0f, 65519.99f,
                                5.9604645e-8f, 2.9802322e-8f, 8.940697e-8f, 1e-45f, 1.1754942e-38f,
                                3.4028235e38f, 1e30f, -7.25f, 2.5f, 0.3333333f, 1e-7f};
    static const uint32_t isp[] = {0, 1, 2, 0xffffffffu, 0x7fffffffu, 0x80000000u, 0x80000001u, 31, 32, 33,
                                   63, 64, 0xffu, 0x100u, 0xffffu, 0x10000u, 0x7f7f7f7fu, 0x80808080u, 7, 0xfffffff9u};
    uint64_t s = 0x9e3779b97f4a7c15ull ^ ((uint64_t)(i * 4 + w + 1) * 0xbf58476d1ce4e5b9ull);
    for (int k = 0; k < 3; k++)
        isa_rand(&s);
    uint32_t r = isa_rand(&s);
    switch (i % 8) {
    case 0: return r;
    case 1: return (r & 0x807fffffu) | ((uint32_t)(124 + (r >> 23) % 8) << 23);
    case 2: return isa_half(&s, 0) | (uint32_t)isa_half(&s, 0) << 16;
    case 3: return isa_half(&s, 1) | (uint32_t)isa_half(&s, 1) << 16;
    case 4: {
        uint32_t b = r % 6 == 0 ? (r & 0x80000000u) | 0x7f800000u : r % 6 == 1 ? 0x7fc00000u | (r & 0xffu)
                     : isa_f32bits(fsp[r % 20]);
        return b;
    }
    case 5: return r % 3 == 0 ? isp[(r >> 3) % 20] : (uint32_t)((int32_t)(r % 33) - 16);
    case 6: { /* an f16 or bf16 value plus half an ulp, give or take a little */
        uint32_t e = 100 + (r >> 8) % 45, m = r & 0x7fe000u;
        uint32_t bits = (r & 0x80000000u) | e << 23 | m | (r % 3 == 0 ? 0x1000u : r % 3 == 1 ? 0x8000u : 0x1001u);
        return bits;
    }
    default: return isa_half(&s, (r >> 3) & 1) | (r & 0xffff0000u);
    }
}

#endif
