/* fatbin_internal.h: what the container walker finds, shared by the files
 * of src/fatbin/. Not part of the contract (see fatbin.h).
 *
 * The walker (fatbin_scan.c) turns an image into a flat list of entries,
 * each one tagged with the fatbin it came from; the payload reader
 * (fatbin_payload.c) turns one PTX entry into text; fatbin.c chooses.
 */
#ifndef CB_FATBIN_INTERNAL_H
#define CB_FATBIN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "fatbin/fatbin.h"

#define CB_FATBIN_WRAPPER_MAGIC 0x466243B1u
#define CB_FATBIN_MAGIC 0xBA55ED50u
#define CB_FATBIN_KIND_PTX 1
#define CB_FATBIN_KIND_ELF 2
#define CB_FATBIN_FLAG_LZ4 0x2000u
#define CB_FATBIN_FLAG_ZSTD 0x8000u

/* Sane maximums, used where the caller could not tell us a size (a
 * wrapper handed over by cudart): nothing larger is believed. */
#define CB_FATBIN_MAX_FATBIN ((uint64_t)1 << 31)   /* one fatbin, headers included */
#define CB_FATBIN_MAX_PTX ((uint64_t)1 << 30)      /* one PTX text, decompressed */
#define CB_FATBIN_MAX_ENTRY_HEADER 0x10000u        /* one entry header */
#define CB_FATBIN_MAX_PRELINKED 4096u              /* a v2 wrapper's prelinked array */
#define CB_FATBIN_MAX_FATBINS 65536u               /* fatbins in one image */

/* One entry of a fatbin, with its payload located and bounds-checked. */
typedef struct cb_fatbin_entry {
    uint16_t kind;             /* CB_FATBIN_KIND_* or another value */
    uint32_t sm;               /* e.g. 86 */
    uint32_t ptx_version;      /* major*0x10000+minor as stored */
    uint64_t flags;
    const uint8_t *payload;    /* payload_size readable bytes */
    uint64_t payload_size;
    uint64_t compressed_size;  /* bytes of the payload that are compressed data */
    uint64_t uncompressed_size;
    uint32_t fatbin_index;     /* which fatbin of the image (0-based) */
} cb_fatbin_entry;

/* Everything found in one image. */
typedef struct cb_fatbin_scan {
    cb_fatbin_entry *entries;  /* malloc'd */
    size_t n_entries, cap;
    uint32_t n_fatbins;
    uint32_t n_elf_images;     /* bare ELF cubins handed over directly */
    uint32_t elf_image_sm;
    const char *ptx_text;      /* a bare PTX text, or NULL */
    size_t ptx_text_len;
} cb_fatbin_scan;

/* Walks image (size readable bytes, or 0 if unknown) into *scan. On error
 * fills err and returns the status; *scan is then still safe to free. */
cb_fatbin_status cb_fatbin_scan_image(const void *image, size_t size, cb_fatbin_scan *scan, char *err,
                                      size_t errlen);
void cb_fatbin_scan_free(cb_fatbin_scan *scan);

/* Turns a PTX entry into a malloc'd NUL-terminated text (decompressing
 * it when its flags say so). *compressed_out gets 0 none, 1 LZ4, 2 zstd. */
cb_fatbin_status cb_fatbin_read_ptx(const cb_fatbin_entry *e, char **text_out, size_t *len_out,
                                    uint32_t *compressed_out, char *err, size_t errlen);

/* Formats a one-line reason into err (may be NULL); returns status. */
cb_fatbin_status cb_fatbin_fail(cb_fatbin_status status, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
