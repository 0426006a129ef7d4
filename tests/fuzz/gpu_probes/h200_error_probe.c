/* h200_error_probe.c: prints the CUresult of each bad input of
 * tests/unit/test_errors_driver.c on a real driver. Build against the real
 * libcuda: gcc -I/usr/local/cuda/include h200_error_probe.c -o probe
 * -L/usr/local/cuda/lib64/stubs -lcuda; run ./probe SECTION for each of main
 * ctx1..ctx4 st1..st3 ev1..ev4 mod1..mod4 (each its own process: the
 * destroyed-handle sections crash the real driver). Results on an H200
 * with CUDA 13.0: docs/reliability.md. */
#include <cuda.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
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
static const char bad_ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry broken()\n{\n"
    ".reg .b32 %r<2>;\n"
    "add.u32 %r1, ;\n"
    "ret;\n}\n";

static CUdevice dev; static CUcontext ctx, cur; static CUdeviceptr d; static CUstream s; static CUevent e, a, b;
static CUmodule m; static CUfunction f; static int n; static size_t bytes; static CUdeviceptr g; static float ms;
static void setup(void) { cuInit(0); cuDeviceGet(&dev, 0); cuCtxCreate(&ctx, NULL, 0, dev); }
int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  const char *sec = argc > 1 ? argv[1] : "main";
  setup();
  if (!strcmp(sec, "ctx1")) { P(cuCtxDestroy(ctx)); P(cuCtxPushCurrent(ctx)); return 0; }
  if (!strcmp(sec, "ctx2")) { P(cuCtxDestroy(ctx)); P(cuCtxSetCurrent(ctx)); return 0; }
  if (!strcmp(sec, "ctx3")) { P(cuCtxDestroy(ctx)); P(cuCtxDestroy(ctx)); return 0; }
  if (!strcmp(sec, "ctx4")) { P(cuCtxDestroy(NULL)); return 0; }
  if (!strcmp(sec, "st1")) { P(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)); P(cuStreamDestroy(s)); P(cuStreamQuery(s)); return 0; }
  if (!strcmp(sec, "st2")) { P(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)); P(cuStreamDestroy(s)); P(cuStreamSynchronize(s)); return 0; }
  if (!strcmp(sec, "st3")) { P(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)); P(cuStreamDestroy(s)); P(cuStreamDestroy(s)); return 0; }
  if (!strcmp(sec, "ev1")) { P(cuEventCreate(&e, 0)); P(cuEventDestroy(e)); P(cuEventQuery(e)); return 0; }
  if (!strcmp(sec, "ev2")) { P(cuEventCreate(&e, 0)); P(cuEventDestroy(e)); P(cuEventRecord(e, NULL)); return 0; }
  if (!strcmp(sec, "ev3")) { P(cuEventCreate(&e, 0)); P(cuEventDestroy(e)); P(cuEventDestroy(e)); return 0; }
  if (!strcmp(sec, "ev4")) { P(cuEventRecord(NULL, NULL)); P(cuEventQuery(NULL)); P(cuEventCreate(&a, 0)); P(cuEventCreate(&b, 0)); P(cuEventElapsedTime(&ms, a, b)); P(cuStreamCreate(NULL, 0)); return 0; }
  if (!strcmp(sec, "mod1")) { P(cuModuleLoadData(&m, good_ptx)); P(cuModuleGetFunction(&f, m, "add_one")); P(cuModuleUnload(m)); P(cuModuleGetFunction(&f, m, "add_one")); return 0; }
  if (!strcmp(sec, "mod2")) { P(cuModuleLoadData(&m, good_ptx)); P(cuModuleGetFunction(&f, m, "add_one")); P(cuModuleUnload(m)); P(cuModuleUnload(m)); return 0; }
  if (!strcmp(sec, "mod3")) { P(cuModuleLoadData(&m, good_ptx)); P(cuModuleGetFunction(&f, m, "add_one")); P(cuModuleUnload(m)); P(cuMemAlloc(&d, 16)); n = 4; void *args[] = {&d, &n}; P(cuLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, NULL, args, NULL)); P(cuCtxSynchronize()); return 0; }
  if (!strcmp(sec, "mod4")) { P(cuModuleGetFunction(&f, NULL, "add_one")); n = 4; void *args[] = {&d, &n}; P(cuLaunchKernel(NULL, 1, 1, 1, 4, 1, 1, 0, NULL, args, NULL)); return 0; }
  {
  P(cuModuleLoadData(&m, good_ptx));
  P(cuModuleGetFunction(&f, m, "no_such_kernel"));
  P(cuModuleGetGlobal(&g, &bytes, m, "no_such_global"));
  P(cuMemAlloc(&d, 0));
  P(cuMemAlloc(NULL, 16));
  P(cuMemAlloc(&d, 256));
  P(cuMemFree(d));
  char host[256] = {0};
  P(cuMemcpyHtoD(d, host, sizeof host));
  P(cuMemcpyDtoH(host, d, sizeof host));
  P(cuMemsetD8(d, 0, sizeof host));
  P(cuMemFree(d));
  P(cuMemAlloc(&d, 64));
  P(cuMemcpyHtoD(d, host, sizeof host));
  P(cuMemcpyHtoD(d + 32, host, 64));
  P(cuMemFree(d + 8));
  P(cuMemFree(d));
  size_t fb, tb; P(cuMemGetInfo(&fb, &tb));
  P(cuMemAlloc(&d, tb + ((size_t)1 << 30)));
  P(cuMemAlloc(&d, (size_t)-1 / 2));
  P(cuMemAlloc(&d, 1 << 20));
  P(cuMemFree(d));
  P(cuCtxSynchronize());
  P(cuModuleLoadData(&m, good_ptx));
  P(cuModuleGetFunction(&f, m, "add_one"));
  P(cuMemAlloc(&d, 4096 * 4));
  n = 4096; void *args[] = {&d, &n};
  P(cuLaunchKernel(f, 1, 1, 1, 1025, 1, 1, 0, NULL, args, NULL));
  P(cuLaunchKernel(f, 1, 1, 1, 32, 32, 2, 0, NULL, args, NULL));
  P(cuLaunchKernel(f, 1, 1, 1, 1, 1, 65, 0, NULL, args, NULL));
  P(cuLaunchKernel(f, 0, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
  P(cuLaunchKernel(f, 1, 1, 1, 0, 1, 1, 0, NULL, args, NULL));
  P(cuLaunchKernel(f, 1, 0, 1, 32, 1, 1, 0, NULL, args, NULL));
  P(cuLaunchKernel(f, 1, 65536, 1, 32, 1, 1, 0, NULL, args, NULL));
  int optin = 0; P(cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev));
  P(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, (unsigned)optin + 1, NULL, args, NULL));
  P(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 48 * 1024 + 1, NULL, args, NULL));
  size_t argbuf_size = 16; char argbuf[16] = {0}; memcpy(argbuf, &d, 8); memcpy(argbuf + 8, &n, 4);
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, argbuf, CU_LAUNCH_PARAM_BUFFER_SIZE, &argbuf_size, CU_LAUNCH_PARAM_END};
  P(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, extra));
  P(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL));
  size_t short_size = 8;
  void *extra_short[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, argbuf, CU_LAUNCH_PARAM_BUFFER_SIZE, &short_size, CU_LAUNCH_PARAM_END};
  P(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra_short));
  void *extra_nosize[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, argbuf, CU_LAUNCH_PARAM_END};
  P(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra_nosize));
  P(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra));
  P(cuCtxSynchronize());
  static const unsigned char garbage[64] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4};
  P(cuModuleLoadData(&m, garbage));
  P(cuModuleLoadData(&m, "just some text\n"));
  P(cuModuleLoadData(&m, NULL));
  P(cuModuleLoadData(NULL, good_ptx));
  P(cuModuleLoad(&m, "/nonexistent/cubridge/module.ptx"));
  P(cuModuleLoadData(&m, bad_ptx));
  char log[1024] = "";
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {log, (void *)(uintptr_t)sizeof log};
  P(cuModuleLoadDataEx(&m, bad_ptx, 2, opts, vals));
  printf("log: %s\n", log);
    }
  return 0;
}
