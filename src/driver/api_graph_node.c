/* api_graph_node.c: the generic node API (cuGraphAddNode, cuGraphAddNode_v2,
 * cuGraphNodeGetParams) and conditional nodes (cuGraphConditionalHandleCreate,
 * CU_GRAPH_NODE_TYPE_CONDITIONAL). The typed cuGraphAdd*Node entry points
 * are in api_graph.c; cuGraphAddNode hands each type to them. */
#include "driver/driver.h"

#include <string.h>

#include "core/context.h"
#include "core/graph.h"
#include "core/graph_cond.h"

CB_EXPORT CUresult cuGraphConditionalHandleCreate(CUgraphConditionalHandle *pHandle_out, CUgraph hGraph,
                                                  CUcontext ctx, unsigned int defaultLaunchValue, unsigned int flags)
{
    CB_REQUIRE_INIT();
    if (!pHandle_out || !cb_graph_valid(hGraph))
        return CUDA_ERROR_INVALID_VALUE;
    cb_context *c = (cb_context *)ctx;
    if (!c && cb_ctx_require(&c) != CUDA_SUCCESS)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!cb_ctx_valid(c))
        return CUDA_ERROR_INVALID_CONTEXT;
    return cb_cond_handle_create((cb_graph *)hGraph, c, defaultLaunchValue, flags, pHandle_out);
}

/* Every edge must be one cubridge honours: default edges, and programmatic
 * ones (which let the downstream kernel start early; running it after the
 * upstream node completes, as cubridge does, is one of the orders they
 * allow). */
static CUresult check_edges(const CUgraphEdgeData *e, size_t n)
{
    for (size_t i = 0; e && i < n; i++) {
        static const unsigned char zero[5];
        int programmatic = e[i].type == CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC &&
                           (e[i].from_port == CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC ||
                            e[i].from_port == CU_GRAPH_KERNEL_NODE_PORT_LAUNCH_ORDER);
        int plain = e[i].type == CU_GRAPH_DEPENDENCY_TYPE_DEFAULT && e[i].from_port == 0;
        if ((!plain && !programmatic) || e[i].to_port != 0 || memcmp(e[i].reserved, zero, sizeof zero) != 0)
            return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

static CUresult add_conditional(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps, size_t n,
                                CUDA_CONDITIONAL_NODE_PARAMS *p)
{
    cb_graph_node *node;
    CUresult r = cb_graph_add_node((cb_graph *)g, CU_GRAPH_NODE_TYPE_CONDITIONAL, (cb_graph_node *const *)deps, n,
                                   &node);
    if (r != CUDA_SUCCESS)
        return r;
    if ((r = cb_cond_node_init(node, p)) != CUDA_SUCCESS) {
        cb_graph_remove_last((cb_graph *)g);
        return r;
    }
    *ph = (CUgraphNode)node;
    return CUDA_SUCCESS;
}

static CUresult add_node(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps, size_t n, CUgraphNodeParams *p)
{
    CB_REQUIRE_INIT();
    if (!ph || !p || !cb_graph_valid(g) || p->reserved0[0] || p->reserved0[1] || p->reserved0[2] || p->reserved2)
        return CUDA_ERROR_INVALID_VALUE;
    switch (p->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
        const CUDA_KERNEL_NODE_PARAMS_v3 *k = &p->kernel;
        CUDA_KERNEL_NODE_PARAMS q = { .func = k->func, .gridDimX = k->gridDimX, .gridDimY = k->gridDimY,
                                      .gridDimZ = k->gridDimZ, .blockDimX = k->blockDimX,
                                      .blockDimY = k->blockDimY, .blockDimZ = k->blockDimZ,
                                      .sharedMemBytes = k->sharedMemBytes, .kernelParams = k->kernelParams,
                                      .extra = k->extra, .kern = k->kern, .ctx = k->ctx };
        return cuGraphAddKernelNode_v2(ph, g, deps, n, &q);
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        if (p->memcpy.flags || p->memcpy.reserved)
            return CUDA_ERROR_INVALID_VALUE;
        return cuGraphAddMemcpyNode(ph, g, deps, n, &p->memcpy.copyParams, p->memcpy.copyCtx);
    case CU_GRAPH_NODE_TYPE_MEMSET: {
        const CUDA_MEMSET_NODE_PARAMS_v2 *m = &p->memset;
        CUDA_MEMSET_NODE_PARAMS q = { .dst = m->dst, .pitch = m->pitch, .value = m->value,
                                      .elementSize = m->elementSize, .width = m->width, .height = m->height };
        return cuGraphAddMemsetNode(ph, g, deps, n, &q, m->ctx);
    }
    case CU_GRAPH_NODE_TYPE_HOST: {
        CUDA_HOST_NODE_PARAMS q = { .fn = p->host.fn, .userData = p->host.userData };
        return cuGraphAddHostNode(ph, g, deps, n, &q);
    }
    case CU_GRAPH_NODE_TYPE_EMPTY: return cuGraphAddEmptyNode(ph, g, deps, n);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return cuGraphAddEventRecordNode(ph, g, deps, n, p->eventRecord.event);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return cuGraphAddEventWaitNode(ph, g, deps, n, p->eventWait.event);
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: return add_conditional(ph, g, deps, n, &p->conditional);
    default:
        return cb_driver_not_supported("cuGraphAddNode(node type)",
                                       "this node type cannot be made through cuGraphAddNode here");
    }
}

CB_EXPORT CUresult cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                  size_t numDependencies, CUgraphNodeParams *nodeParams)
{
    return add_node(phGraphNode, hGraph, dependencies, numDependencies, nodeParams);
}

CB_EXPORT CUresult cuGraphAddNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                     const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                     CUgraphNodeParams *nodeParams)
{
    CB_REQUIRE_INIT();
    CUresult r = check_edges(dependencyData, numDependencies);
    return r != CUDA_SUCCESS ? r : add_node(phGraphNode, hGraph, dependencies, numDependencies, nodeParams);
}
