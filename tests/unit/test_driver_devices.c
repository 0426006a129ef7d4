/* test_driver_devices.c: several devices from the backend registry
 * (CUBRIDGE_DEVICES=cpu,cpu,mock): cuDeviceGetCount, each device's name,
 * UUID and attributes, memory owned by the device of the context that
 * allocated it, peer access between the two CPU devices and its refusal
 * with the mock (whose memory the CPU cannot address), peer copies in every
 * pairing (staged through host memory between two backends), a kernel on
 * device 1 reading memory of device 0 after cuCtxEnablePeerAccess, and the
 * error codes: an unknown device (CUDA_ERROR_INVALID_DEVICE), peer access
 * to the same device (CUDA_ERROR_INVALID_DEVICE), twice
 * (CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED), when not enabled
 * (CUDA_ERROR_PEER_ACCESS_NOT_ENABLED), to a destroyed context
 * (CUDA_ERROR_INVALID_CONTEXT), bad flags (CUDA_ERROR_INVALID_VALUE), and
 * with the mock (CUDA_ERROR_PEER_ACCESS_UNSUPPORTED). */
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    ".visible .entry twice(.param .u64 out, .param .u64 in)\n{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [in];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.u64 %rd4, %rd2, %rd3;\n  ld.global.u32 %r2, [%rd4];\n  add.u32 %r3, %r2, %r2;\n"
    "  add.u64 %rd5, %rd1, %rd3;\n  st.global.u32 [%rd5], %r3;\n  ret;\n}\n";

static void test_devices(void)
{
    int n = 0;
    OK(cuDeviceGetCount(&n));
    CHECK(n == 3);
    char name[256];
    OK(cuDeviceGetName(name, sizeof name, 2));
    CHECK(strstr(name, "Mock device") == name);
    CUuuid u0, u1;
    OK(cuDeviceGetUuid_v2(&u0, 0));
    OK(cuDeviceGetUuid_v2(&u1, 1));
    CHECK(memcmp(&u0, &u1, sizeof u0) != 0);   /* two devices, not one twice */
    CUdevice d;
    CHECK(cuDeviceGet(&d, 3) == CUDA_ERROR_INVALID_DEVICE);
    OK(cuDeviceGet(&d, 2));
    CHECK(d == 2);
    int can = -1;
    OK(cuDeviceCanAccessPeer(&can, 0, 1));
    CHECK(can == 1);
    OK(cuDeviceCanAccessPeer(&can, 1, 0));
    CHECK(can == 1);
    OK(cuDeviceCanAccessPeer(&can, 0, 0));
    CHECK(can == 0);
    OK(cuDeviceCanAccessPeer(&can, 0, 2));
    CHECK(can == 0);   /* the mock's memory is not host memory */
    OK(cuDeviceCanAccessPeer(&can, 2, 0));
    CHECK(can == 0);   /* the mock reaches no host memory */
    CHECK(cuDeviceCanAccessPeer(&can, 0, 7) == CUDA_ERROR_INVALID_DEVICE);
    CHECK(cuDeviceCanAccessPeer(NULL, 0, 1) == CUDA_ERROR_INVALID_VALUE);
    int v = -1;
    OK(cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 1));
    CHECK(v == 1);
    OK(cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 1, 2));
    CHECK(v == 0);
    CHECK(cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 1, 1) == CUDA_ERROR_INVALID_DEVICE);
    CHECK(cuDeviceGetP2PAttribute(&v, (CUdevice_P2PAttribute)99, 0, 1) == CUDA_ERROR_INVALID_VALUE);
}

static void test_peers(void)
{
    CUcontext c0, c1, c2;
    OK(cuDevicePrimaryCtxRetain(&c0, 0));
    OK(cuDevicePrimaryCtxRetain(&c1, 1));
    OK(cuDevicePrimaryCtxRetain(&c2, 2));
    enum { N = 128 };
    unsigned host[N], back[N];
    for (int i = 0; i < N; i++)
        host[i] = (unsigned)i * 7u;
    CUdeviceptr a0, a1, a2;
    OK(cuCtxSetCurrent(c0));
    OK(cuMemAlloc_v2(&a0, sizeof host));
    OK(cuMemcpyHtoD_v2(a0, host, sizeof host));
    OK(cuCtxSetCurrent(c1));
    OK(cuMemAlloc_v2(&a1, sizeof host));
    OK(cuCtxSetCurrent(c2));
    OK(cuMemAlloc_v2(&a2, sizeof host));
    CHECK(mock_is_device_address(a2) && !mock_is_device_address(a0));
    unsigned id0 = 0, id2 = 0;
    OK(cuPointerGetAttribute(&id0, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, a0));
    OK(cuPointerGetAttribute(&id2, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, a2));
    CHECK(id0 == 0 && id2 == 2);
    /* peer copies: cpu -> cpu, cpu -> mock, mock -> cpu */
    OK(cuMemcpyPeer(a1, c1, a0, c0, sizeof host));
    OK(cuMemcpyPeer(a2, c2, a1, c1, sizeof host));
    OK(cuCtxSetCurrent(c0));
    OK(cuMemsetD32_v2(a0, 0, N));
    OK(cuMemcpyPeerAsync(a0, c0, a2, c2, sizeof host, NULL));
    OK(cuCtxSynchronize());
    OK(cuMemcpyDtoH_v2(back, a0, sizeof back));
    CHECK(memcmp(host, back, sizeof host) == 0);
    OK(cuCtxSetCurrent(c2));
    memset(back, 0, sizeof back);
    OK(cuMemcpyDtoH_v2(back, a2, sizeof back));
    CHECK(memcmp(host, back, sizeof host) == 0);
    /* peer access: device 1's kernel reads device 0's memory */
    OK(cuCtxSetCurrent(c1));
    CHECK(cuCtxDisablePeerAccess(c0) == CUDA_ERROR_PEER_ACCESS_NOT_ENABLED);
    CHECK(cuCtxEnablePeerAccess(c0, 1) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuCtxEnablePeerAccess(c1, 0) == CUDA_ERROR_INVALID_DEVICE);
    CHECK(cuCtxEnablePeerAccess(c2, 0) == CUDA_ERROR_PEER_ACCESS_UNSUPPORTED);
    OK(cuCtxEnablePeerAccess(c0, 0));
    CHECK(cuCtxEnablePeerAccess(c0, 0) == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED);
    CUmodule mod;
    CUfunction twice;
    OK(cuModuleLoadData(&mod, ptx));
    OK(cuModuleGetFunction(&twice, mod, "twice"));
    void *args[] = {&a1, &a0};
    OK(cuLaunchKernel(twice, 1, 1, 1, N, 1, 1, 0, NULL, args, NULL));
    OK(cuMemcpyDtoH_v2(back, a1, sizeof back));
    CHECK(back[3] == 2 * host[3] && back[N - 1] == 2 * host[N - 1]);
    OK(cuCtxDisablePeerAccess(c0));
    CHECK(cuCtxDisablePeerAccess(c0) == CUDA_ERROR_PEER_ACCESS_NOT_ENABLED);
    OK(cuModuleUnload(mod));
    /* a context that is gone */
    CUcontext tmp;
    OK(cuCtxCreate_v2(&tmp, 0, 0));
    OK(cuCtxPopCurrent_v2(NULL));
    OK(cuCtxSetCurrent(c1));
    OK(cuCtxEnablePeerAccess(tmp, 0));
    OK(cuCtxDestroy_v2(tmp));
    CHECK(cuCtxEnablePeerAccess(tmp, 0) == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(cuCtxDisablePeerAccess(tmp) == CUDA_ERROR_INVALID_CONTEXT);
    OK(cuCtxSetCurrent(c1));
    OK(cuMemFree_v2(a1));
    OK(cuCtxSetCurrent(c0));
    OK(cuMemFree_v2(a0));
    OK(cuCtxSetCurrent(c2));
    OK(cuMemFree_v2(a2));
    OK(cuDevicePrimaryCtxRelease_v2(0));
    OK(cuDevicePrimaryCtxRelease_v2(1));
    OK(cuDevicePrimaryCtxRelease_v2(2));
}

int main(void)
{
    if (mock_register() != 0)
        return 1;
    setenv("CUBRIDGE_DEVICES", "cpu,cpu,mock", 1);
    OK(cuInit(0));
    test_devices();
    test_peers();
    if (failures)
        fprintf(stderr, "test_driver_devices: %d failures\n", failures);
    else
        printf("test_driver_devices: ok\n");
    return failures ? 1 : 0;
}
