// profiler_nvtx: the profiler and NVTX calls that real programs make around
// their work. cudaProfilerStart/Stop succeed without a profiler attached (as
// on NVIDIA's driver; a matrix-multiply and an async-API sample stop at the
// first failure), a second start or a stop without a start change nothing,
// and NVTX's ranges and marks (C API and nvtx3.hpp) never disturb the
// program. Under `cubridge inspect` the ranges appear in the trace
// (tests/inspect/run_inspect_test.sh, case "ranges"). NVTX's return values
// depend on whether a tool is attached, so they are not checked here.
#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvtx3.hpp>
#include "check.h"

__global__ void square(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * x[i];
}

struct solver_domain { static constexpr char const *name{"solver"}; };

static void run(float *d, float *h, int n, cudaStream_t s) {
  CHECK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
  square<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
}

int main(void) {
  const int n = 1 << 14;
  float *h, *d;
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  for (int i = 0; i < n; i++) h[i] = (float)(i % 100) * 0.5f;
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));

  CHECK(cudaProfilerStop());    // a stop without a start: no effect
  CHECK(cudaProfilerStart());
  CHECK(cudaProfilerStart());   // already started: no effect
  nvtxMarkA("before the work");
  nvtxRangePushA("outer");
  nvtxRangeId_t id = nvtxRangeStartA("copy and square");
  nvtxRangePushA("inner");
  run(d, h, n, s);
  nvtxRangePop();
  nvtxRangeEnd(id);
  {
    nvtx3::scoped_range r{"scoped (nvtx3.hpp)"};
    nvtx3::scoped_range_in<solver_domain> rd{"in the solver domain"};
    nvtx3::mark_in<solver_domain>("a mark in the solver domain");
    run(d, h, n, s);
  }
  nvtxEventAttributes_t attr = {};
  attr.version = NVTX_VERSION;
  attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attr.colorType = NVTX_COLOR_ARGB;
  attr.color = 0xff00ff00u;
  attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attr.message.ascii = "pushed with attributes";
  nvtxRangePushEx(&attr);
  nvtxRangePop();
  nvtxRangePop();               // "outer"
  nvtxRangePop();               // one pop too many: NVTX reports it, nothing breaks
  CHECK(cudaProfilerStop());
  CHECK(cudaProfilerStop());    // already stopped

  for (int i = 0; i < n; i++) {
    float v = (float)(i % 100) * 0.5f;
    float want = (v * v) * (v * v);
    if (h[i] != want) {
      printf("FAIL index %d: got %.9g, expected %.9g\n", i, h[i], want);
      return 1;
    }
  }
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d));
  CHECK(cudaFreeHost(h));
  return pass("profiler_nvtx");
}
