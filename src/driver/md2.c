/* md2.c: MD2 (RFC 1319) and HMAC-MD2, written from the RFCs. */
#include "driver/md2.h"

#include <string.h>

/* RFC 1319's permutation of 0..255, built from the digits of pi. */
static const uint8_t md2_s[256] = {
    41,  46,  67,  201, 162, 216, 124, 1,   61,  54,  84,  161, 236, 240, 6,   19,  98,  167, 5,   243, 192,
    199, 115, 140, 152, 147, 43,  217, 188, 76,  130, 202, 30,  155, 87,  60,  253, 212, 224, 22,  103, 66,
    111, 24,  138, 23,  229, 18,  190, 78,  196, 214, 218, 158, 222, 73,  160, 251, 245, 142, 187, 47,  238,
    122, 169, 104, 121, 145, 21,  178, 7,   63,  148, 194, 16,  137, 11,  34,  95,  33,  128, 127, 93,  154,
    90,  144, 50,  39,  53,  62,  204, 231, 191, 247, 151, 3,   255, 25,  48,  179, 72,  165, 181, 209, 215,
    94,  146, 42,  172, 86,  170, 198, 79,  184, 56,  210, 150, 164, 125, 182, 118, 252, 107, 226, 156, 116,
    4,   241, 69,  157, 112, 89,  100, 113, 135, 32,  134, 91,  207, 101, 230, 45,  168, 2,   27,  96,  37,
    173, 174, 176, 185, 246, 28,  70,  97,  105, 52,  64,  126, 15,  85,  71,  163, 35,  221, 81,  175, 58,
    195, 92,  249, 206, 186, 197, 234, 38,  44,  83,  13,  110, 133, 40,  132, 9,   211, 223, 205, 244, 65,
    129, 77,  82,  106, 220, 55,  200, 108, 193, 171, 250, 36,  225, 123, 8,   12,  189, 177, 74,  120, 136,
    149, 139, 227, 99,  232, 109, 233, 203, 213, 254, 59,  0,   29,  57,  242, 239, 183, 14,  102, 88,  208,
    228, 166, 119, 114, 248, 235, 117, 75,  10,  49,  68,  80,  180, 143, 237, 31,  26,  219, 153, 141, 51,
    159, 17,  131, 20,
};

void cb_md2_init(cb_md2 *h)
{
    memset(h, 0, sizeof *h);
}

/* The 18-round transformation of the 48-byte state. */
static void md2_transform(cb_md2 *h)
{
    uint8_t t = 0;
    for (int round = 0; round < 18; round++) {
        for (int k = 0; k < 48; k++)
            t = h->state[k] ^= md2_s[t];
        t = (uint8_t)(t + round);
    }
}

/* Adds one byte to the block, the state copy and the checksum. */
static void md2_byte(cb_md2 *h, uint8_t c)
{
    uint8_t i = h->count;
    h->state[16 + i] = c;
    h->state[32 + i] = (uint8_t)(h->state[i] ^ c);
    h->checksum[i] ^= md2_s[c ^ h->last];
    h->last = h->checksum[i];
    h->count = (uint8_t)((i + 1) & 15);
    if (h->count == 0)
        md2_transform(h);
}

void cb_md2_update(cb_md2 *h, const void *data, size_t len)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < len; i++)
        md2_byte(h, p[i]);
}

void cb_md2_final(cb_md2 *h, uint8_t out[16])
{
    uint8_t pad = (uint8_t)(16 - h->count);
    for (int i = 0; i < pad; i++)
        md2_byte(h, pad);
    uint8_t sum[16];
    memcpy(sum, h->checksum, sizeof sum);
    for (int i = 0; i < 16; i++)
        md2_byte(h, sum[i]);
    memcpy(out, h->state, 16);
}

void cb_hmac_md2(const uint8_t key[16], const void *msg, size_t len, uint8_t out[16])
{
    uint8_t pad[16], inner[16];
    cb_md2 h;
    for (int i = 0; i < 16; i++)
        pad[i] = key[i] ^ 0x36;
    cb_md2_init(&h);
    cb_md2_update(&h, pad, sizeof pad);
    cb_md2_update(&h, msg, len);
    cb_md2_final(&h, inner);
    for (int i = 0; i < 16; i++)
        pad[i] = key[i] ^ 0x5c;
    cb_md2_init(&h);
    cb_md2_update(&h, pad, sizeof pad);
    cb_md2_update(&h, inner, sizeof inner);
    cb_md2_final(&h, out);
}
