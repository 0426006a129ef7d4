/* audit_common.c: numbers, device memory and verdicts for the workloads
 * (audit.h). */
#include "audit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *audit_precision_name(audit_precision p)
{
    return p == AUDIT_FP16 ? "fp16" : p == AUDIT_BF16 ? "bf16" : "fp32";
}

size_t audit_elem_bytes(audit_precision p) { return p == AUDIT_FP32 ? 4 : 2; }

cb_inspect_elem audit_elem(audit_precision p)
{
    return p == AUDIT_FP16 ? CB_ELEM_F16 : p == AUDIT_BF16 ? CB_ELEM_BF16 : CB_ELEM_F32;
}

/* IEEE binary16, round to nearest even (from the float's bits). */
static uint16_t float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, abs = x & 0x7fffffffu;
    if (abs >= 0x7f800000u)   /* Inf, NaN */
        return (uint16_t)(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0));
    if (abs >= 0x477ff000u)   /* rounds past 65504 */
        return (uint16_t)(sign | 0x7c00u);
    if (abs < 0x38800000u) {  /* subnormal or zero: in units of 2^-24 */
        float a;
        memcpy(&a, &abs, 4);
        return (uint16_t)(sign | (uint32_t)lrintf(a * 16777216.0f));
    }
    uint32_t mant = abs & 0x7fffffu, e = (abs >> 23) - 112;
    uint32_t h = (e << 10) | (mant >> 13), rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1)))
        h++;
    return (uint16_t)(sign | h);
}

static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ffu, x;
    if (e == 0) {
        float v = ldexpf((float)m, -24);
        return (h & 0x8000u) ? -v : v;
    }
    if (e == 31)
        x = sign | 0x7f800000u | (m << 13);
    else
        x = sign | ((e + 112) << 23) | (m << 13);
    float f;
    memcpy(&f, &x, 4);
    return f;
}

static uint16_t float_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

static float bf16_to_float(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

void audit_store(audit_precision p, void *buf, size_t i, double v)
{
    /* double -> float -> half rounds twice; the inputs and references here
     * are never within a half ulp of a tie after the first rounding by more
     * than the tolerance can see. */
    float f = (float)v;
    if (p == AUDIT_FP32)
        ((float *)buf)[i] = f;
    else
        ((uint16_t *)buf)[i] = p == AUDIT_FP16 ? float_to_half(f) : float_to_bf16(f);
}

double audit_load(audit_precision p, const void *buf, size_t i)
{
    if (p == AUDIT_FP32)
        return ((const float *)buf)[i];
    uint16_t h = ((const uint16_t *)buf)[i];
    return p == AUDIT_FP16 ? half_to_float(h) : bf16_to_float(h);
}

void audit_fill(audit_precision p, void *buf, double *vals, size_t n, uint32_t seed)
{
    uint64_t s = 0x9e3779b97f4a7c15ull * (seed + 1);
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        double v = (double)(s >> 11) / 9007199254740992.0 * 2.0 - 1.0;
        audit_store(p, buf, i, v);
        if (vals)
            vals[i] = audit_load(p, buf, i);
    }
}

/* ---- device memory -------------------------------------------------------- */

CUdeviceptr audit_upload(const void *host, size_t bytes)
{
    CUdeviceptr d = 0;
    CUresult rc = cuMemAlloc(&d, bytes ? bytes : 1);
    if (rc != CUDA_SUCCESS) {
        fprintf(stderr, "cubridge-workloads: cuMemAlloc(%zu) failed: %d\n", bytes, (int)rc);
        return 0;
    }
    rc = host ? cuMemcpyHtoD(d, host, bytes) : cuMemsetD8(d, 0, bytes);
    if (rc != CUDA_SUCCESS) {
        fprintf(stderr, "cubridge-workloads: copy to the device failed: %d\n", (int)rc);
        cuMemFree(d);
        return 0;
    }
    return d;
}

int audit_download(void *host, CUdeviceptr d, size_t bytes)
{
    CUresult rc = cuCtxSynchronize();
    if (rc == CUDA_SUCCESS)
        rc = cuMemcpyDtoH(host, d, bytes);
    if (rc != CUDA_SUCCESS) {
        fprintf(stderr, "cubridge-workloads: copy from the device failed: %d\n", (int)rc);
        return -1;
    }
    return 0;
}

void audit_free(CUdeviceptr d)
{
    if (d)
        cuMemFree(d);
}

/* ---- verdicts ----------------------------------------------------------- */

uint64_t audit_now(const audit_run *r) { return r->svc ? r->svc->now() : 0; }

static void file_call(audit_run *r, const char *name, const char *status, int failed, int unsupported, uint64_t t0)
{
    if (!r->svc)
        return;
    /* the case's precision, as the call's argument: its name ends ".fp16" */
    const char *dot = strrchr(name, '.');
    char args[64];
    snprintf(args, sizeof args, "\"precision\":\"%s\"", dot ? dot + 1 : "?");
    cb_lib_trace t = {.library = "audit", .function = name, .args = args, .status = status, .failed = failed,
                      .unsupported = unsupported, .t0 = t0, .t1 = r->svc->now()};
    r->svc->trace(&t);
}

static void print_verdict(const char *name, const char *status, const char *drift, const char *note)
{
    printf("%-44s %-11s %-9s %s\n", name, status, drift, note ? note : "");
    fflush(stdout);
}

/* The inspector's per-type tolerances (docs/inspector.md, "Tolerances"),
 * for a run without it. */
static void tolerance_of(audit_precision p, double *rtol, double *atol)
{
    *rtol = p == AUDIT_FP16 ? 1e-3 : p == AUDIT_BF16 ? 1.6e-2 : 1.3e-6;
    *atol = 1e-5;
}

int audit_check(audit_run *r, const char *name, const void *result, const void *ref, size_t count, audit_precision p,
                double tol_scale, const char *note, uint64_t t0)
{
    double rtol, atol, sum_diff = 0, sum_ref = 0, max_abs = 0;
    tolerance_of(p, &rtol, &atol);
    if (tol_scale < 1)
        tol_scale = 1;
    size_t bad = 0;
    for (size_t i = 0; i < count; i++) {
        double a = audit_load(p, result, i), b = audit_load(p, ref, i), d = fabs(a - b);
        if (isnan(a) != isnan(b) || (!isnan(b) && !(d <= tol_scale * (atol + rtol * fabs(b)))))
            bad++;
        if (!isnan(d)) {
            sum_diff += d;
            if (d > max_abs)
                max_abs = d;
        }
        sum_ref += fabs(b);
    }
    double rel = sum_ref > 0 ? sum_diff / sum_ref : sum_diff;
    int drift = bad != 0;
    file_call(r, name, "CUDA_SUCCESS", 0, 0, t0);
    if (r->svc) {
        cb_inspect_output out = {.name = "out", .result = result, .reference = ref, .count = count,
                                 .type = audit_elem(p), .tolerance_scale = tol_scale};
        char full[200];
        snprintf(full, sizeof full, "%s; max abs %.3g", note ? note : "", max_abs);
        drift = r->svc->check(&(cb_lib_check){.library = "audit", .function = name, .outs = &out, .nouts = 1,
                                              .note = full});
    }
    char d[24], n[320];
    snprintf(d, sizeof d, "%.2e", rel);
    snprintf(n, sizeof n, "%s; max abs %.3g%s", note ? note : "", max_abs, drift ? "; beyond tolerance" : "");
    print_verdict(name, drift ? "DRIFT" : "PASS", d, n);
    if (drift)
        r->drift++;
    else
        r->pass++;
    return drift;
}

void audit_unsupported(audit_run *r, const char *name, const char *why, uint64_t t0)
{
    file_call(r, name, "NOT_SUPPORTED", 1, 1, t0);
    if (r->svc)
        r->svc->unsupported("audit", name, why);
    print_verdict(name, "UNSUPPORTED", "-", why);
    r->unsupported++;
}

void audit_fail(audit_run *r, const char *name, const char *why, uint64_t t0)
{
    file_call(r, name, "FAILED", 1, 0, t0);
    if (r->svc)
        r->svc->check(&(cb_lib_check){.library = "audit", .function = name, .outs = NULL, .nouts = 0, .note = why});
    print_verdict(name, "FAIL", "-", why);
    r->failed++;
}
