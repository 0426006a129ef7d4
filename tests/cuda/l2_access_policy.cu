// l2_access_policy: what programs that tune the L2 cache do (the CUDA
// programming guide's "L2 access management"): read the L2 size, the
// persisting maximum and the largest access policy window from the device,
// set the persisting limit, put an access policy window on a stream and on
// a graph kernel node, reset the persisting lines -- and get the same
// results from their kernels. Also cudaStreamAttachMemAsync on managed
// memory (global, host, single-stream attachment), the stream attribute
// copy, and a cooperative kernel node made through a node attribute.
#include "check.h"

__global__ void scale(float *x, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) x[i] *= a;
}

int main(void) {
  int dev = 0;
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, dev));
  fprintf(stderr, "l2_access_policy: L2 %d bytes, persisting max %d, window max %d\n", prop.l2CacheSize,
          prop.persistingL2CacheMaxSize, prop.accessPolicyMaxWindowSize);
  if (prop.l2CacheSize <= 0) fail("no L2 size");
  if (prop.persistingL2CacheMaxSize <= 0) fail("no persisting L2 maximum");
  if (prop.accessPolicyMaxWindowSize <= 0) fail("no access policy window size");

  size_t set_aside = (size_t)prop.l2CacheSize * 3 / 4;
  if (set_aside > (size_t)prop.persistingL2CacheMaxSize) set_aside = (size_t)prop.persistingL2CacheMaxSize;
  CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, set_aside));
  size_t got_limit = 0;
  CHECK(cudaDeviceGetLimit(&got_limit, cudaLimitPersistingL2CacheSize));
  if (got_limit == 0 || got_limit > (size_t)prop.persistingL2CacheMaxSize) fail("the persisting limit read back");

  const int n = 1 << 16;
  float *d = NULL, *h = (float *)malloc(n * sizeof(float));
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  for (int i = 0; i < n; i++) h[i] = (float)(i % 1000);
  CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));

  cudaStream_t s, s2;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamCreate(&s2));
  cudaStreamAttrValue v = {};
  v.accessPolicyWindow.base_ptr = d;
  v.accessPolicyWindow.num_bytes = n * sizeof(float);
  if (v.accessPolicyWindow.num_bytes > (size_t)prop.accessPolicyMaxWindowSize)
    v.accessPolicyWindow.num_bytes = (size_t)prop.accessPolicyMaxWindowSize;
  v.accessPolicyWindow.hitRatio = 0.5f;
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  cudaStreamAttrValue back = {};
  CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &back));
  if (back.accessPolicyWindow.base_ptr != d || back.accessPolicyWindow.num_bytes != v.accessPolicyWindow.num_bytes ||
      back.accessPolicyWindow.hitRatio != 0.5f || back.accessPolicyWindow.hitProp != cudaAccessPropertyPersisting ||
      back.accessPolicyWindow.missProp != cudaAccessPropertyStreaming)
    fail("the stream's access policy window read back");
  CHECK(cudaStreamCopyAttributes(s2, s));
  memset(&back, 0, sizeof back);
  CHECK(cudaStreamGetAttribute(s2, cudaStreamAttributeAccessPolicyWindow, &back));
  if (back.accessPolicyWindow.base_ptr != d || back.accessPolicyWindow.hitRatio != 0.5f)
    fail("cudaStreamCopyAttributes");
  cudaStreamAttrValue too_big = v;
  too_big.accessPolicyWindow.num_bytes = (size_t)prop.accessPolicyMaxWindowSize + 4096;
  if (cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &too_big) == cudaSuccess)
    fail("a window over the maximum was accepted");
  cudaGetLastError();

  scale<<<(n + 255) / 256, 256, 0, s>>>(d, 2.0f, n);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(s));

  // the window on a captured kernel node, and a cooperative node by attribute
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  scale<<<1, 256, 0, s>>>(d, 0.5f, n);   // one block: within any cooperative limit
  CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphNode_t node;
  size_t count = 1;
  CHECK(cudaGraphGetNodes(g, &node, &count));
  if (count != 1) fail("the capture did not make one node");
  cudaKernelNodeAttrValue kv = {};
  kv.accessPolicyWindow = v.accessPolicyWindow;
  kv.accessPolicyWindow.hitRatio = 0.25f;
  CHECK(cudaGraphKernelNodeSetAttribute(node, cudaKernelNodeAttributeAccessPolicyWindow, &kv));
  cudaKernelNodeAttrValue kback = {};
  CHECK(cudaGraphKernelNodeGetAttribute(node, cudaKernelNodeAttributeAccessPolicyWindow, &kback));
  if (kback.accessPolicyWindow.base_ptr != d || kback.accessPolicyWindow.hitRatio != 0.25f)
    fail("the kernel node's access policy window read back");
  memset(&kv, 0, sizeof kv);
  kv.cooperative = 1;
  CHECK(cudaGraphKernelNodeSetAttribute(node, cudaLaunchAttributeCooperative, &kv));
  memset(&kback, 0, sizeof kback);
  CHECK(cudaGraphKernelNodeGetAttribute(node, cudaLaunchAttributeCooperative, &kback));
  if (kback.cooperative != 1) fail("the kernel node is not cooperative");
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  CHECK(cudaGraphLaunch(e, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (h[i] != (float)(i % 1000)) {
      printf("FAIL index %d: got %.9g, expected %.9g\n", i, h[i], (float)(i % 1000));
      return 1;
    }
  CHECK(cudaGraphExecDestroy(e));
  CHECK(cudaGraphDestroy(g));

  // the window is removed with num_bytes 0, and the persisting lines reset
  memset(&v, 0, sizeof v);
  CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  CHECK(cudaCtxResetPersistingL2Cache());
  CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));

  // managed memory attached to one stream, to the host, then globally
  float *m = NULL;
  CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  for (int i = 0; i < n; i++) m[i] = 1.0f + (float)(i % 7);
  CHECK(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachSingle));
  scale<<<(n + 255) / 256, 256, 0, s>>>(m, 3.0f, n);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; i++)
    if (m[i] != 3.0f * (1.0f + (float)(i % 7))) fail("managed memory attached to one stream");
  CHECK(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachHost));
  CHECK(cudaStreamSynchronize(s));
  m[0] = 100.0f;   // the host may touch it now
  CHECK(cudaStreamAttachMemAsync(s2, m, n * sizeof(float), cudaMemAttachGlobal));
  scale<<<(n + 255) / 256, 256, 0, s2>>>(m, 2.0f, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  if (m[0] != 200.0f || m[1] != 12.0f) fail("managed memory attached globally");
  if (cudaStreamAttachMemAsync(s, m, n * sizeof(float) / 2, cudaMemAttachGlobal) == cudaSuccess)
    fail("attaching part of a managed allocation");
  cudaGetLastError();
  if (cudaStreamAttachMemAsync(s, d, 0, cudaMemAttachGlobal) == cudaSuccess)
    fail("attaching device memory that is not managed");
  cudaGetLastError();

  CHECK(cudaFree(m));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFree(d));
  free(h);
  return pass("l2_access_policy");
}
