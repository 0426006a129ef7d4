// The SASS-only half of no_kernel_image: built with
// -gencode arch=compute_90,code=sm_90 (no PTX), then linked with
// no_kernel_image.cu, which carries PTX (tests/cuda/CMakeLists.txt).
#include <cuda_runtime.h>

__global__ void sass_only_triple(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 3 * i;
}

__device__ int sass_only_counter = 11;

cudaError_t launch_sass_only(int *p, int n) {
  sass_only_triple<<<(n + 127) / 128, 128>>>(p, n);
  return cudaGetLastError();
}

cudaError_t sass_only_attributes(cudaFuncAttributes *a) {
  return cudaFuncGetAttributes(a, sass_only_triple);
}

cudaError_t sass_only_occupancy(int *blocks) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, sass_only_triple, 128, 0);
}

cudaError_t sass_only_read_counter(int *v) {
  return cudaMemcpyFromSymbol(v, sass_only_counter, sizeof *v);
}
