/* test_core_mock_backend.c: the core driven through a device whose
 * addresses the host cannot dereference (mock_backend.h, CUBRIDGE_DEVICES=mock).
 *
 * Every device address the driver hands out lies in an inaccessible range:
 * a host access to one kills the process (checked in a child), so each
 * check below passing means the core reached the memory only through the
 * vtable. Covered: allocation and free, cuMemGetInfo, copies of every
 * direction (also unified cuMemcpy, 2D, pinned host memory), memsets (1D,
 * 2D), module load from PTX with a module global written through
 * cuModuleGetGlobal, launches, a CUDA array (zeroed by the device, filled
 * by a copy) read by a texture object in a kernel, a graph captured from a
 * stream and replayed, and what such a device refuses: managed memory,
 * mapped host memory and virtual memory (CUDA_ERROR_NOT_SUPPORTED), with
 * the attributes that say so. */
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mock_backend.h"

static int failures;
#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                 \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)
#define OK(call) CHECK((call) == CUDA_SUCCESS)

static const char ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".global .align 4 .f32 gscale = 1.0;\n"
    ".visible .entry saxpy(.param .u32 n, .param .f32 a, .param .u64 x, .param .u64 y)\n{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<6>; .reg .f32 %f<5>; .reg .b64 %rd<6>;\n"
    "  ld.param.u32 %r1, [n]; ld.param.f32 %f1, [a]; ld.param.u64 %rd1, [x]; ld.param.u64 %rd2, [y];\n"
    "  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %p1, %r5, %r1;\n"
    "  @%p1 bra DONE;\n"
    "  mul.wide.u32 %rd3, %r5, 4;\n"
    "  add.u64 %rd4, %rd1, %rd3;\n  add.u64 %rd5, %rd2, %rd3;\n"
    "  ld.global.f32 %f2, [%rd4];\n  ld.global.f32 %f3, [%rd5];\n"
    "  fma.rn.f32 %f4, %f1, %f2, %f3;\n"
    "  st.global.f32 [%rd5], %f4;\n"
    "DONE:\n  ret;\n}\n"
    ".visible .entry gmul(.param .u64 y)\n{\n"
    "  .reg .b32 %r<2>; .reg .f32 %f<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [y];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.global.f32 %f1, [%rd3];\n  ld.global.f32 %f2, [gscale];\n"
    "  mul.f32 %f3, %f1, %f2;\n  st.global.f32 [%rd3], %f3;\n  ret;\n}\n"
    ".visible .entry fetch(.param .u64 tex, .param .u64 out)\n{\n"
    "  .reg .b32 %r<2>; .reg .f32 %f<8>; .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [tex];\n  ld.param.u64 %rd2, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  cvt.rn.f32.u32 %f1, %r1;\n  add.f32 %f1, %f1, 0f3F000000;\n"
    "  tex.1d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%f1}];\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n  add.u64 %rd4, %rd2, %rd3;\n  st.global.f32 [%rd4], %f2;\n  ret;\n}\n";

/* 1 if reading one byte at addr kills a child process (a fault). */
static int host_read_faults(uint64_t addr)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        volatile unsigned char v = *(volatile unsigned char *)(uintptr_t)addr;
        (void)v;
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status);
}

static void test_memory(void)
{
    enum { N = 1000 };
    float host[N], back[N];
    for (int i = 0; i < N; i++)
        host[i] = (float)i * 0.5f;
    CUdeviceptr a, b;
    OK(cuMemAlloc_v2(&a, sizeof host));
    OK(cuMemAlloc_v2(&b, sizeof host));
    CHECK(mock_is_device_address(a) && mock_is_device_address(b));
    CHECK(host_read_faults(a));   /* not a host address */
    size_t free_b = 0, total = 0;
    OK(cuMemGetInfo_v2(&free_b, &total));
    CHECK(total == (size_t)1 << 30 && free_b <= total - 2 * sizeof host);
    OK(cuMemcpyHtoD_v2(a, host, sizeof host));
    OK(cuMemcpyDtoD_v2(b, a, sizeof host));
    memset(back, 0, sizeof back);
    OK(cuMemcpyDtoH_v2(back, b, sizeof back));
    CHECK(memcmp(host, back, sizeof host) == 0);
    memset(back, 0, sizeof back);
    OK(cuMemcpy((CUdeviceptr)(uintptr_t)back, a, sizeof back));   /* unified: the direction from the addresses */
    CHECK(memcmp(host, back, sizeof host) == 0);
    OK(cuMemcpyHtoDAsync_v2(b, host, sizeof host, NULL));
    OK(cuMemcpyDtoHAsync_v2(back, b, sizeof back, NULL));
    OK(cuCtxSynchronize());
    CHECK(memcmp(host, back, sizeof host) == 0);
    /* memsets */
    OK(cuMemsetD32_v2(a, 0x3f800000u, N));   /* 1.0f */
    OK(cuMemcpyDtoH_v2(back, a, sizeof back));
    CHECK(back[0] == 1.0f && back[N - 1] == 1.0f);
    unsigned char bytes[16];
    OK(cuMemsetD8_v2(a, 0x5a, 16));
    OK(cuMemsetD16_v2(a + 4, 0x1234, 2));
    OK(cuMemcpyDtoH_v2(bytes, a, 16));
    CHECK(bytes[0] == 0x5a && bytes[4] == 0x34 && bytes[5] == 0x12 && bytes[8] == 0x5a);
    /* 2D: a 16 x 4 box of a pitched allocation */
    CUdeviceptr p;
    size_t pitch;
    OK(cuMemAllocPitch_v2(&p, &pitch, 64, 4, 4));
    CHECK(mock_is_device_address(p) && pitch >= 64);
    OK(cuMemsetD2D32_v2(p, pitch, 7u, 16, 4));
    unsigned box[4][16];
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = p;
    c.srcPitch = pitch;
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = box;
    c.dstPitch = sizeof box[0];
    c.WidthInBytes = sizeof box[0];
    c.Height = 4;
    OK(cuMemcpy2D_v2(&c));
    CHECK(box[0][0] == 7 && box[3][15] == 7);
    /* pinned host memory is host memory: copies work, mapping does not */
    float *pinned;
    OK(cuMemAllocHost_v2((void **)&pinned, sizeof host));
    memcpy(pinned, host, sizeof host);
    OK(cuMemcpyHtoD_v2(b, pinned, sizeof host));
    memset(pinned, 0, sizeof host);
    OK(cuMemcpyDtoH_v2(pinned, b, sizeof host));
    CHECK(memcmp(pinned, host, sizeof host) == 0);
    CUdeviceptr mapped;
    CHECK(cuMemHostGetDevicePointer_v2(&mapped, pinned, 0) == CUDA_ERROR_NOT_SUPPORTED);
    OK(cuMemFreeHost(pinned));
    /* what it does not have */
    CUdeviceptr m;
    CHECK(cuMemAllocManaged(&m, 64, CU_MEM_ATTACH_GLOBAL) == CUDA_ERROR_NOT_SUPPORTED);
    CUdeviceptr va;
    CHECK(cuMemAddressReserve(&va, (size_t)2 << 20, 0, 0, 0) == CUDA_ERROR_NOT_SUPPORTED);
    int v = -1;
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 0));
    CHECK(v == 0);
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 0));
    CHECK(v == 0);
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0));
    CHECK(v == 0);
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
    CHECK(v == 32);
    /* free, then the address is the device's but no allocation's */
    OK(cuMemFree_v2(p));
    CHECK(cuMemcpyHtoD_v2(p, host, 4) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemFree_v2(p) == CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree_v2(a));
    OK(cuMemFree_v2(b));
}

static void test_kernels(CUmodule mod)
{
    enum { N = 300 };
    float x[N], y[N], out[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    CUdeviceptr dx, dy;
    OK(cuMemAlloc_v2(&dx, sizeof x));
    OK(cuMemAlloc_v2(&dy, sizeof y));
    OK(cuMemcpyHtoD_v2(dx, x, sizeof x));
    OK(cuMemcpyHtoD_v2(dy, y, sizeof y));
    CUfunction saxpy, gmul;
    OK(cuModuleGetFunction(&saxpy, mod, "saxpy"));
    OK(cuModuleGetFunction(&gmul, mod, "gmul"));
    unsigned n = N;
    float a = 2.0f;
    void *args[] = {&n, &a, &dx, &dy};
    OK(cuLaunchKernel(saxpy, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    OK(cuMemcpyDtoH_v2(out, dy, sizeof out));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != 2.0f * (float)i + 1.0f;
    CHECK(bad == 0);
    /* a module global through cuModuleGetGlobal: a device address too */
    CUdeviceptr g;
    size_t gbytes;
    OK(cuModuleGetGlobal_v2(&g, &gbytes, mod, "gscale"));
    CHECK(mock_is_device_address(g) && gbytes == 4);
    float scale;
    OK(cuMemcpyDtoH_v2(&scale, g, 4));
    CHECK(scale == 1.0f);   /* its initialiser */
    scale = 3.0f;
    OK(cuMemcpyHtoD_v2(g, &scale, 4));
    void *gargs[] = {&dy};
    OK(cuLaunchKernel(gmul, 1, 1, 1, 64, 1, 1, 0, NULL, gargs, NULL));
    OK(cuMemcpyDtoH_v2(out, dy, sizeof out));
    CHECK(out[10] == 3.0f * 21.0f && out[64] == 129.0f);
    OK(cuMemFree_v2(dx));
    OK(cuMemFree_v2(dy));
}

static void test_texture(CUmodule mod)
{
    enum { W = 32 };
    CUDA_ARRAY_DESCRIPTOR d = {W, 0, CU_AD_FORMAT_FLOAT, 1};
    CUarray arr;
    OK(cuArrayCreate_v2(&arr, &d));
    float zero[W], vals[W], out[W];
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    c.srcArray = arr;
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = zero;
    c.WidthInBytes = sizeof zero;
    c.Height = 1;
    memset(zero, 0xff, sizeof zero);
    OK(cuMemcpy2D_v2(&c));   /* a new array reads as zero (the device zeroed it) */
    CHECK(zero[0] == 0.0f && zero[W - 1] == 0.0f);
    for (int i = 0; i < W; i++)
        vals[i] = (float)(i * i);
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = vals;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = arr;
    c.WidthInBytes = sizeof vals;
    c.Height = 1;
    OK(cuMemcpy2D_v2(&c));
    CUDA_RESOURCE_DESC res;
    memset(&res, 0, sizeof res);
    res.resType = CU_RESOURCE_TYPE_ARRAY;
    res.res.array.hArray = arr;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = CU_TR_ADDRESS_MODE_CLAMP;
    td.filterMode = CU_TR_FILTER_MODE_POINT;
    CUtexObject tex;
    OK(cuTexObjectCreate(&tex, &res, &td, NULL));
    CHECK(mock_is_device_address(tex));   /* the device's own handle */
    CUDA_RESOURCE_DESC back;
    OK(cuTexObjectGetResourceDesc(&back, tex));
    CHECK(back.resType == CU_RESOURCE_TYPE_ARRAY && back.res.array.hArray == arr);
    CUdeviceptr dout;
    OK(cuMemAlloc_v2(&dout, sizeof out));
    CUfunction fetch;
    OK(cuModuleGetFunction(&fetch, mod, "fetch"));
    void *args[] = {&tex, &dout};
    OK(cuLaunchKernel(fetch, 1, 1, 1, W, 1, 1, 0, NULL, args, NULL));
    OK(cuMemcpyDtoH_v2(out, dout, sizeof out));
    CHECK(memcmp(out, vals, sizeof out) == 0);
    OK(cuTexObjectDestroy(tex));
    CHECK(cuTexObjectDestroy(tex) == CUDA_ERROR_INVALID_HANDLE);
    OK(cuArrayDestroy(arr));
    OK(cuMemFree_v2(dout));
}

static void test_graph(CUmodule mod)
{
    enum { N = 256 };
    CUstream s;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dx, dy;
    OK(cuMemAlloc_v2(&dx, N * 4));
    OK(cuMemAlloc_v2(&dy, N * 4));
    float out[N];
    CUfunction saxpy;
    OK(cuModuleGetFunction(&saxpy, mod, "saxpy"));
    unsigned n = N;
    float a = 0.5f;
    void *args[] = {&n, &a, &dx, &dy};
    OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    OK(cuMemsetD32Async(dx, 0x40000000u, N, s));   /* 2.0f */
    OK(cuMemsetD32Async(dy, 0x3f800000u, N, s));   /* 1.0f */
    OK(cuLaunchKernel(saxpy, N / 64, 1, 1, 64, 1, 1, 0, s, args, NULL));
    OK(cuMemcpyDtoHAsync_v2(out, dy, sizeof out, s));
    CUgraph g;
    OK(cuStreamEndCapture(s, &g));
    CUgraphExec ge;
    OK(cuGraphInstantiateWithFlags(&ge, g, 0));
    for (int round = 0; round < 2; round++) {
        memset(out, 0, sizeof out);
        OK(cuGraphLaunch(ge, s));
        OK(cuStreamSynchronize(s));
        CHECK(out[0] == 2.0f && out[N - 1] == 2.0f);
    }
    OK(cuGraphExecDestroy(ge));
    OK(cuGraphDestroy(g));
    OK(cuStreamDestroy_v2(s));
    OK(cuMemFree_v2(dx));
    OK(cuMemFree_v2(dy));
}

int main(void)
{
    if (mock_register() != 0) {
        fprintf(stderr, "test_core_mock_backend: cannot register the mock backend\n");
        return 1;
    }
    setenv("CUBRIDGE_DEVICES", "mock", 1);
    OK(cuInit(0));
    int count = 0;
    OK(cuDeviceGetCount(&count));
    CHECK(count == 1);
    char name[256];
    OK(cuDeviceGetName(name, sizeof name, 0));
    CHECK(strstr(name, "Mock device") == name);
    CUcontext ctx;
    OK(cuDevicePrimaryCtxRetain(&ctx, 0));
    OK(cuCtxSetCurrent(ctx));
    test_memory();
    CUmodule mod;
    OK(cuModuleLoadData(&mod, ptx));
    test_kernels(mod);
    test_texture(mod);
    test_graph(mod);
    OK(cuModuleUnload(mod));
    CHECK(mock.launches == 5 && mock.nallocs == 0);   /* every launch ran on the mock; nothing leaked */
    OK(cuDevicePrimaryCtxRelease_v2(0));
    if (failures)
        fprintf(stderr, "test_core_mock_backend: %d failures\n", failures);
    else
        printf("test_core_mock_backend: ok\n");
    return failures ? 1 : 0;
}
