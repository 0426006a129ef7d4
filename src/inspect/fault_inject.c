/* fault_inject.c: planted bugs that prove the checker (tests only).
 *
 * CUBRIDGE_FAULT_INJECT=zero|nan|perturb|skip corrupts the first written
 * region of each verified launch after the backend ran it, as a broken
 * backend would:
 *   zero     every element the launch wrote becomes 0
 *   nan      the first written element becomes NaN (integers: all bits set)
 *   perturb  the first written element is scaled by 1 + 1e-3 (integers: +1)
 *   skip     the launch's writes are undone (the old contents come back)
 * Compiled in always, inert unless the variable is set.
 */
#include <math.h>
#include <string.h>

#include "inspect/inspect_internal.h"

static uint16_t double_to_half_bits(double v)
{
    /* good enough for planting a perturbation: round to nearest, normal range */
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t sign = (u >> 16) & 0x8000;
    int e = (int)((u >> 23) & 255) - 127 + 15;
    uint32_t m = u & 0x7fffff;
    if (e <= 0)
        return (uint16_t)sign;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00);
    return (uint16_t)(sign | (uint32_t)e << 10 | ((m + 0x1000) >> 13));
}

static void perturb(unsigned char *p, cb_inspect_elem t, size_t w)
{
    switch (t) {
    case CB_ELEM_F64: { double d; memcpy(&d, p, 8); d = d ? d * (1 + 1e-3) : 1e-3; memcpy(p, &d, 8); return; }
    case CB_ELEM_F32: { float f; memcpy(&f, p, 4); f = f ? f * (1.0f + 1e-3f) : 1e-3f; memcpy(p, &f, 4); return; }
    case CB_ELEM_BF16: {
        uint16_t h; memcpy(&h, p, 2); h = (uint16_t)(h + 1); memcpy(p, &h, 2); return;   /* one ulp: 2^-7 relative */
    }
    case CB_ELEM_F16: {
        uint16_t h; memcpy(&h, p, 2);
        int e = (h >> 10) & 31;
        double v = e ? ldexp((h & 1023) | 1024, e - 25) : ldexp(h & 1023, -24);
        if (h & 0x8000) v = -v;
        h = double_to_half_bits(v ? v * 1.004 : 1e-3);  /* f16 has 11 bits: 1e-3 is below one ulp at 1.0 */
        memcpy(p, &h, 2);
        return;
    }
    default: p[0] = (unsigned char)(p[0] + 1); (void)w; return;
    }
}

static void make_nan(unsigned char *p, cb_inspect_elem t, size_t w)
{
    switch (t) {
    case CB_ELEM_F64: { double d = NAN; memcpy(p, &d, 8); return; }
    case CB_ELEM_F32: { float f = NAN; memcpy(p, &f, 4); return; }
    case CB_ELEM_F16: { uint16_t h = 0x7e00; memcpy(p, &h, 2); return; }
    case CB_ELEM_BF16: { uint16_t h = 0x7fc0; memcpy(p, &h, 2); return; }
    default: memset(p, 0xff, w); return;
    }
}

int cbi_fault_apply(const char *fault, unsigned char *data, const unsigned char *before, size_t bytes,
                    cb_inspect_elem t, size_t elem_bytes, size_t phase)
{
    size_t w = cbi_elem_size(t);
    if (w == 0 || t == CB_ELEM_BYTES)
        w = elem_bytes ? elem_bytes : 1;
    int hit = 0;
    for (size_t off = phase % w; off + w <= bytes; off += w) {
        if (memcmp(data + off, before + off, w) == 0)
            continue;
        hit = 1;
        if (strcmp(fault, "zero") == 0) {
            memset(data + off, 0, w);
            continue;
        }
        if (strcmp(fault, "skip") == 0) {
            memcpy(data + off, before + off, w);
            continue;
        }
        if (strcmp(fault, "nan") == 0)
            make_nan(data + off, t, w);
        else
            perturb(data + off, t, w);
        break;
    }
    return hit;
}
