// Atomics: shared histogram, CAS loops, float add, integer ops.
extern "C" __global__ void histogram(const unsigned char *data, int n, unsigned *bins)
{
    __shared__ unsigned h[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) h[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&h[data[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&bins[i], h[i]);
}
__device__ float atomic_max_float(float *addr, float v)
{
    int *ia = (int *)addr;
    int old = *ia, assumed;
    do {
        assumed = old;
        old = atomicCAS(ia, assumed, __float_as_int(fmaxf(v, __int_as_float(assumed))));
    } while (assumed != old);
    return __int_as_float(old);
}
extern "C" __global__ void atomics(const float *in, float *fsum, float *fmax, int *iv, unsigned *uv,
                                   unsigned long long *u64, double *dsum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomicAdd(fsum, in[i]);
    atomic_max_float(fmax, in[i]);
    atomicMax(&iv[0], i);
    atomicMin(&iv[1], -i);
    atomicSub(&iv[2], 3);
    atomicExch(&iv[3], 7);
    atomicAnd(&uv[0], ~(1u << (i & 31)));
    atomicOr(&uv[1], 1u << (i & 31));
    atomicXor(&uv[2], (unsigned)i);
    atomicInc(&uv[3], 10u);
    atomicDec(&uv[4], 10u);
    atomicAdd(u64, (unsigned long long)i);
    atomicAdd(dsum, (double)in[i]);
    atomicCAS(&iv[4], i, i + 1);
}
