// err_host_store: a kernel stores through a host pointer the device cannot
// reach -- one from malloc, then the address of a host stack variable.  The
// GPU (without pageable memory access) fails the launch with
// cudaErrorIllegalAddress, sticky until cudaDeviceReset, and host memory is
// left untouched.  Memory the device does reach (cudaMallocHost, registered
// memory) is written as usual.
#include "check.h"

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
  CHECK(cudaDeviceReset());
  cudaGetLastError();   // the thread's last error may still hold the fault
}

int main(void) {
  int pageable = 0;
  CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0));
  fprintf(stderr, "pageableMemoryAccess = %d\n", pageable);
  if (pageable) {           // HMM systems reach malloc memory: nothing to test
    printf("PASS err_host_store\n");
    return 0;
  }

  // Mapped memory works, before and after the faults.
  int *pinned;
  CHECK(cudaMallocHost(&pinned, 32 * sizeof(int)));
  store<<<1, 32>>>(pinned, 7);
  CHECK_LAUNCH();
  for (int i = 0; i < 32; i++)
    if (pinned[i] != 7)
      fail("store into pinned memory");
  CHECK(cudaFreeHost(pinned));

  int *heap = (int *)malloc(32 * sizeof(int));
  for (int i = 0; i < 32; i++)
    heap[i] = 5;
  expect_store_refused("malloc pointer", heap, 32);

  volatile int stack[32];
  for (int i = 0; i < 32; i++)
    stack[i] = 5;
  expect_store_refused("host stack address", (int *)stack, 32);

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
