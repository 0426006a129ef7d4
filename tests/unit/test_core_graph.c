/* test_core_graph.c: graphs: stream capture (with a fork/join across
 * streams) replayed gives the same result as direct execution; explicit
 * graphs; clone; exec update; capture error rules; kernel nodes when the
 * PTX pipeline can load a module. */
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                 \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)
#define OK(call) CHECK((call) == CUDA_SUCCESS)

enum { N = 1024 };

typedef struct host_state {
    unsigned *pinned;      /* N words */
    unsigned long long sum;
    int calls;
} host_state;

/* A host step: sums the pinned buffer, then scales it by 3. */
static void CUDA_CB host_step(void *arg)
{
    host_state *h = arg;
    h->calls++;
    for (int i = 0; i < N; i++) {
        h->sum += h->pinned[i];
        h->pinned[i] *= 3;
    }
}

/* The work, on streams s (origin) and s2 (a forked branch):
 *   a = 7 (memset)                       [s]
 *   fork: b = 5 (memset)                 [s2]
 *   pinned <- a ; host_step              [s]
 *   join; b -> a (copy)                  [s]
 *   pinned2 <- a                         [s] */
static CUresult run_work(CUstream s, CUstream s2, CUevent fork, CUevent join, CUdeviceptr a, CUdeviceptr b,
                         host_state *h, unsigned *pinned2)
{
    CUresult r = CUDA_SUCCESS;
#define TRY(call)                                                                                  \
    if ((r = (call)) != CUDA_SUCCESS)                                                              \
        return r;
    TRY(cuMemsetD32Async(a, 7, N, s));
    TRY(cuEventRecord(fork, s));
    TRY(cuStreamWaitEvent(s2, fork, 0));
    TRY(cuMemsetD32Async(b, 5, N, s2));
    TRY(cuEventRecord(join, s2));
    TRY(cuMemcpyDtoHAsync_v2(h->pinned, a, N * 4, s));
    TRY(cuLaunchHostFunc(s, host_step, h));
    TRY(cuStreamWaitEvent(s, join, 0));
    TRY(cuMemcpyDtoDAsync_v2(a, b, N * 4, s));
    TRY(cuMemcpyDtoHAsync_v2(pinned2, a, N * 4, s));
#undef TRY
    return r;
}

static void test_capture_replay(void)
{
    CUstream s, s2;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    CUevent fork, join;
    OK(cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
    OK(cuEventCreate(&join, CU_EVENT_DISABLE_TIMING));
    CUdeviceptr a, b;
    OK(cuMemAlloc_v2(&a, N * 4));
    OK(cuMemAlloc_v2(&b, N * 4));
    unsigned *p1, *p2;
    OK(cuMemAllocHost_v2((void **)&p1, N * 4));
    OK(cuMemAllocHost_v2((void **)&p2, N * 4));

    /* direct */
    host_state direct = { p1, 0, 0 };
    OK(run_work(s, s2, fork, join, a, b, &direct, p2));
    OK(cuStreamSynchronize(s));
    CHECK(direct.calls == 1 && direct.sum == 7ull * N);
    CHECK(p1[0] == 21 && p2[N - 1] == 5);
    unsigned long long expect_sum = direct.sum;

    /* captured */
    memset(p1, 0, N * 4);
    memset(p2, 0, N * 4);
    host_state replay = { p1, 0, 0 };
    CUstreamCaptureStatus st;
    OK(cuStreamIsCapturing(s, &st));
    CHECK(st == CU_STREAM_CAPTURE_STATUS_NONE);
    OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    OK(cuStreamIsCapturing(s, &st));
    CHECK(st == CU_STREAM_CAPTURE_STATUS_ACTIVE);
    CHECK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL) == CUDA_ERROR_ILLEGAL_STATE);
    OK(run_work(s, s2, fork, join, a, b, &replay, p2));
    cuuint64_t id = 0;
    CUgraph captured = NULL;
    const CUgraphNode *deps = NULL;
    size_t ndeps = 0;
    OK(cuStreamGetCaptureInfo_v3(s, &st, &id, &captured, &deps, NULL, &ndeps));
    CHECK(st == CU_STREAM_CAPTURE_STATUS_ACTIVE && id != 0 && captured && ndeps == 1);
    OK(cuStreamIsCapturing(s2, &st)); /* s2 was joined into the capture by the fork */
    CHECK(st == CU_STREAM_CAPTURE_STATUS_ACTIVE);
    CHECK(replay.calls == 0); /* nothing ran */
    CUgraph g;
    OK(cuStreamEndCapture(s, &g));
    OK(cuStreamIsCapturing(s2, &st));
    CHECK(st == CU_STREAM_CAPTURE_STATUS_NONE);
    size_t count = 0;
    OK(cuGraphGetNodes(g, NULL, &count));
    CHECK(count == 6); /* memset, memset, copy, host, copy, copy */
    CUgraphNode nodes[8];
    count = 8;
    OK(cuGraphGetNodes(g, nodes, &count));
    CUgraphNodeType t;
    OK(cuGraphNodeGetType(nodes[0], &t));
    CHECK(t == CU_GRAPH_NODE_TYPE_MEMSET);
    OK(cuGraphNodeGetType(nodes[3], &t));
    CHECK(t == CU_GRAPH_NODE_TYPE_HOST);
    size_t roots = 0;
    OK(cuGraphGetRootNodes(g, NULL, &roots));
    CHECK(roots == 1);

    CUgraphExec e;
    OK(cuGraphInstantiateWithFlags(&e, g, 0));
    for (int rep = 0; rep < 3; rep++) {
        OK(cuMemsetD32_v2(a, 0, N));
        memset(p2, 0, N * 4);
        replay.sum = 0;
        OK(cuGraphLaunch(e, s));
        OK(cuStreamSynchronize(s));
        CHECK(replay.calls == rep + 1 && replay.sum == expect_sum);
        CHECK(p1[0] == 21 && p2[0] == 5 && p2[N - 1] == 5);
    }
    OK(cuGraphUpload(e, s));
    OK(cuGraphExecDestroy(e));
    CHECK(cuGraphExecDestroy(e) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuGraphLaunch(e, s) == CUDA_ERROR_INVALID_VALUE);

    /* a clone replays the same */
    CUgraph c;
    OK(cuGraphClone(&c, g));
    OK(cuGraphDestroy(g));
    OK(cuGraphInstantiateWithFlags(&e, c, 0));
    replay.sum = 0;
    OK(cuGraphLaunch(e, NULL));
    OK(cuStreamSynchronize(NULL));
    CHECK(replay.sum == expect_sum);
    OK(cuGraphExecDestroy(e));
    OK(cuGraphDestroy(c));
    CHECK(cuGraphDestroy(c) == CUDA_ERROR_INVALID_VALUE);

    OK(cuMemFree_v2(a));
    OK(cuMemFree_v2(b));
    OK(cuMemFreeHost(p1));
    OK(cuMemFreeHost(p2));
    OK(cuEventDestroy_v2(fork));
    OK(cuEventDestroy_v2(join));
    OK(cuStreamDestroy_v2(s));
    OK(cuStreamDestroy_v2(s2));
}

static void CUDA_CB bump(void *arg) { atomic_fetch_add((_Atomic int *)arg, 1); }

static void test_explicit_and_update(CUcontext ctx)
{
    CUdeviceptr d;
    OK(cuMemAlloc_v2(&d, N * 4));
    unsigned host[N];
    static _Atomic int bumps;
    CUgraph g;
    OK(cuGraphCreate(&g, 0));
    CUgraphNode set, copy, hostn, empty;
    CUDA_MEMSET_NODE_PARAMS ms = { .dst = d, .pitch = 0, .value = 11, .elementSize = 4, .width = N, .height = 1 };
    OK(cuGraphAddMemsetNode(&set, g, NULL, 0, &ms, ctx));
    CUDA_MEMCPY3D cp;
    memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_DEVICE, cp.srcDevice = d;
    cp.dstMemoryType = CU_MEMORYTYPE_HOST, cp.dstHost = host;
    cp.WidthInBytes = N * 4, cp.Height = 1, cp.Depth = 1;
    OK(cuGraphAddMemcpyNode(&copy, g, &set, 1, &cp, ctx));
    CUDA_HOST_NODE_PARAMS hp = { bump, (void *)&bumps };
    OK(cuGraphAddHostNode(&hostn, g, &copy, 1, &hp));
    CUgraphNode both[2] = { set, hostn };
    OK(cuGraphAddEmptyNode(&empty, g, both, 2));
    size_t nd = 0;
    OK(cuGraphNodeGetDependencies(empty, NULL, &nd));
    CHECK(nd == 2);
    ms.elementSize = 3;
    CUgraphNode bad;
    CHECK(cuGraphAddMemsetNode(&bad, g, NULL, 0, &ms, ctx) == CUDA_ERROR_INVALID_VALUE);
    ms.elementSize = 4;
    CHECK(cuGraphAddEmptyNode(&bad, g, (CUgraphNode *)&g, 1) == CUDA_ERROR_INVALID_VALUE);

    CUgraphExec e;
    OK(cuGraphInstantiateWithFlags(&e, g, 0));
    OK(cuGraphLaunch(e, NULL));
    OK(cuCtxSynchronize());
    CHECK(host[0] == 11 && host[N - 1] == 11 && bumps == 1);

    /* same shape, new values: update in place */
    CUgraph g2;
    OK(cuGraphCreate(&g2, 0));
    CUgraphNode s2, c2, h2, e2;
    ms.value = 99;
    OK(cuGraphAddMemsetNode(&s2, g2, NULL, 0, &ms, ctx));
    OK(cuGraphAddMemcpyNode(&c2, g2, &s2, 1, &cp, ctx));
    OK(cuGraphAddHostNode(&h2, g2, &c2, 1, &hp));
    CUgraphNode both2[2] = { s2, h2 };
    OK(cuGraphAddEmptyNode(&e2, g2, both2, 2));
    CUgraphExecUpdateResultInfo info;
    OK(cuGraphExecUpdate_v2(e, g2, &info));
    CHECK(info.result == CU_GRAPH_EXEC_UPDATE_SUCCESS);
    OK(cuGraphLaunch(e, NULL));
    OK(cuCtxSynchronize());
    CHECK(host[0] == 99 && bumps == 2);

    /* node params: read back, change in the exec only */
    CUDA_MEMSET_NODE_PARAMS got;
    OK(cuGraphMemsetNodeGetParams(s2, &got));
    CHECK(got.value == 99 && got.elementSize == 4 && got.width == N && got.dst == d);
    got.value = 123;
    OK(cuGraphExecMemsetNodeSetParams(e, s2, &got, ctx));
    OK(cuGraphLaunch(e, NULL));
    OK(cuCtxSynchronize());
    CHECK(host[0] == 123 && bumps == 3);
    got.elementSize = 3;
    CHECK(cuGraphExecMemsetNodeSetParams(e, s2, &got, ctx) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuGraphExecMemsetNodeSetParams(e, c2, &got, ctx) == CUDA_ERROR_INVALID_VALUE); /* not a memset */
    size_t ndep = 0;
    OK(cuGraphNodeGetDependentNodes(s2, NULL, &ndep));
    CHECK(ndep == 2);

    /* a different shape is refused */
    CUgraphNode extra;
    OK(cuGraphAddEmptyNode(&extra, g2, NULL, 0));
    CHECK(cuGraphExecUpdate_v2(e, g2, &info) == CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    CHECK(info.result == CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED);
    /* the exec still runs its last good parameters */
    OK(cuGraphLaunch(e, NULL));
    OK(cuCtxSynchronize());
    CHECK(host[0] == 123 && bumps == 4);

    /* a cycle cannot be instantiated */
    OK(cuGraphAddDependencies(g2, &e2, &s2, 1));
    CUgraphExec ec;
    CHECK(cuGraphInstantiateWithFlags(&ec, g2, 0) != CUDA_SUCCESS);

    /* event record and wait nodes */
    CUgraph g3;
    OK(cuGraphCreate(&g3, 0));
    CUevent ev;
    OK(cuEventCreate(&ev, 0));
    CUgraphNode rec, h3, wait;
    OK(cuGraphAddHostNode(&h3, g3, NULL, 0, &hp));
    OK(cuGraphAddEventRecordNode(&rec, g3, &h3, 1, ev));
    OK(cuGraphAddEventWaitNode(&wait, g3, &rec, 1, ev));
    CUgraphExec e3;
    OK(cuGraphInstantiateWithFlags(&e3, g3, 0));
    OK(cuGraphLaunch(e3, NULL));
    OK(cuEventSynchronize(ev));
    CHECK(bumps == 5);
    CUevent got_ev;
    OK(cuGraphEventRecordNodeGetEvent(rec, &got_ev));
    CHECK(got_ev == ev);
    OK(cuCtxSynchronize());

    OK(cuGraphExecDestroy(e3));
    OK(cuGraphDestroy(g3));
    OK(cuEventDestroy_v2(ev));
    OK(cuGraphExecDestroy(e));
    OK(cuGraphDestroy(g));
    OK(cuGraphDestroy(g2));
    OK(cuMemFree_v2(d));
}

static void CUDA_CB nop(void *arg) { (void)arg; }

static void test_capture_rules(void)
{
    CUstream s, other;
    OK(cuStreamCreate(&s, 0));
    OK(cuStreamCreate(&other, CU_STREAM_NON_BLOCKING));
    CUgraph g;
    /* synchronising a capturing stream invalidates the capture */
    OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    OK(cuLaunchHostFunc(s, nop, NULL));
    CHECK(cuStreamSynchronize(s) == CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    CUstreamCaptureStatus st;
    OK(cuStreamIsCapturing(s, &st));
    CHECK(st == CU_STREAM_CAPTURE_STATUS_INVALIDATED);
    CHECK(cuStreamEndCapture(s, &g) == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    CHECK(g == NULL);
    /* unsafe calls are refused under global capture unless the thread is relaxed */
    OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUdeviceptr d;
    CHECK(cuMemAlloc_v2(&d, 16) == CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    OK(cuThreadExchangeStreamCaptureMode(&mode));
    CHECK(mode == CU_STREAM_CAPTURE_MODE_GLOBAL);
    OK(cuMemAlloc_v2(&d, 16));
    OK(cuMemFree_v2(d));
    OK(cuThreadExchangeStreamCaptureMode(&mode));
    /* the legacy stream cannot run while a blocking stream captures */
    CHECK(cuLaunchHostFunc(NULL, nop, NULL) == CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
    CHECK(cuStreamEndCapture(s, &g) == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    /* ending on the wrong stream, or without a capture */
    OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_RELAXED));
    CHECK(cuStreamEndCapture(other, &g) == CUDA_ERROR_ILLEGAL_STATE);
    OK(cuStreamEndCapture(s, &g));
    size_t n = 9;
    OK(cuGraphGetNodes(g, NULL, &n));
    CHECK(n == 0);
    OK(cuGraphDestroy(g));
    /* cuStreamUpdateCaptureDependencies: the next node depends on the given set */
    OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    OK(cuLaunchHostFunc(s, nop, NULL));
    OK(cuLaunchHostFunc(s, nop, NULL));
    CUstreamCaptureStatus cst;
    CUgraph cg;
    const CUgraphNode *cdeps;
    size_t cn;
    OK(cuStreamGetCaptureInfo_v2(s, &cst, NULL, &cg, &cdeps, &cn));
    CHECK(cn == 1);
    CUgraphNode first[2];
    size_t two = 2;
    OK(cuGraphGetNodes(cg, first, &two));
    OK(cuStreamUpdateCaptureDependencies(s, &first[0], 1, CU_STREAM_SET_CAPTURE_DEPENDENCIES));
    OK(cuLaunchHostFunc(s, nop, NULL));
    OK(cuStreamUpdateCaptureDependencies(s, &first[1], 1, CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
    OK(cuStreamGetCaptureInfo_v2(s, &cst, NULL, NULL, &cdeps, &cn));
    CHECK(cn == 2);
    OK(cuStreamEndCapture(s, &g));
    CUgraphNode third[3];
    size_t three = 3, nd3 = 0;
    OK(cuGraphGetNodes(g, third, &three));
    OK(cuGraphNodeGetDependencies(third[2], NULL, &nd3));
    CHECK(three == 3 && nd3 == 1);
    OK(cuGraphDestroy(g));
    CHECK(cuStreamUpdateCaptureDependencies(s, NULL, 0, 0) == CUDA_ERROR_ILLEGAL_STATE);

    /* an unjoined fork */
    CUevent ev;
    OK(cuEventCreate(&ev, 0));
    OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    OK(cuEventRecord(ev, s));
    OK(cuStreamWaitEvent(other, ev, 0));
    OK(cuLaunchHostFunc(other, nop, NULL));
    CHECK(cuStreamEndCapture(s, &g) == CUDA_ERROR_STREAM_CAPTURE_UNJOINED);
    OK(cuStreamIsCapturing(other, &st));
    CHECK(st == CU_STREAM_CAPTURE_STATUS_NONE);
    /* the legacy stream cannot capture */
    CHECK(cuStreamBeginCapture_v2(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL) == CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    OK(cuEventDestroy_v2(ev));
    OK(cuStreamDestroy_v2(s));
    OK(cuStreamDestroy_v2(other));
}

/* ---- kernel nodes ------------------------------------------------------------ */

static const char add_ptx[] =
    ".version 7.0\n.target sm_52\n.address_size 64\n"
    ".visible .entry add_k(.param .u64 p, .param .u32 v, .param .u32 n)\n{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<5>;\n  .reg .pred %p1;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [v];\n  ld.param.u32 %r2, [n];\n"
    "  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n  mov.u32 %r5, %tid.x;\n"
    "  mad.lo.s32 %r3, %r3, %r4, %r5;\n  setp.ge.u32 %p1, %r3, %r2;\n  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n  mul.wide.u32 %rd3, %r3, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
    "  ld.global.u32 %r4, [%rd4];\n  add.s32 %r4, %r4, %r1;\n  st.global.u32 [%rd4], %r4;\n"
    "DONE:\n  ret;\n}\n";

static void test_kernel_nodes(void)
{
    CUmodule mod;
    CUresult lr = cuModuleLoadData(&mod, add_ptx);
    if (lr != CUDA_SUCCESS) {
        fprintf(stderr, "test_core_graph: kernel nodes not tested: cuModuleLoadData gave %d\n", (int)lr);
        return;
    }
    CUfunction f;
    OK(cuModuleGetFunction(&f, mod, "add_k"));
    CUdeviceptr d;
    OK(cuMemAlloc_v2(&d, N * 4));
    OK(cuMemsetD32_v2(d, 1, N));
    CUstream s;
    OK(cuStreamCreate(&s, 0));
    unsigned v = 10, n = N;
    void *args[] = { &d, &v, &n };
    /* capture a launch; the node keeps its own copy of the arguments */
    OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    OK(cuLaunchKernel(f, N / 128, 1, 1, 128, 1, 1, 0, s, args, NULL));
    CUgraph g;
    OK(cuStreamEndCapture(s, &g));
    v = 1000; /* changing the host variable does not change the node */
    CUgraphExec e;
    OK(cuGraphInstantiateWithFlags(&e, g, 0));
    OK(cuGraphLaunch(e, s));
    OK(cuGraphLaunch(e, s));
    unsigned host[N];
    OK(cuStreamSynchronize(s));
    OK(cuMemcpyDtoH_v2(host, d, sizeof host));
    CHECK(host[0] == 21 && host[N - 1] == 21);
    /* direct execution gives the same */
    OK(cuMemsetD32_v2(d, 1, N));
    v = 10;
    OK(cuLaunchKernel(f, N / 128, 1, 1, 128, 1, 1, 0, s, args, NULL));
    OK(cuLaunchKernel(f, N / 128, 1, 1, 128, 1, 1, 0, s, args, NULL));
    OK(cuStreamSynchronize(s));
    unsigned direct[N];
    OK(cuMemcpyDtoH_v2(direct, d, sizeof direct));
    CHECK(memcmp(host, direct, sizeof host) == 0);
    /* exec kernel params */
    CUgraphNode node;
    size_t one = 1;
    OK(cuGraphGetNodes(g, &node, &one));
    CUDA_KERNEL_NODE_PARAMS kp;
    OK(cuGraphKernelNodeGetParams_v2(node, &kp));
    CHECK(kp.func == f && kp.gridDimX == N / 128 && kp.blockDimX == 128 && *(unsigned *)kp.kernelParams[1] == 10);
    v = 100;
    kp.kernelParams = args;
    OK(cuGraphExecKernelNodeSetParams_v2(e, node, &kp));
    OK(cuMemsetD32_v2(d, 0, N));
    OK(cuGraphLaunch(e, s));
    OK(cuStreamSynchronize(s));
    OK(cuMemcpyDtoH_v2(host, d, sizeof host));
    CHECK(host[7] == 100);
    /* an explicit kernel node */
    CUgraph g2;
    OK(cuGraphCreate(&g2, 0));
    CUgraphNode kn;
    v = 5;
    OK(cuGraphAddKernelNode_v2(&kn, g2, NULL, 0, &kp));
    kp.blockDimX = 0;
    CUgraphNode badk;
    CHECK(cuGraphAddKernelNode_v2(&badk, g2, NULL, 0, &kp) == CUDA_ERROR_INVALID_VALUE);
    size_t cnt = 0;
    OK(cuGraphGetNodes(g2, NULL, &cnt));
    CHECK(cnt == 1);
    CUgraphExec e2;
    OK(cuGraphInstantiateWithFlags(&e2, g2, 0));
    OK(cuGraphLaunch(e2, s));
    OK(cuStreamSynchronize(s));
    OK(cuMemcpyDtoH_v2(host, d, sizeof host));
    CHECK(host[7] == 105);
    OK(cuGraphExecDestroy(e2));
    OK(cuGraphDestroy(g2));
    OK(cuGraphExecDestroy(e));
    OK(cuGraphDestroy(g));
    OK(cuStreamDestroy_v2(s));
    OK(cuMemFree_v2(d));
    OK(cuModuleUnload(mod));
}

int main(void)
{
    setenv("CUBRIDGE_MEM", "256M", 1);
    if (cuInit(0) != CUDA_SUCCESS) {
        fprintf(stderr, "test_core_graph: cuInit failed\n");
        return 1;
    }
    CUcontext ctx;
    OK(cuDevicePrimaryCtxRetain(&ctx, 0));
    OK(cuCtxSetCurrent(ctx));
    test_capture_replay();
    test_explicit_and_update(ctx);
    test_capture_rules();
    test_kernel_nodes();
    OK(cuDevicePrimaryCtxRelease_v2(0));
    if (failures)
        fprintf(stderr, "test_core_graph: %d failures\n", failures);
    else
        printf("test_core_graph: ok\n");
    return failures ? 1 : 0;
}
