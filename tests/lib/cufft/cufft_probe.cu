// cufft_probe: the statuses cuFFT answers for bad or unusual calls, one line
// each ("<call> <status>"), to record on a real GPU and compare with cubridge's
// answers (docs/cufft.md). Not a pass/fail test.
//   nvcc cufft_probe.cu -o cufft_probe -lcufft && ./cufft_probe > cufft_probe.txt
#include <cuda_runtime.h>
#include <cufft.h>
#include <cufftXt.h>
#include <stdio.h>

#define P(call) do { cufftResult r_ = (call); printf("%-70s %d\n", #call, (int)r_); } while (0)

int main() {
    cufftHandle p = 0, q = 0;
    int n4[3] = {4, 4, 4}, n0[2] = {0, 4}, neg[2] = {4, -4}, emb3[2] = {4, 3}, emb4[2] = {4, 4};
    size_t ws = 12345;
    float2 *d;
    cudaMalloc(&d, 1 << 20);
    P(cufftPlan1d(&p, 1, CUFFT_C2C, 1));
    P(cufftDestroy(p));
    P(cufftPlan1d(&p, 0, CUFFT_C2C, 1));
    P(cufftPlan1d(&p, -3, CUFFT_C2C, 1));
    P(cufftPlan1d(&p, 16, CUFFT_C2C, 0));
    P(cufftPlan1d(&p, 16, CUFFT_C2C, -1));
    P(cufftPlan1d(&p, 16, (cufftType)0x7f, 1));
    P(cufftPlan1d(NULL, 16, CUFFT_C2C, 1));
    P(cufftPlan2d(&p, 0, 4, CUFFT_C2C));
    P(cufftPlan3d(&p, 4, 4, 0, CUFFT_R2C));
    P(cufftPlanMany(&p, 0, n4, NULL, 1, 0, NULL, 1, 0, CUFFT_C2C, 1));
    P(cufftPlanMany(&p, 4, n4, NULL, 1, 0, NULL, 1, 0, CUFFT_C2C, 1));
    P(cufftPlanMany(&p, 2, n0, NULL, 1, 0, NULL, 1, 0, CUFFT_C2C, 1));
    P(cufftPlanMany(&p, 2, neg, NULL, 1, 0, NULL, 1, 0, CUFFT_C2C, 1));
    P(cufftPlanMany(&p, 2, n4, emb3, 1, 16, emb4, 1, 16, CUFFT_C2C, 2));
    P(cufftPlanMany(&p, 2, n4, emb4, 0, 16, emb4, 1, 16, CUFFT_C2C, 2));
    P(cufftPlanMany(&p, 2, n4, emb4, 1, 0, emb4, 1, 16, CUFFT_C2C, 2));
    P(cufftPlanMany(&p, 2, n4, emb4, -1, 16, emb4, 1, 16, CUFFT_C2C, 2));
    P(cufftPlanMany(&p, 2, n4, emb4, 1, 16, NULL, 1, 16, CUFFT_C2C, 2));
    P(cufftPlanMany(&p, 1, NULL, NULL, 1, 0, NULL, 1, 0, CUFFT_C2C, 1));
    P(cufftCreate(&q));
    P(cufftMakePlan1d(q, 64, CUFFT_C2C, 1, NULL));
    P(cufftMakePlan1d(q, 64, CUFFT_R2C, 1, &ws));
    P(cufftGetSize(q, NULL));
    P(cufftExecC2C(q, d, d, CUFFT_FORWARD));
    P(cufftExecR2C(q, (float *)d, d));
    P(cufftExecC2R(q, d, (float *)d));
    P(cufftExecZ2Z(q, (cufftDoubleComplex *)d, (cufftDoubleComplex *)d, CUFFT_FORWARD));
    P(cufftExecR2C(q, NULL, d));
    P(cufftDestroy(q));
    P(cufftCreate(&q));
    P(cufftMakePlan1d(q, 64, CUFFT_C2C, 1, &ws));
    P(cufftExecC2C(q, d, d, 0));
    P(cufftExecC2C(q, d, d, 2));
    P(cufftExecC2C(q, NULL, d, CUFFT_FORWARD));
    P(cufftSetAutoAllocation(q, 0));
    P(cufftSetWorkArea(q, NULL));
    P(cufftExecC2C(q, d, d, CUFFT_FORWARD));
    P(cufftDestroy(q));
    P(cufftCreate(&q));
    P(cufftSetAutoAllocation(q, 0));
    P(cufftMakePlan1d(q, 1 << 16, CUFFT_C2C, 4, &ws));
    printf("%-70s %zu\n", "work size of 2^16 x 4 C2C", ws);
    P(cufftExecC2C(q, d, d, CUFFT_FORWARD));
    P(cufftDestroy(q));
    P(cufftCreate(&q));
    P(cufftExecC2C(q, d, d, CUFFT_FORWARD));
    P(cufftGetSize(q, &ws));
    P(cufftDestroy(q));
    P(cufftDestroy(q));
    P(cufftDestroy(123456));
    P(cufftSetStream(123456, 0));
    P(cufftEstimate1d(0, CUFFT_C2C, 1, &ws));
    P(cufftEstimate1d(16, (cufftType)1, 1, &ws));
    int v;
    P(cufftGetVersion(&v));
    printf("%-70s %d\n", "version", v);
    P(cufftGetProperty((libraryPropertyType)7, &v));
    long long nn[1] = {12};
    P(cufftCreate(&q));
    P(cufftXtMakePlanMany(q, 1, nn, NULL, 1, 12, CUDA_C_16F, NULL, 1, 12, CUDA_C_16F, 1, &ws, CUDA_C_16F));
    P(cufftXtMakePlanMany(q, 1, nn, NULL, 1, 12, CUDA_C_32F, NULL, 1, 12, CUDA_C_64F, 1, &ws, CUDA_C_32F));
    P(cufftXtMakePlanMany(q, 1, nn, NULL, 1, 12, CUDA_R_32F, NULL, 1, 12, CUDA_R_32F, 1, &ws, CUDA_C_32F));
    P(cufftDestroy(q));
    P(cufftCreate(&q));
    P(cufftSetPlanPropertyInt64(q, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT, 1));
    long long pv = -1;
    P(cufftGetPlanPropertyInt64(q, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT, &pv));
    printf("%-70s %lld\n", "patient jit", pv);
    P(cufftSetPlanPropertyInt64(q, (cufftProperty)9, 1));
    P(cufftResetPlanProperty(q, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT));
    P(cufftDestroy(q));
    cudaFree(d);
    return 0;
}
