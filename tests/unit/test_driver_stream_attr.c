/* test_driver_stream_attr.c: stream and kernel node attributes,
 * cuStreamAttachMemAsync and the L2 facts, through the driver API: each
 * error they return and the values read back. */
#include "driver/driver.h"

#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                                         \
    do {                                                                                                    \
        if (!(cond)) {                                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                         \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)

static const char ptx[] = ".version 9.0\n.target sm_75\n.address_size 64\n"
                          ".visible .entry noop(.param .u64 p)\n{\nret;\n}\n";

static void test_l2(void)
{
    int l2 = 0, persist = 0, window = 0;
    CHECK(cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 0) == CUDA_SUCCESS && l2 > 0);
    CHECK(cuDeviceGetAttribute(&persist, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE, 0) == CUDA_SUCCESS);
    CHECK(persist > 0 && persist <= l2 && persist % 65536 == 0);
    CHECK(cuDeviceGetAttribute(&window, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, 0) == CUDA_SUCCESS);
    CHECK(window == 134213632);
    size_t v = 1;
    CHECK(cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 1 << 20) == CUDA_SUCCESS);
    CHECK(cuCtxGetLimit(&v, CU_LIMIT_PERSISTING_L2_CACHE_SIZE) == CUDA_SUCCESS && v == 1 << 20);
    CHECK(cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, (size_t)persist * 4) == CUDA_SUCCESS);   /* clamped */
    CHECK(cuCtxGetLimit(&v, CU_LIMIT_PERSISTING_L2_CACHE_SIZE) == CUDA_SUCCESS && v == (size_t)persist);
    CHECK(cuCtxResetPersistingL2Cache() == CUDA_SUCCESS);
    CHECK(cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 0) == CUDA_SUCCESS);
}

static void test_stream(CUstream s, CUstream s2)
{
    CUstreamAttrValue v, back;
    memset(&v, 0, sizeof v);
    v.accessPolicyWindow.base_ptr = (void *)0x1000;
    v.accessPolicyWindow.num_bytes = 4096;
    v.accessPolicyWindow.hitRatio = 0.75f;
    v.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
    v.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_STREAMING;
    CHECK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v) == CUDA_SUCCESS);
    CHECK(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &back) == CUDA_SUCCESS);
    CHECK(back.accessPolicyWindow.num_bytes == 4096 && back.accessPolicyWindow.hitRatio == 0.75f);
    CUstreamAttrValue bad = v;
    bad.accessPolicyWindow.num_bytes = 134213632 + 1;
    CHECK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &bad) == CUDA_ERROR_INVALID_VALUE);
    bad = v;
    bad.accessPolicyWindow.hitRatio = 1.5f;
    CHECK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &bad) == CUDA_ERROR_INVALID_VALUE);
    bad = v;
    bad.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_PERSISTING;
    CHECK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &bad) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, NULL) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuStreamGetAttribute(s, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &back) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuStreamSetAttribute((CUstream)&v, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v) ==
          CUDA_ERROR_INVALID_HANDLE);

    CHECK(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &back) == CUDA_SUCCESS &&
          back.syncPolicy == CU_SYNC_POLICY_AUTO);
    memset(&v, 0, sizeof v);
    v.syncPolicy = CU_SYNC_POLICY_YIELD;
    CHECK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v) == CUDA_SUCCESS);
    CHECK(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &back) == CUDA_SUCCESS &&
          back.syncPolicy == CU_SYNC_POLICY_YIELD);
    v.syncPolicy = (CUsynchronizationPolicy)9;
    CHECK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v) == CUDA_ERROR_INVALID_VALUE);
    memset(&v, 0, sizeof v);
    v.memSyncDomain = (CUlaunchMemSyncDomain)7;
    CHECK(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, &v) == CUDA_ERROR_INVALID_VALUE);
    v.memSyncDomain = CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
    CHECK(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, &v) == CUDA_SUCCESS);
    v.priority = -3;
    CHECK(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_PRIORITY, &v) == CUDA_SUCCESS);
    CHECK(cuStreamGetAttribute(s, CU_LAUNCH_ATTRIBUTE_PRIORITY, &back) == CUDA_SUCCESS && back.priority == 0);

    CHECK(cuStreamCopyAttributes(s2, s) == CUDA_SUCCESS);
    CHECK(cuStreamGetAttribute(s2, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &back) == CUDA_SUCCESS &&
          back.accessPolicyWindow.num_bytes == 4096);
    CHECK(cuStreamGetAttribute(s2, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, &back) == CUDA_SUCCESS &&
          back.memSyncDomain == CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE);
    CHECK(cuStreamGetAttribute_ptsz(NULL, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &back) == CUDA_SUCCESS);
}

static void test_kernel_node(CUfunction f)
{
    CUgraph g;
    CHECK(cuGraphCreate(&g, 0) == CUDA_SUCCESS);
    CUdeviceptr arg = 0;
    void *args[] = {&arg};
    CUDA_KERNEL_NODE_PARAMS kp;
    memset(&kp, 0, sizeof kp);
    kp.func = f;
    kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
    kp.blockDimX = 32;
    kp.blockDimY = kp.blockDimZ = 1;
    kp.kernelParams = args;
    CUgraphNode k = NULL, empty = NULL;
    CHECK(cuGraphAddKernelNode_v2(&k, g, NULL, 0, &kp) == CUDA_SUCCESS);
    CHECK(cuGraphAddEmptyNode(&empty, g, NULL, 0) == CUDA_SUCCESS);
    CUkernelNodeAttrValue v, back;
    memset(&v, 0, sizeof v);
    v.accessPolicyWindow.num_bytes = 1024;
    v.accessPolicyWindow.hitRatio = 1.0f;
    CHECK(cuGraphKernelNodeSetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v) == CUDA_SUCCESS);
    CHECK(cuGraphKernelNodeGetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_ACCESS_POLICY_WINDOW, &back) == CUDA_SUCCESS &&
          back.accessPolicyWindow.num_bytes == 1024);
    CHECK(cuGraphKernelNodeSetAttribute(empty, CU_KERNEL_NODE_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v) ==
          CUDA_ERROR_INVALID_VALUE);   /* not a kernel node */
    v.accessPolicyWindow.hitRatio = -1.0f;
    CHECK(cuGraphKernelNodeSetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v) ==
          CUDA_ERROR_INVALID_VALUE);
    memset(&v, 0, sizeof v);
    v.cooperative = 1;
    CHECK(cuGraphKernelNodeSetAttribute(k, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v) == CUDA_SUCCESS);
    CHECK(cuGraphKernelNodeGetAttribute(k, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &back) == CUDA_SUCCESS &&
          back.cooperative == 1);
    CUgraphNode big = NULL;
    kp.gridDimX = 1u << 20;   /* far over the cooperative limit */
    CHECK(cuGraphAddKernelNode_v2(&big, g, NULL, 0, &kp) == CUDA_SUCCESS);
    CHECK(cuGraphKernelNodeSetAttribute(big, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v) ==
          CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
    CHECK(cuGraphKernelNodeCopyAttributes(big, k) == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
    memset(&v, 0, sizeof v);
    v.clusterDim.x = 2;
    v.clusterDim.y = v.clusterDim.z = 1;
    CHECK(cuGraphKernelNodeSetAttribute(k, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &v) == CUDA_ERROR_NOT_SUPPORTED);
    v.clusterDim.x = 1;
    CHECK(cuGraphKernelNodeSetAttribute(k, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &v) == CUDA_SUCCESS);
    CHECK(cuGraphKernelNodeSetAttribute(k, CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, &v) ==
          CUDA_ERROR_NOT_SUPPORTED);
    CHECK(cuGraphKernelNodeGetAttribute(k, CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT, &back) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuGraphKernelNodeGetAttribute(k, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, NULL) == CUDA_ERROR_INVALID_VALUE);

    /* the cooperative node runs as one */
    CUgraphExec e;
    CHECK(cuGraphDestroy(g) == CUDA_SUCCESS);
    CHECK(cuGraphCreate(&g, 0) == CUDA_SUCCESS);
    kp.gridDimX = 1;
    CHECK(cuGraphAddKernelNode_v2(&k, g, NULL, 0, &kp) == CUDA_SUCCESS);
    memset(&v, 0, sizeof v);
    v.cooperative = 1;
    CHECK(cuGraphKernelNodeSetAttribute(k, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v) == CUDA_SUCCESS);
    CHECK(cuGraphInstantiateWithFlags(&e, g, 0) == CUDA_SUCCESS);
    CHECK(cuGraphLaunch(e, NULL) == CUDA_SUCCESS && cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(cuGraphExecDestroy(e) == CUDA_SUCCESS);
    CHECK(cuGraphDestroy(g) == CUDA_SUCCESS);
}

static void test_attach(CUstream s)
{
    CUdeviceptr m = 0, d = 0;
    CHECK(cuMemAllocManaged(&m, 4096, CU_MEM_ATTACH_GLOBAL) == CUDA_SUCCESS);
    CHECK(cuMemAlloc_v2(&d, 4096) == CUDA_SUCCESS);
    CHECK(cuStreamAttachMemAsync(s, m, 0, CU_MEM_ATTACH_SINGLE) == CUDA_SUCCESS);
    CHECK(cuStreamAttachMemAsync(s, m, 4096, CU_MEM_ATTACH_HOST) == CUDA_SUCCESS);
    CHECK(cuStreamAttachMemAsync_ptsz(NULL, m, 0, CU_MEM_ATTACH_GLOBAL) == CUDA_SUCCESS);
    CHECK(cuStreamAttachMemAsync(s, m, 2048, CU_MEM_ATTACH_GLOBAL) == CUDA_ERROR_INVALID_VALUE);   /* a part */
    CHECK(cuStreamAttachMemAsync(s, m + 64, 0, CU_MEM_ATTACH_GLOBAL) == CUDA_ERROR_INVALID_VALUE);  /* inside */
    CHECK(cuStreamAttachMemAsync(s, m, 0, 0x10) == CUDA_ERROR_INVALID_VALUE);                     /* flags */
    CHECK(cuStreamAttachMemAsync(s, d, 0, CU_MEM_ATTACH_GLOBAL) == CUDA_ERROR_INVALID_VALUE);      /* not managed */
    int host = 0;
    CHECK(cuStreamAttachMemAsync(s, (CUdeviceptr)(uintptr_t)&host, 4, CU_MEM_ATTACH_GLOBAL) ==
          CUDA_ERROR_INVALID_VALUE);   /* pageable memory: PAGEABLE_MEMORY_ACCESS is 0 */
    CHECK(cuStreamSynchronize(s) == CUDA_SUCCESS);
    CHECK(cuMemFree_v2(m) == CUDA_SUCCESS && cuMemFree_v2(d) == CUDA_SUCCESS);
}

int main(void)
{
    CHECK(cuStreamAttachMemAsync(NULL, 0, 0, 0) == CUDA_ERROR_NOT_INITIALIZED);
    CHECK(cuInit(0) == CUDA_SUCCESS);
    CUcontext ctx = NULL;
    CHECK(cuDevicePrimaryCtxRetain(&ctx, 0) == CUDA_SUCCESS && cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
    CUstream s = NULL, s2 = NULL;
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
    CHECK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
    CUmodule mod = NULL;
    CUfunction f = NULL;
    CHECK(cuModuleLoadData(&mod, ptx) == CUDA_SUCCESS && cuModuleGetFunction(&f, mod, "noop") == CUDA_SUCCESS);
    test_l2();
    test_stream(s, s2);
    test_kernel_node(f);
    test_attach(s);
    CHECK(cuModuleUnload(mod) == CUDA_SUCCESS);
    CHECK(cuStreamDestroy_v2(s) == CUDA_SUCCESS && cuStreamDestroy_v2(s2) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxRelease_v2(0) == CUDA_SUCCESS);
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    else
        printf("test_driver_stream_attr: ok\n");
    return failures != 0;
}
