// probe_sass_only.cu: built with SASS only (run_probes.sh passes
// -gencode arch=compute_86,code=sm_86), so the fatbin has no PTX. cubridge
// must refuse it cleanly: cudaErrorNoKernelImageForDevice (the driver's
// CUDA_ERROR_NO_BINARY_FOR_GPU) and a log line saying there is no PTX.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int *p) { p[threadIdx.x] = 7; }

int main()
{
    int *p = nullptr;
    cudaError_t e = cudaMalloc(&p, 32 * sizeof(int));
    if (e == cudaSuccess) {
        fill<<<1, 32>>>(p);
        e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaDeviceSynchronize();
    }
    printf("%s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
    if (e == cudaErrorNoKernelImageForDevice) {
        printf("PASS\n");
        return 0;
    }
    printf("FAIL expected cudaErrorNoKernelImageForDevice\n");
    return 1;
}
