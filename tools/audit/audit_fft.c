/* audit_fft.c: the fft preset, through cuFFT (cufftXtMakePlanMany +
 * cufftXtExec, data and execution of the precision):
 *   fft.c2c-fwd.P      batch x n complex, forward, n = --seq (256; fp16/bf16:
 *                      rounded down to a power of two, all cuFFT takes there)
 *   fft.c2c-inv.P      inverse (unnormalised); fp32: n = 1009, a prime
 *                      (Bluestein); fp16/bf16: n (cuFFT takes powers of two)
 *   fft.r2c.P          real to complex (n/2 + 1 outputs)
 * Reference: the DFT's definition in double over the rounded inputs;
 * tolerance x sqrt(n) log2(n) (each output sums n terms through log2(n)
 * stages). */
#include "audit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cufftXt.h>

static cudaDataType complex_type(audit_precision p)
{
    return p == AUDIT_FP16 ? CUDA_C_16F : p == AUDIT_BF16 ? CUDA_C_16BF : CUDA_C_32F;
}

static cudaDataType real_type(audit_precision p)
{
    return p == AUDIT_FP16 ? CUDA_R_16F : p == AUDIT_BF16 ? CUDA_R_16BF : CUDA_R_32F;
}

static const char *fft_result_name(cufftResult st)
{
    static const char *const names[] = {"CUFFT_SUCCESS", "CUFFT_INVALID_PLAN", "CUFFT_ALLOC_FAILED",
                                        "CUFFT_INVALID_TYPE", "CUFFT_INVALID_VALUE", "CUFFT_INTERNAL_ERROR",
                                        "CUFFT_EXEC_FAILED", "CUFFT_SETUP_FAILED", "CUFFT_INVALID_SIZE",
                                        "CUFFT_UNALIGNED_DATA", "10", "CUFFT_INVALID_DEVICE", "12",
                                        "CUFFT_NO_WORKSPACE", "CUFFT_NOT_IMPLEMENTED", "15", "CUFFT_NOT_SUPPORTED",
                                        "CUFFT_MISSING_DEPENDENCY", "CUFFT_NVRTC_FAILURE"};
    return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "?";
}

static void fft_status(audit_run *r, const char *name, const char *call, cufftResult st, uint64_t t0)
{
    char why[120];
    snprintf(why, sizeof why, "%s: %s (%d)", call, fft_result_name(st), (int)st);
    if (st == CUFFT_NOT_SUPPORTED)
        audit_unsupported(r, name, why, t0);
    else
        audit_fail(r, name, why, t0);
}

/* kind: 0 forward C2C, 1 inverse C2C, 2 R2C. */
static void fft_case(audit_run *r, const char *label, int kind, long long n)
{
    const audit_precision p = r->prec;
    const long long batch = r->batch ? r->batch : 2, nout = kind == 2 ? n / 2 + 1 : n;
    const size_t in_vals = (size_t)(batch * n * (kind == 2 ? 1 : 2)), out_vals = (size_t)(batch * nout * 2);
    const size_t w = audit_elem_bytes(p);
    char name[64], note[160];
    snprintf(name, sizeof name, "fft.%s.%s", label, audit_precision_name(p));
    snprintf(note, sizeof note, "batch %lld, n %lld, %s", batch, n,
             kind == 0 ? "C2C forward" : kind == 1 ? "C2C inverse" : "R2C");
    uint64_t t0 = audit_now(r);
    void *hin = malloc(in_vals * w), *got = malloc(out_vals * w), *ref = malloc(out_vals * w);
    double *vin = malloc(in_vals * sizeof(double));
    CUdeviceptr din = 0, dout = 0;
    cufftHandle plan = 0;
    int have_plan = 0;
    if (!hin || !got || !ref || !vin) {
        audit_fail(r, name, "out of host memory", t0);
        goto out;
    }
    audit_fill(p, hin, vin, in_vals, 41 + (uint32_t)kind);
    din = audit_upload(hin, in_vals * w);
    dout = audit_upload(NULL, out_vals * w);
    if (!din || !dout) {
        audit_fail(r, name, "device memory (cuMemAlloc/cuMemcpyHtoD)", t0);
        goto out;
    }
    cufftResult st = cufftCreate(&plan);
    if (st != CUFFT_SUCCESS) {
        fft_status(r, name, "cufftCreate", st, t0);
        goto out;
    }
    have_plan = 1;
    size_t work = 0;
    long long dims[1] = {n};
    st = cufftXtMakePlanMany(plan, 1, dims, NULL, 1, n, kind == 2 ? real_type(p) : complex_type(p), NULL, 1, nout,
                             complex_type(p), batch, &work, complex_type(p));
    if (st != CUFFT_SUCCESS) {
        fft_status(r, name, "cufftXtMakePlanMany", st, t0);
        goto out;
    }
    st = cufftXtExec(plan, (void *)(uintptr_t)din, (void *)(uintptr_t)dout, kind == 1 ? CUFFT_INVERSE : CUFFT_FORWARD);
    if (st != CUFFT_SUCCESS) {
        fft_status(r, name, "cufftXtExec", st, t0);
        goto out;
    }
    if (audit_download(got, dout, out_vals * w) != 0) {
        audit_fail(r, name, "cuMemcpyDtoH after cufftXtExec", t0);
        goto out;
    }
    const double sign = kind == 1 ? 1.0 : -1.0, two_pi = 6.283185307179586476925286766559;
    for (long long b = 0; b < batch; b++)
        for (long long k = 0; k < nout; k++) {
            double re = 0, im = 0;
            for (long long j = 0; j < n; j++) {
                double a = two_pi * (double)((j * k) % n) / (double)n, c = cos(a), s = sign * sin(a);
                double xr = kind == 2 ? vin[b * n + j] : vin[2 * (b * n + j)];
                double xi = kind == 2 ? 0.0 : vin[2 * (b * n + j) + 1];
                re += xr * c - xi * s;
                im += xr * s + xi * c;
            }
            audit_store(p, ref, (size_t)(2 * (b * nout + k)), re);
            audit_store(p, ref, (size_t)(2 * (b * nout + k) + 1), im);
        }
    audit_check(r, name, got, ref, out_vals, p, sqrt((double)n) * log2((double)n), note, t0);
out:
    if (have_plan)
        cufftDestroy(plan);
    audit_free(din), audit_free(dout);
    free(hin), free(got), free(ref), free(vin);
}

int audit_fft(audit_run *r)
{
    long long n = r->seq ? r->seq : 256;
    if (r->prec != AUDIT_FP32)   /* cuFFT's half and bf16 transforms take powers of two only */
        while (n & (n - 1))
            n &= n - 1;
    fft_case(r, "c2c-fwd", 0, n);
    fft_case(r, "c2c-inv", 1, r->prec == AUDIT_FP32 ? 1009 : n);
    fft_case(r, "r2c", 2, n);
    return 0;
}
