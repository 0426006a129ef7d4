/* test_driver_graph_mem.c: graph memory nodes through the driver API, every
 * error they return: bad allocation parameters, free nodes of unknown or
 * twice-freed addresses, the wrong node for GetParams, a second
 * instantiation, clone, update, a launch while the allocation is live, a
 * free of an allocation that is not allocated, and the graph memory
 * attributes (bad attribute, bad device, setting a current value). */
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

static CUDA_MEM_ALLOC_NODE_PARAMS params(size_t bytes)
{
    CUDA_MEM_ALLOC_NODE_PARAMS p;
    memset(&p, 0, sizeof p);
    p.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.poolProps.location.id = 0;
    p.bytesize = bytes;
    return p;
}

static uint64_t attr(CUgraphMem_attribute a)
{
    cuuint64_t v = 12345;
    CHECK(cuDeviceGetGraphMemAttribute(0, a, &v) == CUDA_SUCCESS);
    return v;
}

static void test_params(CUgraph g)
{
    CUgraphNode n = NULL;
    CUDA_MEM_ALLOC_NODE_PARAMS p = params(0);
    CHECK(cuGraphAddMemAllocNode(&n, g, NULL, 0, &p) == CUDA_ERROR_INVALID_VALUE);
    p = params(64);
    p.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
    CHECK(cuGraphAddMemAllocNode(&n, g, NULL, 0, &p) == CUDA_ERROR_INVALID_VALUE);
    p = params(64);
    p.poolProps.location.id = 7;
    CHECK(cuGraphAddMemAllocNode(&n, g, NULL, 0, &p) == CUDA_ERROR_INVALID_VALUE);
    p = params(64);
    p.poolProps.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    CHECK(cuGraphAddMemAllocNode(&n, g, NULL, 0, &p) == CUDA_ERROR_INVALID_VALUE);
    CUmemAccessDesc read_only = {{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_READ};
    p = params(64);
    p.accessDescs = &read_only;
    p.accessDescCount = 1;
    CHECK(cuGraphAddMemAllocNode(&n, g, NULL, 0, &p) == CUDA_ERROR_INVALID_VALUE);
    p.accessDescs = NULL;
    CHECK(cuGraphAddMemAllocNode(&n, g, NULL, 0, &p) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuGraphAddMemAllocNode(&n, NULL, NULL, 0, &p) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuGraphAddMemAllocNode(&n, g, NULL, 0, NULL) == CUDA_ERROR_INVALID_VALUE);
    size_t count = 99;
    CHECK(cuGraphGetNodes(g, NULL, &count) == CUDA_SUCCESS && count == 0);   /* nothing half-added */

    CUmemAccessDesc rw = {{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    p = params(1000);
    p.accessDescs = &rw;
    p.accessDescCount = 1;
    CUgraphNode alloc = NULL;
    CHECK(cuGraphAddMemAllocNode(&alloc, g, NULL, 0, &p) == CUDA_SUCCESS && p.dptr);
    CUDA_MEM_ALLOC_NODE_PARAMS back;
    CHECK(cuGraphMemAllocNodeGetParams(alloc, &back) == CUDA_SUCCESS);
    CHECK(back.dptr == p.dptr && back.bytesize == 1000 && back.accessDescCount == 1 &&
          back.accessDescs[0].flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    CUdeviceptr d = 0;
    CHECK(cuGraphMemFreeNodeGetParams(alloc, &d) == CUDA_ERROR_INVALID_VALUE);   /* not a free node */
    CHECK(cuGraphMemAllocNodeGetParams(alloc, NULL) == CUDA_ERROR_INVALID_VALUE);
    CUdeviceptr plain = 0;
    CHECK(cuMemAlloc_v2(&plain, 64) == CUDA_SUCCESS);
    CHECK(cuGraphAddMemFreeNode(&n, g, NULL, 0, plain) == CUDA_ERROR_INVALID_VALUE);   /* not a graph allocation */
    CHECK(cuMemFree_v2(plain) == CUDA_SUCCESS);
    CUgraphNode freen = NULL;
    CHECK(cuGraphAddMemFreeNode(&freen, g, &alloc, 1, p.dptr) == CUDA_SUCCESS);
    CHECK(cuGraphAddMemFreeNode(&n, g, &freen, 1, p.dptr) == CUDA_ERROR_INVALID_VALUE);   /* twice */
    CHECK(cuGraphMemFreeNodeGetParams(freen, &d) == CUDA_SUCCESS && d == p.dptr);
    CHECK(cuGraphMemAllocNodeGetParams(freen, &back) == CUDA_ERROR_INVALID_VALUE);   /* not an alloc node */
    /* the memory of a node not yet launched is reserved, not used */
    CHECK(attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT) == 1000 && attr(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT) == 0);
    CHECK(cuMemFree_v2(p.dptr) == CUDA_ERROR_INVALID_VALUE);   /* not allocated (the graph never ran) */
}

static void test_exec(CUgraph g, CUstream s)
{
    CUgraphExec e = NULL, e2 = NULL;
    CUgraph c = NULL;
    CHECK(cuGraphClone(&c, g) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuGraphInstantiateWithFlags(&e, g, 0) == CUDA_SUCCESS);
    CHECK(cuGraphInstantiateWithFlags(&e2, g, 0) == CUDA_ERROR_INVALID_VALUE);
    CUgraphExecUpdateResultInfo info;
    CHECK(cuGraphExecUpdate_v2(e, g, &info) == CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE &&
          info.result == CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED);
    CHECK(cuGraphLaunch(e, s) == CUDA_SUCCESS && cuGraphLaunch(e, s) == CUDA_SUCCESS);   /* alloc + free */
    CHECK(cuStreamSynchronize(s) == CUDA_SUCCESS);
    CHECK(attr(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT) == 0 && attr(CU_GRAPH_MEM_ATTR_USED_MEM_HIGH) == 1000);
    CHECK(cuGraphExecDestroy(e) == CUDA_SUCCESS);
    CHECK(cuGraphInstantiateWithFlags(&e, g, 0) == CUDA_SUCCESS);   /* the first is gone */
    CHECK(cuGraphExecDestroy(e) == CUDA_SUCCESS);

    /* an allocation that outlives its graph */
    CUgraph g2 = NULL;
    CHECK(cuGraphCreate(&g2, 0) == CUDA_SUCCESS);
    CUDA_MEM_ALLOC_NODE_PARAMS p = params(4096);
    CUgraphNode alloc;
    CHECK(cuGraphAddMemAllocNode(&alloc, g2, NULL, 0, &p) == CUDA_SUCCESS);
    CHECK(cuGraphInstantiateWithFlags(&e, g2, 0) == CUDA_SUCCESS);
    CHECK(cuGraphLaunch(e, s) == CUDA_SUCCESS);
    CHECK(attr(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT) == 4096);
    CHECK(cuGraphLaunch(e, s) == CUDA_ERROR_INVALID_VALUE);   /* still allocated */
    CHECK(cuMemFreeAsync(p.dptr, s) == CUDA_SUCCESS);
    CHECK(cuMemFreeAsync(p.dptr, s) == CUDA_ERROR_INVALID_VALUE);   /* freed already */
    CHECK(cuGraphLaunch(e, s) == CUDA_SUCCESS);
    CHECK(cuGraphExecDestroy(e) == CUDA_SUCCESS);
    CHECK(cuGraphDestroy(g2) == CUDA_SUCCESS);
    /* no node names it now, but it is allocated: an ordinary free returns it */
    CHECK(attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT) == 1000 + 4096);
    CHECK(cuMemFree_v2(p.dptr) == CUDA_SUCCESS);
    CHECK(attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT) == 1000 && attr(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT) == 0);
    CHECK(cuMemFree_v2(p.dptr) == CUDA_ERROR_INVALID_VALUE);
}

static void test_attributes(void)
{
    cuuint64_t v = 0;
    CHECK(cuDeviceGetGraphMemAttribute(0, (CUgraphMem_attribute)99, &v) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuDeviceGetGraphMemAttribute(5, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &v) == CUDA_ERROR_INVALID_DEVICE);
    CHECK(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, NULL) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &v) == CUDA_ERROR_INVALID_VALUE);
    v = 5;
    CHECK(cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &v) == CUDA_ERROR_INVALID_VALUE);
    v = 0;
    CHECK(cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &v) == CUDA_SUCCESS);
    CHECK(cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH, &v) == CUDA_SUCCESS);
    CHECK(attr(CU_GRAPH_MEM_ATTR_USED_MEM_HIGH) == 0 && attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH) == 0);
    CHECK(cuDeviceGraphMemTrim(0) == CUDA_SUCCESS);
    CHECK(cuDeviceGraphMemTrim(5) == CUDA_ERROR_INVALID_DEVICE);
}

int main(void)
{
    CHECK(cuDeviceGraphMemTrim(0) == CUDA_ERROR_NOT_INITIALIZED);
    CHECK(cuInit(0) == CUDA_SUCCESS);
    CUcontext ctx = NULL;
    CHECK(cuDevicePrimaryCtxRetain(&ctx, 0) == CUDA_SUCCESS && cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
    CUstream s = NULL;
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
    CUgraph g = NULL;
    CHECK(cuGraphCreate(&g, 0) == CUDA_SUCCESS);
    test_params(g);
    test_exec(g, s);
    CHECK(cuGraphDestroy(g) == CUDA_SUCCESS);
    CHECK(attr(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT) == 0);
    test_attributes();
    CHECK(cuStreamDestroy_v2(s) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxRelease_v2(0) == CUDA_SUCCESS);
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    else
        printf("test_driver_graph_mem: ok\n");
    return failures != 0;
}
