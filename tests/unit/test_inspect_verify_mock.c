/* test_inspect_verify_mock.c: verify across two backends. The device is
 * "verify:mock" (the inspector's verify backend wrapping mock_backend.h,
 * whose addresses the host cannot dereference); the reference is found by
 * name ("cpu") in the registry and runs each kernel on copies of what the
 * launch reaches, in its own memory.
 *
 * Checked: a launch that agrees is PASS (its output and a module global
 * compared), the kernel ran once on the mock (not twice in place), a
 * difference planted in the mock's result is DRIFT naming the kernel and
 * the element, strict mode turns drift into CUDA_ERROR_LAUNCH_FAILED, and a
 * kernel reading a texture object (a handle of the mock's) is PASS: the
 * reference makes the object again over its copy of the texels. */
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect_internal.h"
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

/* scale: out[i] = in[i] * f, and thread 0 stores 42 into the global `flag`. */
static const char ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".global .align 4 .u32 flag;\n"
    ".visible .entry scale(.param .u64 out, .param .u64 in, .param .f32 f)\n{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<3>; .reg .f32 %f<4>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [in]; ld.param.f32 %f1, [f];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.u64 %rd4, %rd2, %rd3;\n  ld.global.f32 %f2, [%rd4];\n  mul.f32 %f3, %f2, %f1;\n"
    "  add.u64 %rd5, %rd1, %rd3;\n  st.global.f32 [%rd5], %f3;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra DONE;\n  mov.u32 %r2, 42;\n  st.global.u32 [flag], %r2;\n"
    "DONE:\n  ret;\n}\n"
    ".visible .entry fetch(.param .u64 tex, .param .u64 out)\n{\n"
    "  .reg .b32 %r<2>; .reg .f32 %f<8>; .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [tex];\n  ld.param.u64 %rd2, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  cvt.rn.f32.u32 %f1, %r1;\n  add.f32 %f1, %f1, 0f3F000000;\n"
    "  tex.1d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%f1}];\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n  add.u64 %rd4, %rd2, %rd3;\n  st.global.f32 [%rd4], %f2;\n  ret;\n}\n";

/* The verdict and note of launch i of the record. */
static cbi_verdict verdict(size_t i, char *note, size_t len)
{
    cbi_lock();
    cbi_record *rec = cbi_rec();
    cbi_verdict v = i < rec->nlaunches ? rec->launches[i].verdict : (cbi_verdict)-1;
    snprintf(note, len, "%s", i < rec->nlaunches ? rec->launches[i].note : "(no such launch)");
    cbi_unlock();
    return v;
}

int main(void)
{
    if (mock_register() != 0)
        return 1;
    setenv("CUBRIDGE_DEVICES", "verify:mock", 1);
    setenv("CUBRIDGE_VERIFY_REFERENCE", "cpu", 1);
    CHECK(cb_inspect_configure("verify", 0, "verify-mock-report", NULL) == 0);
    OK(cuInit(0));
    CUcontext ctx;
    OK(cuDevicePrimaryCtxRetain(&ctx, 0));
    OK(cuCtxSetCurrent(ctx));
    CUmodule mod;
    OK(cuModuleLoadData(&mod, ptx));
    CUfunction scale, fetch;
    OK(cuModuleGetFunction(&scale, mod, "scale"));
    OK(cuModuleGetFunction(&fetch, mod, "fetch"));
    enum { N = 64 };
    float in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)i + 0.25f;
    CUdeviceptr din, dout;
    OK(cuMemAlloc_v2(&din, sizeof in));
    OK(cuMemAlloc_v2(&dout, sizeof out));
    CHECK(mock_is_device_address(din) && mock_is_device_address(dout));
    OK(cuMemcpyHtoD_v2(din, in, sizeof in));
    OK(cuMemsetD32_v2(dout, 0, N));
    float f = 3.0f;
    void *args[] = {&dout, &din, &f};
    char note[256];

    /* 1: the mock and the reference agree */
    unsigned before = mock.launches;
    OK(cuLaunchKernel(scale, 1, 1, 1, N, 1, 1, 0, NULL, args, NULL));
    OK(cuCtxSynchronize());
    CHECK(mock.launches == before + 1);   /* the reference ran elsewhere */
    CHECK(verdict(0, note, sizeof note) == CBI_PASS);
    cbi_lock();
    const cbi_launch *L = &cbi_rec()->launches[0];
    int global_checked = 0;
    for (uint32_t i = 0; i < L->nregions; i++)
        global_checked |= strcmp(L->regions[i].name, "global flag") == 0;
    CHECK(L->nregions == 2 && global_checked);
    cbi_unlock();
    OK(cuMemcpyDtoH_v2(out, dout, sizeof out));
    CHECK(out[5] == in[5] * 3.0f);

    /* 2: a difference planted in the mock's result */
    mock.plant_drift = 1;
    OK(cuLaunchKernel(scale, 1, 1, 1, N, 1, 1, 0, NULL, args, NULL));
    OK(cuCtxSynchronize());
    CHECK(verdict(1, note, sizeof note) == CBI_DRIFT);
    CHECK(strstr(note, "DRIFT in kernel scale: param 0") != NULL);
    CHECK(strstr(note, "element [0]") != NULL);
    OK(cuMemcpyDtoH_v2(out, dout, sizeof out));
    CHECK(out[0] == in[0] * 3.0f + 1.0f);   /* the program sees its device's result */

    /* 3: strict: drift fails the launch */
    CHECK(cb_inspect_configure("verify", 1, "verify-mock-report", NULL) == 0);
    OK(cuLaunchKernel(scale, 1, 1, 1, N, 1, 1, 0, NULL, args, NULL));
    CHECK(cuCtxSynchronize() == CUDA_ERROR_LAUNCH_FAILED);
    CHECK(verdict(2, note, sizeof note) == CBI_DRIFT);
    mock.plant_drift = 0;
    OK(cuDevicePrimaryCtxReset_v2(0));   /* the sticky error goes with the context */
    CHECK(cb_inspect_configure("verify", 0, "verify-mock-report", NULL) == 0);

    /* 4: a texture object is the mock's handle: made again on the reference over the copy of its texels */
    OK(cuDevicePrimaryCtxRetain(&ctx, 0));
    OK(cuCtxSetCurrent(ctx));
    OK(cuModuleLoadData(&mod, ptx));
    OK(cuModuleGetFunction(&fetch, mod, "fetch"));
    OK(cuMemAlloc_v2(&dout, sizeof out));
    CUDA_RESOURCE_DESC res;
    memset(&res, 0, sizeof res);
    res.resType = CU_RESOURCE_TYPE_LINEAR;
    res.res.linear.devPtr = dout;
    res.res.linear.format = CU_AD_FORMAT_FLOAT;
    res.res.linear.numChannels = 1;
    res.res.linear.sizeInBytes = sizeof out;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    CUtexObject tex;
    OK(cuTexObjectCreate(&tex, &res, &td, NULL));
    CUdeviceptr d2;
    OK(cuMemAlloc_v2(&d2, sizeof out));
    void *targs[] = {&tex, &d2};
    OK(cuLaunchKernel(fetch, 1, 1, 1, N, 1, 1, 0, NULL, targs, NULL));
    OK(cuCtxSynchronize());
    CHECK(verdict(3, note, sizeof note) == CBI_PASS);
    OK(cuTexObjectDestroy(tex));

    cbi_lock();
    CHECK(strcmp(cbi_rec()->backend, "mock") == 0 || cbi_rec()->backend[0] == 0);
    cbi_unlock();
    OK(cuDevicePrimaryCtxRelease_v2(0));
    cb_inspect_configure("off", 0, NULL, NULL);
    if (failures)
        fprintf(stderr, "test_inspect_verify_mock: %d failures\n", failures);
    else
        printf("test_inspect_verify_mock: ok\n");
    return failures ? 1 : 0;
}
