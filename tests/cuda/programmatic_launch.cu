// programmatic_launch: programmatic dependent launch (sm_90), as CUB's sort
// and CUTLASS use it. A primary kernel writes its results and calls
// cudaTriggerProgrammaticLaunchCompletion (griddepcontrol.launch_dependents);
// the secondary, launched with cudaLaunchKernelEx and
// cudaLaunchAttributeProgrammaticStreamSerialization, may start early and
// calls cudaGridDependencySynchronize (griddepcontrol.wait) before it reads
// them. Also the programmatic event (cudaLaunchAttributeProgrammaticEvent)
// that another stream waits on, a chain of dependent launches, and the
// errors of a bad event. Whatever overlap the GPU allows, the results must be
// those of running the kernels one after another.
// Built with -arch=sm_90, run with CUBRIDGE_SM=90 (tests/cuda/CMakeLists.txt).
#include "check.h"

__global__ void primary(int *a, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = base + 3 * i;
  __syncthreads();
  cudaTriggerProgrammaticLaunchCompletion();
}

// b[i] = a[i] * 2 + 1, after the primary's writes are visible
__global__ void secondary(const int *a, int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int pre = i < n ? 1 : 0;            // work that does not depend on the primary
  cudaGridDependencySynchronize();
  if (i < n) b[i] = a[i] * 2 + pre;
}

// a chain: each step adds 1 to every element of the previous step's array
__global__ void step(int *x, int n) {
  cudaGridDependencySynchronize();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1;
  cudaTriggerProgrammaticLaunchCompletion();
}

static cudaError_t launch_dependent(cudaStream_t s, const int *a, int *b, int n, cudaEvent_t ev) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3((n + 127) / 128);
  cfg.blockDim = dim3(128);
  cfg.stream = s;
  cudaLaunchAttribute attrs[2];
  attrs[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attrs[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attrs;
  cfg.numAttrs = 1;
  if (ev) {
    attrs[1].id = cudaLaunchAttributeProgrammaticEvent;
    attrs[1].val.programmaticEvent.event = ev;
    attrs[1].val.programmaticEvent.flags = 0;
    attrs[1].val.programmaticEvent.triggerAtBlockStart = 0;
    cfg.numAttrs = 2;
  }
  return cudaLaunchKernelEx(&cfg, secondary, a, b, n);
}

int main() {
  const int n = 1000;
  int *a, *b, *c, got[n], want[n];
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMalloc(&c, n * sizeof(int)));
  cudaStream_t s, other;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));

  // primary, then a dependent launch in the same stream
  for (int round = 0; round < 3; round++) {
    primary<<<(n + 127) / 128, 128, 0, s>>>(a, n, 100 * round);
    CHECK(cudaGetLastError());
    CHECK(launch_dependent(s, a, b, n, NULL));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(got, b, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) want[i] = (100 * round + 3 * i) * 2 + 1;
    check_i32("dependent launch", got, want, n);
  }

  // the programmatic event: the other stream's copy waits for it
  cudaEvent_t ev;
  CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  primary<<<(n + 127) / 128, 128, 0, s>>>(a, n, 7);
  CHECK(launch_dependent(s, a, b, n, ev));
  CHECK(cudaStreamWaitEvent(other, ev, 0));
  CHECK(cudaStreamSynchronize(s));   // the event fires by the time the secondary has completed
  CHECK(cudaMemcpyAsync(c, b, n * sizeof(int), cudaMemcpyDeviceToDevice, other));
  CHECK(cudaStreamSynchronize(other));
  CHECK(cudaMemcpy(got, c, sizeof got, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) want[i] = (7 + 3 * i) * 2 + 1;
  check_i32("programmatic event", got, want, n);

  // a chain of eight dependent steps
  CHECK(cudaMemset(c, 0, n * sizeof(int)));
  for (int k = 0; k < 8; k++) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((n + 255) / 256);
    cfg.blockDim = dim3(256);
    cfg.stream = s;
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, step, c, n));
  }
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(got, c, sizeof got, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) want[i] = 8;
  check_i32("chain of dependent launches", got, want, n);

  // an event with timing enabled is refused: not supported, as the H200 answers
  cudaEvent_t timed;
  CHECK(cudaEventCreate(&timed));
  EXPECT_ERROR(launch_dependent(s, a, b, n, timed), cudaErrorNotSupported);
  cudaGetLastError();

  printf("programmatic dependent launch: b[999] = %d, chain end %d\n", (7 + 3 * 999) * 2 + 1, got[n - 1]);
  CHECK(cudaEventDestroy(timed));
  CHECK(cudaEventDestroy(ev));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaStreamDestroy(other));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  return pass("programmatic_launch");
}
