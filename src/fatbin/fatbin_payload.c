/* fatbin_payload.c: one PTX entry's payload -> NUL-terminated text.
 *
 * Payloads are stored as is, or compressed with zstd (flag 0x8000, one
 * zstd frame) or LZ4 (flag 0x2000, one raw LZ4 block). The decompressed
 * size in the entry header counts the PTX text and its trailing NUL; a
 * stored payload is the text, its NUL and zero padding to 8 bytes.
 */
#include <lz4.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "fatbin/fatbin_internal.h"

/* Copies the text part (up to the first NUL) of buf[0..n) into a new string. */
static cb_fatbin_status copy_text(const uint8_t *buf, size_t n, char **text_out, size_t *len_out, char *err,
                                  size_t errlen)
{
    size_t len = strnlen((const char *)buf, n);
    if (len == 0)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "PTX entry is empty");
    char *text = malloc(len + 1);
    if (!text)
        return cb_fatbin_fail(CB_FATBIN_ERR_NOMEM, err, errlen, "out of memory for %zu bytes of PTX", len);
    memcpy(text, buf, len);
    text[len] = 0;
    *text_out = text;
    *len_out = len;
    return CB_FATBIN_OK;
}

/* Decompresses the entry into a malloc'd buffer of exactly
 * uncompressed_size bytes, plus a NUL of our own after them. */
static cb_fatbin_status inflate_entry(const cb_fatbin_entry *e, int use_zstd, uint8_t **out, char *err,
                                      size_t errlen)
{
    uint64_t want = e->uncompressed_size, have = e->compressed_size;
    if (have == 0 || have > e->payload_size)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen,
                              "compressed size %llu does not fit the payload of %llu bytes",
                              (unsigned long long)have, (unsigned long long)e->payload_size);
    if (want == 0 || want > CB_FATBIN_MAX_PTX || (!use_zstd && (want > LZ4_MAX_INPUT_SIZE || have > INT32_MAX)))
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "uncompressed PTX size %llu is invalid",
                              (unsigned long long)want);
    uint8_t *buf = malloc((size_t)want + 1);
    if (!buf)
        return cb_fatbin_fail(CB_FATBIN_ERR_NOMEM, err, errlen, "out of memory for %llu bytes of PTX",
                              (unsigned long long)want);
    int ok;
    if (use_zstd) {
        size_t got = ZSTD_decompress(buf, (size_t)want, e->payload, (size_t)have);
        ok = !ZSTD_isError(got) && got == want;
    } else {
        int got = LZ4_decompress_safe((const char *)e->payload, (char *)buf, (int)have, (int)want);
        ok = got >= 0 && (uint64_t)got == want;
    }
    if (!ok) {
        free(buf);
        return cb_fatbin_fail(CB_FATBIN_ERR_DECOMPRESS, err, errlen,
                              "%s payload of sm_%u PTX did not decompress to its %llu bytes",
                              use_zstd ? "zstd" : "LZ4", e->sm, (unsigned long long)want);
    }
    buf[want] = 0;
    *out = buf;
    return CB_FATBIN_OK;
}

cb_fatbin_status cb_fatbin_read_ptx(const cb_fatbin_entry *e, char **text_out, size_t *len_out,
                                    uint32_t *compressed_out, char *err, size_t errlen)
{
    int lz4 = (e->flags & CB_FATBIN_FLAG_LZ4) != 0, zstd = (e->flags & CB_FATBIN_FLAG_ZSTD) != 0;
    if (lz4 && zstd)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "PTX entry claims both LZ4 and zstd");
    *compressed_out = zstd ? 2 : lz4 ? 1 : 0;
    if (!lz4 && !zstd)
        return copy_text(e->payload, (size_t)e->payload_size, text_out, len_out, err, errlen);
    uint8_t *buf = NULL;
    cb_fatbin_status st = inflate_entry(e, zstd, &buf, err, errlen);
    if (st != CB_FATBIN_OK)
        return st;
    size_t len = strlen((const char *)buf);
    if (len == 0) {
        free(buf);
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "PTX entry is empty");
    }
    *text_out = (char *)buf;
    *len_out = len;
    return CB_FATBIN_OK;
}
