/* h200_past_end_probe.c: what the real driver returns for the accesses of
 * tests/unit/test_errors_past_end.c (one element past or before a 4096- and
 * a 1000-byte cuMemAlloc buffer), each in a fresh context. Build as
 * h200_error_probe.c: gcc -I/usr/local/cuda/include h200_past_end_probe.c
 * -o past_end_probe -L/usr/local/cuda/lib64/stubs -lcuda; run it without
 * arguments. Results: docs/reliability.md. */
#include <cuda.h>
#include <stdio.h>
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
static void one(size_t bytes, int write, long long i)
{
    CUdevice dev; CUcontext ctx; CUmodule m; CUfunction f; CUdeviceptr buf, out;
    cuDeviceGet(&dev, 0);
    cuCtxCreate(&ctx, NULL, 0, dev);
    cuModuleLoadData(&m, ptx);
    cuModuleGetFunction(&f, m, write ? "poke" : "peek");
    cuMemAlloc(&buf, bytes); cuMemAlloc(&out, 4); cuMemsetD8(buf, 0, bytes);
    void *pa[] = {&out, &buf, &i}, *wa[] = {&buf, &i};
    CUresult r = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, write ? wa : pa, NULL);
    if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
    const char *n = "?"; cuGetErrorName(r, &n);
    printf("%4zu-byte buffer, %s element %5lld -> %s\n", bytes, write ? "write" : "read ", i, n);
    cuCtxDestroy(ctx);
}
int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  cuInit(0);
  one(4096, 0, 0); one(4096, 0, 1023); one(4096, 1, 1023); one(4096, 0, 1024); one(4096, 1, 1024); one(4096, 1, -1);
  one(1000, 1, 249); one(1000, 1, 250); one(1000, 1, 256);
  return 0;
}
