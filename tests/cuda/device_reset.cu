// device_reset: cudaDeviceReset on a healthy device, then everything again:
// allocations, streams, events, kernels (the module is loaded again into the
// new context), function attributes, async copies -- three times over.
#include "check.h"

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * a + (float)i;
}

__device__ int counter;
__global__ void bump(void) { atomicAdd(&counter, 1); }

static void round_of_work(int round) {
  const int n = 1000;
  float h[n], want[n];
  for (int i = 0; i < n; i++) {
    h[i] = (float)(i % 7);
    want[i] = h[i] * 2.0f + (float)i;
  }
  float *d;
  cudaStream_t s;
  cudaEvent_t ev;
  CHECK(cudaSetDevice(0));
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaEventCreate(&ev));
  CHECK(cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, s));
  scale<<<(n + 127) / 128, 128, 0, s>>>(d, 2.0f, n);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(ev, s));
  CHECK(cudaEventSynchronize(ev));
  float got[n];
  CHECK(cudaMemcpyAsync(got, d, sizeof got, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) {
      printf("FAIL round %d: element %d is %g, expected %g\n", round, i, got[i], want[i]);
      exit(1);
    }
  // __device__ variables start from their initial value in each new context
  int c = -1;
  CHECK(cudaMemcpyFromSymbol(&c, counter, sizeof c));
  if (c != 0) {
    printf("FAIL round %d: counter starts at %d, expected 0\n", round, c);
    exit(1);
  }
  bump<<<4, 32>>>();
  CHECK_LAUNCH();
  CHECK(cudaMemcpyFromSymbol(&c, counter, sizeof c));
  if (c != 128) {
    printf("FAIL round %d: counter is %d, expected 128\n", round, c);
    exit(1);
  }
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, scale));
  if (attr.maxThreadsPerBlock < 128)
    fail("function attributes after the reset");
  CHECK(cudaEventDestroy(ev));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d));
  printf("round %d: ok\n", round);
}

int main(void) {
  round_of_work(0);
  for (int round = 1; round <= 3; round++) {
    CHECK(cudaDeviceReset());
    round_of_work(round);
  }
  // a reset with nothing made since the last one, then use
  CHECK(cudaDeviceReset());
  CHECK(cudaDeviceReset());
  round_of_work(4);
  return pass("device_reset");
}
