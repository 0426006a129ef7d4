// __constant__ and __device__ globals, dynamic shared memory.
__constant__ float coef[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__constant__ int ctab[3];
__device__ int counter;
__device__ double dtable[2] = {0.5, 0.25};
extern "C" __global__ void poly(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = coef[0] + x[i] * (coef[1] + x[i] * (coef[2] + x[i] * coef[3])) + ctab[i % 3] + (float)dtable[i & 1];
    if (i == 0) atomicAdd(&counter, 1);
}
extern "C" __global__ void dynshared(const int *in, int *out)
{
    extern __shared__ int buf[];
    buf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}
extern "C" __global__ void getcounter(int **p) { *p = &counter; }
