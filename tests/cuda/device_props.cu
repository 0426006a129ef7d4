// device_props: cudaGetDeviceCount / cudaGetDeviceProperties /
// cudaDeviceGetAttribute report sane values.  The name and compute capability
// go to stderr (they differ between a GPU and cubridge); stdout is just PASS.
#include "check.h"

static void expect(int ok, const char *what, long long got) {
  if (!ok) {
    printf("FAIL %s (got %lld)\n", what, got);
    exit(1);
  }
}

int main(void) {
  int count = 0, dev = -1;
  CHECK(cudaGetDeviceCount(&count));
  expect(count >= 1, "device count >= 1", count);
  CHECK(cudaSetDevice(0));
  CHECK(cudaGetDevice(&dev));
  expect(dev == 0, "current device 0", dev);
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  fprintf(stderr, "info: device 0: %s, compute capability %d.%d, %d SMs, %zu MiB\n", p.name,
          p.major, p.minor, p.multiProcessorCount, p.totalGlobalMem >> 20);
  expect(p.name[0] != 0, "non-empty name", 0);
  expect(p.warpSize == 32, "warpSize == 32", p.warpSize);
  expect(p.maxThreadsPerBlock >= 1024, "maxThreadsPerBlock >= 1024", p.maxThreadsPerBlock);
  expect(p.major >= 5, "major >= 5", p.major);
  expect(p.minor >= 0 && p.minor < 10, "0 <= minor < 10", p.minor);
  expect(p.multiProcessorCount >= 1, "multiProcessorCount >= 1", p.multiProcessorCount);
  expect(p.totalGlobalMem >= (64ull << 20), "totalGlobalMem >= 64 MiB", (long long)p.totalGlobalMem);
  expect(p.sharedMemPerBlock >= 48 * 1024, "sharedMemPerBlock >= 48 KiB", (long long)p.sharedMemPerBlock);
  expect(p.maxThreadsDim[0] >= 1024 && p.maxThreadsDim[2] >= 64, "maxThreadsDim", p.maxThreadsDim[0]);
  expect(p.maxGridSize[0] >= 65535 && p.maxGridSize[1] >= 65535, "maxGridSize", p.maxGridSize[0]);
  expect(p.regsPerBlock >= 32768, "regsPerBlock >= 32768", p.regsPerBlock);
  expect(p.totalConstMem >= 65536, "totalConstMem >= 64 KiB", (long long)p.totalConstMem);
  int attr = 0;
  CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrWarpSize, 0));
  expect(attr == 32, "attribute warp size", attr);
  CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrComputeCapabilityMajor, 0));
  expect(attr == p.major, "attribute major == props major", attr);
  CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMultiProcessorCount, 0));
  expect(attr == p.multiProcessorCount, "attribute SM count == props", attr);
  int drv = 0, rt = 0;
  CHECK(cudaDriverGetVersion(&drv));
  CHECK(cudaRuntimeGetVersion(&rt));
  fprintf(stderr, "info: driver version %d, runtime version %d\n", drv, rt);
  expect(drv >= rt, "driver version >= runtime version", drv);
  size_t free_b = 0, total_b = 0;
  CHECK(cudaMemGetInfo(&free_b, &total_b));
  expect(total_b > 0 && free_b <= total_b, "cudaMemGetInfo free <= total", (long long)free_b);
  return pass("device_props");
}
