// err_host_store: a kernel stores through a host pointer the device cannot
// reach -- one from malloc, then the address of a host stack variable.  The
// GPU (without pageable memory access) fails the launch with
// cudaErrorIllegalAddress, sticky until cudaDeviceReset, and host memory is
// left untouched.  Memory the device does reach (cudaMallocHost, registered
// memory) is written as usual.
#include "check.h"
#include <sys/wait.h>
#include <unistd.h>

__global__ void store(int *p, int v) { p[threadIdx.x] = v; }

// One faulting store into host memory at p (n ints, all 5 before): the
// launch fails, the error stays, host memory is unchanged; then a reset.
static void expect_store_refused(const char *what, int *p, int n) {
  store<<<1, n>>>(p, 42);
  CHECK(cudaGetLastError());
  EXPECT_ERROR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  void *d;
  EXPECT_ERROR(cudaMalloc(&d, 64), cudaErrorIllegalAddress);   // sticky
  for (int i = 0; i < n; i++)
    if (p[i] != 5) {
      printf("FAIL %s: host element %d is %d after the refused store, expected 5\n", what, i, p[i]);
      exit(1);
    }
}

// Each faulting store runs in a process of its own: this program again, with
// the case's number (0: a malloc pointer, 1: a host stack address). After a
// fault and cudaDeviceReset the H200 (driver 580) answers
// cudaErrorDevicesUnavailable to the same process's next context. The
// children run before the parent touches CUDA (a child forked after CUDA's
// initialisation could not use it).
static int run_child(int c) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    char arg[16];
    snprintf(arg, sizeof arg, "%d", c);
    execl("/proc/self/exe", "err_host_store", arg, (char *)NULL);
    _exit(127);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) != pid)
    return 1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static int one_case(int c) {
  int pageable = 0;
  CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0));
  if (pageable)             // HMM systems reach malloc memory: nothing to test
    return 0;
  if (c == 0) {
    int *heap = (int *)malloc(32 * sizeof(int));
    for (int i = 0; i < 32; i++)
      heap[i] = 5;
    expect_store_refused("malloc pointer", heap, 32);
    free(heap);
  } else {
    volatile int stack[32];
    for (int i = 0; i < 32; i++)
      stack[i] = 5;
    expect_store_refused("host stack address", (int *)stack, 32);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1)
    return one_case(atoi(argv[1]));
  for (int c = 0; c < 2; c++)
    if (run_child(c) != 0)
      return 1;
  int pageable = 0;
  CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0));
  fprintf(stderr, "pageableMemoryAccess = %d\n", pageable);

  // Mapped memory works.
  int *pinned;
  CHECK(cudaMallocHost(&pinned, 32 * sizeof(int)));
  store<<<1, 32>>>(pinned, 7);
  CHECK_LAUNCH();
  for (int i = 0; i < 32; i++)
    if (pinned[i] != 7)
      fail("store into pinned memory");
  CHECK(cudaFreeHost(pinned));

  // Registered memory works after the faults (of the children).
  int *heap = (int *)malloc(32 * sizeof(int));
  CHECK(cudaHostRegister(heap, 32 * sizeof(int), cudaHostRegisterDefault));
  int *dheap;
  CHECK(cudaHostGetDevicePointer((void **)&dheap, heap, 0));
  store<<<1, 32>>>(dheap, 9);
  CHECK_LAUNCH();
  for (int i = 0; i < 32; i++)
    if (heap[i] != 9)
      fail("store into registered memory");
  CHECK(cudaHostUnregister(heap));
  free(heap);
  return pass("err_host_store");
}
