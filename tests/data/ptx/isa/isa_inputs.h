/* isa_inputs.h: the input words of the ISA test kernels, shared by
 * test_codegen_isa.c (the CPU side) and golden_gpu.c (the GPU that made the
 * golden outputs), so both run the kernels on the same data.
 * ISA_THREADS threads, each reading 4 words and writing 8. Threads below
 * ISA_THREADS_V1 hold mixed random and special values (the inputs of the
 * first golden file, unchanged); the rest are cross products of edge values
 * (isa_edge_word). A golden file made with fewer threads is compared on the
 * threads it has. */
#ifndef ISA_INPUTS_H
#define ISA_INPUTS_H

#include <stdint.h>
#include <string.h>

#define ISA_THREADS_V1 1024
#define ISA_THREADS (ISA_THREADS_V1 + 2304)
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

/* Thread j of an edge class: a x b cross products of edge values, c and d
 * other edge values. Classes of 256 threads (the f32 one 1024): 32-bit
 * integers, 64-bit integers ({a,b} and {c,d}), f32, f64 ({a,b}, {c,d}),
 * f16 pairs, bf16 pairs. */
static uint32_t isa_edge_word(uint32_t j, uint32_t w)
{
    static const uint32_t ie[16] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 2, 31, 32,
                                    33, 63, 64, 0x80000001u, 0xfffffffeu, 0xffffu, 0x8000u, 0x7f80ff01u};
    static const uint64_t le[16] = {0, 1, ~0ull, 1ull << 63, ~0ull >> 1, 2, 63, 64,
                                    65, 0x100000000ull, 0xffffffffull, 0x80000000ull, ~1ull,
                                    (1ull << 63) + 1, 7, 0xffffffff00000000ull};
    static const uint32_t fe[32] = {
        0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u,
        0x00000001u, 0x807fffffu, 0x00800000u, 0x7f7fffffu, 0x3f000000u, 0x3fc00000u, 0xc0200000u, 0x40400000u,
        0x4f000000u, 0x4f800000u, 0xcf000001u, 0x501502f9u, 0xbf000000u, 0x3effffffu, 0x4b000001u, 0x4b800001u,
        0x0001c16cu, 0x7e967699u, 0x3dcccccdu, 0x42c80000u, 0xc2c80000u, 0x7f800001u, 0x3eaaaaabu, 0xdf000000u};
    static const uint64_t de[16] = {
        0, 1ull << 63, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x7ff0000000000000ull,
        0xfff0000000000000ull, 0x7ff8000000000000ull, 1, 0x800fffffffffffffull, 0x0010000000000000ull,
        0x7fefffffffffffffull, 0x3fe0000000000000ull, 0x4008000000000000ull, 0xc004000000000000ull,
        0x41e0000000100000ull, 0xc3e0000000000001ull};
    static const uint16_t he[16] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x83ff, 0x0400,
                                    0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x3800, 0x3c01, 0x3bff, 0x5640};
    static const uint16_t be[16] = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x0001, 0x807f, 0x0080,
                                    0x7f7f, 0xff7f, 0x3f80, 0xbf80, 0x3f00, 0x3f81, 0x3f7f, 0x4348};
    uint32_t x = j % 16, y = j / 16 % 16, z = (j * 7 + 3) % 16, v = (j * 11 + 5) % 16;
    switch (j / 256) {
    case 0: return w == 0 ? ie[x] : w == 1 ? ie[y] : w == 2 ? ie[z] : ie[v];
    case 1: {
        uint64_t q = w < 2 ? le[x] : le[y];
        return (uint32_t)(w % 2 ? q >> 32 : q);
    }
    case 2: case 3: case 4: case 5: {
        uint32_t k = j - 512;
        return w == 0 ? fe[k % 32] : w == 1 ? fe[k / 32] : w == 2 ? fe[(k * 13 + 7) % 32] : fe[(k * 29 + 11) % 32];
    }
    case 6: {
        uint64_t q = w < 2 ? de[x] : de[y];
        return (uint32_t)(w % 2 ? q >> 32 : q);
    }
    case 7: {
        const uint16_t p[4][2] = {{he[x], he[y]}, {he[y], he[z]}, {he[z], he[v]}, {he[v], he[x]}};
        return p[w][0] | (uint32_t)p[w][1] << 16;
    }
    default: {
        const uint16_t p[4][2] = {{be[x], be[y]}, {be[y], be[z]}, {be[z], be[v]}, {be[v], be[x]}};
        return p[w][0] | (uint32_t)p[w][1] << 16;
    }
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
    if (i >= ISA_THREADS_V1)
        return isa_edge_word(i - ISA_THREADS_V1, w);
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
