// no_kernel_image: a program linked from two files, one built with PTX (this
// one, nvcc's default) and one built as SASS for sm_90 only
// (parts/no_kernel_image_sass.cu). On a device that cannot run sm_90 SASS
// (anything but compute capability 9.0, cubridge included: it runs PTX
// only), the SASS-only kernel must fail with cudaErrorNoKernelImageForDevice
// -- its launch, its attributes and occupancy, its __device__ variable --
// while everything else keeps working: the PTX kernel, cudaGetDevice (which
// CUB turns into "invalid device ordinal" when it fails), allocations. On a
// compute capability 9.0 device both kernels run.
#include "check.h"

cudaError_t launch_sass_only(int *p, int n);
cudaError_t sass_only_attributes(cudaFuncAttributes *a);
cudaError_t sass_only_occupancy(int *blocks);
cudaError_t sass_only_read_counter(int *v);

__global__ void ptx_double(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 2 * i;
}

static void run_ptx_kernel(int *d, int *h, int *want, int n) {
  CHECK(cudaMemset(d, 0, n * sizeof(int)));
  ptx_double<<<(n + 127) / 128, 128>>>(d, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) want[i] = 2 * i;
  check_i32("PTX kernel", h, want, n);
}

int main(void) {
  int dev = -1;
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, dev));
  const int sass_runs = prop.major == 9 && prop.minor == 0;
  fprintf(stderr, "no_kernel_image: %s, compute capability %d.%d: the sm_90 SASS kernel %s\n", prop.name,
          prop.major, prop.minor, sass_runs ? "runs" : "must be refused");

  const int n = 1000;
  int *d = NULL;
  int *h = (int *)malloc(n * sizeof(int)), *want = (int *)malloc(n * sizeof(int));
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  run_ptx_kernel(d, h, want, n);

  cudaFuncAttributes attr;
  int blocks = -1, counter = -1;
  if (sass_runs) {
    CHECK(launch_sass_only(d, n));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) want[i] = 3 * i;
    check_i32("SASS kernel", h, want, n);
    CHECK(sass_only_attributes(&attr));
    CHECK(sass_only_occupancy(&blocks));
    if (blocks < 1) fail("occupancy of the SASS kernel is 0");
    CHECK(sass_only_read_counter(&counter));
    if (counter != 11) fail("sass_only_counter is not 11");
  } else {
    EXPECT_ERROR(launch_sass_only(d, n), cudaErrorNoKernelImageForDevice);
    CHECK(cudaGetLastError());          // not sticky: cleared by the call above
    CHECK(cudaDeviceSynchronize());
    EXPECT_ERROR(sass_only_attributes(&attr), cudaErrorNoKernelImageForDevice);
    EXPECT_ERROR(sass_only_occupancy(&blocks), cudaErrorNoKernelImageForDevice);
    cudaError_t e = sass_only_read_counter(&counter);
    if (e == cudaSuccess) fail("reading a __device__ variable of the SASS-only image succeeded");
    fprintf(stderr, "no_kernel_image: cudaMemcpyFromSymbol of its variable: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
  }

  // Everything else still works after the refusals.
  int dev2 = -1;
  CHECK(cudaGetDevice(&dev2));
  if (dev2 != dev) fail("cudaGetDevice changed");
  int *d2 = NULL;
  CHECK(cudaMalloc(&d2, 64));
  CHECK(cudaFree(d2));
  run_ptx_kernel(d, h, want, n);
  CHECK(cudaFree(d));
  free(h);
  free(want);
  return pass("no_kernel_image");
}
