// graph_capture: a sequence (memset, two kernels, a device-to-device copy)
// captured from a stream into a graph, instantiated once and launched five
// times; each replay accumulates, so the result counts the replays.
#include "check.h"

__global__ void add_index(int *acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] += i;
}

__global__ void scale_into(const int *acc, int *out, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = acc[i] * k;
}

int main(void) {
  const int n = 10000, replays = 5;
  int *acc, *tmp, *out;
  CHECK(cudaMalloc(&acc, n * 4));
  CHECK(cudaMalloc(&tmp, n * 4));
  CHECK(cudaMalloc(&out, n * 4));
  CHECK(cudaMemset(acc, 0, n * 4));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus status;
  CHECK(cudaStreamIsCapturing(s, &status));
  if (status != cudaStreamCaptureStatusActive) fail("stream is not capturing");
  CHECK(cudaMemsetAsync(tmp, 0, n * 4, s));
  add_index<<<(n + 255) / 256, 256, 0, s>>>(acc, n);
  scale_into<<<(n + 255) / 256, 256, 0, s>>>(acc, tmp, n, 3);
  CHECK(cudaMemcpyAsync(out, tmp, n * 4, cudaMemcpyDeviceToDevice, s));
  CHECK(cudaStreamEndCapture(s, &graph));
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(graph, NULL, &nodes));
  if (nodes != 4) {
    printf("FAIL graph nodes: got %zu, expected 4\n", nodes);
    return 1;
  }
  int h[n], want[n];
  CHECK(cudaMemcpy(h, acc, sizeof(h), cudaMemcpyDeviceToHost));  // capture ran nothing
  for (int i = 0; i < n; i++) want[i] = 0;
  check_i32("acc after capture", h, want, n);
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int r = 0; r < replays; r++) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) want[i] = i * replays * 3;
  check_i32("out after replays", h, want, n);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(acc)); CHECK(cudaFree(tmp)); CHECK(cudaFree(out));
  return pass("graph_capture");
}
