/* h200_extra_size_probe.c: which CU_LAUNCH_PARAM_BUFFER_SIZE values the real
 * driver accepts for a kernel with 12 bytes of parameters. Results on an
 * H200: docs/reliability.md. Build as h200_error_probe.c. */
#include <cuda.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#define P(call) do { CUresult r_ = (call); const char *n_ = "?"; cuGetErrorName(r_, &n_); printf("%-70s -> %s\n", #call, n_); } while (0)
static const char good_ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry add_one(.param .u64 p0, .param .u32 p1)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<5>;\n"
    "ld.param.u64 %rd1, [p0];\nld.param.u32 %r2, [p1];\n"
    "mov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmov.u32 %r5, %tid.x;\nmad.lo.s32 %r1, %r3, %r4, %r5;\n"
    "setp.ge.s32 %p1, %r1, %r2;\n@%p1 bra $L__BB0_2;\n"
    "cvta.to.global.u64 %rd2, %rd1;\nmul.wide.s32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
    "ld.global.u32 %r6, [%rd4];\nadd.s32 %r7, %r6, 1;\nst.global.u32 [%rd4], %r7;\n"
    "$L__BB0_2:\nret;\n}\n";
int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  CUdevice dev; CUcontext ctx; CUmodule m; CUfunction f; CUdeviceptr d;
  cuInit(0); cuDeviceGet(&dev, 0); cuCtxCreate(&ctx, NULL, 0, dev);
  P(cuModuleLoadData(&m, good_ptx)); P(cuModuleGetFunction(&f, m, "add_one"));
  P(cuMemAlloc(&d, 4096 * 4)); P(cuMemsetD32(d, 0, 4096));
  size_t sizes[] = {0, 4, 8, 11, 12, 13, 16, 24, 4096, 32764, 32768, 40000};
  for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    size_t sz = sizes[i];
    char *buf = calloc(1, 65536);
    int n = 64; memcpy(buf, &d, 8); memcpy(buf + 8, &n, 4);
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &sz, CU_LAUNCH_PARAM_END};
    CUresult r = cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra);
    const char *nm; cuGetErrorName(r, &nm);
    CUresult s = cuCtxSynchronize(); const char *sn; cuGetErrorName(s, &sn);
    printf("extra size %zu -> %s, sync %s\n", sz, nm, sn);
    free(buf);
  }
  int h[4]; P(cuMemcpyDtoH(h, d, sizeof h)); printf("h0=%d\n", h[0]);
  size_t off, psz; P(cuFuncGetParamInfo(f, 1, &off, &psz)); printf("param1 off %zu size %zu\n", off, psz);
  return 0;
}
