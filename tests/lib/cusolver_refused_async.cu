/* cusolver_refused_async.cu: a library call that runs asynchronously and is
 * refused where it runs must not pass silently.
 *
 * cusolverDnSgetrf and cublasGemmEx (f16 inputs, f32 compute) are enqueued
 * on a stream without waiting, as CuPy's linalg.solve and matmul do, then
 * the program synchronises. Either the call ran -- its results are checked
 * against a host computation ("computed") -- or the refusal shows as an
 * error: the call's own status (CUSOLVER/CUBLAS_STATUS_NOT_SUPPORTED) or
 * the synchronisation's (cudaErrorNotSupported, which stays: a refused
 * call's outputs were never written). Success everywhere with wrong
 * results is the failure this program exists for. On the H200 and on
 * cubridge's CPU backend every call computes; on its OpenCL backend getrf is
 * refused by its status (the device has no LAPACK, which the facade knows
 * before it enqueues), GemmEx in f16 computes (our own mixed-precision
 * kernel, since 2026-12-04), and GemmEx in int8 with int32 compute
 * (CUBLAS_COMPUTE_32I) is refused by the synchronisation (the backend
 * refuses it on the stream's worker), each part in a fresh process (a
 * sticky error would end the other).
 *
 * Build: nvcc cusolver_refused_async.cu -o cusolver_refused_async -lcusolver -lcublas
 * REFUSED_ASYNC_ONLY=getrf, gemmex or gemmex_i8 runs one part only (default: all).
 */
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

/* Reports how a call ended; returns 1 when it ran (then its results are checked). */
static int outcome(const char *what, int status_ok, const char *status, cudaError_t sync)
{
    if (status_ok && sync == cudaSuccess)
        return 1;
    if (!status_ok || sync == cudaErrorNotSupported) {
        printf("refused %s: status %s, synchronise %s\n", what, status, cudaGetErrorName(sync));
        return 0;
    }
    printf("FAIL %s: status %s, synchronise %s (neither a result nor NOT_SUPPORTED)\n", what, status,
           cudaGetErrorName(sync));
    failures++;
    return 0;
}

static void getrf(void)
{
    const int n = 4;
    float a[16] = {4, 3, 6, 2, 1, 5, 2, 7, 3, 2, 8, 1, 2, 6, 1, 9};   /* column-major */
    float *d_a, *d_work;
    int *d_piv, *d_info, lwork = 0;
    cusolverDnHandle_t h;
    cudaStream_t s;
    cudaStreamCreate(&s);
    cusolverDnCreate(&h);
    cusolverDnSetStream(h, s);
    cudaMalloc(&d_a, sizeof a);
    cudaMalloc(&d_piv, n * sizeof(int));
    cudaMalloc(&d_info, sizeof(int));
    cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice);
    cusolverDnSgetrf_bufferSize(h, n, n, d_a, n, &lwork);
    cudaMalloc(&d_work, (lwork > 0 ? lwork : 1) * sizeof(float));
    cusolverStatus_t st = cusolverDnSgetrf(h, n, n, d_a, n, d_work, d_piv, d_info);
    cudaError_t e = cudaStreamSynchronize(s);
    char name[32];
    snprintf(name, sizeof name, "%d", (int)st);
    if (outcome("cusolverDnSgetrf", st == CUSOLVER_STATUS_SUCCESS, st == CUSOLVER_STATUS_NOT_SUPPORTED ? "NOT_SUPPORTED" : name, e)) {
        float lu[16];
        int piv[4], info = -1;
        cudaMemcpy(lu, d_a, sizeof lu, cudaMemcpyDeviceToHost);
        cudaMemcpy(piv, d_piv, sizeof piv, cudaMemcpyDeviceToHost);
        cudaMemcpy(&info, d_info, sizeof info, cudaMemcpyDeviceToHost);
        /* P A = L U: rebuild A from the factors and the row swaps */
        double m[16];
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double v = 0;
                for (int k = 0; k <= (i < j ? i : j); k++)
                    v += (k == i ? 1.0 : lu[i + k * n]) * lu[k + j * n];
                m[i + j * n] = v;
            }
        for (int k = n - 1; k >= 0; k--)
            for (int j = 0; j < n; j++) {
                double t = m[k + j * n];
                m[k + j * n] = m[piv[k] - 1 + j * n];
                m[piv[k] - 1 + j * n] = t;
            }
        double err = 0;
        for (int i = 0; i < 16; i++)
            err = fmax(err, fabs(m[i] - a[i]));
        if (info != 0 || err > 1e-4) {
            printf("FAIL cusolverDnSgetrf: info %d, |P^T L U - A| = %g\n", info, err);
            failures++;
        } else {
            printf("computed cusolverDnSgetrf\n");
        }
    }
    cusolverDnDestroy(h);
    cudaStreamDestroy(s);
}

static void gemmex(void)
{
    const int n = 8;
    __half ha[64], hb[64];
    float c[64], want[64];
    for (int i = 0; i < 64; i++) {
        ha[i] = __float2half((float)(i % 7) - 3.0f);
        hb[i] = __float2half((float)(i % 5) * 0.5f);
        c[i] = -1.0f;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double v = 0;
            for (int k = 0; k < n; k++)
                v += (double)__half2float(ha[i + k * n]) * __half2float(hb[k + j * n]);
            want[i + j * n] = (float)v;
        }
    __half *d_a, *d_b;
    float *d_c;
    cudaMalloc(&d_a, sizeof ha);
    cudaMalloc(&d_b, sizeof hb);
    cudaMalloc(&d_c, sizeof c);
    cudaMemcpy(d_a, ha, sizeof ha, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, hb, sizeof hb, cudaMemcpyHostToDevice);
    cudaMemcpy(d_c, c, sizeof c, cudaMemcpyHostToDevice);
    cublasHandle_t h;
    cudaStream_t s;
    cudaStreamCreate(&s);
    cublasCreate(&h);
    cublasSetStream(h, s);
    float alpha = 1, beta = 0;
    cublasStatus_t st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, d_a, CUDA_R_16F, n, d_b, CUDA_R_16F,
                                     n, &beta, d_c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    cudaError_t e = cudaStreamSynchronize(s);
    if (outcome("cublasGemmEx", st == CUBLAS_STATUS_SUCCESS, cublasGetStatusName(st), e)) {
        cudaMemcpy(c, d_c, sizeof c, cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int i = 0; i < 64; i++)
            bad += c[i] != want[i];   /* small integers and halves: exact in f32 */
        if (bad) {
            printf("FAIL cublasGemmEx: %d of 64 results differ (C[0] %g, want %g)\n", bad, c[0], want[0]);
            failures++;
        } else {
            printf("computed cublasGemmEx\n");
        }
    }
    cublasDestroy(h);
    cudaStreamDestroy(s);
}

/* int8 inputs, int32 results and compute (CUBLAS_COMPUTE_32I, int32 alpha and beta), op(A) = A^T as
 * the integer path has long asked for, dimensions multiples of 4 */
static void gemmex_i8(void)
{
    const int n = 8;
    signed char ha[64], hb[64];
    int c[64], want[64];
    for (int i = 0; i < 64; i++) {
        ha[i] = (signed char)((i * 37) % 255 - 127);
        hb[i] = (signed char)((i * 11) % 200 - 100);
        c[i] = 7;
    }
    const int alpha = 2, beta = -1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int v = 0;
            for (int k = 0; k < n; k++)
                v += ha[k + i * n] * hb[k + j * n];   /* op(A) = A^T */
            want[i + j * n] = alpha * v + beta * c[i + j * n];
        }
    signed char *d_a, *d_b;
    int *d_c;
    cudaMalloc(&d_a, sizeof ha);
    cudaMalloc(&d_b, sizeof hb);
    cudaMalloc(&d_c, sizeof c);
    cudaMemcpy(d_a, ha, sizeof ha, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, hb, sizeof hb, cudaMemcpyHostToDevice);
    cudaMemcpy(d_c, c, sizeof c, cudaMemcpyHostToDevice);
    cublasHandle_t h;
    cudaStream_t s;
    cudaStreamCreate(&s);
    cublasCreate(&h);
    cublasSetStream(h, s);
    cublasStatus_t st = cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &alpha, d_a, CUDA_R_8I, n, d_b, CUDA_R_8I,
                                     n, &beta, d_c, CUDA_R_32I, n, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
    cudaError_t e = cudaStreamSynchronize(s);
    if (outcome("cublasGemmEx (int8)", st == CUBLAS_STATUS_SUCCESS, cublasGetStatusName(st), e)) {
        cudaMemcpy(c, d_c, sizeof c, cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int i = 0; i < 64; i++)
            bad += c[i] != want[i];
        if (bad) {
            printf("FAIL cublasGemmEx (int8): %d of 64 results differ (C[0] %d, want %d)\n", bad, c[0], want[0]);
            failures++;
        } else {
            printf("computed cublasGemmEx (int8)\n");
        }
    }
    cublasDestroy(h);
    cudaStreamDestroy(s);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
}

int main(void)
{
    const char *which = getenv("REFUSED_ASYNC_ONLY") ? getenv("REFUSED_ASYNC_ONLY") : "";
    if (!*which || !strcmp(which, "getrf"))
        getrf();
    if (!*which || !strcmp(which, "gemmex"))
        gemmex();
    if (!*which || !strcmp(which, "gemmex_i8"))
        gemmex_i8();
    if (failures)
        return 1;
    printf("PASS cusolver_refused_async\n");
    return 0;
}
