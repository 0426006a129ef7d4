/* many_launches.c: a driver-API program for the report and fault tests
 * (run_inspect_test.sh cases report-*, tests/cli): N launches spread over
 * three C++ kernels (mangled names, one a template in a namespace), then,
 * with --fault, one launch that writes 4 bytes past the end of a 1024-byte
 * allocation (the arena's guard page: a fault on the CPU backend).
 *
 *   many_launches N [--fault] [--no-check]
 *
 * Checks the buffer against the same arithmetic on the host (unless
 * --no-check: under a planted fault the results are wrong on purpose), and
 * with --fault that the synchronisation returns CUDA_ERROR_ILLEGAL_ADDRESS.
 * Prints "many_launches: ok" and exits 0 when all of that holds. Linked
 * against cubridge's libcuda.so.1 (it is not a tests/cuda program: the
 * fault relies on cubridge's guard pages, which a GPU does not have). */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    /* scale(float*, int, float): p[i] *= f */
    ".visible .entry _Z5scalePfif(.param .u64 a0, .param .u32 a1, .param .f32 a2)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<5>;\n"
    "\tld.param.u64 %rd1, [a0];\n\tld.param.u32 %r1, [a1];\n\tld.param.f32 %f1, [a2];\n"
    "\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n\tmov.u32 %r4, %tid.x;\n\tmad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "\tsetp.ge.s32 %p1, %r5, %r1;\n\t@%p1 bra $L__BB0_2;\n\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmul.wide.s32 %rd3, %r5, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n\tld.global.f32 %f2, [%rd4];\n"
    "\tmul.rn.f32 %f3, %f2, %f1;\n\tst.global.f32 [%rd4], %f3;\n$L__BB0_2:\n\tret;\n}\n"
    /* offset(float*, int, float): p[i] += f */
    ".visible .entry _Z6offsetPfif(.param .u64 a0, .param .u32 a1, .param .f32 a2)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<5>;\n"
    "\tld.param.u64 %rd1, [a0];\n\tld.param.u32 %r1, [a1];\n\tld.param.f32 %f1, [a2];\n"
    "\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n\tmov.u32 %r4, %tid.x;\n\tmad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "\tsetp.ge.s32 %p1, %r5, %r1;\n\t@%p1 bra $L__BB1_2;\n\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmul.wide.s32 %rd3, %r5, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n\tld.global.f32 %f2, [%rd4];\n"
    "\tadd.rn.f32 %f3, %f2, %f1;\n\tst.global.f32 [%rd4], %f3;\n$L__BB1_2:\n\tret;\n}\n"
    /* void detail::fill<int>(int*, int, int): p[i] = v */
    ".visible .entry _ZN6detail4fillIiEEvPT_ii(.param .u64 a0, .param .u32 a1, .param .u32 a2)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<7>;\n\t.reg .b64 %rd<5>;\n"
    "\tld.param.u64 %rd1, [a0];\n\tld.param.u32 %r1, [a1];\n\tld.param.u32 %r6, [a2];\n"
    "\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n\tmov.u32 %r4, %tid.x;\n\tmad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "\tsetp.ge.s32 %p1, %r5, %r1;\n\t@%p1 bra $L__BB2_2;\n\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmul.wide.s32 %rd3, %r5, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n\tst.global.u32 [%rd4], %r6;\n$L__BB2_2:\n\tret;\n}\n"
    /* oob_write(float*, long): p[off] = 1 */
    ".visible .entry _Z9oob_writePfl(.param .u64 a0, .param .u64 a1)\n{\n"
    "\t.reg .f32 %f<2>;\n\t.reg .b64 %rd<6>;\n"
    "\tld.param.u64 %rd1, [a0];\n\tld.param.u64 %rd2, [a1];\n\tcvta.to.global.u64 %rd3, %rd1;\n"
    "\tshl.b64 %rd4, %rd2, 2;\n\tadd.s64 %rd5, %rd3, %rd4;\n\tmov.f32 %f1, 0f3F800000;\n"
    "\tst.global.f32 [%rd5], %f1;\n\tret;\n}\n";

#define CK(call)                                                                                                   \
    do {                                                                                                           \
        CUresult r_ = (call);                                                                                      \
        if (r_ != CUDA_SUCCESS) {                                                                                  \
            const char *n_ = NULL;                                                                                 \
            cuGetErrorName(r_, &n_);                                                                               \
            printf("many_launches: FAIL %s: %s\n", #call, n_ ? n_ : "?");                                          \
            return 1;                                                                                              \
        }                                                                                                          \
    } while (0)

enum { N = 1024 };

int main(int argc, char **argv)
{
    long launches = argc > 1 ? strtol(argv[1], NULL, 10) : 10;
    int fault = 0, check = 1;
    for (int i = 2; i < argc; i++) {
        fault |= strcmp(argv[i], "--fault") == 0;
        check &= strcmp(argv[i], "--no-check") != 0;
    }
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn[4];
    static const char *const names[4] = {"_Z5scalePfif", "_Z6offsetPfif", "_ZN6detail4fillIiEEvPT_ii", "_Z9oob_writePfl"};
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CK(cuModuleLoadData(&mod, ptx));
    for (int i = 0; i < 4; i++)
        CK(cuModuleGetFunction(&fn[i], mod, names[i]));
    CUdeviceptr d, di, small;
    CK(cuMemAlloc(&d, N * sizeof(float)));
    CK(cuMemAlloc(&di, N * sizeof(int)));
    static float host[N], back[N];
    static int ihost[N];
    for (int i = 0; i < N; i++)
        host[i] = (float)i;
    CK(cuMemcpyHtoD(d, host, sizeof host));
    int n = N, v = 0;
    for (long k = 0; k < launches; k++) {
        float f = k % 3 == 0 ? 0.5f : 1.0f;
        v = (int)k + 1;   /* fill: a new value each time (an unchanged buffer is not compared) */
        void *args[3] = {k % 3 == 2 ? (void *)&di : (void *)&d, &n, k % 3 == 2 ? (void *)&v : (void *)&f};
        CK(cuLaunchKernel(fn[k % 3], N / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
        for (int i = 0; i < N && k % 3 != 2; i++)
            host[i] = k % 3 == 0 ? host[i] * f : host[i] + f;
    }
    CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(back, d, sizeof back));
    CK(cuMemcpyDtoH(ihost, di, sizeof ihost));
    for (int i = 0; i < N && check; i++) {
        if (back[i] != host[i]) {
            printf("many_launches: FAIL element %d: got %.9g, expected %.9g\n", i, back[i], host[i]);
            return 1;
        }
    }
    if (fault) {
        CK(cuMemAlloc(&small, 1024));
        long off = 257;   /* floats: byte 1028, 4 bytes after the end */
        void *args[2] = {&small, &off};
        CK(cuLaunchKernel(fn[3], 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
        CUresult r = cuCtxSynchronize();
        if (r != CUDA_ERROR_ILLEGAL_ADDRESS) {
            printf("many_launches: FAIL the out-of-bounds write gave %d, not CUDA_ERROR_ILLEGAL_ADDRESS\n", (int)r);
            return 1;
        }
        printf("fault: CUDA_ERROR_ILLEGAL_ADDRESS\n");
        printf("many_launches: ok\n");
        return 0;   /* the context is unusable now */
    }
    cuMemFree(d);
    cuMemFree(di);
    cuDevicePrimaryCtxRelease(dev);
    printf("many_launches: ok\n");
    return 0;
}
