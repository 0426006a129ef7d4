/* fatbin.c: chooses the PTX to run from what fatbin_scan.c found, and
 * builds cubridge's own linker container. Contracts in fatbin.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin/fatbin_internal.h"

/* Fills summary's counts from a scan (the chosen_* fields are left 0). */
static void summarize(const cb_fatbin_scan *scan, cb_fatbin_summary *summary)
{
    memset(summary, 0, sizeof *summary);
    summary->n_fatbins = scan->n_fatbins;
    if (scan->ptx_text)
        summary->n_ptx = 1;
    if (scan->n_elf_images) {
        summary->n_elf = 1;
        summary->sms_elf[0] = scan->elf_image_sm;
    }
    for (size_t i = 0; i < scan->n_entries; i++) {
        const cb_fatbin_entry *e = &scan->entries[i];
        if (e->kind == CB_FATBIN_KIND_PTX) {
            summary->n_ptx++;
        } else if (e->kind == CB_FATBIN_KIND_ELF) {
            if (summary->n_elf < 16)
                summary->sms_elf[summary->n_elf] = e->sm;
            summary->n_elf++;
        } else {
            summary->n_other++;
        }
    }
}

/* The PTX entry to run among the entries of fatbin number `fatbin` (or of
 * every fatbin when fatbin < 0), NULL if there is none:
 *   1. the highest sm at or below device_sm: the code the program meant for
 *      a device like the one reported;
 *   2. else the lowest sm above it: the CPU runs any PTX the translator
 *      knows, and the oldest newer target uses the fewest features beyond
 *      the reported device's (CuPy ships its CUB kernels as sm_120 PTX only).
 * On a tie, the higher PTX version, then the first. */
static const cb_fatbin_entry *choose_ptx(const cb_fatbin_scan *scan, uint32_t device_sm, long fatbin)
{
    const cb_fatbin_entry *best = NULL, *above = NULL;
    for (size_t i = 0; i < scan->n_entries; i++) {
        const cb_fatbin_entry *e = &scan->entries[i];
        if (e->kind != CB_FATBIN_KIND_PTX || (fatbin >= 0 && e->fatbin_index != fatbin))
            continue;
        if (e->sm > device_sm) {
            if (!above || e->sm < above->sm || (e->sm == above->sm && e->ptx_version > above->ptx_version))
                above = e;
        } else if (!best || e->sm > best->sm || (e->sm == best->sm && e->ptx_version > best->ptx_version)) {
            best = e;
        }
    }
    return best ? best : above;
}

/* Appends " sm_N" for each entry of the kind (in fatbin, or all if < 0). */
static void list_sms(const cb_fatbin_scan *scan, uint16_t kind, long fatbin, char *buf, size_t cap)
{
    for (size_t i = 0; i < scan->n_entries; i++) {
        const cb_fatbin_entry *e = &scan->entries[i];
        size_t used = strlen(buf);
        if (e->kind == kind && (fatbin < 0 || e->fatbin_index == fatbin) && used + 1 < cap)
            snprintf(buf + used, cap - used, " sm_%u", e->sm);
    }
}

/* No PTX at all (in fatbin, or anywhere when fatbin < 0): the message
 * lists the SASS architectures that were there instead. */
static cb_fatbin_status fail_no_ptx(const cb_fatbin_scan *scan, long fatbin, char *err, size_t errlen)
{
    char sass[128] = "";
    list_sms(scan, CB_FATBIN_KIND_ELF, fatbin, sass, sizeof sass);
    if (scan->n_elf_images)
        snprintf(sass, sizeof sass, " sm_%u", scan->elf_image_sm);
    return cb_fatbin_fail(CB_FATBIN_ERR_NO_PTX, err, errlen, "no PTX; SASS only:%s", sass[0] ? sass : " none");
}

/* Reads "<directive> <number>" from PTX text: the first number after the
 * directive, e.g. 90 for ".target sm_90a", or 0 if absent. *minor gets
 * the number after a '.', if any. */
static uint32_t ptx_directive_number(const char *ptx, size_t len, const char *directive, uint32_t *minor)
{
    size_t w = strlen(directive);
    for (size_t i = 0; i + w <= len; i++) {
        if (memcmp(ptx + i, directive, w) != 0)
            continue;
        size_t j = i + w;
        while (j < len && (ptx[j] < '0' || ptx[j] > '9') && ptx[j] != '\n')
            j++;
        uint32_t major = 0, low = 0;
        for (; j < len && ptx[j] >= '0' && ptx[j] <= '9' && major < 100000; j++)
            major = major * 10 + (uint32_t)(ptx[j] - '0');
        if (j < len && ptx[j] == '.')
            for (j++; j < len && ptx[j] >= '0' && ptx[j] <= '9' && low < 100000; j++)
                low = low * 10 + (uint32_t)(ptx[j] - '0');
        if (minor)
            *minor = low;
        return major;
    }
    return 0;
}

static cb_fatbin_status copy_bare_ptx(const cb_fatbin_scan *scan, cb_fatbin_module *m, char *err, size_t errlen)
{
    char *text = malloc(scan->ptx_text_len + 1);
    if (!text)
        return cb_fatbin_fail(CB_FATBIN_ERR_NOMEM, err, errlen, "out of memory for %zu bytes of PTX",
                              scan->ptx_text_len);
    memcpy(text, scan->ptx_text, scan->ptx_text_len);
    text[scan->ptx_text_len] = 0;
    uint32_t minor = 0, major = ptx_directive_number(text, scan->ptx_text_len, ".version", &minor);
    m->ptx = text;
    m->len = scan->ptx_text_len;
    m->sm = ptx_directive_number(text, scan->ptx_text_len, ".target", NULL);
    m->ptx_version = major * 0x10000 + minor;
    m->fatbin_index = 0;
    return CB_FATBIN_OK;
}

static cb_fatbin_status read_module(const cb_fatbin_entry *e, cb_fatbin_module *m, uint32_t *compressed,
                                    char *err, size_t errlen)
{
    cb_fatbin_status st = cb_fatbin_read_ptx(e, &m->ptx, &m->len, compressed, err, errlen);
    if (st != CB_FATBIN_OK)
        return st;
    m->sm = e->sm;
    m->ptx_version = e->ptx_version;
    m->fatbin_index = e->fatbin_index;
    return CB_FATBIN_OK;
}

static void note_choice(cb_fatbin_summary *summary, const cb_fatbin_module *m, uint32_t compressed,
                        uint32_t device_sm)
{
    summary->chosen_sm = m->sm;
    summary->chosen_above |= m->sm > device_sm;
    summary->chosen_ptx_version = m->ptx_version;
    summary->compressed = compressed;
}

cb_fatbin_status cb_fatbin_extract_ptx(const void *image, size_t size, uint32_t device_sm, char **ptx_out,
                                       size_t *len_out, cb_fatbin_summary *summary, char *err, size_t errlen)
{
    cb_fatbin_summary local;
    if (!summary)
        summary = &local;
    memset(summary, 0, sizeof *summary);
    *ptx_out = NULL;
    *len_out = 0;
    cb_fatbin_scan scan;
    cb_fatbin_status st = cb_fatbin_scan_image(image, size, &scan, err, errlen);
    if (st == CB_FATBIN_OK)
        summarize(&scan, summary);
    cb_fatbin_module m = {0};
    uint32_t compressed = 0;
    if (st == CB_FATBIN_OK && scan.ptx_text) {
        st = copy_bare_ptx(&scan, &m, err, errlen);
    } else if (st == CB_FATBIN_OK) {
        const cb_fatbin_entry *best = choose_ptx(&scan, device_sm, -1);
        st = best ? read_module(best, &m, &compressed, err, errlen) : fail_no_ptx(&scan, -1, err, errlen);
    }
    if (st == CB_FATBIN_OK) {
        note_choice(summary, &m, compressed, device_sm);
        *ptx_out = m.ptx;
        *len_out = m.len;
    }
    cb_fatbin_scan_free(&scan);
    return st;
}

static int fatbin_has_ptx(const cb_fatbin_scan *scan, uint32_t fatbin)
{
    for (size_t i = 0; i < scan->n_entries; i++)
        if (scan->entries[i].fatbin_index == fatbin && scan->entries[i].kind == CB_FATBIN_KIND_PTX)
            return 1;
    return 0;
}

/* One module per fatbin that carries PTX, appended to *list. */
static cb_fatbin_status collect_modules(const cb_fatbin_scan *scan, uint32_t device_sm, cb_fatbin_module *list,
                                        size_t *n, cb_fatbin_summary *summary, char *err, size_t errlen)
{
    for (uint32_t f = 0; f < scan->n_fatbins; f++) {
        if (!fatbin_has_ptx(scan, f))
            continue;
        const cb_fatbin_entry *best = choose_ptx(scan, device_sm, f);
        if (!best)
            return fail_no_ptx(scan, f, err, errlen);
        uint32_t compressed;
        cb_fatbin_status st = read_module(best, &list[*n], &compressed, err, errlen);
        if (st != CB_FATBIN_OK)
            return st;
        if (*n == 0)
            note_choice(summary, &list[0], compressed, device_sm);
        summary->chosen_above |= list[*n].sm > device_sm;
        (*n)++;
    }
    return *n ? CB_FATBIN_OK : fail_no_ptx(scan, -1, err, errlen);
}

cb_fatbin_status cb_fatbin_extract_modules(const void *image, size_t size, uint32_t device_sm,
                                           cb_fatbin_module **modules_out, size_t *n_out,
                                           cb_fatbin_summary *summary, char *err, size_t errlen)
{
    cb_fatbin_summary local;
    if (!summary)
        summary = &local;
    memset(summary, 0, sizeof *summary);
    *modules_out = NULL;
    *n_out = 0;
    cb_fatbin_scan scan;
    cb_fatbin_status st = cb_fatbin_scan_image(image, size, &scan, err, errlen);
    if (st != CB_FATBIN_OK) {
        cb_fatbin_scan_free(&scan);
        return st;
    }
    summarize(&scan, summary);
    cb_fatbin_module *list = calloc(scan.n_fatbins ? scan.n_fatbins : 1, sizeof *list);
    size_t n = 0;
    if (!list)
        st = cb_fatbin_fail(CB_FATBIN_ERR_NOMEM, err, errlen, "out of memory listing PTX modules");
    else if (scan.ptx_text)
        st = copy_bare_ptx(&scan, &list[n++], err, errlen);
    else
        st = collect_modules(&scan, device_sm, list, &n, summary, err, errlen);
    if (st == CB_FATBIN_OK && scan.ptx_text)
        note_choice(summary, &list[0], 0, device_sm);
    cb_fatbin_scan_free(&scan);
    if (st != CB_FATBIN_OK) {
        cb_fatbin_modules_free(list, n);
        return st;
    }
    *modules_out = list;
    *n_out = n;
    return CB_FATBIN_OK;
}

void cb_fatbin_modules_free(cb_fatbin_module *modules, size_t n)
{
    if (!modules)
        return;
    for (size_t i = 0; i < n; i++)
        free(modules[i].ptx);
    free(modules);
}

static void put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    put_u16(p, (uint16_t)v);
    put_u16(p + 2, (uint16_t)(v >> 16));
}

static void put_u64(uint8_t *p, uint64_t v)
{
    put_u32(p, (uint32_t)v);
    put_u32(p + 4, (uint32_t)(v >> 32));
}

/* Writes one fatbin holding one stored PTX entry at p; returns its size. */
static size_t write_ptx_fatbin(uint8_t *p, const char *ptx, size_t len, uint32_t sm)
{
    size_t payload = (len + 1 + 7) & ~(size_t)7;
    uint32_t minor = 0, major = ptx_directive_number(ptx, len, ".version", &minor);
    memset(p, 0, 16 + 64 + payload);
    put_u32(p, CB_FATBIN_MAGIC);
    put_u16(p + 4, 1);
    put_u16(p + 6, 16);
    put_u64(p + 8, 64 + payload);
    uint8_t *e = p + 16;
    put_u16(e, CB_FATBIN_KIND_PTX);
    put_u16(e + 2, 0x0101);
    put_u32(e + 4, 64);
    put_u32(e + 8, (uint32_t)payload);
    put_u32(e + 24, major * 0x10000 + minor);
    put_u32(e + 28, sm);
    put_u64(e + 40, 0x11);
    memcpy(e + 64, ptx, len);
    return 16 + 64 + payload;
}

cb_fatbin_status cb_fatbin_make_container(const char *const *ptx, size_t n, uint32_t sm, void **out,
                                          size_t *size_out)
{
    *out = NULL;
    *size_out = 0;
    size_t total = 0;
    if (n == 0)
        return CB_FATBIN_ERR_INVALID;
    for (size_t i = 0; i < n; i++) {
        size_t len = ptx[i] ? strlen(ptx[i]) : 0;
        if (len == 0 || len >= CB_FATBIN_MAX_PTX)
            return CB_FATBIN_ERR_INVALID;
        total += 16 + 64 + ((len + 1 + 7) & ~(size_t)7);
    }
    uint8_t *buf = malloc(total);
    if (!buf)
        return CB_FATBIN_ERR_NOMEM;
    size_t off = 0;
    for (size_t i = 0; i < n; i++)
        off += write_ptx_fatbin(buf + off, ptx[i], strlen(ptx[i]), sm);
    *out = buf;
    *size_out = total;
    return CB_FATBIN_OK;
}
