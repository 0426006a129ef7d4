// vmm_driver: the driver API's virtual memory management -- reserve an
// address range, create physical memory, map it, set access -- then a kernel
// writes through the mapping and the host reads it back.  Links with -lcuda.
#include <cuda.h>
#include "check.h"

#define CHECK_CU(call)                                                           \
  do {                                                                           \
    CUresult r_ = (call);                                                        \
    if (r_ != CUDA_SUCCESS) {                                                    \
      const char *name_ = "?", *str_ = "?";                                      \
      cuGetErrorName(r_, &name_);                                                \
      cuGetErrorString(r_, &str_);                                               \
      printf("FAIL %s:%d: %s returned %s (%s)\n", __FILE__, __LINE__, #call,     \
             name_, str_);                                                       \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

__global__ void fill(unsigned *p, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    p[i] = (unsigned)(i * 2654435761u);
}

int main(void) {
  CHECK(cudaFree(0));                        // makes the primary context current
  CHECK_CU(cuInit(0));
  CUdevice dev;
  CHECK_CU(cuDeviceGet(&dev, 0));
  int vmm = 0;
  CHECK_CU(cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev));
  if (!vmm) fail("device says it has no virtual memory management");
  CUmemAllocationProp prop;
  memset(&prop, 0, sizeof(prop));
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  size_t gran = 0;
  CHECK_CU(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  if (gran == 0) fail("granularity is 0");
  const size_t n = 3 * 1000 * 1000;
  size_t size = (n * sizeof(unsigned) + gran - 1) / gran * gran;
  CUdeviceptr base;
  CHECK_CU(cuMemAddressReserve(&base, 2 * size, 0, 0, 0));
  CUmemGenericAllocationHandle handle;
  CHECK_CU(cuMemCreate(&handle, size, &prop, 0));
  CUdeviceptr ptr = base + size;             // map into the second half of the range
  CHECK_CU(cuMemMap(ptr, size, 0, handle, 0));
  CUmemAccessDesc access;
  memset(&access, 0, sizeof(access));
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CHECK_CU(cuMemSetAccess(ptr, size, &access, 1));
  unsigned long long flags = 99;
  CHECK_CU(cuMemGetAccess(&flags, &prop.location, ptr));
  if (flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) fail("cuMemGetAccess is not READWRITE");
  fill<<<120, 256>>>((unsigned *)ptr, n);
  CHECK_LAUNCH();
  unsigned *h = (unsigned *)malloc(n * sizeof(unsigned));
  CHECK(cudaMemcpy(h, (void *)ptr, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i++)
    if (h[i] != (unsigned)(i * 2654435761u)) {
      printf("FAIL mapped memory: index %zu: got %u, expected %u\n", i, h[i], (unsigned)(i * 2654435761u));
      return 1;
    }
  CHECK_CU(cuMemUnmap(ptr, size));
  CHECK_CU(cuMemRelease(handle));
  CHECK_CU(cuMemAddressFree(base, 2 * size));
  free(h);
  return pass("vmm_driver");
}
