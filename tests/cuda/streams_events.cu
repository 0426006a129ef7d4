// streams_events: work split over several streams, ordered across streams
// with events and cudaStreamWaitEvent.  Stage 1 (a slow kernel) runs on one
// stream per chunk; stage 2 on another stream must wait for all of them.
#include "check.h"

#define NSTREAMS 4

__global__ void stage1(float *x, int n, int chunk) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = (float)(i + chunk * n);
  for (int k = 0; k < 200; k++) v = v * 0.5f + (float)k;   // busy work: exact in float
  x[i] = v;
}

__global__ void stage2(const float *x, float *y, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) y[i] = x[total - 1 - i] + 1.0f;
}

int main(void) {
  const int n = 1 << 16, total = n * NSTREAMS;
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, total * 4));
  CHECK(cudaMalloc(&dy, total * 4));
  cudaStream_t s[NSTREAMS], final_stream;
  cudaEvent_t done[NSTREAMS];
  for (int k = 0; k < NSTREAMS; k++) {
    CHECK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&done[k], cudaEventDisableTiming));
  }
  CHECK(cudaStreamCreate(&final_stream));
  for (int k = 0; k < NSTREAMS; k++) {
    stage1<<<n / 256, 256, 0, s[k]>>>(dx + k * n, n, k);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(done[k], s[k]));
    CHECK(cudaStreamWaitEvent(final_stream, done[k], 0));
  }
  stage2<<<total / 256, 256, 0, final_stream>>>(dx, dy, total);
  CHECK(cudaGetLastError());
  float *y;
  CHECK(cudaMallocHost(&y, total * 4));
  CHECK(cudaMemcpyAsync(y, dy, total * 4, cudaMemcpyDeviceToHost, final_stream));
  CHECK(cudaStreamSynchronize(final_stream));
  for (int k = 0; k < NSTREAMS; k++) {
    CHECK(cudaEventSynchronize(done[k]));
    CHECK(cudaEventQuery(done[k]));          // complete: cudaSuccess
    CHECK(cudaStreamQuery(s[k]));
  }
  float *want = (float *)malloc(total * 4);
  for (int j = 0; j < total; j++) {
    float v = (float)j;   // element j of x: chunk j / n, index j % n
    for (int k = 0; k < 200; k++) v = v * 0.5f + (float)k;
    want[total - 1 - j] = v + 1.0f;
  }
  check_f32_exact("y", y, want, total);
  for (int k = 0; k < NSTREAMS; k++) {
    CHECK(cudaStreamDestroy(s[k]));
    CHECK(cudaEventDestroy(done[k]));
  }
  CHECK(cudaStreamDestroy(final_stream));
  CHECK(cudaFreeHost(y));
  CHECK(cudaFree(dx)); CHECK(cudaFree(dy));
  free(want);
  return pass("streams_events");
}
