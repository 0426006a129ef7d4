/* md2.h: the MD2 message digest (RFC 1319) and HMAC-MD2 (RFC 2104).
 *
 * Only for cudart's driver integrity check (export_tables.c), which is an
 * HMAC-MD2; nothing in cubridge relies on MD2 for security.
 */
#ifndef CB_DRIVER_MD2_H
#define CB_DRIVER_MD2_H

#include <stddef.h>
#include <stdint.h>

typedef struct cb_md2 {
    uint8_t state[48];      /* X: state, block, state ^ block */
    uint8_t checksum[16];
    uint8_t last;           /* L: the last checksum byte */
    uint8_t count;          /* bytes in the current block */
} cb_md2;

void cb_md2_init(cb_md2 *h);
void cb_md2_update(cb_md2 *h, const void *data, size_t len);
/* Pads, appends the checksum and writes the 16-byte digest. */
void cb_md2_final(cb_md2 *h, uint8_t out[16]);

/* HMAC-MD2 with a 16-byte key (MD2's block size). */
void cb_hmac_md2(const uint8_t key[16], const void *msg, size_t len, uint8_t out[16]);

#endif
