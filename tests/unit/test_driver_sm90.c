/* test_driver_sm90: the sm_90 launch features through the driver API, with
 * CUBRIDGE_SM=90:
 *   - conditional graph nodes (cuGraphConditionalHandleCreate, cuGraphAddNode
 *     with CU_GRAPH_NODE_TYPE_CONDITIONAL): IF (with and without else),
 *     WHILE, SWITCH, nesting, CU_GRAPH_COND_ASSIGN_DEFAULT, clones and
 *     updates, kernels setting the condition (cudaGraphSetConditional in
 *     PTX), and every error: bad handles, sizes, types, contexts, body node
 *     types, a kernel setting a handle that is not one;
 *   - launch attributes: PROGRAMMATIC_STREAM_SERIALIZATION, PROGRAMMATIC_EVENT
 *     and LAUNCH_COMPLETION_EVENT (recorded with the launch; events with
 *     timing, bad events and flags refused), programmatic graph edges
 *     (cuGraphAddNode_v2 edge data);
 *   - thread block clusters: CLUSTER_DIMENSION, __cluster_dims__
 *     (.reqnctapercluster), .explicitcluster, the cluster function
 *     attributes, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, and the shape errors. */
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

static const char ptx[] =
    ".version 8.4\n.target sm_90\n.address_size 64\n"
    ".extern .func cudaGraphSetConditional(.param .b64 h, .param .b32 v);\n"
    /* set(h, *p): the condition from memory */
    ".visible .entry set(.param .u64 h, .param .u64 p)\n{\n"
    " .reg .b32 %r<2>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [h]; ld.param.u64 %rd2, [p]; ld.global.u32 %r1, [%rd2];\n"
    " { .param .b64 a0; .param .b32 a1; st.param.b64 [a0], %rd1; st.param.b32 [a1], %r1;\n"
    "   call.uni cudaGraphSetConditional, (a0, a1); }\n"
    " ret;\n}\n"
    /* add(p, v): *p += v */
    ".visible .entry add(.param .u64 p, .param .u32 v)\n{\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
    " ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [v]; ld.global.u32 %r2, [%rd1]; add.u32 %r3, %r2, %r1;\n"
    " st.global.u32 [%rd1], %r3;\n ret;\n}\n"
    /* step(h, c, acc): *acc += *c; *c -= 1; condition = *c != 0 */
    ".visible .entry step(.param .u64 h, .param .u64 c, .param .u64 acc)\n{\n"
    " .reg .b32 %r<6>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [h]; ld.param.u64 %rd2, [c]; ld.param.u64 %rd3, [acc];\n"
    " ld.global.u32 %r1, [%rd2]; ld.global.u32 %r2, [%rd3]; add.u32 %r2, %r2, %r1; st.global.u32 [%rd3], %r2;\n"
    " sub.u32 %r1, %r1, 1; st.global.u32 [%rd2], %r1; setp.ne.u32 %p1, %r1, 0; selp.u32 %r3, 1, 0, %p1;\n"
    " { .param .b64 a0; .param .b32 a1; st.param.b64 [a0], %rd1; st.param.b32 [a1], %r3;\n"
    "   call.uni cudaGraphSetConditional, (a0, a1); }\n"
    " ret;\n}\n"
    /* ranks(out): out[ctaid] = rank | nranks << 8 | explicit << 16 */
    ".visible .entry ranks(.param .u64 o)\n{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [o]; mov.u32 %r1, %ctaid.x; mul.wide.u32 %rd2, %r1, 4; add.u64 %rd3, %rd1, %rd2;\n"
    " mov.u32 %r2, %cluster_ctarank; mov.u32 %r3, %cluster_nctarank; shl.b32 %r3, %r3, 8; or.b32 %r2, %r2, %r3;\n"
    " mov.pred %p1, %is_explicit_cluster; selp.u32 %r4, 0x10000, 0, %p1; or.b32 %r2, %r2, %r4;\n"
    " st.global.u32 [%rd3], %r2;\n ret;\n}\n"
    /* fixed: __cluster_dims__(2, 1, 1) */
    ".visible .entry fixed(.param .u64 o)\n.explicitcluster\n.reqnctapercluster 2, 1, 1\n{\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [o]; mov.u32 %r1, %ctaid.x; mul.wide.u32 %rd2, %r1, 4; add.u64 %rd3, %rd1, %rd2;\n"
    " mov.u32 %r2, %cluster_nctarank; st.global.u32 [%rd3], %r2;\n ret;\n}\n"
    /* needs: .explicitcluster without a shape */
    ".visible .entry needs(.param .u64 o)\n.explicitcluster\n{\n ret;\n}\n"
    /* pdl(p): griddepcontrol around an increment (atomic: a plain load, add and
     * store by every thread races, and the lanes entries run it as the GPU's
     * lockstep does, one increment a launch) */
    ".visible .entry pdl(.param .u64 p)\n{\n"
    " .reg .b32 %r<3>; .reg .b64 %rd<2>;\n"
    " griddepcontrol.wait;\n ld.param.u64 %rd1, [p]; atom.global.add.u32 %r2, [%rd1], 1;\n"
    " griddepcontrol.launch_dependents;\n ret;\n}\n";

static CUmodule mod;
static CUfunction f_set, f_add, f_step, f_ranks, f_fixed, f_needs, f_pdl;
static CUdeviceptr mem;   /* [0] condition input, [1] accumulator, [2] counter, [16..] cluster output */

static uint32_t rd(int i)
{
    uint32_t v = 0;
    CHECK(cuMemcpyDtoH_v2(&v, mem + 4 * (size_t)i, 4) == CUDA_SUCCESS);
    return v;
}

static void wr(int i, uint32_t v) { CHECK(cuMemcpyHtoD_v2(mem + 4 * (size_t)i, &v, 4) == CUDA_SUCCESS); }

static CUgraphNode kernel_node(CUgraph g, const CUgraphNode *deps, size_t n, CUfunction f, void **args)
{
    CUDA_KERNEL_NODE_PARAMS p;
    memset(&p, 0, sizeof p);
    p.func = f;
    p.gridDimX = p.gridDimY = p.gridDimZ = 1;
    p.blockDimX = p.blockDimY = p.blockDimZ = 1;
    p.kernelParams = args;
    CUgraphNode node = NULL;
    CHECK(cuGraphAddKernelNode_v2(&node, g, deps, n, &p) == CUDA_SUCCESS);
    return node;
}

static CUresult cond_node(CUgraph g, const CUgraphNode *deps, size_t n, CUgraphConditionalHandle h,
                          CUgraphConditionalNodeType type, unsigned size, CUgraph **bodies, CUgraphNode *out)
{
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    p.conditional.handle = h;
    p.conditional.type = type;
    p.conditional.size = size;
    CUresult r = cuGraphAddNode(out, g, deps, n, &p);
    if (bodies)
        *bodies = p.conditional.phGraph_out;
    return r;
}

static void launch_sync(CUgraphExec e)
{
    CHECK(cuGraphLaunch(e, NULL) == CUDA_SUCCESS);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
}

/* if (*cond) acc += 10 else acc += 1000, a kernel setting the condition first */
static void test_if(void)
{
    CUgraph g;
    CHECK(cuGraphCreate(&g, 0) == CUDA_SUCCESS);
    CUgraphConditionalHandle h = 0;
    CHECK(cuGraphConditionalHandleCreate(&h, g, NULL, 0, 0) == CUDA_SUCCESS && h);
    CUdeviceptr pc = mem, pacc = mem + 4;
    void *sargs[] = {&h, &pc};
    CUgraphNode setter = kernel_node(g, NULL, 0, f_set, sargs);
    CUgraph *bodies = NULL;
    CUgraphNode cn;
    CHECK(cond_node(g, &setter, 1, h, CU_GRAPH_COND_TYPE_IF, 2, &bodies, &cn) == CUDA_SUCCESS && bodies);
    CUgraphNodeType type;
    CHECK(cuGraphNodeGetType(cn, &type) == CUDA_SUCCESS && type == CU_GRAPH_NODE_TYPE_CONDITIONAL);
    uint32_t ten = 10, thousand = 1000;
    void *a1[] = {&pacc, &ten}, *a2[] = {&pacc, &thousand};
    kernel_node(bodies[0], NULL, 0, f_add, a1);
    kernel_node(bodies[1], NULL, 0, f_add, a2);
    CUgraphExec e;
    CHECK(cuGraphInstantiateWithFlags(&e, g, 0) == CUDA_SUCCESS);
    CUgraph clone;
    CHECK(cuGraphClone(&clone, g) == CUDA_SUCCESS);
    CHECK(cuGraphDestroy(g) == CUDA_SUCCESS);   /* the instantiation keeps the handle alive */
    wr(1, 0);
    const uint32_t xs[4] = {1, 0, 7, 0};
    uint32_t want = 0;
    for (int i = 0; i < 4; i++) {
        wr(0, xs[i]);
        launch_sync(e);
        want += xs[i] ? 10 : 1000;
        CHECK(rd(1) == want);
    }
    /* the clone runs the same way */
    CUgraphExec ec;
    CHECK(cuGraphInstantiateWithFlags(&ec, clone, 0) == CUDA_SUCCESS);
    wr(0, 3);
    launch_sync(ec);
    CHECK(rd(1) == want + 10);
    CHECK(cuGraphExecDestroy(ec) == CUDA_SUCCESS);
    CHECK(cuGraphDestroy(clone) == CUDA_SUCCESS);
    CHECK(cuGraphExecDestroy(e) == CUDA_SUCCESS);
}

/* while (counter) { acc += counter; counter--; } with ASSIGN_DEFAULT 1, nested in an IF whose condition
 * persists between launches (no ASSIGN_DEFAULT) */
static void test_while(void)
{
    CUgraph g;
    CHECK(cuGraphCreate(&g, 0) == CUDA_SUCCESS);
    CUgraphConditionalHandle hif, hw;
    CHECK(cuGraphConditionalHandleCreate(&hif, g, NULL, 1, 0) == CUDA_SUCCESS);
    CUgraph *ifb;
    CUgraphNode n_if;
    CHECK(cond_node(g, NULL, 0, hif, CU_GRAPH_COND_TYPE_IF, 1, &ifb, &n_if) == CUDA_SUCCESS);
    CHECK(cuGraphConditionalHandleCreate(&hw, ifb[0], NULL, 1, CU_GRAPH_COND_ASSIGN_DEFAULT) == CUDA_SUCCESS);
    CUgraph *wb;
    CUgraphNode n_w;
    CHECK(cond_node(ifb[0], NULL, 0, hw, CU_GRAPH_COND_TYPE_WHILE, 1, &wb, &n_w) == CUDA_SUCCESS);
    CUdeviceptr pc = mem + 8, pacc = mem + 4;
    void *args[] = {&hw, &pc, &pacc};
    kernel_node(wb[0], NULL, 0, f_step, args);
    CUgraphExec e;
    CHECK(cuGraphInstantiateWithFlags(&e, g, 0) == CUDA_SUCCESS);
    for (uint32_t n = 1; n <= 6; n += 5) {
        wr(1, 0);
        wr(2, n);
        launch_sync(e);
        CHECK(rd(1) == n * (n + 1) / 2 && rd(2) == 0);
    }
    CHECK(cuGraphExecDestroy(e) == CUDA_SUCCESS);
    CHECK(cuGraphDestroy(g) == CUDA_SUCCESS);
}

/* switch (*x): bodies 0..2 add 1, 20, 300; 3 and above run none; and the update of an instantiation */
static void test_switch(void)
{
    CUgraph gs[2];
    CUgraphExec e = NULL;
    for (int v = 0; v < 2; v++) {
        CHECK(cuGraphCreate(&gs[v], 0) == CUDA_SUCCESS);
        CUgraphConditionalHandle h;
        CHECK(cuGraphConditionalHandleCreate(&h, gs[v], NULL, 0, 0) == CUDA_SUCCESS);
        CUdeviceptr px = mem, pacc = mem + 4;
        void *sargs[] = {&h, &px};
        CUgraphNode setter = kernel_node(gs[v], NULL, 0, f_set, sargs);
        CUgraph *b;
        CUgraphNode cn;
        CHECK(cond_node(gs[v], &setter, 1, h, CU_GRAPH_COND_TYPE_SWITCH, 3, &b, &cn) == CUDA_SUCCESS);
        static uint32_t vals[2][3] = {{1, 20, 300}, {2, 40, 600}};
        for (int k = 0; k < 3; k++) {
            void *a[] = {&pacc, &vals[v][k]};
            kernel_node(b[k], NULL, 0, f_add, a);
        }
    }
    CHECK(cuGraphInstantiateWithFlags(&e, gs[0], 0) == CUDA_SUCCESS);
    wr(1, 0);
    for (uint32_t x = 0; x < 5; x++) {
        wr(0, x);
        launch_sync(e);
    }
    CHECK(rd(1) == 321);
    CUgraphExecUpdateResultInfo info;
    CHECK(cuGraphExecUpdate_v2(e, gs[1], &info) == CUDA_SUCCESS);
    wr(1, 0);
    wr(0, 2);
    launch_sync(e);
    CHECK(rd(1) == 600);
    CHECK(cuGraphExecDestroy(e) == CUDA_SUCCESS);
    CHECK(cuGraphDestroy(gs[0]) == CUDA_SUCCESS);
    CHECK(cuGraphDestroy(gs[1]) == CUDA_SUCCESS);
}

static void test_cond_errors(void)
{
    CUgraph g, other;
    CHECK(cuGraphCreate(&g, 0) == CUDA_SUCCESS);
    CHECK(cuGraphCreate(&other, 0) == CUDA_SUCCESS);
    CUgraphConditionalHandle h, ho;
    CHECK(cuGraphConditionalHandleCreate(NULL, g, NULL, 0, 0) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuGraphConditionalHandleCreate(&h, NULL, NULL, 0, 0) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuGraphConditionalHandleCreate(&h, g, NULL, 0, 2) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuGraphConditionalHandleCreate(&h, g, (CUcontext)&h, 0, 0) == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(cuGraphConditionalHandleCreate(&h, g, NULL, 0, 0) == CUDA_SUCCESS);
    CHECK(cuGraphConditionalHandleCreate(&ho, other, NULL, 0, 0) == CUDA_SUCCESS);
    CUgraphNode n;
    CHECK(cond_node(g, NULL, 0, h, CU_GRAPH_COND_TYPE_IF, 3, NULL, &n) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cond_node(g, NULL, 0, h, CU_GRAPH_COND_TYPE_IF, 0, NULL, &n) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cond_node(g, NULL, 0, h, CU_GRAPH_COND_TYPE_WHILE, 2, NULL, &n) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cond_node(g, NULL, 0, h, CU_GRAPH_COND_TYPE_SWITCH, 0, NULL, &n) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cond_node(g, NULL, 0, h, (CUgraphConditionalNodeType)7, 1, NULL, &n) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cond_node(g, NULL, 0, ho, CU_GRAPH_COND_TYPE_IF, 1, NULL, &n) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cond_node(g, NULL, 0, 12345, CU_GRAPH_COND_TYPE_IF, 1, NULL, &n) == CUDA_ERROR_INVALID_VALUE);
    size_t count = 0;
    CHECK(cuGraphGetNodes(g, NULL, &count) == CUDA_SUCCESS && count == 0);   /* refused nodes are not kept */
    /* generic node params: reserved fields, and a node type this entry point does not make */
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_EMPTY;
    p.reserved0[1] = 1;
    CHECK(cuGraphAddNode(&n, g, NULL, 0, &p) == CUDA_ERROR_INVALID_VALUE);
    p.reserved0[1] = 0;
    CHECK(cuGraphAddNode(&n, g, NULL, 0, &p) == CUDA_SUCCESS);
    p.type = CU_GRAPH_NODE_TYPE_GRAPH;
    CHECK(cuGraphAddNode(&n, g, NULL, 0, &p) == CUDA_ERROR_NOT_SUPPORTED);
    /* edge data: a default and a programmatic edge are fine, a port to the downstream node is not */
    CUgraphNode first = NULL;
    CHECK(cuGraphGetNodes(g, &first, &(size_t){1}) == CUDA_SUCCESS);
    CUgraphEdgeData ed;
    memset(&ed, 0, sizeof ed);
    p.type = CU_GRAPH_NODE_TYPE_EMPTY;
    CHECK(cuGraphAddNode_v2(&n, g, &first, &ed, 1, &p) == CUDA_SUCCESS);
    ed.type = CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC;
    ed.from_port = CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC;
    CHECK(cuGraphAddNode_v2(&n, g, &first, &ed, 1, &p) == CUDA_SUCCESS);
    ed.to_port = 1;
    CHECK(cuGraphAddNode_v2(&n, g, &first, &ed, 1, &p) == CUDA_ERROR_INVALID_VALUE);
    /* a body may not hold host or event nodes: instantiation says so */
    CUgraph *b;
    CHECK(cond_node(g, NULL, 0, h, CU_GRAPH_COND_TYPE_IF, 1, &b, &n) == CUDA_SUCCESS);
    CUgraphNode e1;
    CUevent ev;
    CHECK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS);
    CHECK(cuGraphAddEventRecordNode(&e1, b[0], NULL, 0, ev) == CUDA_SUCCESS);
    CUgraphExec e;
    CHECK(cuGraphInstantiateWithFlags(&e, g, 0) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuEventDestroy_v2(ev) == CUDA_SUCCESS);
    CHECK(cuGraphDestroy(g) == CUDA_SUCCESS);
    CHECK(cuGraphDestroy(other) == CUDA_SUCCESS);
    /* a kernel that sets a "handle" that is none fails its launch */
    CUdeviceptr pc = mem;
    uint64_t bogus = (uint64_t)(uintptr_t)&failures;
    void *args[] = {&bogus, &pc};
    CHECK(cuLaunchKernel(f_set, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS);
    CHECK(cuCtxSynchronize() == CUDA_ERROR_LAUNCH_FAILED);
}

static CUresult launch_ex(CUfunction f, unsigned grid, const CUlaunchAttribute *attrs, unsigned nattrs, void **args)
{
    CUlaunchConfig c;
    memset(&c, 0, sizeof c);
    c.gridDimX = grid;
    c.gridDimY = c.gridDimZ = 1;
    c.blockDimX = 32;
    c.blockDimY = c.blockDimZ = 1;
    c.attrs = (CUlaunchAttribute *)attrs;
    c.numAttrs = nattrs;
    return cuLaunchKernelEx(&c, f, args, NULL);
}

static void test_launch_attributes(void)
{
    CUdeviceptr p = mem + 8;
    void *args[] = {&p};
    wr(2, 0);
    CUlaunchAttribute a[2];
    memset(a, 0, sizeof a);
    a[0].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    a[0].value.programmaticStreamSerializationAllowed = 1;
    CHECK(launch_ex(f_pdl, 1, a, 1, args) == CUDA_SUCCESS);
    CUevent ev, timed;
    CHECK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS);
    CHECK(cuEventCreate(&timed, 0) == CUDA_SUCCESS);
    static const CUlaunchAttributeID ids[2] = {CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT,
                                               CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT};
    for (int k = 0; k < 2; k++) {
        a[1].id = ids[k];
        a[1].value.programmaticEvent.event = ev;   /* same layout as launchCompletionEvent */
        CHECK(launch_ex(f_pdl, 1, a, 2, args) == CUDA_SUCCESS);
        CHECK(cuEventSynchronize(ev) == CUDA_SUCCESS && cuEventQuery(ev) == CUDA_SUCCESS);
        a[1].value.programmaticEvent.event = timed;
        CHECK(launch_ex(f_pdl, 1, a, 2, args) == CUDA_ERROR_NOT_SUPPORTED);
        a[1].value.programmaticEvent.event = (CUevent)&a;
        CHECK(launch_ex(f_pdl, 1, a, 2, args) == CUDA_ERROR_INVALID_HANDLE);
        a[1].value.programmaticEvent.event = ev;
        a[1].value.programmaticEvent.flags = CU_EVENT_RECORD_EXTERNAL;
        CHECK(launch_ex(f_pdl, 1, a, 2, args) == CUDA_ERROR_INVALID_VALUE);
        a[1].value.programmaticEvent.flags = 0;
    }
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(rd(2) == 3 * 32);   /* 32 threads a launch; the refused launches did not run */
    CHECK(cuEventDestroy_v2(ev) == CUDA_SUCCESS);
    CHECK(cuEventDestroy_v2(timed) == CUDA_SUCCESS);
}

static void test_clusters(void)
{
    CUdevice dev;
    CHECK(cuCtxGetDevice(&dev) == CUDA_SUCCESS);
    int v = -1;
    CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, dev) == CUDA_SUCCESS && v == 1);
    CUdeviceptr out = mem + 64;
    void *args[] = {&out};
    CUlaunchAttribute a;
    memset(&a, 0, sizeof a);
    a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    a.value.clusterDim.x = 2;
    a.value.clusterDim.y = a.value.clusterDim.z = 1;
    CHECK(launch_ex(f_ranks, 8, &a, 1, args) == CUDA_SUCCESS);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    for (int b = 0; b < 8; b++)
        CHECK(rd(16 + b) == ((uint32_t)(b % 2) | 2u << 8 | 1u << 16));
    /* no cluster: clusters of one block, not explicit */
    CHECK(cuLaunchKernel(f_ranks, 4, 1, 1, 32, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(rd(16) == (1u << 8) && rd(19) == (1u << 8));
    /* shapes that do not fit */
    a.value.clusterDim.x = 3;
    CHECK(launch_ex(f_ranks, 8, &a, 1, args) == CUDA_ERROR_INVALID_CLUSTER_SIZE);
    a.value.clusterDim.x = 0;
    CHECK(launch_ex(f_ranks, 8, &a, 1, args) == CUDA_ERROR_INVALID_CLUSTER_SIZE);
    a.value.clusterDim.x = 16;
    CHECK(launch_ex(f_ranks, 16, &a, 1, args) == CUDA_ERROR_INVALID_CLUSTER_SIZE);   /* over 8: non-portable */
    CHECK(cuFuncSetAttribute(f_ranks, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1) == CUDA_SUCCESS);
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, f_ranks) == CUDA_SUCCESS && v == 1);
    CHECK(launch_ex(f_ranks, 16, &a, 1, args) == CUDA_SUCCESS);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(rd(16 + 15) == (15u | 16u << 8 | 1u << 16));
    CHECK(cuFuncSetAttribute(f_ranks, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 2) == CUDA_ERROR_INVALID_VALUE);
    /* a shape set on the function applies to plain launches */
    CHECK(cuFuncSetAttribute(f_ranks, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, 4) == CUDA_SUCCESS);
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, f_ranks) == CUDA_SUCCESS && v == 4);
    CHECK(cuLaunchKernel(f_ranks, 8, 1, 1, 32, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(rd(16 + 5) == (1u | 4u << 8 | 1u << 16));
    CHECK(cuFuncSetAttribute(f_ranks, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, 0) == CUDA_SUCCESS);
    CHECK(cuFuncSetAttribute(f_ranks, CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE,
                             CU_CLUSTER_SCHEDULING_POLICY_SPREAD) == CUDA_SUCCESS);
    CHECK(cuFuncSetAttribute(f_ranks, CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, 9) ==
          CUDA_ERROR_INVALID_VALUE);
    /* __cluster_dims__(2,1,1): used by plain launches, reported, not overridable */
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, f_fixed) == CUDA_SUCCESS && v == 2);
    CHECK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET, f_fixed) == CUDA_SUCCESS && v == 1);
    CHECK(cuFuncSetAttribute(f_fixed, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, 4) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuLaunchKernel(f_fixed, 6, 1, 1, 32, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(rd(16) == 2 && rd(21) == 2);
    CHECK(cuLaunchKernel(f_fixed, 5, 1, 1, 32, 1, 1, 0, NULL, args, NULL) == CUDA_ERROR_INVALID_CLUSTER_SIZE);
    a.value.clusterDim.x = 4;
    CHECK(launch_ex(f_fixed, 8, &a, 1, args) == CUDA_ERROR_INVALID_CLUSTER_SIZE);   /* not its own shape */
    /* .explicitcluster without a shape must get one at launch */
    CHECK(cuLaunchKernel(f_needs, 2, 1, 1, 32, 1, 1, 0, NULL, args, NULL) == CUDA_ERROR_INVALID_CLUSTER_SIZE);
    a.value.clusterDim.x = 2;
    CHECK(launch_ex(f_needs, 2, &a, 1, args) == CUDA_SUCCESS);
    /* a cooperative launch with a cluster is not supported here */
    CUlaunchAttribute both[2];
    memset(both, 0, sizeof both);
    both[0] = a;
    both[1].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    both[1].value.cooperative = 1;
    CHECK(launch_ex(f_ranks, 2, both, 2, args) == CUDA_ERROR_NOT_SUPPORTED);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
}

int main(void)
{
    setenv("CUBRIDGE_SM", "90", 1);
    CHECK(cuInit(0) == CUDA_SUCCESS);
    CUcontext ctx = NULL;
    CHECK(cuCtxCreate_v2(&ctx, 0, 0) == CUDA_SUCCESS);
    CHECK(cuModuleLoadData(&mod, ptx) == CUDA_SUCCESS);
    CHECK(cuModuleGetFunction(&f_set, mod, "set") == CUDA_SUCCESS);
    CHECK(cuModuleGetFunction(&f_add, mod, "add") == CUDA_SUCCESS);
    CHECK(cuModuleGetFunction(&f_step, mod, "step") == CUDA_SUCCESS);
    CHECK(cuModuleGetFunction(&f_ranks, mod, "ranks") == CUDA_SUCCESS);
    CHECK(cuModuleGetFunction(&f_fixed, mod, "fixed") == CUDA_SUCCESS);
    CHECK(cuModuleGetFunction(&f_needs, mod, "needs") == CUDA_SUCCESS);
    CHECK(cuModuleGetFunction(&f_pdl, mod, "pdl") == CUDA_SUCCESS);
    CHECK(cuMemAlloc_v2(&mem, 4096) == CUDA_SUCCESS);
    if (!failures) {
        test_if();
        test_while();
        test_switch();
        test_launch_attributes();
        test_clusters();
        test_cond_errors();   /* last: it leaves the context with a failed launch */
    }
    CHECK(cuCtxDestroy_v2(ctx) == CUDA_SUCCESS);
    if (failures)
        fprintf(stderr, "test_driver_sm90: %d failures\n", failures);
    return failures != 0;
}
