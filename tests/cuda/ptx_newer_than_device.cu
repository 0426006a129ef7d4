// ptx_newer_than_device: built with -gencode arch=compute_120,code=compute_120
// only (tests/cuda/CMakeLists.txt), so its one fatbin entry is PTX for an
// architecture newer than most devices. A GPU below compute capability 12.0
// cannot JIT it down and refuses the kernel (cudaErrorNoKernelImageForDevice);
// cubridge runs it anyway, because the CPU runs any PTX its translator knows
// (docs/fatbin.md, "Which PTX"), and reports the PTX's architecture in
// cudaFuncAttributes::ptxVersion (120), as CUB's policy selection expects.
#include "check.h"

__global__ void scale_add(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main(void) {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int cubridge = strstr(prop.name, "[cubridge]") != NULL;
  const int runs = cubridge || prop.major >= 12;
  fprintf(stderr, "ptx_newer_than_device: %s, compute capability %d.%d: the compute_120 kernel %s\n", prop.name,
          prop.major, prop.minor, runs ? "runs" : "must be refused");
  const int n = 4096;
  float *hx = (float *)malloc(n * sizeof(float)), *hy = (float *)malloc(n * sizeof(float));
  float *want = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) {
    hx[i] = (float)(i % 97) * 0.25f;
    hy[i] = (float)(i % 13) - 6.0f;
    want[i] = 1.5f * hx[i] + hy[i];
  }
  float *x, *y;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice));
  scale_add<<<(n + 255) / 256, 256>>>(y, x, 1.5f, n);
  cudaError_t e = cudaGetLastError();
  cudaFuncAttributes attr;
  cudaError_t ea = cudaFuncGetAttributes(&attr, scale_add);
  if (runs) {
    CHECK(e);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hy, y, n * sizeof(float), cudaMemcpyDeviceToHost));
    check_f32_exact("scale_add", hy, want, n);
    CHECK(ea);
    if (attr.ptxVersion != 120) {
      printf("FAIL ptxVersion is %d, expected 120\n", attr.ptxVersion);
      return 1;
    }
  } else {
    // The driver cannot JIT newer PTX down to this device.
    if (e != cudaErrorNoKernelImageForDevice && e != cudaErrorUnsupportedPtxVersion) {
      printf("FAIL launch returned %s, expected cudaErrorNoKernelImageForDevice\n", cudaGetErrorName(e));
      return 1;
    }
    if (ea == cudaSuccess) fail("cudaFuncGetAttributes of the compute_120 kernel succeeded");
    fprintf(stderr, "ptx_newer_than_device: launch %s, attributes %s\n", cudaGetErrorName(e), cudaGetErrorName(ea));
    cudaGetLastError();
  }
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  free(hx); free(hy); free(want);
  return pass("ptx_newer_than_device");
}
