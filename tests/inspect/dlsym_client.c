/* dlsym_client.c: a driver client in the style of Numba, CuPy through
 * ctypes, or cuda-python: it dlopen()s libcuda.so.1 and looks every entry
 * point up by name with dlsym(), never through cuGetProcAddress.
 *
 *   dlsym_client LIBCUDA MOCK
 *
 * Under the cuda pass-through (CUBRIDGE_BACKEND=cuda, CUBRIDGE_REAL_LIBCUDA=
 * MOCK, mock_libcuda.c) each call must reach the mock: it runs a Numba-like
 * sequence (init, device, primary context, memory, a PTX module, a launch of
 * scale(y, a, n), copies back), checks the result the mock computed, checks
 * with the mock's own counters that each call reached it, and that a
 * symbol the mock lacks (cuArrayCreate_v2) answers CUDA_ERROR_NOT_SUPPORTED.
 * Prints "dlsym client: PASS" and exits 0 on success.
 *
 *   dlsym_client LIBCUDA --no-driver
 *
 * When the pass-through finds no usable driver: every call answers
 * CUDA_ERROR_NO_DEVICE ("dlsym client: no driver: PASS").
 *
 *   dlsym_client LIBCUDA MOCK --fault
 *
 * With the mock's MOCK_LIBCUDA_FAULT set, the kernel "faults" on the GPU: the
 * launch call must still succeed (under verify too), and the fault surfaces,
 * sticky, at the next synchronisation ("dlsym client: fault: PASS").
 *
 *   dlsym_client LIBCUDA MOCK --texture
 *
 * The normal sequence, then a launch of a kernel that reads a texture
 * object: it runs (the mock scales y), and verify skips its check. */
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(c)                                                                                            \
    do {                                                                                                    \
        if (!(c)) {                                                                                         \
            fprintf(stderr, "dlsym_client.c:%d: CHECK failed: %s\n", __LINE__, #c);                         \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)

static void *driver;

/* The entry point by exported name, as ctypes finds it. */
#define SYM(name) ((__typeof__(&name))dlsym(driver, #name))

static const char ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry scale(.param .u64 y, .param .f32 a, .param .u32 n)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [y];\n  ld.param.f32 %f1, [a];\n  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n  setp.ge.u32 %p1, %r5, %r1;\n  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n  mul.wide.u32 %rd3, %r5, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
    "  ld.global.f32 %f2, [%rd4];\n  mul.f32 %f3, %f2, %f1;\n  st.global.f32 [%rd4], %f3;\n"
    "DONE:\n  ret;\n}\n";

/* A kernel that fetches from a texture object (a GPU handle): verify must
 * skip it with the reason, not run the CPU reference on the handle. */
static const char tex_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry scale(.param .u64 y, .param .f32 a, .param .u32 n, .param .u64 t)\n{\n"
    "  .reg .b32 %r<2>;\n  .reg .f32 %f<5>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [y];\n  ld.param.u64 %rd2, [t];\n  mov.u32 %r1, %tid.x;\n"
    "  tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd2, {%r1}];\n"
    "  st.global.f32 [%rd1], %f1;\n  ret;\n}\n";

/* No real driver: every entry point answers CUDA_ERROR_NO_DEVICE. */
static int no_driver(void)
{
    int count = -1;
    CUdeviceptr p = 0;
    CHECK(SYM(cuInit)(0) == CUDA_ERROR_NO_DEVICE);
    CHECK(SYM(cuDeviceGetCount)(&count) == CUDA_ERROR_NO_DEVICE && count == -1);
    CHECK(SYM(cuMemAlloc_v2)(&p, 64) == CUDA_ERROR_NO_DEVICE && p == 0);
    if (failures)
        return 1;
    printf("dlsym client: no driver: PASS\n");
    return 0;
}

int main(int argc, char **argv)
{
    int fault = argc == 4 && strcmp(argv[3], "--fault") == 0;
    int texture = argc == 4 && strcmp(argv[3], "--texture") == 0;
    if (argc != 3 && !fault && !texture) {
        fprintf(stderr, "usage: dlsym_client LIBCUDA MOCK [--fault|--texture]\n");
        return 2;
    }
    driver = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!driver) {
        fprintf(stderr, "dlopen %s: %s\n", argv[1], dlerror());
        return 2;
    }
    if (strcmp(argv[2], "--no-driver") == 0)
        return no_driver();
    int version = 0, count = 0;
    CUdevice dev = -1;
    char name[64] = "";
    CUcontext ctx = NULL;
    CHECK(SYM(cuInit)(0) == CUDA_SUCCESS);
    CHECK(SYM(cuDriverGetVersion)(&version) == CUDA_SUCCESS && version == 13000);
    CHECK(SYM(cuDeviceGetCount)(&count) == CUDA_SUCCESS && count == 1);
    CHECK(SYM(cuDeviceGet)(&dev, 0) == CUDA_SUCCESS && dev == 0);
    CHECK(SYM(cuDeviceGetName)(name, sizeof name, dev) == CUDA_SUCCESS && strcmp(name, "Mock GPU") == 0);
    CHECK(SYM(cuDevicePrimaryCtxRetain)(&ctx, dev) == CUDA_SUCCESS && ctx);
    CHECK(SYM(cuCtxPushCurrent_v2)(ctx) == CUDA_SUCCESS);

    enum { N = 200 };
    float host[N];
    for (int i = 0; i < N; i++)
        host[i] = (float)i * 0.5f;
    CUdeviceptr y = 0;
    CHECK(SYM(cuMemAlloc_v2)(&y, sizeof host) == CUDA_SUCCESS && y);
    CHECK(SYM(cuMemcpyHtoD_v2)(y, host, sizeof host) == CUDA_SUCCESS);
    CUmodule mod = NULL;
    CUfunction fn = NULL;
    CHECK(SYM(cuModuleLoadDataEx)(&mod, ptx, 0, NULL, NULL) == CUDA_SUCCESS);
    CHECK(SYM(cuModuleGetFunction)(&fn, mod, "scale") == CUDA_SUCCESS);
    float a = 3.0f;
    unsigned n = N;
    void *args[] = {&y, &a, &n};
    CHECK(SYM(cuLaunchKernel)(fn, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS);
    if (fault) {
        CHECK(SYM(cuCtxSynchronize)() == CUDA_ERROR_LAUNCH_FAILED);
        CHECK(SYM(cuCtxSynchronize)() == CUDA_ERROR_LAUNCH_FAILED);
        if (failures)
            return 1;
        printf("dlsym client: fault: PASS\n");
        return 0;
    }
    CHECK(SYM(cuCtxSynchronize)() == CUDA_SUCCESS);
    CHECK(SYM(cuMemcpyDtoH_v2)(host, y, sizeof host) == CUDA_SUCCESS);
    for (int i = 0; i < N; i++)
        if (host[i] != (float)i * 1.5f) {
            CHECK(host[i] == (float)i * 1.5f);
            break;
        }
    if (texture) {
        CUmodule tmod = NULL;
        CUfunction tfn = NULL;
        unsigned long long tex = 1; /* a GPU's texture handle: a small integer */
        void *targs[] = {&y, &a, &n, &tex};
        CHECK(SYM(cuModuleLoadDataEx)(&tmod, tex_ptx, 0, NULL, NULL) == CUDA_SUCCESS);
        CHECK(SYM(cuModuleGetFunction)(&tfn, tmod, "scale") == CUDA_SUCCESS);
        CHECK(SYM(cuLaunchKernel)(tfn, 1, 1, 1, 64, 1, 1, 0, NULL, targs, NULL) == CUDA_SUCCESS);
        CHECK(SYM(cuCtxSynchronize)() == CUDA_SUCCESS);
        CHECK(SYM(cuModuleUnload)(tmod) == CUDA_SUCCESS);
    }
    CHECK(SYM(cuMemFree_v2)(y) == CUDA_SUCCESS);
    CHECK(SYM(cuModuleUnload)(mod) == CUDA_SUCCESS);

    /* the real driver lacks it: refused, never faked */
    CUarray arr = NULL;
    CUDA_ARRAY_DESCRIPTOR desc = {16, 16, CU_AD_FORMAT_FLOAT, 1};
    CHECK(SYM(cuArrayCreate_v2)(&arr, &desc) == CUDA_ERROR_NOT_SUPPORTED);

    /* every call reached the mock, once per call made here */
    void *mock = dlopen(argv[2], RTLD_NOW | RTLD_NOLOAD);
    int (*calls)(const char *) = mock ? (int (*)(const char *))dlsym(mock, "mock_calls") : NULL;
    CHECK(calls != NULL);
    if (calls) {
        static const char *const reached[] = {
            "cuDriverGetVersion", "cuDeviceGetCount",    "cuDevicePrimaryCtxRetain", "cuCtxPushCurrent_v2",
            "cuMemAlloc_v2",      "cuMemcpyHtoD_v2",     "cuModuleLoadDataEx",       "cuModuleGetFunction",
            "cuLaunchKernel",     "cuMemFree_v2",        "cuModuleUnload",
        };
        for (size_t i = 0; i < sizeof reached / sizeof reached[0]; i++) {
            if (calls(reached[i]) < 1) {
                fprintf(stderr, "%s did not reach the real driver\n", reached[i]);
                failures++;
            }
        }
        CHECK(calls("cuInit") >= 1 && calls("cuDeviceGet") >= 1 && calls("cuDeviceGetName") >= 1);
    }
    if (failures) {
        fprintf(stderr, "dlsym client: %d failures\n", failures);
        return 1;
    }
    printf("dlsym client: PASS\n");
    return 0;
}
