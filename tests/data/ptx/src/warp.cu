// Warp shuffles and votes.
extern "C" __global__ void reduce_shfl(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}
extern "C" __global__ void scan_shfl(const int *in, int *out)
{
    int lane = threadIdx.x & 31;
    int v = in[threadIdx.x];
    for (int off = 1; off < 32; off <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, off);
        if (lane >= off) v += u;
    }
    out[threadIdx.x] = v;
}
extern "C" __global__ void votes(const int *in, unsigned *out)
{
    int v = in[threadIdx.x];
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int all = __all_sync(0xffffffffu, v > 0);
    int any = __any_sync(0xffffffffu, v > 0);
    out[threadIdx.x] = b ^ (all << 1) ^ any ^ __activemask() ^ __shfl_xor_sync(0xffffffffu, v, 1) ^ __shfl_sync(0xffffffffu, v, 3);
    __syncwarp();
}
