"""CuPy: RawKernel (CUDA C through NVRTC) with shared memory and __syncthreads,
launched with a grid, block and dynamic shared memory size."""
import cupy as cp
import numpy as np

SRC = r"""
extern "C" __global__ void block_scan(const float *x, float *y, int n) {
    extern __shared__ float s[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int off = 1; off < blockDim.x; off *= 2) {
        float v = t >= off ? s[t - off] : 0.0f;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    if (i < n) y[i] = s[t];
}
"""


def main():
    k = cp.RawKernel(SRC, "block_scan")
    n, tpb = 1000, 128
    h = np.random.default_rng(7).random(n, dtype=np.float32)
    x = cp.asarray(h)
    y = cp.zeros_like(x)
    k(((n + tpb - 1) // tpb,), (tpb,), (x, y, cp.int32(n)), shared_mem=tpb * 4)
    want = np.concatenate([np.cumsum(h[b:b + tpb]) for b in range(0, n, tpb)])
    assert np.allclose(y.get(), want, rtol=1e-5), np.abs(y.get() - want).max()
    assert k.attributes["max_threads_per_block"] >= tpb
    print("cupy_rawkernel: ok")


if __name__ == "__main__":
    main()
