/* compare.c: a result against its reference, element by element.
 *
 * Tolerances are torch.testing.assert_close's defaults (an element passes
 * when |result - reference| <= atol + rtol * |reference|):
 *   f64 rtol 1e-7   atol 1e-7
 *   f32 rtol 1.3e-6 atol 1e-5
 *   f16 rtol 1e-3   atol 1e-5
 *   bf16 rtol 1.6e-2 atol 1e-5
 *   integers and untyped bytes: exact.
 * docs/inspector.md gives the reasons for any loosening (there is one: float
 * atomics, see verify.c).
 */
#include <math.h>
#include <string.h>

#include "inspect/inspect_internal.h"

cbi_tolerance cbi_tolerance_of(cb_inspect_elem t)
{
    switch (t) {
    case CB_ELEM_F64: return (cbi_tolerance){1e-7, 1e-7};
    case CB_ELEM_F32: return (cbi_tolerance){1.3e-6, 1e-5};
    case CB_ELEM_F16: return (cbi_tolerance){1e-3, 1e-5};
    case CB_ELEM_BF16: return (cbi_tolerance){1.6e-2, 1e-5};
    default: return (cbi_tolerance){0, 0};
    }
}

const char *cbi_elem_name(cb_inspect_elem t)
{
    static const char *const names[] = {"bytes", "int", "f16", "bf16", "f32", "f64"};
    return (unsigned)t < 6 ? names[t] : "?";
}

size_t cbi_elem_size(cb_inspect_elem t)
{
    switch (t) {
    case CB_ELEM_F16:
    case CB_ELEM_BF16: return 2;
    case CB_ELEM_F32: return 4;
    case CB_ELEM_F64: return 8;
    case CB_ELEM_BYTES: return 1;
    default: return 0;
    }
}

static double half_to_double(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

static double bf16_to_double(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* The integer at p, w bytes wide (sign-extended). */
static int64_t load_int(const unsigned char *p, size_t w)
{
    int64_t v = 0;
    switch (w) {
    case 1: v = (int8_t)p[0]; break;
    case 2: { int16_t x; memcpy(&x, p, 2); v = x; break; }
    case 4: { int32_t x; memcpy(&x, p, 4); v = x; break; }
    case 8: memcpy(&v, p, 8); break;
    default: v = p[0]; break;
    }
    return v;
}

/* The element at p as a double (floats), or its integer value. */
static double load(const unsigned char *p, cb_inspect_elem t, size_t w)
{
    switch (t) {
    case CB_ELEM_F64: { double d; memcpy(&d, p, 8); return d; }
    case CB_ELEM_F32: { float f; memcpy(&f, p, 4); return f; }
    case CB_ELEM_F16: { uint16_t h; memcpy(&h, p, 2); return half_to_double(h); }
    case CB_ELEM_BF16: { uint16_t h; memcpy(&h, p, 2); return bf16_to_double(h); }
    default: return (double)load_int(p, w);
    }
}

static int is_zero(const unsigned char *p, size_t w)
{
    for (size_t i = 0; i < w; i++)
        if (p[i])
            return 0;
    return 1;
}

void cbi_compare(const unsigned char *result, const unsigned char *reference, const unsigned char *before,
                 size_t bytes, cb_inspect_elem t, size_t elem_bytes, size_t phase, cbi_tolerance tol,
                 cbi_diff *out)
{
    size_t w = cbi_elem_size(t);
    if (w == 0 || t == CB_ELEM_BYTES)
        w = elem_bytes ? elem_bytes : 1;
    int is_float = t == CB_ELEM_F16 || t == CB_ELEM_BF16 || t == CB_ELEM_F32 || t == CB_ELEM_F64;
    memset(out, 0, sizeof *out);
    out->first_bad = -1;
    double sum_diff = 0, sum_ref = 0;
    uint64_t ref_wrote = 0, result_wrote_there = 0, ref_nonzero = 0, result_nonzero = 0;
    for (size_t off = phase % w; off + w <= bytes; off += w) {
        const unsigned char *a = result + off, *b = reference + off;
        int a_changed = !before || memcmp(a, before + off, w) != 0;
        int b_changed = !before || memcmp(b, before + off, w) != 0;
        if (!a_changed && !b_changed)
            continue;
        out->compared++;
        ref_nonzero += (uint64_t)(is_float ? load(b, t, w) != 0 : !is_zero(b, w));
        result_nonzero += (uint64_t)(is_float ? load(a, t, w) != 0 : !is_zero(a, w));
        if (memcmp(a, b, w) == 0) {
            if (b_changed) {
                ref_wrote++;
                result_wrote_there++;   /* the right value, whether just written or already there */
            }
            continue;
        }
        double x = load(a, t, w), y = load(b, t, w);
        int bad;
        double d;
        if (is_float && (isnan(x) || isinf(x)) && !(isnan(y) || isinf(y))) {
            out->nan_inf++;
            bad = 1;
            d = 0;
        } else if (is_float && (isnan(x) || isnan(y))) {
            bad = !(isnan(x) && isnan(y));
            d = 0;
        } else if (is_float && (isinf(x) || isinf(y))) {
            bad = x != y;
            d = 0;
        } else {
            d = fabs(x - y);
            bad = !is_float || d > tol.atol + tol.rtol * fabs(y);
            if (!is_float && t == CB_ELEM_BYTES)
                bad = 1;
        }
        if (b_changed) {
            /* untouched: the reference wrote, the result kept its old value
             * -- unless that old value already was the right one */
            ref_wrote++;
            result_wrote_there += (uint64_t)(a_changed || !bad);
        }
        if (isfinite(d)) {
            sum_diff += d;
            if (d > out->max_abs)
                out->max_abs = d;
        }
        if (bad) {
            out->mismatched++;
            if (out->first_bad < 0) {
                out->first_bad = (int64_t)((off - phase % w) / w);
                out->first_got = x;
                out->first_want = y;
                out->first_type = (int)t;
                if (!is_float) {
                    out->first_got_int = load_int(a, w);
                    out->first_want_int = load_int(b, w);
                }
            }
        }
    }
    for (size_t off = phase % w; off + w <= bytes; off += w) {
        const unsigned char *b = reference + off;
        if (!before || memcmp(b, before + off, w) != 0 || memcmp(result + off, before + off, w) != 0) {
            double y = is_float ? load(b, t, w) : fabs(load(b, t, w));
            if (isfinite(y))
                sum_ref += fabs(y);
        }
    }
    out->rel_l1 = sum_ref > 0 ? sum_diff / sum_ref : sum_diff;
    out->untouched = ref_wrote > 0 && result_wrote_there == 0;
    out->all_zero = ref_nonzero > 0 && result_nonzero == 0;
}

int cbi_diff_failed(const cbi_diff *d)
{
    return d->mismatched > 0 || d->nan_inf > 0 || d->untouched || d->all_zero;
}

void cbi_format_first(char *buf, size_t len, const cbi_diff *d, int want)
{
    double f = want ? d->first_want : d->first_got;
    int64_t i = want ? d->first_want_int : d->first_got_int;
    switch (d->first_type) {
    case CB_ELEM_F64: snprintf(buf, len, "%.17g", f); break;
    case CB_ELEM_F32:
    case CB_ELEM_F16:
    case CB_ELEM_BF16: snprintf(buf, len, "%.9g", f); break;
    default:
        if (i > 0xffffffffll || i < -0x80000000ll)
            snprintf(buf, len, "%lld (0x%llx)", (long long)i, (unsigned long long)i);
        else
            snprintf(buf, len, "%lld", (long long)i);
        break;
    }
}
