/* test_driver_cuda_passthrough: the cuda backend (src/passthrough) against a
 * fake NVIDIA driver (fake_libcuda.c, built next to this test): forwarding
 * of cuInit / cuDriverGetVersion / cuGetExportTable, cuGetProcAddress
 * handing out the real driver's pointers and tables (and its symbols that
 * cubridge does not know), what the exported symbols forward to
 * (cb_dispatch_target; tests/inspect/passthrough_dlsym.sh runs a
 * dlsym client end to end), the trace wrappers around them, and verify's
 * differential check of a launch against the CPU reference: PASS when the
 * fake computes what the kernel says, DRIFT when it plants a wrong element. */
/* calls by CUDA name reach the exported symbols (forward.c), as a client's do */
#define CB_DRIVER_NO_RENAME 1
#include "driver/driver.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/dispatch.h"
#include "passthrough/passthrough.h"
#include "inspect/inspect_internal.h"
#include "platform/dl_path.h"

#ifndef CB_FAKE_LIBCUDA
#error "CB_FAKE_LIBCUDA: the path of the fake driver"
#endif

static int failures;
#define CHECK(c)                                                                    \
    do {                                                                            \
        if (!(c)) {                                                                 \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c);   \
            failures++;                                                             \
        }                                                                           \
    } while (0)

static void *fake;   /* the fake driver, as the pass-through loaded it */

static int calls(const char *name)
{
    int (*f)(const char *) = (int (*)(const char *))dlsym(fake, "fake_calls");
    return f ? f(name) : -1;
}

static void *fake_sym(const char *name) { return dlsym(fake, name); }

static const char *ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry scale(.param .u64 y, .param .f32 a, .param .u32 n)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [y];\n  ld.param.f32 %f1, [a];\n  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n  setp.ge.u32 %p1, %r5, %r1;\n  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n  mul.wide.u32 %rd3, %r5, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
    "  ld.global.f32 %f2, [%rd4];\n  mul.f32 %f3, %f2, %f1;\n  st.global.f32 [%rd4], %f3;\n"
    "DONE:\n  ret;\n}\n";

static void *proc(const char *name, int version)
{
    void *p = NULL;
    CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult r = cuGetProcAddress_v2(name, &p, version, 0, &st);
    return r == CUDA_SUCCESS && st == CU_GET_PROC_ADDRESS_SUCCESS ? p : NULL;
}

/* Forwarding with the inspector off: the real pointers, unchanged, except
 * cuInit, the allocations and the launches, which are counted for the exit
 * summary on the way (and still reach the driver). */
static void test_forwarding(void)
{
    int v = 0;
    CHECK(cuDriverGetVersion(&v) == CUDA_SUCCESS && v == 13123);
    CHECK(cuInit(0) == CUDA_SUCCESS && calls("cuInit") == 1);
    CHECK(cuInit(5) == CUDA_ERROR_INVALID_VALUE && calls("cuInit") == 2);
    CHECK(proc("cuMemcpyHtoD", 13000) == fake_sym("cuMemcpyHtoD_v2"));
    CUresult (*alloc)(CUdeviceptr *, size_t) = (CUresult(*)(CUdeviceptr *, size_t))proc("cuMemAlloc", 13000);
    CUresult (*release)(CUdeviceptr) = (CUresult(*)(CUdeviceptr))proc("cuMemFree", 13000);
    int n_alloc = calls("cuMemAlloc_v2");
    CUdeviceptr p = 0;
    CHECK(alloc && alloc(&p, 1 << 20) == CUDA_SUCCESS && calls("cuMemAlloc_v2") == n_alloc + 1);
    CHECK(release && release(p) == CUDA_SUCCESS);
    CHECK(proc("cuLaunchKernel", 13000) != NULL);
    /* symbols cubridge does not know still come from the driver */
    CUresult (*future)(int) = (CUresult(*)(int))proc("cuFakeFutureCall", 13000);
    CHECK(future == fake_sym("cuFakeFutureCall"));
    CHECK(future && future(1) == CUDA_SUCCESS && calls("cuFakeFutureCall") == 1);
    /* cuGetProcAddress stays cubridge's, so later look-ups come back here */
    CHECK(proc("cuGetProcAddress", 13000) == (void *)cb_exports[CB_EXP_cuGetProcAddress_v2].fn);
    /* export tables: the driver's own, by symbol and through cuGetProcAddress */
    CUuuid id;
    memset(&id, 0x42, sizeof id);
    const void *t = NULL;
    CHECK(cuGetExportTable(&t, &id) == CUDA_SUCCESS && t == fake_sym("fake_export_table"));
    CUresult (*get)(const void **, const CUuuid *) = (CUresult(*)(const void **, const CUuuid *))proc(
        "cuGetExportTable", 13000);
    CHECK(get == fake_sym("cuGetExportTable"));
    t = NULL;
    CHECK(get && get(&t, &id) == CUDA_SUCCESS && t == fake_sym("fake_export_table"));
    CHECK(strcmp(cb_passthrough_real_path(), CB_FAKE_LIBCUDA) == 0);
    /* what the exported symbols (calls by name, dlsym) forward to */
    CHECK((void *)cb_dispatch_target(CB_EXP_cuMemcpyDtoH_v2) == fake_sym("cuMemcpyDtoH_v2"));
    CHECK(cb_dispatch_target(CB_EXP_cuMemAlloc_v2) != NULL);   /* counted on the way */
    CHECK(cb_dispatch_target(CB_EXP_cuGetProcAddress_v2) == cb_exports[CB_EXP_cuGetProcAddress_v2].fn);
    /* the fake lacks it: cubridge's NOT_SUPPORTED stub, counted */
    CHECK(cb_dispatch_target(CB_EXP_cuArrayCreate_v2) == cb_exports[CB_EXP_cuArrayCreate_v2].stub);
    CHECK(cb_dispatch_target(-1) == NULL);
    CHECK(cb_passthrough_forward(CB_EXP_cuMemcpyDtoH_v2) == cb_dispatch_target(CB_EXP_cuMemcpyDtoH_v2));
    CHECK(cb_dispatch_personality_active() && strcmp(cb_dispatch_personality_active()->name, "cuda") == 0);
    int before = calls("cuMemAlloc_v2");
    CUdeviceptr d = 0;
    CHECK(cuMemAlloc_v2(&d, 16) == CUDA_SUCCESS && d != 0 && calls("cuMemAlloc_v2") == before + 1);
    CHECK(cuMemFree_v2(d) == CUDA_SUCCESS);
    CUarray arr = NULL;
    CUDA_ARRAY_DESCRIPTOR desc = {4, 4, CU_AD_FORMAT_FLOAT, 1};
    CHECK(cuArrayCreate_v2(&arr, &desc) == CUDA_ERROR_NOT_SUPPORTED);
    /* the exit summary: the pass-through's view */
    char line[1024];
    cb_passthrough_summary(line, sizeof line);
    fprintf(stderr, "%s\n", line);
    CHECK(strstr(line, "backend cuda (pass-through to " CB_FAKE_LIBCUDA ")") != NULL);
    CHECK(strstr(line, "2 allocations, peak 1.0 MiB") != NULL);
    CHECK(strstr(line, "cuArrayCreate_v2") != NULL);
}

/* Tracing: a wrapper around the driver's pointer, arguments and results
 * unchanged, and the call recorded. */
static void test_trace(void)
{
    CHECK(cb_inspect_configure("trace", 0, "cuda-pt-report", NULL) == 0);
    CUresult (*alloc)(CUdeviceptr *, size_t) = (CUresult(*)(CUdeviceptr *, size_t))proc("cuMemAlloc", 13000);
    CHECK(alloc && (void *)alloc != fake_sym("cuMemAlloc_v2"));
    int before = calls("cuMemAlloc_v2");
    CUdeviceptr p = 0;
    CHECK(alloc && alloc(&p, 64) == CUDA_SUCCESS && p != 0);
    CHECK(calls("cuMemAlloc_v2") == before + 1);
    cbi_lock();
    CHECK(cbi_rec()->exports[CB_EXP_cuMemAlloc_v2].calls == 1);
    cbi_unlock();
    CUresult (*release)(CUdeviceptr) = (CUresult(*)(CUdeviceptr))proc("cuMemFree", 13000);
    CHECK(release && release(p) == CUDA_SUCCESS);
}

typedef struct api {
    CUresult (*alloc)(CUdeviceptr *, size_t);
    CUresult (*release)(CUdeviceptr);
    CUresult (*htod)(CUdeviceptr, const void *, size_t);
    CUresult (*dtoh)(void *, CUdeviceptr, size_t);
    CUresult (*load)(CUlibrary *, const void *, CUjit_option *, void **, unsigned, CUlibraryOption *, void **,
                     unsigned);
    CUresult (*kernel)(CUkernel *, CUlibrary, const char *);
    CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                       void **, void **);
} api;

/* One launch of scale over 100 floats; the verdict the inspector gave it. */
static cbi_verdict verified_launch(const api *a, CUfunction f, int bug)
{
    void (*set_bug)(int) = (void (*)(int))fake_sym("fake_set_bug");
    set_bug(bug);
    enum { N = 100 };
    float host[N];
    for (int i = 0; i < N; i++)
        host[i] = (float)i * 0.25f;
    CUdeviceptr y = 0;
    CHECK(a->alloc(&y, sizeof host) == CUDA_SUCCESS);
    CHECK(a->htod(y, host, sizeof host) == CUDA_SUCCESS);
    float s = 3.0f;
    unsigned n = N;
    void *args[] = {&y, &s, &n};
    CHECK(a->launch(f, 2, 1, 1, 64, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS);
    CHECK(a->dtoh(host, y, sizeof host) == CUDA_SUCCESS);
    CHECK(host[2] == 1.5f);
    CHECK(a->release(y) == CUDA_SUCCESS);
    cbi_lock();
    cbi_record *rec = cbi_rec();
    cbi_verdict v = rec->nlaunches ? rec->launches[rec->nlaunches - 1].verdict : CBI_TRACED;
    if (rec->nlaunches)
        fprintf(stderr, "launch %zu: %s %s\n", rec->nlaunches, cbi_verdict_name(v),
                rec->launches[rec->nlaunches - 1].note);
    cbi_unlock();
    return v;
}

/* Verify: the fake GPU's result against cubridge's CPU reference. */
static void test_verify(void)
{
    CHECK(cb_inspect_configure("verify", 0, "cuda-pt-report", NULL) == 0);
    api a;
    a.alloc = (CUresult(*)(CUdeviceptr *, size_t))proc("cuMemAlloc", 13000);
    a.release = (CUresult(*)(CUdeviceptr))proc("cuMemFree", 13000);
    a.htod = (CUresult(*)(CUdeviceptr, const void *, size_t))proc("cuMemcpyHtoD", 13000);
    a.dtoh = (CUresult(*)(void *, CUdeviceptr, size_t))proc("cuMemcpyDtoH", 13000);
    a.load = (CUresult(*)(CUlibrary *, const void *, CUjit_option *, void **, unsigned, CUlibraryOption *, void **,
                          unsigned))proc("cuLibraryLoadData", 13000);
    a.kernel = (CUresult(*)(CUkernel *, CUlibrary, const char *))proc("cuLibraryGetKernel", 13000);
    a.launch = (CUresult(*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                            CUstream, void **, void **))proc("cuLaunchKernel", 13000);
    CHECK(a.alloc && a.release && a.htod && a.dtoh && a.load && a.kernel && a.launch);
    if (!(a.alloc && a.release && a.htod && a.dtoh && a.load && a.kernel && a.launch))
        return;
    CUlibrary lib = NULL;
    CUkernel k = NULL;
    CHECK(a.load(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0) == CUDA_SUCCESS);
    CHECK(a.kernel(&k, lib, "scale") == CUDA_SUCCESS);
    CHECK(verified_launch(&a, (CUfunction)k, 0) == CBI_PASS);
    CHECK(verified_launch(&a, (CUfunction)k, 1) == CBI_DRIFT);
    /* a handle no watched call produced: runs, recorded as SKIPPED */
    CUfunction unknown = (CUfunction)&failures;
    CHECK(a.launch(unknown, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL) == CUDA_ERROR_INVALID_HANDLE);
    cbi_lock();
    cbi_record *rec = cbi_rec();
    CHECK(rec->nlaunches == 3 && rec->launches[2].verdict == CBI_FAILED);
    CHECK(strcmp(rec->backend, "cuda") == 0 && strcmp(rec->device, "Fake GPU") == 0);
    cbi_unlock();
    CHECK(calls("cuLaunchKernel") == 3);
}

int main(void)
{
    setenv("CUBRIDGE_BACKEND", "cuda", 1);
    setenv("CUBRIDGE_REAL_LIBCUDA", CB_FAKE_LIBCUDA, 1);
    CHECK(cb_passthrough_wanted() == 1);
    CHECK(cb_passthrough_load() == CUDA_SUCCESS);
    fake = dlopen(CB_FAKE_LIBCUDA, RTLD_NOW | RTLD_NOLOAD);
    CHECK(fake != NULL);
    if (!fake)
        return 1;
    CHECK(cb_fs_same_file(CB_FAKE_LIBCUDA, CB_FAKE_LIBCUDA) == 1);
    test_forwarding();
    test_trace();
    test_verify();
    cb_inspect_configure("off", 0, NULL, NULL);
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    return failures != 0;
}
