// event_elapsed: cudaEventElapsedTime between events recorded around a host
// sleep of 50 ms (the stream is idle, so the events complete when recorded);
// and the errors for an event created without timing and one not recorded.
// The upper bound is loose (60 s): the kernel's first launch lies between the
// events, and a lazy loader may build it there (a cold OpenCL compile under
// load took over 5 s).
#include <time.h>
#include "check.h"

__global__ void touch(int *p) { p[threadIdx.x] += 1; }

int main(void) {
  cudaEvent_t a, b, no_timing, never;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaEventCreateWithFlags(&no_timing, cudaEventDisableTiming));
  CHECK(cudaEventCreate(&never));
  int *d;
  CHECK(cudaMalloc(&d, 32 * sizeof(int)));
  CHECK(cudaMemset(d, 0, 32 * sizeof(int)));
  CHECK(cudaEventRecord(a, 0));
  touch<<<1, 32>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaEventSynchronize(a));
  struct timespec ts = {0, 50 * 1000 * 1000};
  nanosleep(&ts, NULL);
  CHECK(cudaEventRecord(b, 0));
  CHECK(cudaEventRecord(no_timing, 0));
  CHECK(cudaEventSynchronize(b));
  CHECK(cudaEventSynchronize(no_timing));
  float ms = -1.0f;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  fprintf(stderr, "info: elapsed %.3f ms around a 50 ms sleep\n", ms);
  if (!(ms >= 45.0f && ms < 60000.0f)) {
    printf("FAIL elapsed: got %.3f ms, expected 45 <= ms < 60000\n", ms);
    return 1;
  }
  float back;
  CHECK(cudaEventElapsedTime(&back, b, a));
  if (!(back <= -45.0f)) {
    printf("FAIL elapsed (b, a): got %.3f ms, expected <= -45\n", back);
    return 1;
  }
  float x;
  EXPECT_ERROR(cudaEventElapsedTime(&x, a, no_timing), cudaErrorInvalidResourceHandle);
  EXPECT_ERROR(cudaEventElapsedTime(&x, a, never), cudaErrorInvalidResourceHandle);
  int h[32], want[32];
  CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 32; i++) want[i] = 1;
  check_i32("touched", h, want, 32);
  CHECK(cudaEventDestroy(a)); CHECK(cudaEventDestroy(b));
  CHECK(cudaEventDestroy(no_timing)); CHECK(cudaEventDestroy(never));
  CHECK(cudaFree(d));
  return pass("event_elapsed");
}
