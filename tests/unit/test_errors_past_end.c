/* test_errors_past_end.c: what a kernel gets one element past (or before) a
 * cuMemAlloc'ed buffer, through the driver API (docs/reliability.md,
 * docs/memory.md: each allocation ends at a guard page, its end rounded up
 * to 256 bytes).
 *   4096-byte buffer (a page multiple): reading or writing element 1024, or
 *     writing element -1, fails the launch with CUDA_ERROR_ILLEGAL_ADDRESS
 *     (sticky); elements 0 and 1023 are fine.
 *   1000-byte buffer: element 250 lies in the slack up to 1024 bytes, so a
 *     write there goes unnoticed (as on a GPU); element 256 (byte 1024)
 *     faults.
 * Each case runs in a fresh context. */
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;
#define EXPECT(call, want)                                                                                  \
    do {                                                                                                    \
        CUresult got_ = (call);                                                                             \
        if (got_ != (want)) {                                                                               \
            fprintf(stderr, "%s:%d: %s returned %d, want %s\n", __FILE__, __LINE__, #call, (int)got_, #want); \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)

/* peek(int *out, const int *p, long i): *out = p[i].  poke(int *p, long i): p[i] = 42. */
static const char ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry peek(.param .u64 a0, .param .u64 a1, .param .u64 a2)\n{\n"
    ".reg .b32 %r<2>;\n.reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [a0];\nld.param.u64 %rd2, [a1];\nld.param.u64 %rd3, [a2];\n"
    "shl.b64 %rd4, %rd3, 2;\nadd.s64 %rd5, %rd2, %rd4;\nld.global.u32 %r1, [%rd5];\n"
    "st.global.u32 [%rd1], %r1;\nret;\n}\n"
    ".visible .entry poke(.param .u64 b0, .param .u64 b1)\n{\n"
    ".reg .b32 %r<2>;\n.reg .b64 %rd<5>;\n"
    "ld.param.u64 %rd1, [b0];\nld.param.u64 %rd2, [b1];\n"
    "shl.b64 %rd3, %rd2, 2;\nadd.s64 %rd4, %rd1, %rd3;\nmov.u32 %r1, 42;\nst.global.u32 [%rd4], %r1;\nret;\n}\n";

/* In a new context: allocates bytes, launches peek or poke at element i,
 * and returns what the synchronize says (the context is destroyed after). */
static CUresult access_at(size_t bytes, int write, long long i)
{
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    cuDeviceGet(&dev, 0);
    if (cuCtxCreate_v2(&ctx, 0, dev) != CUDA_SUCCESS || cuModuleLoadData(&mod, ptx) != CUDA_SUCCESS ||
        cuModuleGetFunction(&f, mod, write ? "poke" : "peek") != CUDA_SUCCESS) {
        fprintf(stderr, "setup failed\n");
        failures++;
        return CUDA_ERROR_UNKNOWN;
    }
    CUdeviceptr buf, out;
    cuMemAlloc_v2(&buf, bytes);
    cuMemAlloc_v2(&out, sizeof(int));
    cuMemsetD8_v2(buf, 0, bytes);
    void *peek_args[] = {&out, &buf, &i};
    void *poke_args[] = {&buf, &i};
    CUresult r = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, write ? poke_args : peek_args, NULL);
    if (r == CUDA_SUCCESS)
        r = cuCtxSynchronize();
    if (r == CUDA_SUCCESS && write && i >= 0 && (size_t)(i + 1) * 4 <= bytes) {
        int v = 0;
        cuMemcpyDtoH_v2(&v, buf + (CUdeviceptr)i * 4, sizeof v);
        if (v != 42) {
            fprintf(stderr, "element %lld: %d, want 42\n", i, v);
            failures++;
        }
    }
    cuCtxDestroy_v2(ctx);
    return r;
}

int main(void)
{
    setenv("CUBRIDGE_LOG", "0", 0); /* the faults are expected */
    EXPECT(cuInit(0), CUDA_SUCCESS);
    /* 4096 bytes: both ends touch a guard page. */
    EXPECT(access_at(4096, 0, 0), CUDA_SUCCESS);
    EXPECT(access_at(4096, 0, 1023), CUDA_SUCCESS);
    EXPECT(access_at(4096, 1, 1023), CUDA_SUCCESS);
    EXPECT(access_at(4096, 0, 1024), CUDA_ERROR_ILLEGAL_ADDRESS);
    EXPECT(access_at(4096, 1, 1024), CUDA_ERROR_ILLEGAL_ADDRESS);
    EXPECT(access_at(4096, 1, -1), CUDA_ERROR_ILLEGAL_ADDRESS);
    /* 1000 bytes: rounded up to 1024 before the guard. */
    EXPECT(access_at(1000, 1, 249), CUDA_SUCCESS);
    EXPECT(access_at(1000, 1, 250), CUDA_SUCCESS);
    EXPECT(access_at(1000, 1, 256), CUDA_ERROR_ILLEGAL_ADDRESS);
    if (failures)
        return 1;
    printf("ok\n");
    return 0;
}
