/* test_driver_images.c: images and the device, through the driver API.
 *
 *   - an image without PTX (tests/data/fatbin/add_sass.fatbin, sm_75 SASS):
 *     cuModuleLoadData fails with CUDA_ERROR_NO_BINARY_FOR_GPU; cuLibraryLoadData
 *     loads it as unavailable, and its kernel's launch, attributes, occupancy
 *     and globals return CUDA_ERROR_NO_BINARY_FOR_GPU;
 *   - the exit summary names the modules that failed to load;
 *   - PTX the translator rejects: cuModuleLoadData fails with
 *     CUDA_ERROR_INVALID_PTX; cuLibraryLoadData loads it as unavailable and
 *     the kernel's launch returns CUDA_ERROR_INVALID_PTX (CuPy's Thrust
 *     library once reached its users as "invalid device ordinal");
 *   - an image whose only PTX is compute_120 (add_120.fatbin) loads at the
 *     default sm_86 and reports PTX version 120;
 *   - cuOccupancyMaxActiveClusters: clusters of one, the errors;
 *   - register counts capped so that occupancy is never 0 for a launchable
 *     block size;
 *   - address initialisers (a pointer to a global, a function table, a
 *     .const pointer) resolved at load, read through cuModuleGetGlobal.
 */
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

static unsigned char *load_data(const char *name, size_t *size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/fatbin/%s", CB_TEST_DATA_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        failures++;
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static void test_sass_only(void)
{
    size_t size = 0;
    unsigned char *img = load_data("add_sass.fatbin", &size);
    if (!img)
        return;
    CUmodule m = NULL;
    CHECK(cuModuleLoadData(&m, img) == CUDA_ERROR_NO_BINARY_FOR_GPU);

    CUlibrary lib = NULL;
    CHECK(cuLibraryLoadData(&lib, img, NULL, NULL, 0, NULL, NULL, 0) == CUDA_SUCCESS && lib);
    CUkernel k = NULL;
    CHECK(cuLibraryGetKernel(&k, lib, "_Z3addPfPKfi") == CUDA_SUCCESS && k);
    CUfunction f = NULL;
    CHECK(cuKernelGetFunction(&f, k) == CUDA_SUCCESS && f);
    int v = 0;
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_ERROR_NO_BINARY_FOR_GPU);
    CHECK(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k, 0) == CUDA_ERROR_NO_BINARY_FOR_GPU);
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&v, f, 128, 0) == CUDA_ERROR_NO_BINARY_FOR_GPU);
    CUdeviceptr a = 0, b = 0;
    CHECK(cuMemAlloc_v2(&a, 64) == CUDA_SUCCESS && cuMemAlloc_v2(&b, 64) == CUDA_SUCCESS);
    int n = 16;
    void *args[] = {&a, &b, &n};
    CHECK(cuLaunchKernel(f, 1, 1, 1, 16, 1, 1, 0, NULL, args, NULL) == CUDA_ERROR_NO_BINARY_FOR_GPU);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);   /* not sticky */
    CUdeviceptr g = 0;
    size_t bytes = 0;
    CHECK(cuLibraryGetGlobal(&g, &bytes, lib, "anything") == CUDA_ERROR_NO_BINARY_FOR_GPU);
    CHECK(cuLibraryUnload(lib) == CUDA_SUCCESS);
    CHECK(cuMemFree_v2(a) == CUDA_SUCCESS && cuMemFree_v2(b) == CUDA_SUCCESS);
    free(img);

    /* both failed loads are in the summary, with the reason */
    char summary[2048];
    cb_stats_summary(summary, sizeof summary, "cpu", "dev");
    CHECK(strstr(summary, " | 2 modules failed to load: <module image>: no PTX for its kernels (no PTX; SASS "
                          "only: sm_75)") != NULL);
    CHECK(strstr(summary, "; <library image>: no PTX") != NULL);
    char name[128], reason[320];
    CHECK(cb_stats_modules_failed(name, sizeof name, reason, sizeof reason) == 2);
    CHECK(strcmp(name, "<module image>") == 0 && strncmp(reason, "no PTX for its kernels", 22) == 0);
}

/* PTX with an instruction no translator knows. */
static const char rejected_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %r<2>;\n"
    "  frobnicate.b32 %r1, %r0;\n  ret;\n}\n";

static void test_rejected_ptx(void)
{
    CUmodule m = NULL;
    CHECK(cuModuleLoadData(&m, rejected_ptx) == CUDA_ERROR_INVALID_PTX);
    CUlibrary lib = NULL;
    CHECK(cuLibraryLoadData(&lib, rejected_ptx, NULL, NULL, 0, NULL, NULL, 0) == CUDA_SUCCESS && lib);
    CUkernel k = NULL;
    CUfunction f = NULL;
    CHECK(cuLibraryGetKernel(&k, lib, "k") == CUDA_SUCCESS && k);
    CHECK(cuKernelGetFunction(&f, k) == CUDA_SUCCESS && f);
    int v = 0;
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_ERROR_INVALID_PTX);
    CUdeviceptr a = 0;
    CHECK(cuMemAlloc_v2(&a, 64) == CUDA_SUCCESS);
    void *args[] = {&a};
    CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL) == CUDA_ERROR_INVALID_PTX);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);   /* not sticky */
    CHECK(cuLibraryUnload(lib) == CUDA_SUCCESS);
    CHECK(cuMemFree_v2(a) == CUDA_SUCCESS);
    char name[128], reason[320];
    CHECK(cb_stats_modules_failed(name, sizeof name, reason, sizeof reason) == 4);
}

static void test_newer_ptx(void)
{
    size_t size = 0;
    unsigned char *img = load_data("add_120.fatbin", &size);
    if (!img)
        return;
    CUmodule m = NULL;
    CHECK(cuModuleLoadData(&m, img) == CUDA_SUCCESS && m);
    CUfunction f = NULL;
    CHECK(cuModuleGetFunction(&f, m, "_Z3addPfPKfi") == CUDA_SUCCESS && f);
    int v = 0;
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, f) == CUDA_SUCCESS && v == 120);
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_BINARY_VERSION, f) == CUDA_SUCCESS && v == 86);
    float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CUdeviceptr a = 0, b = 0;
    CHECK(cuMemAlloc_v2(&a, sizeof h) == CUDA_SUCCESS && cuMemAlloc_v2(&b, sizeof h) == CUDA_SUCCESS);
    CHECK(cuMemcpyHtoD_v2(a, h, sizeof h) == CUDA_SUCCESS && cuMemcpyHtoD_v2(b, h, sizeof h) == CUDA_SUCCESS);
    int n = 8;
    void *args[] = {&a, &b, &n};
    CHECK(cuLaunchKernel(f, 1, 1, 1, 8, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS);
    CHECK(cuMemcpyDtoH_v2(h, a, sizeof h) == CUDA_SUCCESS);
    CHECK(h[0] == 2 && h[7] == 16);

    /* occupancy: at least 1 for every launchable block size; the register
     * count fits the largest block */
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_SUCCESS && v >= 16 && v <= 64);
    for (int block = 1; block <= 1024; block += 31) {
        int blocks = 0;
        CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, block, 0) == CUDA_SUCCESS && blocks >= 1);
    }
    int blocks = -1;
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 1025, 0) == CUDA_SUCCESS && blocks == 0);

    /* clusters of one block: the cooperative limit */
    int sms = 0, per_sm = 0, clusters = -1;
    CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0) == CUDA_SUCCESS);
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, 256, 0) == CUDA_SUCCESS);
    CUlaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = attr.value.clusterDim.y = attr.value.clusterDim.z = 1;
    CUlaunchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDimX = cfg.gridDimY = cfg.gridDimZ = 1;
    cfg.blockDimX = 256;
    cfg.blockDimY = cfg.blockDimZ = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    CHECK(cuOccupancyMaxActiveClusters(&clusters, f, &cfg) == CUDA_SUCCESS && clusters == per_sm * sms);
    attr.value.clusterDim.x = 2;
    CHECK(cuOccupancyMaxActiveClusters(&clusters, f, &cfg) == CUDA_ERROR_NOT_SUPPORTED);
    attr.value.clusterDim.x = 0;
    CHECK(cuOccupancyMaxActiveClusters(&clusters, f, &cfg) == CUDA_ERROR_INVALID_VALUE);
    cfg.numAttrs = 0;
    CHECK(cuOccupancyMaxActiveClusters(&clusters, f, &cfg) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuOccupancyMaxActiveClusters(NULL, f, &cfg) == CUDA_ERROR_INVALID_VALUE);

    CHECK(cuMemFree_v2(a) == CUDA_SUCCESS && cuMemFree_v2(b) == CUDA_SUCCESS);
    CHECK(cuModuleUnload(m) == CUDA_SUCCESS);
    free(img);
}

/* Address initialisers are resolved when the module loads: a host read
 * through cuModuleGetGlobal sees them before any launch. */
static void test_relocations(void)
{
    static const char reloc_ptx[] =
        ".version 9.0\n.target sm_75\n.address_size 64\n"
        ".func (.param .b32 r) inc(.param .b32 x)\n{\n.reg .b32 %r<3>;\nld.param.b32 %r1, [x];\n"
        "add.s32 %r2, %r1, 1;\nst.param.b32 [r], %r2;\nret;\n}\n"
        ".global .align 4 .b8 vals[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};\n"
        ".global .align 8 .u64 ptr = generic(vals)+8;\n"
        ".global .align 8 .u64 table[2] = {inc, 0};\n"
        ".const .align 8 .u64 cptr[2] = {0, generic(ptr)};\n"
        ".visible .entry noop()\n{\nret;\n}\n";
    CUmodule m = NULL;
    CHECK(cuModuleLoadData(&m, reloc_ptx) == CUDA_SUCCESS && m);
    CUdeviceptr vals = 0, ptr = 0, table = 0, cptr = 0;
    size_t bytes = 0;
    CHECK(cuModuleGetGlobal_v2(&vals, &bytes, m, "vals") == CUDA_SUCCESS && bytes == 16);
    CHECK(cuModuleGetGlobal_v2(&ptr, &bytes, m, "ptr") == CUDA_SUCCESS && bytes == 8);
    CHECK(cuModuleGetGlobal_v2(&table, &bytes, m, "table") == CUDA_SUCCESS && bytes == 16);
    CHECK(cuModuleGetGlobal_v2(&cptr, &bytes, m, "cptr") == CUDA_SUCCESS && bytes == 16);
    uint64_t p = 0, t[2] = {0, 1}, c[2] = {1, 0};
    CHECK(cuMemcpyDtoH_v2(&p, ptr, 8) == CUDA_SUCCESS && p == vals + 8);
    CHECK(cuMemcpyDtoH_v2(t, table, 16) == CUDA_SUCCESS && t[0] != 0 && t[1] == 0);
    CHECK(cuMemcpyDtoH_v2(c, cptr, 16) == CUDA_SUCCESS && c[0] == 0 && c[1] == ptr);
    int third = 0;
    CHECK(cuMemcpyDtoH_v2(&third, (CUdeviceptr)p, 4) == CUDA_SUCCESS && third == 3);
    CHECK(cuModuleUnload(m) == CUDA_SUCCESS);
}

int main(void)
{
    CHECK(cuInit(0) == CUDA_SUCCESS);
    CUcontext ctx = NULL;
    CHECK(cuDevicePrimaryCtxRetain(&ctx, 0) == CUDA_SUCCESS && cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
    test_sass_only();
    test_rejected_ptx();
    test_newer_ptx();
    test_relocations();
    CHECK(cuDevicePrimaryCtxRelease_v2(0) == CUDA_SUCCESS);
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    else
        printf("test_driver_images: ok\n");
    return failures != 0;
}
