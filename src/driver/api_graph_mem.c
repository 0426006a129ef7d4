/* api_graph_mem.c: graph memory nodes (cuGraphAddMemAllocNode/FreeNode and
 * their parameters) and the device's graph memory (cuDeviceGraphMemTrim,
 * cuDevice{Get,Set}GraphMemAttribute). The model is core/graph_mem.h;
 * capture of cuMemAllocAsync/cuMemFreeAsync is in api_pool.c. */
#include "driver/driver.h"

#include "core/context.h"
#include "core/device.h"
#include "core/graph_mem.h"

/* Validates an allocation node's pool properties and access descriptors. */
static CUresult alloc_params_check(const CUDA_MEM_ALLOC_NODE_PARAMS *p)
{
    const CUmemPoolProps *pp = &p->poolProps;
    if (p->bytesize == 0 || pp->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
        pp->location.type != CU_MEM_LOCATION_TYPE_DEVICE || !cb_device_get(pp->location.id))
        return CUDA_ERROR_INVALID_VALUE;
    if (pp->handleTypes != CU_MEM_HANDLE_TYPE_NONE)
        return CUDA_ERROR_INVALID_VALUE;   /* CUDA: IPC is not supported for graph allocations */
    if (p->accessDescCount && !p->accessDescs)
        return CUDA_ERROR_INVALID_VALUE;
    if (p->accessDescCount > (size_t)cb_device_count())
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < p->accessDescCount; i++) {
        const CUmemAccessDesc *a = &p->accessDescs[i];
        if (a->location.type != CU_MEM_LOCATION_TYPE_DEVICE || !cb_device_get(a->location.id) ||
            (a->flags != CU_MEM_ACCESS_FLAGS_PROT_NONE && a->flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
             a->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE))
            return CUDA_ERROR_INVALID_VALUE;
        /* the owning device always reads and writes its memory */
        if (a->location.id == pp->location.id && a->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
            return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuGraphAddMemAllocNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                          size_t numDependencies, CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams)
{
    CB_REQUIRE_INIT();
    cb_context *ctx;
    CUresult r = cb_ctx_require_usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!phGraphNode || !cb_graph_valid(hGraph) || !nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = alloc_params_check(nodeParams)) != CUDA_SUCCESS)
        return r;
    cb_graph *g = (cb_graph *)hGraph;
    cb_graph_node *n;
    r = cb_graph_add_node(g, CU_GRAPH_NODE_TYPE_MEM_ALLOC, (cb_graph_node *const *)dependencies, numDependencies,
                          &n);
    if (r != CUDA_SUCCESS)
        return r;
    cb_graph_mem *m;
    r = cb_graph_mem_reserve(ctx, nodeParams->bytesize, &nodeParams->poolProps, nodeParams->accessDescs,
                             nodeParams->accessDescCount, &m);
    if (r != CUDA_SUCCESS) {
        cb_graph_remove_last(g);
        return r;
    }
    n->u.mem = m;
    nodeParams->dptr = cb_graph_mem_address(m);
    *phGraphNode = (CUgraphNode)n;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuGraphAddMemFreeNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                         size_t numDependencies, CUdeviceptr dptr)
{
    CB_REQUIRE_INIT();
    if (!phGraphNode || !cb_graph_valid(hGraph))
        return CUDA_ERROR_INVALID_VALUE;
    cb_graph *g = (cb_graph *)hGraph;
    cb_graph_mem *m = cb_graph_mem_find(dptr);
    if (!m) {
        cb_log(CB_LOG_WARN, "cuGraphAddMemFreeNode: 0x%llx was not returned by an allocation node",
               (unsigned long long)dptr);
        return CUDA_ERROR_INVALID_VALUE;
    }
    for (size_t i = 0; i < g->n; i++) {
        if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_MEM_FREE && g->nodes[i]->u.mem == m) {
            cb_log(CB_LOG_WARN, "cuGraphAddMemFreeNode: 0x%llx is freed twice in the graph", (unsigned long long)dptr);
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    cb_graph_node *n;
    CUresult r = cb_graph_add_node(g, CU_GRAPH_NODE_TYPE_MEM_FREE, (cb_graph_node *const *)dependencies,
                                   numDependencies, &n);
    if (r != CUDA_SUCCESS)
        return r;
    cb_graph_mem_ref(m);
    n->u.mem = m;
    *phGraphNode = (CUgraphNode)n;
    return CUDA_SUCCESS;
}

/* The node h if it is a live node of the given type. */
static cb_graph_node *mem_node(CUgraphNode h, CUgraphNodeType type)
{
    cb_graph_node *n = (cb_graph_node *)h;
    return cb_graph_node_valid(n) && n->type == type && n->u.mem ? n : NULL;
}

CB_EXPORT CUresult cuGraphMemAllocNodeGetParams(CUgraphNode hNode, CUDA_MEM_ALLOC_NODE_PARAMS *params_out)
{
    CB_REQUIRE_INIT();
    cb_graph_node *n = mem_node(hNode, CU_GRAPH_NODE_TYPE_MEM_ALLOC);
    if (!n || !params_out)
        return CUDA_ERROR_INVALID_VALUE;
    cb_graph_mem_params(n->u.mem, params_out);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr *dptr_out)
{
    CB_REQUIRE_INIT();
    cb_graph_node *n = mem_node(hNode, CU_GRAPH_NODE_TYPE_MEM_FREE);
    if (!n || !dptr_out)
        return CUDA_ERROR_INVALID_VALUE;
    *dptr_out = cb_graph_mem_address(n->u.mem);
    return CUDA_SUCCESS;
}

static CUresult graph_mem_device(CUdevice device)
{
    CB_REQUIRE_INIT();
    return cb_device_get(device) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

/* Graph memory goes back to the arena as soon as no node names it and it is
 * not allocated: nothing is cached, so there is nothing to trim. */
CB_EXPORT CUresult cuDeviceGraphMemTrim(CUdevice device)
{
    return graph_mem_device(device);
}

CB_EXPORT CUresult cuDeviceGetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value)
{
    CUresult r = graph_mem_device(device);
    if (r != CUDA_SUCCESS)
        return r;
    if (!value)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t v = 0;
    if ((r = cb_graph_mem_get_attribute(attr, &v)) == CUDA_SUCCESS)
        *(cuuint64_t *)value = v;
    return r;
}

CB_EXPORT CUresult cuDeviceSetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value)
{
    CUresult r = graph_mem_device(device);
    if (r != CUDA_SUCCESS)
        return r;
    if (!value)
        return CUDA_ERROR_INVALID_VALUE;
    return cb_graph_mem_reset_attribute(attr, *(const cuuint64_t *)value);
}
