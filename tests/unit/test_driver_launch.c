/* test_driver_launch.c: modules from PTX, kernels, globals, launches and
 * their validation, function attributes, occupancy, libraries, loader
 * errors and sticky launch faults, through the driver API. */
#include "driver/driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                                         \
    do {                                                                                                    \
        if (!(cond)) {                                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                         \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)

/* nvcc -ptx -arch=compute_75 of add_one, add_bias and bounded (with
 * __launch_bounds__(128)); faulty reads through its pointer argument. */
static const char ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".global .align 4 .u32 bias;\n"
    ".visible .entry add_one(.param .u64 p0, .param .u32 p1, .param .u32 p2)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<9>;\n.reg .b64 %rd<5>;\n"
    "ld.param.u64 %rd1, [p0];\nld.param.u32 %r3, [p1];\nld.param.u32 %r2, [p2];\n"
    "mov.u32 %r4, %ctaid.x;\nmov.u32 %r5, %ntid.x;\nmov.u32 %r6, %tid.x;\nmad.lo.s32 %r1, %r4, %r5, %r6;\n"
    "setp.ge.s32 %p1, %r1, %r3;\n@%p1 bra $L__BB0_2;\n"
    "cvta.to.global.u64 %rd2, %rd1;\nmul.wide.s32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
    "ld.global.u32 %r7, [%rd4];\nadd.s32 %r8, %r7, %r2;\nst.global.u32 [%rd4], %r8;\n"
    "$L__BB0_2:\nret;\n}\n"
    ".visible .entry add_bias(.param .u64 q0, .param .u32 q1)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<9>;\n.reg .b64 %rd<5>;\n"
    "ld.param.u64 %rd1, [q0];\nld.param.u32 %r2, [q1];\n"
    "mov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmov.u32 %r5, %tid.x;\nmad.lo.s32 %r1, %r3, %r4, %r5;\n"
    "setp.ge.s32 %p1, %r1, %r2;\n@%p1 bra $L__BB1_2;\n"
    "cvta.to.global.u64 %rd2, %rd1;\nmul.wide.s32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
    "ld.global.u32 %r6, [%rd4];\nld.global.u32 %r7, [bias];\nadd.s32 %r8, %r6, %r7;\nst.global.u32 [%rd4], %r8;\n"
    "$L__BB1_2:\nret;\n}\n"
    ".visible .entry bounded(.param .u64 b0)\n.maxntid 128, 1, 1\n{\n"
    ".reg .b32 %r<3>;\n.reg .b64 %rd<5>;\n"
    "ld.param.u64 %rd1, [b0];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nmov.u32 %r2, 1;\nst.global.u32 [%rd4], %r2;\nret;\n}\n"
    ".visible .entry faulty(.param .u64 f0)\n{\n"
    ".reg .b32 %r<2>;\n.reg .b64 %rd<3>;\n"
    "ld.param.u64 %rd1, [f0];\ncvta.to.global.u64 %rd2, %rd1;\nld.global.u32 %r1, [%rd2];\n"
    "add.s32 %r1, %r1, 1;\nst.global.u32 [%rd2], %r1;\nret;\n}\n";

#define N 1000

static int launch_add_one(CUfunction f, CUdeviceptr d, int n, int delta, unsigned grid, unsigned block,
                          unsigned smem)
{
    void *args[] = {&d, &n, &delta};
    return cuLaunchKernel(f, grid, 1, 1, block, 1, 1, smem, NULL, args, NULL);
}

static void test_module(CUmodule *mod_out, CUfunction *f_out)
{
    CUmodule mod = NULL;
    CHECK(cuModuleLoadData(&mod, ptx) == CUDA_SUCCESS && mod);
    CUfunction f = NULL, g = NULL;
    CHECK(cuModuleGetFunction(&f, mod, "add_one") == CUDA_SUCCESS && f);
    CHECK(cuModuleGetFunction(&g, mod, "add_one") == CUDA_SUCCESS && g == f);
    CHECK(cuModuleGetFunction(&g, mod, "no_such_kernel") == CUDA_ERROR_NOT_FOUND);
    CUdeviceptr dbias = 0;
    size_t bytes = 0;
    CHECK(cuModuleGetGlobal_v2(&dbias, &bytes, mod, "bias") == CUDA_SUCCESS && dbias && bytes == 4);
    CHECK(cuModuleGetGlobal_v2(&dbias, &bytes, mod, "no_such_global") == CUDA_ERROR_NOT_FOUND);
    const char *name = NULL;
    CHECK(cuFuncGetName(&name, f) == CUDA_SUCCESS && name && strcmp(name, "add_one") == 0);
    unsigned count = 0;
    CHECK(cuModuleGetFunctionCount(&count, mod) == CUDA_SUCCESS && count == 4);
    CUmoduleLoadingMode mode;
    const char *loading = getenv("CUDA_MODULE_LOADING");   /* lazy unless EAGER, as CUDA 12.2+ */
    CHECK(cuModuleGetLoadingMode(&mode) == CUDA_SUCCESS &&
          mode == (loading && !strcmp(loading, "EAGER") ? CU_MODULE_EAGER_LOADING : CU_MODULE_LAZY_LOADING));
    *mod_out = mod;
    *f_out = f;
}

static void test_attributes(CUmodule mod, CUfunction f)
{
    int v = -1;
    CUfunction b;
    CHECK(cuModuleGetFunction(&b, mod, "bounded") == CUDA_SUCCESS);
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f) == CUDA_SUCCESS && v == 1024);
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, b) == CUDA_SUCCESS && v == 128);
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f) == CUDA_SUCCESS && v == 0);
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, f) == CUDA_SUCCESS && v == 75);   /* .target sm_75 */
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f) == CUDA_SUCCESS &&
          v == 48 * 1024);
    for (int a = 0; a < CU_FUNC_ATTRIBUTE_MAX; a++)
        CHECK(cuFuncGetAttribute(&v, (CUfunction_attribute)a, f) == CUDA_SUCCESS);
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX, f) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NUM_REGS, 3) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50) == CUDA_SUCCESS);
    CHECK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 101) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_L1) == CUDA_SUCCESS);
    int blocks = 0, grid = 0, block = 0;
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 256, 0) == CUDA_SUCCESS && blocks > 0);
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, b, 256, 0) == CUDA_SUCCESS && blocks == 0);
    CHECK(cuOccupancyMaxPotentialBlockSize(&grid, &block, f, NULL, 0, 0) == CUDA_SUCCESS && block > 0 && grid > 0);
    CHECK(cuOccupancyMaxPotentialBlockSize(&grid, &block, b, NULL, 0, 0) == CUDA_SUCCESS && block <= 128);
    size_t smem = 0;
    CHECK(cuOccupancyAvailableDynamicSMemPerBlock(&smem, f, 1, 256) == CUDA_SUCCESS && smem > 0);
}

static void test_launches(CUmodule mod, CUfunction f)
{
    int host[N];
    for (int i = 0; i < N; i++)
        host[i] = i;
    CUdeviceptr d = 0;
    CHECK(cuMemAlloc_v2(&d, sizeof host) == CUDA_SUCCESS);
    CHECK(cuMemcpyHtoD_v2(d, host, sizeof host) == CUDA_SUCCESS);
    CHECK(launch_add_one(f, d, N, 5, (N + 255) / 256, 256, 0) == CUDA_SUCCESS);
    /* The same launch through the `extra` buffer form. */
    struct {
        CUdeviceptr p;
        int n, delta;
    } packed = {d, N, 2};
    size_t size = sizeof packed;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    CHECK(cuLaunchKernel(f, 4, 1, 1, 256, 1, 1, 0, NULL, NULL, extra) == CUDA_SUCCESS);
    /* A global set from the host. */
    CUfunction fb;
    CUdeviceptr dbias;
    int bias = 100, n = N;
    CHECK(cuModuleGetFunction(&fb, mod, "add_bias") == CUDA_SUCCESS);
    CHECK(cuModuleGetGlobal_v2(&dbias, NULL, mod, "bias") == CUDA_SUCCESS);
    CHECK(cuMemcpyHtoD_v2(dbias, &bias, sizeof bias) == CUDA_SUCCESS);
    void *bargs[] = {&d, &n};
    CHECK(cuLaunchKernel_ptsz(fb, 4, 1, 1, 256, 1, 1, 0, NULL, bargs, NULL) == CUDA_SUCCESS);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(cuMemcpyDtoH_v2(host, d, sizeof host) == CUDA_SUCCESS);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += host[i] != i + 107;
    CHECK(bad == 0);

    /* cuLaunchKernelEx with attributes. */
    CUlaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
    CUlaunchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDimX = 4, cfg.gridDimY = 1, cfg.gridDimZ = 1;
    cfg.blockDimX = 256, cfg.blockDimY = 1, cfg.blockDimZ = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    int delta = 1;
    void *args[] = {&d, &n, &delta};
    CHECK(cuLaunchKernelEx(&cfg, f, args, NULL) == CUDA_SUCCESS);
    attr.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    attr.value.cooperative = 1;
    CHECK(cuLaunchKernelEx(&cfg, f, args, NULL) == CUDA_SUCCESS);   /* test_driver_coop tests these further */
    CHECK(cuLaunchCooperativeKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args) == CUDA_SUCCESS);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(cuMemFree_v2(d) == CUDA_SUCCESS);
}

static void test_validation(CUmodule mod, CUfunction f)
{
    CUdeviceptr d = 0;
    CHECK(cuMemAlloc_v2(&d, 4096 * 4) == CUDA_SUCCESS);
    int n = 0, delta = 0;
    void *args[] = {&d, &n, &delta};
    CHECK(launch_add_one(f, d, 0, 0, 1, 1025, 0) == CUDA_ERROR_INVALID_VALUE);
    CHECK(launch_add_one(f, d, 0, 0, 1, 0, 0) == CUDA_ERROR_INVALID_VALUE);
    CHECK(launch_add_one(f, d, 0, 0, 0, 32, 0) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuLaunchKernel(f, 1, 65536, 1, 32, 1, 1, 0, NULL, args, NULL) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 65, 0, NULL, args, NULL) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 32, 2, 0, NULL, args, NULL) == CUDA_ERROR_INVALID_VALUE);
    CHECK(launch_add_one(f, d, 0, 0, 1, 32, 48 * 1024 + 1) == CUDA_ERROR_INVALID_VALUE);
    CHECK(launch_add_one(f, d, 0, 0, 1, 32, 48 * 1024) == CUDA_SUCCESS);
    CHECK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 * 1024) == CUDA_SUCCESS);
    CHECK(launch_add_one(f, d, 0, 0, 1, 32, 64 * 1024) == CUDA_SUCCESS);
    CHECK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 99 * 1024 + 1) ==
          CUDA_ERROR_INVALID_VALUE);
    CUfunction b;
    CHECK(cuModuleGetFunction(&b, mod, "bounded") == CUDA_SUCCESS);
    void *bargs[] = {&d};
    CHECK(cuLaunchKernel(b, 1, 1, 1, 129, 1, 1, 0, NULL, bargs, NULL) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuLaunchKernel(b, 1, 1, 1, 128, 1, 1, 0, NULL, bargs, NULL) == CUDA_SUCCESS);
    /* Parameter forms. */
    CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL) == CUDA_ERROR_INVALID_VALUE);
    size_t small = 4;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, args, CU_LAUNCH_PARAM_BUFFER_SIZE, &small, CU_LAUNCH_PARAM_END};
    CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, extra) == CUDA_ERROR_INVALID_VALUE);
    /* Handles. */
    int fake[16] = {0};
    CHECK(cuLaunchKernel((CUfunction)fake, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL) == CUDA_ERROR_INVALID_HANDLE);
    int v;
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, (CUfunction)fake) == CUDA_ERROR_INVALID_HANDLE);
    CUfunction g;
    CHECK(cuModuleGetFunction(&g, (CUmodule)fake, "add_one") == CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuModuleUnload((CUmodule)fake) == CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(cuMemFree_v2(d) == CUDA_SUCCESS);
}

static void test_load_errors(void)
{
    CUmodule m = NULL;
    CHECK(cuModuleLoadData(&m, ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k( {\n") ==
          CUDA_ERROR_INVALID_PTX);
    static const unsigned char elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    CHECK(cuModuleLoadData(&m, elf) == CUDA_ERROR_NO_BINARY_FOR_GPU || cuModuleLoadData(&m, elf) == CUDA_ERROR_INVALID_IMAGE);
    static const uint32_t fatbin[8] = {0xBA55ED50u, 0x00100063u, 64, 0};
    CHECK(cuModuleLoadData(&m, fatbin) == CUDA_ERROR_INVALID_IMAGE);
    CHECK(cuModuleLoad(&m, "/nonexistent/cubridge.ptx") == CUDA_ERROR_FILE_NOT_FOUND);
    CHECK(cuModuleLoadData(NULL, ptx) == CUDA_ERROR_INVALID_VALUE);
}

static void test_library(void)
{
    CUlibrary lib = NULL;
    CHECK(cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0) == CUDA_SUCCESS && lib);
    CUkernel k = NULL;
    CUfunction f = NULL;
    CHECK(cuLibraryGetKernel(&k, lib, "add_one") == CUDA_SUCCESS && k);
    CHECK(cuLibraryGetKernel(&k, lib, "nope") == CUDA_ERROR_NOT_FOUND);
    CHECK(cuLibraryGetKernel(&k, lib, "add_one") == CUDA_SUCCESS);
    CHECK(cuKernelGetFunction(&f, k) == CUDA_SUCCESS && f);
    int v = 0;
    CHECK(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k, 0) == CUDA_SUCCESS && v == 1024);
    CUdeviceptr g = 0;
    size_t bytes = 0;
    CHECK(cuLibraryGetGlobal(&g, &bytes, lib, "bias") == CUDA_SUCCESS && g && bytes == 4);
    CUmodule m = NULL;
    CHECK(cuLibraryGetModule(&m, lib) == CUDA_SUCCESS && m);
    CHECK(cuLibraryUnload(lib) == CUDA_SUCCESS);
    CHECK(cuLibraryUnload(lib) == CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuKernelGetFunction(&f, k) == CUDA_ERROR_INVALID_HANDLE);
}

/* A fault is sticky: every later call on the context returns it. */
static void test_sticky(void)
{
    CUcontext ctx;
    CHECK(cuCtxCreate_v2(&ctx, 0, 0) == CUDA_SUCCESS);
    CUmodule mod;
    CUfunction f;
    CHECK(cuModuleLoadData(&mod, ptx) == CUDA_SUCCESS);
    CHECK(cuModuleGetFunction(&f, mod, "faulty") == CUDA_SUCCESS);
    CUdeviceptr bad = 0;
    void *args[] = {&bad};
    CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS);
    CHECK(cuCtxSynchronize() == CUDA_ERROR_ILLEGAL_ADDRESS);
    CHECK(cuCtxSynchronize() == CUDA_ERROR_ILLEGAL_ADDRESS);
    CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL) == CUDA_ERROR_ILLEGAL_ADDRESS);
    CHECK(cuCtxDestroy_v2(ctx) == CUDA_SUCCESS);
}

int main(void)
{
    CHECK(cuInit(0) == CUDA_SUCCESS);
    CUcontext ctx = NULL;
    CHECK(cuCtxCreate_v2(&ctx, 0, 0) == CUDA_SUCCESS);
    CUmodule mod = NULL;
    CUfunction f = NULL;
    test_module(&mod, &f);
    if (mod && f) {
        test_attributes(mod, f);
        test_launches(mod, f);
        test_validation(mod, f);
        CHECK(cuModuleUnload(mod) == CUDA_SUCCESS);
        CHECK(cuModuleUnload(mod) == CUDA_ERROR_INVALID_HANDLE);
        int v;
        CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_ERROR_INVALID_HANDLE);
    }
    test_load_errors();
    test_library();
    CHECK(cuCtxDestroy_v2(ctx) == CUDA_SUCCESS);
    test_sticky();
    if (failures)
        fprintf(stderr, "test_driver_launch: %d failures\n", failures);
    return failures != 0;
}
