/* test_driver_lazy.c: lazy module loading (CUDA_MODULE_LOADING, LAZY by
 * default) through the driver API, checked by the counts cubridge keeps:
 * loading translates nothing, a kernel is translated and compiled with what
 * it names (a .func, a global, module-scope .shared) at its first use, a
 * global is there before any kernel is, an error inside one kernel is
 * returned at that kernel's first use (CUDA_ERROR_INVALID_PTX, each time)
 * while the others run, and the index cuts what a kernel needs. Run again
 * with CUDA_MODULE_LOADING=EAGER (ctest unit.test_driver_lazy.eager), where
 * loading translates every kernel and the bad one fails the load. */
#include "driver/driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "ptxlink/ptx_split.h"

static int failures;
#define CHECK(cond)                                                                                         \
    do {                                                                                                    \
        if (!(cond)) {                                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                         \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)

#define HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

/* scale_add calls twice (a .func, defined after a prototype) and reads
 * bias (a .global with an initialiser); stage uses the module-scope
 * .shared tile; unused is never asked for. */
#define GOOD_PTX                                                                                              \
    HEAD                                                                                                    \
    "// a comment naming unused and tile, which are not references\n"                                       \
    ".global .align 4 .u32 bias = 7;\n"                                                                     \
    ".global .align 4 .b8 table[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};\n"                  \
    ".shared .align 4 .b8 tile[256];\n"                                                                     \
    ".func (.param .b32 r) twice(.param .b32 x);\n"                                                         \
    ".visible .entry scale_add(.param .u64 p0)\n{\n"                                                        \
    ".reg .b32 %r<8>;\n.reg .b64 %rd<5>;\n"                                                                 \
    "ld.param.u64 %rd1, [p0];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n"                      \
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"                                               \
    "{\n.param .b32 a0;\nst.param.b32 [a0], %r1;\n.param .b32 r0;\n"                                        \
    "call.uni (r0), twice, (a0);\nld.param.b32 %r2, [r0];\n}\n"                                              \
    "ld.global.u32 %r3, [bias];\nadd.s32 %r4, %r2, %r3;\nst.global.u32 [%rd4], %r4;\nret;\n}\n"             \
    ".func (.param .b32 r) twice(.param .b32 x)\n{\n.reg .b32 %t<3>;\n"                                     \
    "ld.param.b32 %t1, [x];\nadd.s32 %t2, %t1, %t1;\nst.param.b32 [r], %t2;\nret;\n}\n"                     \
    ".visible .entry stage(.param .u64 q0)\n{\n"                                                            \
    ".reg .b32 %r<6>;\n.reg .b64 %rd<5>;\n"                                                                 \
    "ld.param.u64 %rd1, [q0];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n"                      \
    "mov.u32 %r5, tile;\nshl.b32 %r2, %r1, 2;\nadd.s32 %r3, %r5, %r2;\nst.shared.u32 [%r3], %r1;\n"           \
    "bar.sync 0;\nld.shared.u32 %r4, [%r3];\nadd.s32 %r4, %r4, 100;\n"                                       \
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nst.global.u32 [%rd4], %r4;\nret;\n}\n"

#define UNUSED_PTX                                                                                          \
    ".visible .entry unused(.param .u64 u0)\n{\n.reg .b64 %rd<3>;\n"                                        \
    "ld.param.u64 %rd1, [u0];\nld.global.u64 %rd2, [table];\nst.global.u64 [%rd1], %rd2;\nret;\n}\n"

/* broken: an operand form the translator refuses (as test_driver_texture's). */
#define BROKEN_PTX                                                                                          \
    ".visible .entry broken(.param .u64 p)\n{\n  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"    \
    "  ld.param.u64 %rd1, [p];\n  ld.global.v2.u32 {%r1, %r2}|%p1, [%rd1];\n  ret;\n}\n"

static const char good_ptx[] = GOOD_PTX UNUSED_PTX;
static const char mixed_ptx[] = GOOD_PTX UNUSED_PTX BROKEN_PTX;

static int lazy(void)
{
    CUmoduleLoadingMode mode;
    CHECK(cuModuleGetLoadingMode(&mode) == CUDA_SUCCESS);
    return mode == CU_MODULE_LAZY_LOADING;
}

static uint64_t translated(void)
{
    return cb_stats_get(CB_STAT_KERNELS_TRANSLATED);
}

static uint64_t compiled(void)
{
    return cb_stats_get(CB_STAT_KERNELS_COMPILED);
}

static void test_cut(void)
{
    cb_ptx_index *ix = cb_ptx_index_build(mixed_ptx, strlen(mixed_ptx));
    CHECK(ix && !cb_ptx_index_whole_only(ix, NULL));
    if (!ix)
        return;
    CHECK(cb_ptx_index_kernels(ix) == 4);
    CHECK(cb_ptx_index_find_kernel(ix, "stage") == 1);
    CHECK(cb_ptx_index_find_kernel(ix, "twice") == -1);   /* a .func is no kernel */
    CHECK(cb_ptx_index_find_kernel(ix, "nothing") == -1);
    CHECK(!strcmp(cb_ptx_index_kernel_name(ix, 3), "broken"));
    size_t len = 0;
    char *t = cb_ptx_index_kernel_text(ix, 0, &len);
    CHECK(t && strlen(t) == len);
    /* scale_add: the header, both statements of twice, bias; not table, tile or the others */
    CHECK(t && strstr(t, ".version 8.0") && strstr(t, ".entry scale_add") && strstr(t, "twice(.param .b32 x);") &&
          strstr(t, "twice(.param .b32 x)\n{") && strstr(t, ".u32 bias = 7;"));
    CHECK(t && !strstr(t, "table[16]") && !strstr(t, ".b8 tile") && !strstr(t, ".entry stage") &&
          !strstr(t, "broken") && !strstr(t, "// a comment"));
    free(t);
    t = cb_ptx_index_kernel_text(ix, 1, &len);
    CHECK(t && strstr(t, ".b8 tile[256];") && !strstr(t, "bias") && !strstr(t, "twice"));
    free(t);
    uint32_t both[] = {2, 1};
    t = cb_ptx_index_kernels_text(ix, both, 2, &len);
    CHECK(t && strstr(t, ".entry unused") && strstr(t, "table[16]") && strstr(t, ".entry stage") &&
          !strstr(t, "scale_add"));
    free(t);
    t = cb_ptx_index_globals_text(ix, &len);
    CHECK(t && strstr(t, "bias = 7") && strstr(t, "table[16]") && !strstr(t, ".entry") && !strstr(t, ".func"));
    free(t);
    cb_ptx_index_free(ix);

    /* what the scan does not cut goes whole: a truncated text, .alias */
    static const char truncated[] = HEAD ".visible .entry k( {\n";
    ix = cb_ptx_index_build(truncated, strlen(truncated));
    CHECK(ix && cb_ptx_index_whole_only(ix, NULL));
    cb_ptx_index_free(ix);
    static const char alias[] = HEAD ".func f;\n.func g;\n.alias g, f;\n";
    ix = cb_ptx_index_build(alias, strlen(alias));
    CHECK(ix && cb_ptx_index_whole_only(ix, NULL));
    cb_ptx_index_free(ix);
}

static void test_good(void)
{
    uint64_t t0 = translated(), c0 = compiled(), r0 = cb_stats_get(CB_STAT_KERNELS_REGISTERED);
    CUmodule mod = NULL;
    CHECK(cuModuleLoadData(&mod, good_ptx) == CUDA_SUCCESS);
    int is_lazy = lazy();
    CHECK(cb_stats_get(CB_STAT_KERNELS_REGISTERED) - r0 == 3);
    CHECK(translated() - t0 == (is_lazy ? 0 : 3));
    unsigned count = 0;
    CHECK(cuModuleGetFunctionCount(&count, mod) == CUDA_SUCCESS && count == 3);
    /* a global before any kernel: there, with its initialiser */
    CUdeviceptr dbias = 0;
    size_t bytes = 0;
    unsigned bias = 0;
    CHECK(cuModuleGetGlobal_v2(&dbias, &bytes, mod, "bias") == CUDA_SUCCESS && bytes == 4);
    CHECK(cuMemcpyDtoH_v2(&bias, dbias, 4) == CUDA_SUCCESS && bias == 7);
    CHECK(translated() - t0 == (is_lazy ? 0 : 3));

    CUfunction f = NULL, g = NULL, f2 = NULL;
    CHECK(cuModuleGetFunction(&f, mod, "scale_add") == CUDA_SUCCESS);
    CHECK(translated() - t0 == (is_lazy ? 1 : 3) && compiled() - c0 == (is_lazy ? 1 : 3));
    CHECK(cuModuleGetFunction(&f2, mod, "scale_add") == CUDA_SUCCESS && f2 == f);
    CHECK(translated() - t0 == (is_lazy ? 1 : 3));
    /* the global the kernel reads is the module's: change it from the host */
    bias = 1000;
    CHECK(cuMemcpyHtoD_v2(dbias, &bias, 4) == CUDA_SUCCESS);
    CUdeviceptr d = 0;
    CHECK(cuMemAlloc_v2(&d, 64 * 4) == CUDA_SUCCESS);
    void *args[] = {&d};
    CHECK(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS);
    unsigned out[64];
    CHECK(cuMemcpyDtoH_v2(out, d, sizeof out) == CUDA_SUCCESS);
    int ok = 1;
    for (unsigned i = 0; i < 64; i++)
        ok &= out[i] == 2 * i + 1000;
    CHECK(ok);

    /* stage: module-scope .shared, its own layout (256 bytes) */
    CHECK(cuModuleGetFunction(&g, mod, "stage") == CUDA_SUCCESS);
    int smem = -1;
    CHECK(cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, g) == CUDA_SUCCESS && smem == 256);
    CHECK(cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f) == CUDA_SUCCESS && smem == 0);
    CHECK(cuLaunchKernel(g, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS);
    CHECK(cuMemcpyDtoH_v2(out, d, sizeof out) == CUDA_SUCCESS);
    ok = 1;
    for (unsigned i = 0; i < 64; i++)
        ok &= out[i] == i + 100;
    CHECK(ok);
    CHECK(translated() - t0 == (is_lazy ? 2 : 3) && compiled() - c0 == (is_lazy ? 2 : 3));
    /* enumerating asks for every kernel */
    CUfunction all[3];
    CHECK(cuModuleEnumerateFunctions(all, 3, mod) == CUDA_SUCCESS && all[0] == f && all[1] == g);
    CHECK(translated() - t0 == 3 && compiled() - c0 == 3);
    CHECK(cuMemFree_v2(d) == CUDA_SUCCESS);
    CHECK(cuModuleUnload(mod) == CUDA_SUCCESS);
}

static void test_mixed(void)
{
    uint64_t failed0 = cb_stats_modules_failed(NULL, 0, NULL, 0);
    CUmodule mod = NULL;
    CUresult r = cuModuleLoadData(&mod, mixed_ptx);
    if (!lazy()) {
        CHECK(r == CUDA_ERROR_INVALID_PTX);
        CHECK(cb_stats_modules_failed(NULL, 0, NULL, 0) == failed0 + 1);
        return;
    }
    CHECK(r == CUDA_SUCCESS);
    CUfunction f = NULL, b = NULL;
    CHECK(cuModuleGetFunction(&f, mod, "scale_add") == CUDA_SUCCESS);
    CHECK(cb_stats_modules_failed(NULL, 0, NULL, 0) == failed0);
    CHECK(cuModuleGetFunction(&b, mod, "broken") == CUDA_ERROR_INVALID_PTX);
    CHECK(cuModuleGetFunction(&b, mod, "broken") == CUDA_ERROR_INVALID_PTX);
    CHECK(cb_stats_modules_failed(NULL, 0, NULL, 0) == failed0 + 1);   /* counted once, for the summary */
    CUfunction all[4];
    CHECK(cuModuleEnumerateFunctions(all, 4, mod) == CUDA_ERROR_INVALID_PTX);
    CUdeviceptr d = 0;
    CHECK(cuMemAlloc_v2(&d, 64 * 4) == CUDA_SUCCESS);
    void *args[] = {&d};
    CHECK(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(cuMemFree_v2(d) == CUDA_SUCCESS);
    CHECK(cuModuleUnload(mod) == CUDA_SUCCESS);
}

/* A module of many kernels, all asked for in reverse order: the first 8
 * one at a time, then growing batches (taking the kernels before the one
 * asked for), the larger ones in parallel parts; each kernel runs right. */
#define MANY 100
static void test_many(void)
{
    size_t cap = 64 + MANY * 512, n = 0;
    char *ptx = malloc(cap);
    CHECK(ptx != NULL);
    if (!ptx)
        return;
    n += (size_t)snprintf(ptx + n, cap - n, HEAD);
    for (int k = 0; k < MANY; k++)
        n += (size_t)snprintf(ptx + n, cap - n,
                              ".visible .entry many%d(.param .u64 p)\n{\n.reg .b32 %%r<3>;\n.reg .b64 %%rd<3>;\n"
                              "ld.param.u64 %%rd1, [p];\ncvta.to.global.u64 %%rd2, %%rd1;\nmov.u32 %%r1, %%tid.x;\n"
                              "add.s32 %%r2, %%r1, %d;\nst.global.u32 [%%rd2], %%r2;\nret;\n}\n", k, k * 7);
    uint64_t c0 = compiled();
    CUmodule mod = NULL;
    CHECK(cuModuleLoadData(&mod, ptx) == CUDA_SUCCESS);
    CUdeviceptr d = 0;
    CHECK(cuMemAlloc_v2(&d, 4) == CUDA_SUCCESS);
    int ok = 1;
    for (int k = MANY - 1; k >= 0; k--) {
        char name[32];
        snprintf(name, sizeof name, "many%d", k);
        CUfunction f = NULL;
        void *args[] = {&d};
        unsigned v = 0;
        ok &= cuModuleGetFunction(&f, mod, name) == CUDA_SUCCESS &&
              cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS &&
              cuMemcpyDtoH_v2(&v, d, 4) == CUDA_SUCCESS && v == (unsigned)k * 7;
        if (lazy() && k == MANY - 8)
            CHECK(compiled() - c0 == 8);   /* the first 8: one each */
    }
    CHECK(ok);
    CHECK(compiled() - c0 == MANY);
    CHECK(cuMemFree_v2(d) == CUDA_SUCCESS);
    CHECK(cuModuleUnload(mod) == CUDA_SUCCESS);
    free(ptx);
}

int main(void)
{
    test_cut();
    CUdevice dev;
    CUcontext ctx;
    CHECK(cuInit(0) == CUDA_SUCCESS);
    CHECK(cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
    CHECK(cuCtxCreate_v2(&ctx, 0, dev) == CUDA_SUCCESS);
    test_good();
    test_mixed();
    test_many();
    CHECK(cuCtxDestroy_v2(ctx) == CUDA_SUCCESS);
    if (failures) {
        fprintf(stderr, "test_driver_lazy: %d failures\n", failures);
        return 1;
    }
    printf("test_driver_lazy: ok (%s loading)\n", getenv("CUDA_MODULE_LOADING") ? getenv("CUDA_MODULE_LOADING") : "lazy");
    return 0;
}
