/* fatbin_scan.c: walks wrappers, fatbins and their entries.
 *
 * Every read is checked against a bound: the caller's size when it gave
 * one, else the container's own sizes capped by the maximums in
 * fatbin_internal.h. docs/fatbin.md describes the layouts read here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin/fatbin_internal.h"

/* A run of readable bytes: [base, base + avail). known is 0 when avail is
 * only the sane maximum because nobody told us the real size. */
typedef struct region {
    const uint8_t *base;
    uint64_t avail;
    int known;
} region;

cb_fatbin_status cb_fatbin_fail(cb_fatbin_status status, char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return status;
}

static uint16_t read_u16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

static uint32_t read_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static uint64_t read_u64(const uint8_t *p) { return (uint64_t)read_u32(p) | ((uint64_t)read_u32(p + 4) << 32); }

static const void *read_ptr(const uint8_t *p)
{
    const void *v;
    memcpy(&v, p, sizeof v);
    return v;
}

static cb_fatbin_status push_entry(cb_fatbin_scan *scan, const cb_fatbin_entry *e, char *err, size_t errlen)
{
    if (scan->n_entries == scan->cap) {
        size_t cap = scan->cap ? scan->cap * 2 : 8;
        cb_fatbin_entry *grown = realloc(scan->entries, cap * sizeof *grown);
        if (!grown)
            return cb_fatbin_fail(CB_FATBIN_ERR_NOMEM, err, errlen, "out of memory listing fatbin entries");
        scan->entries = grown;
        scan->cap = cap;
    }
    scan->entries[scan->n_entries++] = *e;
    return CB_FATBIN_OK;
}

/* Reads the entry header at p (room bytes up to the end of the fatbin's
 * files) into *e and sets *total to header plus payload. */
static cb_fatbin_status read_entry(const uint8_t *p, uint64_t room, uint32_t fatbin_index, cb_fatbin_entry *e,
                                   uint64_t *total, char *err, size_t errlen)
{
    if (room < 64)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen,
                              "fatbin entry header truncated (%llu bytes left, need 64)", (unsigned long long)room);
    uint32_t header_size = read_u32(p + 4);
    uint32_t payload_size = read_u32(p + 8);
    if (header_size < 64 || header_size > CB_FATBIN_MAX_ENTRY_HEADER || header_size > room)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "fatbin entry header size %u is invalid",
                              header_size);
    if (payload_size > room - header_size)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen,
                              "fatbin entry payload (%u bytes) overruns its fatbin", payload_size);
    memset(e, 0, sizeof *e);
    e->kind = read_u16(p);
    e->compressed_size = read_u32(p + 16);
    e->ptx_version = read_u32(p + 24);
    e->sm = read_u32(p + 28);
    e->flags = read_u64(p + 40);
    e->uncompressed_size = read_u64(p + 56);
    e->payload = p + header_size;
    e->payload_size = payload_size;
    e->fatbin_index = fatbin_index;
    *total = (uint64_t)header_size + payload_size;
    return CB_FATBIN_OK;
}

/* Reads one fatbin at r.base and its entries; *total gets its size. */
static cb_fatbin_status scan_fatbin(region r, cb_fatbin_scan *scan, uint64_t *total, char *err, size_t errlen)
{
    if (r.avail < 16)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "fatbin header truncated");
    const uint8_t *p = r.base;
    if (read_u32(p) != CB_FATBIN_MAGIC)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "bad fatbin magic 0x%08x", read_u32(p));
    uint16_t version = read_u16(p + 4);
    uint16_t header_size = read_u16(p + 6);
    uint64_t files_size = read_u64(p + 8);
    if (version != 1)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "fatbin version %u is not supported", version);
    if (header_size < 16 || header_size > r.avail)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "fatbin header size %u is invalid", header_size);
    if (files_size > r.avail - header_size)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "fatbin size %llu overruns its container",
                              (unsigned long long)files_size);
    if (scan->n_fatbins >= CB_FATBIN_MAX_FATBINS)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "too many fatbins");
    uint32_t index = scan->n_fatbins++;
    uint64_t off = header_size, end = header_size + files_size;
    while (off < end) {
        cb_fatbin_entry e;
        uint64_t size = 0;
        cb_fatbin_status st = read_entry(p + off, end - off, index, &e, &size, err, errlen);
        if (st == CB_FATBIN_OK)
            st = push_entry(scan, &e, err, errlen);
        if (st != CB_FATBIN_OK)
            return st;
        off += size;
    }
    *total = end;
    return CB_FATBIN_OK;
}

/* Reads the fatbins laid one after another at r (as in a .nv_fatbin
 * section). Only a known size lets us look past the first. */
static cb_fatbin_status scan_fatbin_run(region r, cb_fatbin_scan *scan, char *err, size_t errlen)
{
    uint64_t off = 0;
    do {
        region sub = {r.base + off, r.avail - off, r.known};
        uint64_t total = 0;
        cb_fatbin_status st = scan_fatbin(sub, scan, &total, err, errlen);
        if (st != CB_FATBIN_OK)
            return st;
        off += total;
    } while (r.known && r.avail - off >= 16 && read_u32(r.base + off) == CB_FATBIN_MAGIC);
    return CB_FATBIN_OK;
}

/* The region a pointer found inside the image may use: the rest of the
 * image if it points into it, else the sane maximum. */
static region region_at(region image, const void *ptr)
{
    const uint8_t *p = ptr;
    region r = {p, CB_FATBIN_MAX_FATBIN, 0};
    uintptr_t start = (uintptr_t)image.base, at = (uintptr_t)p;
    if (image.known && at >= start && at - start < image.avail) {
        r.avail = image.avail - (at - start);
        r.known = 1;
    }
    return r;
}

/* A prelinked array entry is a fatbin (what link.stub stores); a wrapper
 * is accepted too and followed to its data. */
static cb_fatbin_status scan_prelinked(region image, const void *ptr, cb_fatbin_scan *scan, char *err,
                                       size_t errlen)
{
    region r = region_at(image, ptr);
    if (r.avail >= 24 && read_u32(r.base) == CB_FATBIN_WRAPPER_MAGIC) {
        const void *data = read_ptr(r.base + 8);
        if (!data)
            return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "prelinked wrapper has no data");
        /* A pointer read from inside an image of known size must stay in it:
         * anything else cannot be checked (found by tests/fuzz/fuzz_fatbin). */
        int inside = r.known;
        r = region_at(image, data);
        if (inside && !r.known)
            return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen,
                                  "prelinked wrapper points outside the image");
    }
    return scan_fatbin_run(r, scan, err, errlen);
}

static cb_fatbin_status scan_wrapper(region r, cb_fatbin_scan *scan, char *err, size_t errlen)
{
    const size_t wrapper_size = 8 + 2 * sizeof(void *);
    if (r.avail < wrapper_size)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "fatbin wrapper truncated");
    uint32_t version = read_u32(r.base + 4);
    const void *data = read_ptr(r.base + 8);
    const void *const *prelinked = read_ptr(r.base + 8 + sizeof(void *));
    if (version != 1 && version != 2)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "fatbin wrapper version %u is not supported",
                              version);
    if (!data)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "fatbin wrapper has no data");
    cb_fatbin_status st = scan_fatbin_run(region_at(r, data), scan, err, errlen);
    if (st != CB_FATBIN_OK || version != 2 || !prelinked)
        return st;
    for (uint32_t i = 0;; i++) {
        if (i == CB_FATBIN_MAX_PRELINKED)
            return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "prelinked fatbin array not terminated");
        region slot = region_at(r, prelinked + i);
        if (slot.known && slot.avail < sizeof(void *))
            return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "prelinked fatbin array truncated");
        const void *fatbin = read_ptr(slot.base);
        if (!fatbin)
            return CB_FATBIN_OK;
        st = scan_prelinked(r, fatbin, scan, err, errlen);
        if (st != CB_FATBIN_OK)
            return st;
    }
}

/* An ELF cubin: SASS only. Records its sm (e_flags, see docs/fatbin.md). */
static cb_fatbin_status scan_elf(region r, cb_fatbin_scan *scan, char *err, size_t errlen)
{
    if (r.avail < 52)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "ELF header truncated");
    const uint8_t *p = r.base;
    int is64 = p[4] == 2;
    if ((p[4] != 1 && !is64) || (is64 && r.avail < 64))
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "ELF header truncated or of unknown class");
    uint16_t machine = read_u16(p + 18);
    if (machine != 190)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "ELF image is for machine %u, not CUDA (190)",
                              machine);
    uint32_t flags = read_u32(p + (is64 ? 0x30 : 0x24));
    scan->n_elf_images = 1;
    scan->elf_image_sm = p[8] >= 8 ? (flags >> 8) & 0xff : flags & 0xff;
    return CB_FATBIN_OK;
}

static int is_text_byte(uint8_t c) { return c >= 0x20 || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

static int text_contains(const char *s, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++)
        if (memcmp(s + i, word, w) == 0)
            return 1;
    return 0;
}

/* NUL-terminated (or size-bounded) PTX text. PTX must hold .version. */
static cb_fatbin_status scan_text(region r, cb_fatbin_scan *scan, char *err, size_t errlen)
{
    const uint8_t *p = r.base;
    if (!is_text_byte(p[0]) || p[0] == 0x7f)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen,
                              "image is not a fatbin, wrapper, ELF cubin or PTX text (starts with 0x%02x)", p[0]);
    uint64_t limit = r.avail < CB_FATBIN_MAX_PTX ? r.avail : CB_FATBIN_MAX_PTX;
    size_t len = strnlen((const char *)p, (size_t)limit);
    for (size_t i = 0; i < len; i++)
        if (!is_text_byte(p[i]))
            return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "image holds binary data at byte %zu", i);
    if (!text_contains((const char *)p, len, ".version"))
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "text image has no .version directive: not PTX");
    scan->ptx_text = (const char *)p;
    scan->ptx_text_len = len;
    return CB_FATBIN_OK;
}

cb_fatbin_status cb_fatbin_scan_image(const void *image, size_t size, cb_fatbin_scan *scan, char *err,
                                      size_t errlen)
{
    memset(scan, 0, sizeof *scan);
    if (!image)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "image is NULL");
    region r = {image, size ? size : CB_FATBIN_MAX_FATBIN, size != 0};
    if (r.avail < 4)
        return cb_fatbin_fail(CB_FATBIN_ERR_INVALID, err, errlen, "image of %zu bytes is too small", size);
    uint32_t magic = read_u32(r.base);
    if (magic == CB_FATBIN_WRAPPER_MAGIC)
        return scan_wrapper(r, scan, err, errlen);
    if (magic == CB_FATBIN_MAGIC)
        return scan_fatbin_run(r, scan, err, errlen);
    if (magic == 0x464c457fu) /* "\x7fELF" */
        return scan_elf(r, scan, err, errlen);
    return scan_text(r, scan, err, errlen);
}

void cb_fatbin_scan_free(cb_fatbin_scan *scan)
{
    free(scan->entries);
    memset(scan, 0, sizeof *scan);
}
