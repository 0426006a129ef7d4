// graph_mem_nodes: CUDA graphs that allocate and free memory.
//   - explicit allocation and free nodes around a kernel and a copy: the
//     address is fixed when the node is made, the graph relaunches, and the
//     node parameters read back;
//   - an allocation that outlives its graph: relaunching before it is freed
//     fails (cudaErrorInvalidValue), cudaFree / cudaFreeAsync free it, a
//     graph instantiated with cudaGraphInstantiateFlagAutoFreeOnLaunch
//     relaunches without it; a free node in another graph frees it too;
//   - stream capture: cudaMallocAsync and cudaFreeAsync in a capture become
//     allocation and free nodes;
//   - the restrictions: no second instantiation, no clone, a free node only
//     for a graph allocation;
//   - the device's graph memory attributes and cudaDeviceGraphMemTrim.
#include "check.h"

__global__ void fill(int *p, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + 3 * i;
}

__global__ void add(int *dst, const int *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] += src[i];
}

static const int N = 4096;

static void expect_fill(const char *what, const int *h, int base) {
  for (int i = 0; i < N; i++)
    if (h[i] != base + 3 * i) {
      printf("FAIL %s: index %d: got %d, expected %d\n", what, i, h[i], base + 3 * i);
      exit(1);
    }
}

static cudaMemAllocNodeParams alloc_params(int dev, size_t bytes) {
  cudaMemAllocNodeParams p = {};
  p.poolProps.allocType = cudaMemAllocationTypePinned;
  p.poolProps.location.type = cudaMemLocationTypeDevice;
  p.poolProps.location.id = dev;
  p.bytesize = bytes;
  return p;
}

static cudaGraphNode_t add_fill(cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, int *p, int base) {
  int n = N;
  void *args[] = {&p, &n, &base};
  cudaKernelNodeParams k = {};
  k.func = (void *)fill;
  k.gridDim = dim3((N + 255) / 256);
  k.blockDim = dim3(256);
  k.kernelParams = args;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddKernelNode(&node, g, deps, ndeps, &k));
  return node;
}

static unsigned long long graph_mem_attr(int dev, cudaGraphMemAttributeType attr) {
  unsigned long long v = 0;
  CHECK(cudaDeviceGetGraphMemAttribute(dev, attr, &v));
  return v;
}

int main(void) {
  int dev = 0;
  CHECK(cudaGetDevice(&dev));
  const size_t bytes = N * sizeof(int);
  int *h = NULL;
  CHECK(cudaMallocHost(&h, bytes));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // ---- alloc -> fill -> copy out -> free, relaunched --------------------------
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = alloc_params(dev, bytes);
  cudaGraphNode_t alloc, kern, copy, freen;
  CHECK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
  if (!ap.dptr) fail("the allocation node returned no address");
  kern = add_fill(g, &alloc, 1, (int *)ap.dptr, 7);
  CHECK(cudaGraphAddMemcpyNode1D(&copy, g, &kern, 1, h, ap.dptr, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaGraphAddMemFreeNode(&freen, g, &copy, 1, ap.dptr));
  cudaMemAllocNodeParams got = {};
  CHECK(cudaGraphMemAllocNodeGetParams(alloc, &got));
  if (got.dptr != ap.dptr || got.bytesize != bytes || got.poolProps.location.id != dev ||
      got.poolProps.allocType != cudaMemAllocationTypePinned)
    fail("cudaGraphMemAllocNodeGetParams");
  void *freed = NULL;
  CHECK(cudaGraphMemFreeNodeGetParams(freen, &freed));
  if (freed != ap.dptr) fail("cudaGraphMemFreeNodeGetParams");
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(alloc, &type));
  if (type != cudaGraphNodeTypeMemAlloc) fail("allocation node type");
  CHECK(cudaGraphNodeGetType(freen, &type));
  if (type != cudaGraphNodeTypeMemFree) fail("free node type");
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  cudaGraphExec_t e2;
  if (cudaGraphInstantiate(&e2, g, 0) == cudaSuccess) fail("a second instantiation of a graph with memory nodes");
  cudaGetLastError();
  cudaGraph_t clone;
  if (cudaGraphClone(&clone, g) == cudaSuccess) fail("a graph with memory nodes was cloned");
  cudaGetLastError();
  for (int round = 0; round < 3; round++) {
    memset(h, 0, bytes);
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamSynchronize(s));
    expect_fill("alloc/fill/copy/free graph", h, 7);
  }
  if (graph_mem_attr(dev, cudaGraphMemAttrUsedMemHigh) < bytes) fail("used-memory high-water mark below the allocation");
  if (graph_mem_attr(dev, cudaGraphMemAttrReservedMemHigh) < bytes) fail("reserved high-water mark below the allocation");
  if (graph_mem_attr(dev, cudaGraphMemAttrReservedMemCurrent) < graph_mem_attr(dev, cudaGraphMemAttrUsedMemCurrent))
    fail("more graph memory used than reserved");
  CHECK(cudaGraphExecDestroy(e));
  CHECK(cudaGraphDestroy(g));

  // ---- an allocation that outlives its graph -------------------------------------
  CHECK(cudaGraphCreate(&g, 0));
  ap = alloc_params(dev, bytes);
  CHECK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
  int *out = (int *)ap.dptr;
  add_fill(g, &alloc, 1, out, 100);
  CHECK(cudaGraphInstantiate(&e, g, 0));
  CHECK(cudaGraphLaunch(e, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(h, out, bytes, cudaMemcpyDeviceToHost));   // usable after the graph, until freed
  expect_fill("outliving allocation", h, 100);
  EXPECT_ERROR(cudaGraphLaunch(e, s), cudaErrorInvalidValue);  // still allocated from the last launch
  cudaGetLastError();
  CHECK(cudaFree(out));
  CHECK(cudaGraphLaunch(e, s));                                // the same address again
  CHECK(cudaMemcpyAsync(h, out, bytes, cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(out, s));
  CHECK(cudaStreamSynchronize(s));
  expect_fill("relaunch after cudaFree", h, 100);

  // freed by a free node of another graph
  cudaGraph_t gf;
  CHECK(cudaGraphCreate(&gf, 0));
  CHECK(cudaGraphAddMemFreeNode(&freen, gf, NULL, 0, out));
  cudaGraphExec_t ef;
  CHECK(cudaGraphInstantiate(&ef, gf, 0));
  CHECK(cudaGraphLaunch(e, s));
  CHECK(cudaGraphLaunch(ef, s));
  CHECK(cudaGraphLaunch(e, s));
  CHECK(cudaGraphLaunch(ef, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaGraphExecDestroy(ef));
  CHECK(cudaGraphDestroy(gf));
  CHECK(cudaGraphExecDestroy(e));

  // auto-free on relaunch
  CHECK(cudaGraphInstantiateWithFlags(&e, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  for (int round = 0; round < 2; round++) {
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaMemcpyAsync(h, out, bytes, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    expect_fill("auto-free on launch", h, 100);
  }
  CHECK(cudaFree(out));
  CHECK(cudaGraphExecDestroy(e));
  CHECK(cudaGraphDestroy(g));

  // a free node needs a graph allocation
  int *plain = NULL;
  CHECK(cudaMalloc(&plain, bytes));
  CHECK(cudaGraphCreate(&g, 0));
  EXPECT_ERROR(cudaGraphAddMemFreeNode(&freen, g, NULL, 0, plain), cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(cudaGraphDestroy(g));

  // ---- stream capture of cudaMallocAsync / cudaFreeAsync -----------------------
  int *src = NULL;
  fill<<<(N + 255) / 256, 256, 0, s>>>(plain, N, 5);
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMallocAsync((void **)&src, bytes, s));
  fill<<<(N + 255) / 256, 256, 0, s>>>(src, N, 1000);
  add<<<(N + 255) / 256, 256, 0, s>>>(src, plain, N);
  CHECK(cudaMemcpyAsync(h, src, bytes, cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(src, s));
  CHECK(cudaStreamEndCapture(s, &g));
  size_t nnodes = 0;
  CHECK(cudaGraphGetNodes(g, NULL, &nnodes));
  cudaGraphNode_t nodes[16];
  if (nnodes > 16) fail("too many captured nodes");
  CHECK(cudaGraphGetNodes(g, nodes, &nnodes));
  int allocs = 0, frees = 0;
  for (size_t i = 0; i < nnodes; i++) {
    CHECK(cudaGraphNodeGetType(nodes[i], &type));
    allocs += type == cudaGraphNodeTypeMemAlloc;
    frees += type == cudaGraphNodeTypeMemFree;
  }
  if (allocs != 1 || frees != 1) fail("the capture did not make one allocation and one free node");
  CHECK(cudaGraphInstantiate(&e, g, 0));
  for (int round = 0; round < 2; round++) {
    memset(h, 0, bytes);
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < N; i++)
      if (h[i] != 1005 + 6 * i) {
        printf("FAIL captured graph: index %d: got %d, expected %d\n", i, h[i], 1005 + 6 * i);
        return 1;
      }
  }
  CHECK(cudaGraphExecDestroy(e));
  CHECK(cudaGraphDestroy(g));

  // a captured allocation freed after the graph
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  CHECK(cudaMallocAsync((void **)&src, bytes, s));
  fill<<<(N + 255) / 256, 256, 0, s>>>(src, N, -50);
  CHECK(cudaStreamEndCapture(s, &g));
  CHECK(cudaGraphInstantiate(&e, g, 0));
  CHECK(cudaGraphLaunch(e, s));
  CHECK(cudaMemcpyAsync(h, src, bytes, cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(src, s));
  CHECK(cudaStreamSynchronize(s));
  expect_fill("captured allocation freed after the graph", h, -50);
  CHECK(cudaGraphExecDestroy(e));
  CHECK(cudaGraphDestroy(g));

  // freeing ordinary memory inside a capture is refused (by the call or by
  // the end of the capture)
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  cudaError_t e_free = cudaFreeAsync(plain, s);
  cudaGetLastError();
  g = NULL;
  cudaError_t e_end = cudaStreamEndCapture(s, &g);
  cudaGetLastError();
  if (e_free == cudaSuccess && e_end == cudaSuccess) fail("a free node of ordinary memory was captured");
  fprintf(stderr, "graph_mem_nodes: cudaFreeAsync of ordinary memory in a capture: %s, end of capture: %s\n",
          cudaGetErrorName(e_free), cudaGetErrorName(e_end));
  if (e_end == cudaSuccess && g) CHECK(cudaGraphDestroy(g));
  CHECK(cudaFree(plain));

  // ---- with no graph left, trimming returns every byte --------------------------
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaDeviceGraphMemTrim(dev));
  if (graph_mem_attr(dev, cudaGraphMemAttrUsedMemCurrent) != 0) fail("graph memory still used");
  if (graph_mem_attr(dev, cudaGraphMemAttrReservedMemCurrent) != 0) fail("graph memory still reserved after trim");
  unsigned long long zero = 0;
  CHECK(cudaDeviceSetGraphMemAttribute(dev, cudaGraphMemAttrUsedMemHigh, &zero));
  CHECK(cudaDeviceSetGraphMemAttribute(dev, cudaGraphMemAttrReservedMemHigh, &zero));
  if (graph_mem_attr(dev, cudaGraphMemAttrUsedMemHigh) != 0) fail("the used high-water mark did not reset");
  if (graph_mem_attr(dev, cudaGraphMemAttrReservedMemHigh) != 0) fail("the reserved high-water mark did not reset");

  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFreeHost(h));
  return pass("graph_mem_nodes");
}
