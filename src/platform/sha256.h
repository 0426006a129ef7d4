/* sha256.h: SHA-256 (FIPS 180-4), for the JIT cache's content keys and the
 * integrity of its entries. */
#ifndef CB_PLATFORM_SHA256_H
#define CB_PLATFORM_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct cb_sha256 {
    uint32_t state[8];
    uint64_t total;              /* bytes hashed so far */
    unsigned char block[64];     /* pending partial block */
    size_t fill;                 /* bytes in block */
} cb_sha256;

/* Starts a new hash. */
void cb_sha256_init(cb_sha256 *s);
/* Adds len bytes of data. */
void cb_sha256_update(cb_sha256 *s, const void *data, size_t len);
/* Finishes the hash into digest; s must be re-initialised before reuse. */
void cb_sha256_final(cb_sha256 *s, unsigned char digest[32]);
/* Writes digest as 64 lower-case hex digits and a NUL into hex. */
void cb_sha256_hex(const unsigned char digest[32], char hex[65]);
/* One-shot: the hex digest of len bytes of data. */
void cb_sha256_hex_of(const void *data, size_t len, char hex[65]);

/* For tests: 1 makes every later hash use the portable code even where the
 * processor's SHA extensions are used by default; 0 picks again. */
void cb_sha256_force_portable(int on);

#endif
