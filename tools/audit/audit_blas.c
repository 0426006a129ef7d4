/* audit_blas.c: the gemm preset, through cuBLAS (cublasGemmStridedBatchedEx,
 * compute type 32F, A/B/C of the precision):
 *   gemm.nn.P       C = A B                     batch x (seq x seq), k = 64
 *   gemm.tn-ab.P    C = 0.5 A^T B + 0.25 C      (transposed A, alpha, beta)
 * Reference: column-major loops in double over the rounded inputs, rounded
 * once to C's type. Tolerance x sqrt(k). */
#include "audit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cublas_v2.h>

static cudaDataType blas_type(audit_precision p)
{
    return p == AUDIT_FP16 ? CUDA_R_16F : p == AUDIT_BF16 ? CUDA_R_16BF : CUDA_R_32F;
}

static void gemm_case(audit_run *r, cublasHandle_t h, int trans_a, double alpha, double beta)
{
    const audit_precision p = r->prec;
    const int batch = r->batch ? r->batch : 2, m = r->seq ? r->seq : 64, n = m, k = 64;
    char name[64], note[160];
    snprintf(name, sizeof name, "gemm.%s.%s", trans_a ? "tn-ab" : "nn", audit_precision_name(p));
    snprintf(note, sizeof note, "batch %d, m %d n %d k %d, alpha %g beta %g", batch, m, n, k, alpha, beta);
    uint64_t t0 = audit_now(r);
    size_t w = audit_elem_bytes(p), na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    const int lda = trans_a ? k : m;   /* A is m x k, stored k x m when transposed */
    void *ha = malloc(na * batch * w), *hb = malloc(nb * batch * w), *hc = malloc(nc * batch * w),
         *got = malloc(nc * batch * w), *ref = malloc(nc * batch * w);
    double *va = malloc(na * batch * sizeof(double)), *vb = malloc(nb * batch * sizeof(double)),
           *vc = malloc(nc * batch * sizeof(double));
    CUdeviceptr da = 0, db = 0, dc = 0;
    if (!ha || !hb || !hc || !got || !ref || !va || !vb || !vc) {
        audit_fail(r, name, "out of host memory", t0);
        goto out;
    }
    audit_fill(p, ha, va, na * batch, 1);
    audit_fill(p, hb, vb, nb * batch, 2);
    audit_fill(p, hc, vc, nc * batch, 3);
    da = audit_upload(ha, na * batch * w);
    db = audit_upload(hb, nb * batch * w);
    dc = audit_upload(hc, nc * batch * w);
    if (!da || !db || !dc) {
        audit_fail(r, name, "device memory (cuMemAlloc/cuMemcpyHtoD)", t0);
        goto out;
    }
    float fa = (float)alpha, fb = (float)beta;
    cublasStatus_t st = cublasGemmStridedBatchedEx(
        h, trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &fa, (const void *)(uintptr_t)da, blas_type(p),
        lda, (long long)na, (const void *)(uintptr_t)db, blas_type(p), k, (long long)nb, &fb, (void *)(uintptr_t)dc,
        blas_type(p), m, (long long)nc, batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (st == CUBLAS_STATUS_NOT_SUPPORTED) {
        audit_unsupported(r, name, "cublasGemmStridedBatchedEx: CUBLAS_STATUS_NOT_SUPPORTED", t0);
        goto out;
    }
    if (st != CUBLAS_STATUS_SUCCESS) {
        char why[96];
        snprintf(why, sizeof why, "cublasGemmStridedBatchedEx: status %d", (int)st);
        audit_fail(r, name, why, t0);
        goto out;
    }
    if (audit_download(got, dc, nc * batch * w) != 0) {
        audit_fail(r, name, "cuMemcpyDtoH after the call", t0);
        goto out;
    }
    for (int b = 0; b < batch; b++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                double acc = 0;
                for (int l = 0; l < k; l++) {
                    double a = trans_a ? va[b * na + (size_t)i * lda + l] : va[b * na + (size_t)l * lda + i];
                    acc += a * vb[b * nb + (size_t)j * k + l];
                }
                size_t e = b * nc + (size_t)j * m + i;
                audit_store(p, ref, e, alpha * acc + beta * vc[e]);
            }
    audit_check(r, name, got, ref, nc * batch, p, sqrt((double)k), note, t0);
out:
    audit_free(da), audit_free(db), audit_free(dc);
    free(ha), free(hb), free(hc), free(got), free(ref), free(va), free(vb), free(vc);
}

int audit_gemm(audit_run *r)
{
    cublasHandle_t h = NULL;
    uint64_t t0 = audit_now(r);
    cublasStatus_t st = cublasCreate(&h);
    if (st != CUBLAS_STATUS_SUCCESS) {
        char why[64];
        snprintf(why, sizeof why, "cublasCreate: status %d", (int)st);
        audit_fail(r, "gemm.handle", why, t0);
        return -1;
    }
    gemm_case(r, h, 0, 1.0, 0.0);
    gemm_case(r, h, 1, 0.5, 0.25);
    cublasDestroy(h);
    return 0;
}
