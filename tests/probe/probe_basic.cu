// probe_basic.cu: the runtime calls that make cudart reach the driver's
// export tables: device query, properties, malloc, copies, a symbol copy,
// a kernel launch and a synchronize. Prints what it sees; exits non-zero
// on the first failing call or a wrong result.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float scale;
__device__ int counter;

__global__ void axpy(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = scale * x[i] + y[i];
        atomicAdd(&counter, 1);
    }
}

#define CHECK(call)                                                                         \
    do {                                                                                    \
        cudaError_t e_ = (call);                                                            \
        if (e_ != cudaSuccess) {                                                            \
            printf("FAIL %s: %s (%s)\n", #call, cudaGetErrorString(e_), cudaGetErrorName(e_)); \
            return 1;                                                                       \
        }                                                                                   \
        printf("ok   %s\n", #call);                                                         \
    } while (0)

int main()
{
    int n = 0, dev = -1;
    CHECK(cudaGetDeviceCount(&n));
    CHECK(cudaGetDevice(&dev));
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    printf("device %d of %d: %s, cc %d.%d, %d SMs, warp %d\n", dev, n, p.name, p.major, p.minor,
           p.multiProcessorCount, p.warpSize);
    const int N = 1000;
    float hx[N], hy[N];
    for (int i = 0; i < N; i++) {
        hx[i] = (float)i;
        hy[i] = 1.0f;
    }
    float *x, *y;
    CHECK(cudaMalloc(&x, N * sizeof(float)));
    CHECK(cudaMalloc(&y, N * sizeof(float)));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
    float s = 2.0f;
    CHECK(cudaMemcpyToSymbol(scale, &s, sizeof s));
    axpy<<<(N + 255) / 256, 256>>>(x, y, N);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
    int c = 0;
    CHECK(cudaMemcpyFromSymbol(&c, counter, sizeof c));
    for (int i = 0; i < N; i++) {
        if (hy[i] != 2.0f * i + 1.0f) {
            printf("FAIL y[%d] = %g, expected %g\n", i, hy[i], 2.0f * i + 1.0f);
            return 1;
        }
    }
    if (c != N) {
        printf("FAIL counter = %d, expected %d\n", c, N);
        return 1;
    }
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    printf("PASS\n");
    return 0;
}
