/* api_graph.c: cuGraph* (explicit graphs, instantiate, launch, update) and
 * stream capture (cuStreamBeginCapture ... cuThreadExchangeStreamCaptureMode). */
#include "driver/driver.h"

#include <stdlib.h>
#include <string.h>

#include "core/context.h"
#include "core/graph.h"
#include "core/graph_mem.h"
#include "core/module.h"

#define G(h) ((cb_graph *)(h))
#define N(h) ((cb_graph_node *)(h))
#define E(h) ((cb_graph_exec *)(h))

static CUresult graph_arg(CUgraph g)
{
    CB_REQUIRE_INIT();
    return cb_graph_valid(g) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CB_EXPORT CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags)
{
    CB_REQUIRE_INIT();
    if (!phGraph || flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    cb_graph *g;
    CUresult r = cb_graph_create(&g);
    if (r == CUDA_SUCCESS)
        *phGraph = (CUgraph)g;
    return r;
}

CB_EXPORT CUresult cuGraphDestroy(CUgraph hGraph)
{
    CUresult r = graph_arg(hGraph);
    if (r == CUDA_SUCCESS)
        cb_graph_destroy(G(hGraph));
    return r;
}

CB_EXPORT CUresult cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph)
{
    CUresult r = graph_arg(originalGraph);
    if (r != CUDA_SUCCESS || !phGraphClone)
        return r != CUDA_SUCCESS ? r : CUDA_ERROR_INVALID_VALUE;
    if (cb_graph_has_mem_nodes(G(originalGraph))) {   /* CUDA: a graph with memory nodes cannot be cloned */
        cb_log(CB_LOG_WARN, "cuGraphClone: the graph has memory allocation or free nodes, which cannot be cloned");
        return CUDA_ERROR_INVALID_VALUE;
    }
    cb_graph *c;
    r = cb_graph_clone(G(originalGraph), &c);
    if (r == CUDA_SUCCESS)
        *phGraphClone = (CUgraph)c;
    return r;
}

/* Validates the common arguments of cuGraphAdd*Node and adds the node. */
static CUresult add_node(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps, size_t n, CUgraphNodeType type,
                         cb_graph_node **out)
{
    CUresult r = graph_arg(g);
    if (r != CUDA_SUCCESS || !ph)
        return r != CUDA_SUCCESS ? r : CUDA_ERROR_INVALID_VALUE;
    r = cb_graph_add_node(G(g), type, (cb_graph_node *const *)deps, n, out);
    if (r == CUDA_SUCCESS)
        *ph = (CUgraphNode)*out;
    return r;
}

static CUresult add_kernel(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps, size_t n,
                           const CUDA_KERNEL_NODE_PARAMS *p)
{
    cb_graph_node *node;
    CUresult r = add_node(ph, g, deps, n, CU_GRAPH_NODE_TYPE_KERNEL, &node);
    if (r != CUDA_SUCCESS)
        return r;
    if ((r = cb_graph_kernel_set(node, p)) != CUDA_SUCCESS) {
        cb_graph_remove_last(G(g));
        *ph = NULL;
    }
    return r;
}

static CUDA_KERNEL_NODE_PARAMS kernel_params_v2(const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
    CUDA_KERNEL_NODE_PARAMS q;
    memset(&q, 0, sizeof q);
    q.func = p->func;
    q.gridDimX = p->gridDimX, q.gridDimY = p->gridDimY, q.gridDimZ = p->gridDimZ;
    q.blockDimX = p->blockDimX, q.blockDimY = p->blockDimY, q.blockDimZ = p->blockDimZ;
    q.sharedMemBytes = p->sharedMemBytes;
    q.kernelParams = p->kernelParams;
    q.extra = p->extra;
    return q;
}

CB_EXPORT CUresult cuGraphAddKernelNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                           size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    return add_kernel(phGraphNode, hGraph, dependencies, numDependencies, nodeParams);
}

CB_EXPORT CUresult cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                        size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_KERNEL_NODE_PARAMS q = kernel_params_v2(nodeParams);
    return add_kernel(phGraphNode, hGraph, dependencies, numDependencies, &q);
}

static CUresult kernel_node_get(CUgraphNode h, CUDA_KERNEL_NODE_PARAMS *p)
{
    CB_REQUIRE_INIT();
    if (!cb_graph_node_valid(h) || !p || N(h)->type != CU_GRAPH_NODE_TYPE_KERNEL)
        return CUDA_ERROR_INVALID_VALUE;
    const cb_graph_node *n = N(h);
    memset(p, 0, sizeof *p);
    p->func = (CUfunction)n->u.kernel.f;
    p->gridDimX = n->u.kernel.cfg.grid[0], p->gridDimY = n->u.kernel.cfg.grid[1];
    p->gridDimZ = n->u.kernel.cfg.grid[2];
    p->blockDimX = n->u.kernel.cfg.block[0], p->blockDimY = n->u.kernel.cfg.block[1];
    p->blockDimZ = n->u.kernel.cfg.block[2];
    p->sharedMemBytes = n->u.kernel.cfg.dynamic_smem;
    p->kernelParams = n->u.kernel.argv;
    p->ctx = (CUcontext)n->u.kernel.f->module->ctx;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    return kernel_node_get(hNode, nodeParams);
}

CB_EXPORT CUresult cuGraphKernelNodeGetParams(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    CUDA_KERNEL_NODE_PARAMS q;
    CUresult r = nodeParams ? kernel_node_get(hNode, &q) : CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS) {
        memset(nodeParams, 0, sizeof *nodeParams);
        nodeParams->func = q.func;
        nodeParams->gridDimX = q.gridDimX, nodeParams->gridDimY = q.gridDimY, nodeParams->gridDimZ = q.gridDimZ;
        nodeParams->blockDimX = q.blockDimX, nodeParams->blockDimY = q.blockDimY;
        nodeParams->blockDimZ = q.blockDimZ;
        nodeParams->sharedMemBytes = q.sharedMemBytes;
        nodeParams->kernelParams = q.kernelParams;
    }
    return r;
}

static CUresult kernel_node_set(CUgraphNode h, const CUDA_KERNEL_NODE_PARAMS *p)
{
    CB_REQUIRE_INIT();
    if (!cb_graph_node_valid(h) || N(h)->type != CU_GRAPH_NODE_TYPE_KERNEL)
        return CUDA_ERROR_INVALID_VALUE;
    return cb_graph_kernel_set(N(h), p);
}

CB_EXPORT CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    return kernel_node_set(hNode, nodeParams);
}

CB_EXPORT CUresult cuGraphKernelNodeSetParams(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_KERNEL_NODE_PARAMS q = kernel_params_v2(nodeParams);
    return kernel_node_set(hNode, &q);
}

CB_EXPORT CUresult cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                        size_t numDependencies, const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
    CB_REQUIRE_INIT();
    if (!cb_ctx_valid(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    cb_copy c;
    CUresult r = cb_copy_from_3d(copyParams, &c);
    if (r != CUDA_SUCCESS)
        return r;
    cb_graph_node *n;
    if ((r = add_node(phGraphNode, hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_MEMCPY, &n)) ==
        CUDA_SUCCESS) {
        n->u.memcpy.copy = c;
        n->u.memcpy.ctx = ctx;
    }
    return r;
}

CB_EXPORT CUresult cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D *nodeParams)
{
    CB_REQUIRE_INIT();
    if (!cb_graph_node_valid(hNode) || !nodeParams || N(hNode)->type != CU_GRAPH_NODE_TYPE_MEMCPY)
        return CUDA_ERROR_INVALID_VALUE;
    cb_copy_to_3d(&N(hNode)->u.memcpy.copy, nodeParams);
    return CUDA_SUCCESS;
}

static CUresult fill_from(const CUDA_MEMSET_NODE_PARAMS *p, cb_fill *f)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    cb_fill v = { .dst = p->dst, .value = p->value, .elem_size = p->elementSize, .width = p->width,
                  .height = p->height ? p->height : 1 };
    v.pitch = v.height > 1 ? p->pitch : v.width * v.elem_size;
    *f = v;
    return cb_fill_check(f);
}

CB_EXPORT CUresult cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                        size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS *memsetParams,
                                        CUcontext ctx)
{
    CB_REQUIRE_INIT();
    if (!cb_ctx_valid(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    cb_fill f;
    CUresult r = fill_from(memsetParams, &f);
    if (r != CUDA_SUCCESS)
        return r;
    cb_graph_node *n;
    if ((r = add_node(phGraphNode, hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_MEMSET, &n)) ==
        CUDA_SUCCESS) {
        n->u.memset.fill = f;
        n->u.memset.ctx = ctx;
    }
    return r;
}

CB_EXPORT CUresult cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    CB_REQUIRE_INIT();
    if (!nodeParams || !nodeParams->fn)
        return CUDA_ERROR_INVALID_VALUE;
    cb_graph_node *n;
    CUresult r = add_node(phGraphNode, hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_HOST, &n);
    if (r == CUDA_SUCCESS)
        n->u.host = *nodeParams;
    return r;
}

CB_EXPORT CUresult cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS *nodeParams)
{
    CB_REQUIRE_INIT();
    if (!cb_graph_node_valid(hNode) || !nodeParams || N(hNode)->type != CU_GRAPH_NODE_TYPE_HOST)
        return CUDA_ERROR_INVALID_VALUE;
    *nodeParams = N(hNode)->u.host;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                       size_t numDependencies)
{
    cb_graph_node *n;
    return add_node(phGraphNode, hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_EMPTY, &n);
}

static CUresult add_event_node(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps, size_t n, CUevent ev,
                               CUgraphNodeType type)
{
    CB_REQUIRE_INIT();
    if (!cb_event_valid(ev))
        return CUDA_ERROR_INVALID_VALUE;
    cb_graph_node *node;
    CUresult r = add_node(ph, g, deps, n, type, &node);
    if (r == CUDA_SUCCESS)
        node->u.event = (cb_event *)ev;
    return r;
}

CB_EXPORT CUresult cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                             const CUgraphNode *dependencies, size_t numDependencies, CUevent event)
{
    return add_event_node(phGraphNode, hGraph, dependencies, numDependencies, event,
                          CU_GRAPH_NODE_TYPE_EVENT_RECORD);
}

CB_EXPORT CUresult cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                           size_t numDependencies, CUevent event)
{
    return add_event_node(phGraphNode, hGraph, dependencies, numDependencies, event, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
}

/* Writes up to *count nodes (all when out is NULL just counts). */
static CUresult node_list(cb_graph_node *const *nodes, size_t n, CUgraphNode *out, size_t *count)
{
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    if (out) {
        size_t k = n < *count ? n : *count;
        for (size_t i = 0; i < k; i++)
            out[i] = (CUgraphNode)nodes[i];
        for (size_t i = k; i < *count; i++)
            out[i] = NULL;
        *count = k;
    } else {
        *count = n;
    }
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes)
{
    CUresult r = graph_arg(hGraph);
    return r != CUDA_SUCCESS ? r : node_list(G(hGraph)->nodes, G(hGraph)->n, nodes, numNodes);
}

CB_EXPORT CUresult cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes, size_t *numRootNodes)
{
    CUresult r = graph_arg(hGraph);
    if (r != CUDA_SUCCESS)
        return r;
    cb_graph *g = G(hGraph);
    cb_graph_node **roots = malloc((g->n ? g->n : 1) * sizeof *roots);
    if (!roots)
        return CUDA_ERROR_OUT_OF_MEMORY;
    size_t k = 0;
    for (size_t i = 0; i < g->n; i++)
        if (g->nodes[i]->ndeps == 0)
            roots[k++] = g->nodes[i];
    r = node_list(roots, k, rootNodes, numRootNodes);
    free(roots);
    return r;
}

CB_EXPORT CUresult cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type)
{
    CB_REQUIRE_INIT();
    if (!cb_graph_node_valid(hNode) || !type)
        return CUDA_ERROR_INVALID_VALUE;
    *type = N(hNode)->type;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode *dependencies, size_t *numDependencies)
{
    CB_REQUIRE_INIT();
    if (!cb_graph_node_valid(hNode))
        return CUDA_ERROR_INVALID_VALUE;
    return node_list(N(hNode)->deps, N(hNode)->ndeps, dependencies, numDependencies);
}

CB_EXPORT CUresult cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                          size_t numDependencies)
{
    CUresult r = graph_arg(hGraph);
    if (r != CUDA_SUCCESS)
        return r;
    if (numDependencies && (!from || !to))
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < numDependencies; i++) {
        cb_graph_node *a = N(from[i]), *b = N(to[i]);
        if (!cb_graph_node_valid(a) || !cb_graph_node_valid(b) || a->graph != G(hGraph) || b->graph != G(hGraph) ||
            a == b)
            return CUDA_ERROR_INVALID_VALUE;
    }
    for (size_t i = 0; i < numDependencies; i++) {
        cb_graph_node *b = N(to[i]);
        int present = 0;
        for (size_t d = 0; d < b->ndeps && !present; d++)
            present = b->deps[d] == N(from[i]);
        if (present)
            continue;
        cb_graph_node **grown = realloc(b->deps, (b->ndeps + 1) * sizeof *grown);
        if (!grown)
            return CUDA_ERROR_OUT_OF_MEMORY;
        b->deps = grown;
        b->capdeps = b->ndeps + 1;
        b->deps[b->ndeps++] = N(from[i]);
    }
    return CUDA_SUCCESS;
}

/* ---- node parameters ---------------------------------------------------- */

static cb_graph_node *node_of_type(CUgraphNode h, CUgraphNodeType type)
{
    return cb_graph_node_valid(h) && N(h)->type == type ? N(h) : NULL;
}

CB_EXPORT CUresult cuGraphMemcpyNodeSetParams(CUgraphNode hNode, const CUDA_MEMCPY3D *nodeParams)
{
    CB_REQUIRE_INIT();
    cb_graph_node *n = node_of_type(hNode, CU_GRAPH_NODE_TYPE_MEMCPY);
    cb_copy c;
    CUresult r = n ? cb_copy_from_3d(nodeParams, &c) : CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        n->u.memcpy.copy = c;
    return r;
}

CB_EXPORT CUresult cuGraphMemsetNodeGetParams(CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
    CB_REQUIRE_INIT();
    cb_graph_node *n = node_of_type(hNode, CU_GRAPH_NODE_TYPE_MEMSET);
    if (!n || !nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    const cb_fill *f = &n->u.memset.fill;
    nodeParams->dst = f->dst;
    nodeParams->pitch = f->pitch;
    nodeParams->value = f->value;
    nodeParams->elementSize = f->elem_size;
    nodeParams->width = f->width;
    nodeParams->height = f->height;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuGraphMemsetNodeSetParams(CUgraphNode hNode, const CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
    CB_REQUIRE_INIT();
    cb_graph_node *n = node_of_type(hNode, CU_GRAPH_NODE_TYPE_MEMSET);
    cb_fill f;
    CUresult r = n ? fill_from(nodeParams, &f) : CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        n->u.memset.fill = f;
    return r;
}

CB_EXPORT CUresult cuGraphHostNodeSetParams(CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    CB_REQUIRE_INIT();
    cb_graph_node *n = node_of_type(hNode, CU_GRAPH_NODE_TYPE_HOST);
    if (!n || !nodeParams || !nodeParams->fn)
        return CUDA_ERROR_INVALID_VALUE;
    n->u.host = *nodeParams;
    return CUDA_SUCCESS;
}

static CUresult event_node_get(CUgraphNode h, CUgraphNodeType type, CUevent *out)
{
    CB_REQUIRE_INIT();
    cb_graph_node *n = node_of_type(h, type);
    if (!n || !out)
        return CUDA_ERROR_INVALID_VALUE;
    *out = (CUevent)n->u.event;
    return CUDA_SUCCESS;
}

static CUresult event_node_set(CUgraphNode h, CUgraphNodeType type, CUevent ev)
{
    CB_REQUIRE_INIT();
    cb_graph_node *n = node_of_type(h, type);
    if (!n || !cb_event_valid(ev))
        return CUDA_ERROR_INVALID_VALUE;
    n->u.event = (cb_event *)ev;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
    return event_node_get(hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD, event_out);
}
CB_EXPORT CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode hNode, CUevent event)
{
    return event_node_set(hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD, event);
}
CB_EXPORT CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
    return event_node_get(hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT, event_out);
}
CB_EXPORT CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event)
{
    return event_node_set(hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT, event);
}

CB_EXPORT CUresult cuGraphNodeGetDependentNodes(CUgraphNode hNode, CUgraphNode *dependentNodes,
                                                size_t *numDependentNodes)
{
    CB_REQUIRE_INIT();
    if (!cb_graph_node_valid(hNode))
        return CUDA_ERROR_INVALID_VALUE;
    cb_graph *g = N(hNode)->graph;
    cb_graph_node **list = malloc((g->n ? g->n : 1) * sizeof *list);
    if (!list)
        return CUDA_ERROR_OUT_OF_MEMORY;
    size_t k = 0;
    for (size_t i = 0; i < g->n; i++)
        for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
            if (g->nodes[i]->deps[d] == N(hNode)) {
                list[k++] = g->nodes[i];
                break;
            }
    CUresult r = node_list(list, k, dependentNodes, numDependentNodes);
    free(list);
    return r;
}

/* The exec's copy of an original node of the given type, or NULL. */
static cb_graph_node *exec_node(CUgraphExec h, CUgraphNode node, CUgraphNodeType type)
{
    if (!cb_graph_exec_valid(h) || !node_of_type(node, type))
        return NULL;
    cb_graph_exec *e = E(h);
    size_t i = N(node)->index;
    if (i >= e->graph->n || e->graph->nodes[i]->type != type)
        return NULL;
    cb_graph_exec_quiesce(e);
    return e->graph->nodes[i];
}

CB_EXPORT CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                  const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
    CB_REQUIRE_INIT();
    (void)ctx;
    cb_graph_node *n = exec_node(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_MEMCPY);
    cb_copy c;
    CUresult r = n ? cb_copy_from_3d(copyParams, &c) : CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        n->u.memcpy.copy = c;
    return r;
}

CB_EXPORT CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                  const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx)
{
    CB_REQUIRE_INIT();
    (void)ctx;
    cb_graph_node *n = exec_node(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_MEMSET);
    cb_fill f;
    CUresult r = n ? fill_from(memsetParams, &f) : CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        n->u.memset.fill = f;
    return r;
}

CB_EXPORT CUresult cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    CB_REQUIRE_INIT();
    cb_graph_node *n = exec_node(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_HOST);
    if (!n || !nodeParams || !nodeParams->fn)
        return CUDA_ERROR_INVALID_VALUE;
    n->u.host = *nodeParams;
    return CUDA_SUCCESS;
}

static CUresult exec_event_set(CUgraphExec h, CUgraphNode node, CUgraphNodeType type, CUevent ev)
{
    CB_REQUIRE_INIT();
    cb_graph_node *n = exec_node(h, node, type);
    if (!n || !cb_event_valid(ev))
        return CUDA_ERROR_INVALID_VALUE;
    n->u.event = (cb_event *)ev;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
    return exec_event_set(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD, event);
}
CB_EXPORT CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
    return exec_event_set(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT, event);
}

/* ---- instantiate, launch, update --------------------------------------- */

static CUresult instantiate(CUgraphExec *ph, CUgraph g, unsigned long long flags, CUgraphInstantiateResult *result)
{
    CUresult r = graph_arg(g);
    if (r != CUDA_SUCCESS || !ph)
        return r != CUDA_SUCCESS ? r : CUDA_ERROR_INVALID_VALUE;
    unsigned long long known = CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH | CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD |
                               CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY;
    if (flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH)
        return cb_driver_not_supported("cuGraphInstantiate(DEVICE_LAUNCH)", "device-side graph launch is not modelled");
    if (flags & ~known)
        return CUDA_ERROR_INVALID_VALUE;
    cb_graph_exec *e;
    r = cb_graph_instantiate(G(g), flags, &e);
    if (result)
        *result = r == CUDA_SUCCESS               ? CUDA_GRAPH_INSTANTIATE_SUCCESS
                  : r == CUDA_ERROR_INVALID_VALUE ? CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE
                                                  : CUDA_GRAPH_INSTANTIATE_ERROR;
    if (r == CUDA_SUCCESS)
        *ph = (CUgraphExec)e;
    return r;
}

CB_EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags)
{
    return instantiate(phGraphExec, hGraph, flags, NULL);
}

static CUresult instantiate_with_params(CUgraphExec *ph, CUgraph g, CUDA_GRAPH_INSTANTIATE_PARAMS *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    p->hErrNode_out = NULL;
    return instantiate(ph, g, p->flags, &p->result_out);
}

CB_EXPORT CUresult cuGraphInstantiateWithParams(CUgraphExec *phGraphExec, CUgraph hGraph,
                                                CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
    return instantiate_with_params(phGraphExec, hGraph, instantiateParams);
}

CB_EXPORT CUresult cuGraphInstantiateWithParams_ptsz(CUgraphExec *phGraphExec, CUgraph hGraph,
                                                     CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
    return instantiate_with_params(phGraphExec, hGraph, instantiateParams);
}

static CUresult instantiate_v1(CUgraphExec *ph, CUgraph g, CUgraphNode *err, char *log, size_t len)
{
    if (err)
        *err = NULL;
    if (log && len)
        log[0] = '\0';
    return instantiate(ph, g, 0, NULL);
}

CB_EXPORT CUresult cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                                      char *logBuffer, size_t bufferSize)
{
    return instantiate_v1(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize);
}

CB_EXPORT CUresult cuGraphInstantiate_v2(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                                         char *logBuffer, size_t bufferSize)
{
    return instantiate_v1(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize);
}

static CUresult exec_launch(CUgraphExec h, CUstream hs, int per_thread, int upload_only)
{
    CB_REQUIRE_INIT();
    cb_context *ctx;
    CUresult r = cb_ctx_require_usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!cb_graph_exec_valid(h))
        return CUDA_ERROR_INVALID_VALUE;
    cb_stream *s;
    if ((r = cb_stream_resolve_ex(hs, ctx, per_thread, &s)) != CUDA_SUCCESS)
        return r;
    if (upload_only)
        return CUDA_SUCCESS; /* nothing to upload: the graph runs from host memory */
    return cb_graph_exec_launch(E(h), s);
}

CB_EXPORT CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
{
    return exec_launch(hGraphExec, hStream, 0, 0);
}
CB_EXPORT CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
    return exec_launch(hGraphExec, hStream, 1, 0);
}
CB_EXPORT CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream)
{
    return exec_launch(hGraphExec, hStream, 0, 1);
}
CB_EXPORT CUresult cuGraphUpload_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
    return exec_launch(hGraphExec, hStream, 1, 1);
}

CB_EXPORT CUresult cuGraphExecDestroy(CUgraphExec hGraphExec)
{
    CB_REQUIRE_INIT();
    if (!cb_graph_exec_valid(hGraphExec))
        return CUDA_ERROR_INVALID_VALUE;
    cb_graph_exec_destroy(E(hGraphExec));
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuGraphExecGetFlags(CUgraphExec hGraphExec, cuuint64_t *flags)
{
    CB_REQUIRE_INIT();
    if (!cb_graph_exec_valid(hGraphExec) || !flags)
        return CUDA_ERROR_INVALID_VALUE;
    *flags = E(hGraphExec)->flags;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuGraphExecUpdate_v2(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo *resultInfo)
{
    CB_REQUIRE_INIT();
    if (!cb_graph_exec_valid(hGraphExec) || !cb_graph_valid(hGraph) || !resultInfo)
        return CUDA_ERROR_INVALID_VALUE;
    cb_graph_node *bad = NULL;
    resultInfo->errorFromNode = NULL;
    CUresult r = cb_graph_exec_update(E(hGraphExec), G(hGraph), &bad, &resultInfo->result);
    resultInfo->errorNode = (CUgraphNode)bad;
    return r;
}

CB_EXPORT CUresult cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphNode *hErrorNode_out,
                                     CUgraphExecUpdateResult *updateResult_out)
{
    CUgraphExecUpdateResultInfo info;
    memset(&info, 0, sizeof info);
    CUresult r = cuGraphExecUpdate_v2(hGraphExec, hGraph, &info);
    if (hErrorNode_out)
        *hErrorNode_out = info.errorNode;
    if (updateResult_out)
        *updateResult_out = info.result;
    return r;
}

static CUresult exec_kernel_set(CUgraphExec h, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS *p)
{
    CB_REQUIRE_INIT();
    if (!cb_graph_exec_valid(h) || !cb_graph_node_valid(node) || !p)
        return CUDA_ERROR_INVALID_VALUE;
    cb_graph_exec *e = E(h);
    size_t i = N(node)->index;
    if (i >= e->graph->n || e->graph->nodes[i]->type != CU_GRAPH_NODE_TYPE_KERNEL ||
        N(node)->type != CU_GRAPH_NODE_TYPE_KERNEL)
        return CUDA_ERROR_INVALID_VALUE;
    cb_graph_exec_quiesce(e);
    return cb_graph_kernel_set(e->graph->nodes[i], p);
}

CB_EXPORT CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                     const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    return exec_kernel_set(hGraphExec, hNode, nodeParams);
}

CB_EXPORT CUresult cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                  const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_KERNEL_NODE_PARAMS q = kernel_params_v2(nodeParams);
    return exec_kernel_set(hGraphExec, hNode, &q);
}

/* ---- stream capture ---------------------------------------------------- */

static CUresult capture_stream(CUstream h, int per_thread, cb_stream **out)
{
    CB_REQUIRE_INIT();
    cb_context *ctx;
    CUresult r = cb_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    return cb_stream_resolve_ex(h, ctx, per_thread, out);
}

static CUresult begin_capture(CUstream h, CUstreamCaptureMode mode, int per_thread)
{
    cb_stream *s;
    CUresult r = capture_stream(h, per_thread, &s);
    return r != CUDA_SUCCESS ? r : cb_capture_begin(s, mode);
}

CB_EXPORT CUresult cuStreamBeginCapture(CUstream hStream)
{
    return begin_capture(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL, 0);
}
CB_EXPORT CUresult cuStreamBeginCapture_ptsz(CUstream hStream)
{
    return begin_capture(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL, 1);
}
CB_EXPORT CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode)
{
    return begin_capture(hStream, mode, 0);
}
CB_EXPORT CUresult cuStreamBeginCapture_v2_ptsz(CUstream hStream, CUstreamCaptureMode mode)
{
    return begin_capture(hStream, mode, 1);
}

static CUresult end_capture(CUstream h, CUgraph *out, int per_thread)
{
    cb_stream *s;
    CUresult r = capture_stream(h, per_thread, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    cb_graph *g = NULL;
    r = cb_capture_end(s, &g);
    *out = (CUgraph)g;
    return r;
}

CB_EXPORT CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph) { return end_capture(hStream, phGraph, 0); }
CB_EXPORT CUresult cuStreamEndCapture_ptsz(CUstream hStream, CUgraph *phGraph)
{
    return end_capture(hStream, phGraph, 1);
}

/* Reads a stream's capture state; deps point at the stream's own array. */
static CUresult capture_info(CUstream h, int per_thread, CUstreamCaptureStatus *status, cuuint64_t *id, CUgraph *graph,
                             const CUgraphNode **deps, const CUgraphEdgeData **edges, size_t *ndeps)
{
    cb_stream *s;
    CUresult r = capture_stream(h, per_thread, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!status)
        return CUDA_ERROR_INVALID_VALUE;
    cb_runtime *rt = cb_runtime_of(s->ctx);
    cb_mutex_lock(&rt->lock);
    cb_capture *cap = s->capture;
    *status = !cap                ? CU_STREAM_CAPTURE_STATUS_NONE
              : cap->invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED
                                 : CU_STREAM_CAPTURE_STATUS_ACTIVE;
    if (cap && id)
        *id = cap->id;
    if (cap && graph)
        *graph = (CUgraph)cap->graph;
    if (deps)
        *deps = cap ? (const CUgraphNode *)s->cap_deps : NULL;
    if (edges)
        *edges = NULL; /* every edge is a default edge */
    if (ndeps)
        *ndeps = cap ? s->ncap_deps : 0;
    cb_mutex_unlock(&rt->lock);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
    return capture_info(hStream, 0, captureStatus, NULL, NULL, NULL, NULL, NULL);
}
CB_EXPORT CUresult cuStreamIsCapturing_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
    return capture_info(hStream, 1, captureStatus, NULL, NULL, NULL, NULL, NULL);
}
CB_EXPORT CUresult cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out)
{
    return capture_info(hStream, 0, captureStatus_out, id_out, NULL, NULL, NULL, NULL);
}
CB_EXPORT CUresult cuStreamGetCaptureInfo_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                               cuuint64_t *id_out)
{
    return capture_info(hStream, 1, captureStatus_out, id_out, NULL, NULL, NULL, NULL);
}
CB_EXPORT CUresult cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                             cuuint64_t *id_out, CUgraph *graph_out,
                                             const CUgraphNode **dependencies_out, size_t *numDependencies_out)
{
    return capture_info(hStream, 0, captureStatus_out, id_out, graph_out, dependencies_out, NULL, numDependencies_out);
}
CB_EXPORT CUresult cuStreamGetCaptureInfo_v2_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                                  cuuint64_t *id_out, CUgraph *graph_out,
                                                  const CUgraphNode **dependencies_out, size_t *numDependencies_out)
{
    return capture_info(hStream, 1, captureStatus_out, id_out, graph_out, dependencies_out, NULL, numDependencies_out);
}
CB_EXPORT CUresult cuStreamGetCaptureInfo_v3(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                             cuuint64_t *id_out, CUgraph *graph_out,
                                             const CUgraphNode **dependencies_out, const CUgraphEdgeData **edgeData_out,
                                             size_t *numDependencies_out)
{
    return capture_info(hStream, 0, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                        numDependencies_out);
}
CB_EXPORT CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                                  cuuint64_t *id_out, CUgraph *graph_out,
                                                  const CUgraphNode **dependencies_out,
                                                  const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    return capture_info(hStream, 1, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                        numDependencies_out);
}

static CUresult update_capture_deps(CUstream h, CUgraphNode *deps, size_t n, unsigned flags, int per_thread)
{
    cb_stream *s;
    CUresult r = capture_stream(h, per_thread, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if ((n && !deps) || flags > CU_STREAM_SET_CAPTURE_DEPENDENCIES)
        return CUDA_ERROR_INVALID_VALUE;
    return cb_capture_update_deps(s, (cb_graph_node *const *)deps, n, flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES);
}

CB_EXPORT CUresult cuStreamUpdateCaptureDependencies(CUstream hStream, CUgraphNode *dependencies,
                                                     size_t numDependencies, unsigned int flags)
{
    return update_capture_deps(hStream, dependencies, numDependencies, flags, 0);
}
CB_EXPORT CUresult cuStreamUpdateCaptureDependencies_ptsz(CUstream hStream, CUgraphNode *dependencies,
                                                          size_t numDependencies, unsigned int flags)
{
    return update_capture_deps(hStream, dependencies, numDependencies, flags, 1);
}
CB_EXPORT CUresult cuStreamUpdateCaptureDependencies_v2(CUstream hStream, CUgraphNode *dependencies,
                                                        const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                                        unsigned int flags)
{
    if (dependencyData)
        for (size_t i = 0; i < numDependencies; i++)
            if (dependencyData[i].type != CU_GRAPH_DEPENDENCY_TYPE_DEFAULT || dependencyData[i].from_port ||
                dependencyData[i].to_port)
                return cb_driver_not_supported("cuStreamUpdateCaptureDependencies_v2(edge data)",
                                               "programmatic (non-default) graph edges are not modelled");
    return update_capture_deps(hStream, dependencies, numDependencies, flags, 0);
}
CB_EXPORT CUresult cuStreamUpdateCaptureDependencies_v2_ptsz(CUstream hStream, CUgraphNode *dependencies,
                                                             const CUgraphEdgeData *dependencyData,
                                                             size_t numDependencies, unsigned int flags)
{
    if (dependencyData)
        for (size_t i = 0; i < numDependencies; i++)
            if (dependencyData[i].type != CU_GRAPH_DEPENDENCY_TYPE_DEFAULT || dependencyData[i].from_port ||
                dependencyData[i].to_port)
                return cb_driver_not_supported("cuStreamUpdateCaptureDependencies_v2(edge data)",
                                               "programmatic (non-default) graph edges are not modelled");
    return update_capture_deps(hStream, dependencies, numDependencies, flags, 1);
}

CB_EXPORT CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
    CB_REQUIRE_INIT();
    return cb_capture_exchange_mode(mode);
}
