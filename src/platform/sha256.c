/* sha256.c: SHA-256 as specified in FIPS 180-4, section 6.2, in portable C
 * and, on x86-64 processors with the SHA extensions (Intel SHA-NI, AMD Zen
 * and later), with SHA256RNDS2/SHA256MSG1/SHA256MSG2 as Intel's instruction
 * set reference defines them (about 8x faster: the JIT cache hashes every
 * kernel source and object on every hit).
 *
 * Process-wide state: sha256_impl, the implementation picked on first use
 * (a constant once set; the race to set it writes the same value). */
#include "platform/sha256.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CB_SHA256_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif

static const uint32_t sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static uint32_t load_be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* Processes one 64-byte block. */
static void sha256_compress(uint32_t state[8], const unsigned char *block)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = load_be32(block + 4 * i);
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int i = 0; i < 64; i++) {
        uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        uint32_t ch = (e & f) ^ (~e & g);
        uint32_t t1 = h + s1 + ch + sha256_k[i] + w[i];
        uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = s0 + maj;
        h = g; g = f; f = e; e = d + t1;
        d = c; c = b; b = a; a = t1 + t2;
    }
    state[0] += a; state[1] += b; state[2] += c; state[3] += d;
    state[4] += e; state[5] += f; state[6] += g; state[7] += h;
}

#ifdef CB_SHA256_X86
/* The state as SHA256RNDS2 wants it: one register holds A,B,E,F and the
 * other C,D,G,H (highest lane first). Four rounds per step: the message
 * words plus the round constants, two rounds with the low half, two with
 * the high half. W[16..63] come four at a time from the previous sixteen
 * (MSG1 adds sigma0, ALIGNR brings W[t-7], MSG2 adds sigma1). */
__attribute__((target("sha,sse4.1,ssse3"))) static void sha256_blocks_shani(uint32_t state[8],
                                                                            const unsigned char *p, size_t n)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    for (; n > 0; n--, p += 64) {
        __m128i abef0 = abef, cdgh0 = cdgh, m[4];
        for (int i = 0; i < 4; i++)
            m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
#pragma GCC unroll 16
        for (int r = 0; r < 16; r++) {
            if (r >= 4) {
                __m128i t = _mm_sha256msg1_epu32(m[r & 3], m[(r + 1) & 3]);
                t = _mm_add_epi32(t, _mm_alignr_epi8(m[(r + 3) & 3], m[(r + 2) & 3], 4));
                m[r & 3] = _mm_sha256msg2_epu32(t, m[(r + 3) & 3]);
            }
            __m128i wk = _mm_add_epi32(m[r & 3], _mm_loadu_si128((const __m128i *)&sha256_k[4 * r]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
        }
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

/* 1 when the processor has the SHA extensions and SSSE3/SSE4.1. */
static int sha256_cpu_has_shani(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSSE3) || !(c & bit_SSE4_1))
        return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return 0;
    return (b & bit_SHA) != 0;
}
#endif

/* 0 not chosen yet, 1 portable, 2 SHA extensions. */
static int sha256_impl;

void cb_sha256_force_portable(int on)
{
    __atomic_store_n(&sha256_impl, on ? 1 : 0, __ATOMIC_RELAXED);
}

/* Compresses n whole blocks at p. */
static void sha256_blocks(uint32_t state[8], const unsigned char *p, size_t n)
{
    int impl = __atomic_load_n(&sha256_impl, __ATOMIC_RELAXED);
    if (impl == 0) {
        impl = 1;
#ifdef CB_SHA256_X86
        if (sha256_cpu_has_shani())
            impl = 2;
#endif
        __atomic_store_n(&sha256_impl, impl, __ATOMIC_RELAXED);
    }
#ifdef CB_SHA256_X86
    if (impl == 2) {
        sha256_blocks_shani(state, p, n);
        return;
    }
#endif
    for (; n > 0; n--, p += 64)
        sha256_compress(state, p);
}

void cb_sha256_init(cb_sha256 *s)
{
    static const uint32_t initial[8] = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    };
    memcpy(s->state, initial, sizeof initial);
    s->total = 0;
    s->fill = 0;
}

void cb_sha256_update(cb_sha256 *s, const void *data, size_t len)
{
    const unsigned char *p = data;
    s->total += len;
    if (s->fill) {
        size_t take = 64 - s->fill < len ? 64 - s->fill : len;
        memcpy(s->block + s->fill, p, take);
        s->fill += take;
        p += take;
        len -= take;
        if (s->fill < 64)
            return;
        sha256_blocks(s->state, s->block, 1);
        s->fill = 0;
    }
    size_t whole = len / 64;
    sha256_blocks(s->state, p, whole);
    p += whole * 64;
    len -= whole * 64;
    memcpy(s->block, p, len);
    s->fill = len;
}

void cb_sha256_final(cb_sha256 *s, unsigned char digest[32])
{
    uint64_t bits = s->total * 8;
    unsigned char pad[72] = {0x80};
    size_t padlen = (s->fill < 56 ? 56 : 120) - s->fill;
    for (int i = 0; i < 8; i++)
        pad[padlen + i] = (unsigned char)(bits >> (56 - 8 * i));
    cb_sha256_update(s, pad, padlen + 8);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (unsigned char)(s->state[i] >> 24);
        digest[4 * i + 1] = (unsigned char)(s->state[i] >> 16);
        digest[4 * i + 2] = (unsigned char)(s->state[i] >> 8);
        digest[4 * i + 3] = (unsigned char)s->state[i];
    }
}

void cb_sha256_hex(const unsigned char digest[32], char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 15];
    }
    hex[64] = 0;
}

void cb_sha256_hex_of(const void *data, size_t len, char hex[65])
{
    cb_sha256 s;
    unsigned char digest[32];
    cb_sha256_init(&s);
    cb_sha256_update(&s, data, len);
    cb_sha256_final(&s, digest);
    cb_sha256_hex(digest, hex);
}
