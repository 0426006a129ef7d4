"""PyCUDA: SourceModule (nvcc; `cubridge run` makes it hand over PTX) with
shared memory and __syncthreads, drv.In/Out/InOut, prepared calls."""
import numpy as np
import pycuda.autoinit  # noqa: F401
import pycuda.driver as drv
from pycuda.compiler import SourceModule

SRC = """
__global__ void transpose_tile(float *out, const float *in, int w, int h) {
    __shared__ float tile[16][17];
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
    __syncthreads();
    x = blockIdx.y * 16 + threadIdx.x; y = blockIdx.x * 16 + threadIdx.y;
    if (x < h && y < w) out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void scale(float *v, float k, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= k;
}
"""


def main():
    mod = SourceModule(SRC)
    tr = mod.get_function("transpose_tile")
    h, w = 45, 70
    a = np.random.default_rng(9).random((h, w), dtype=np.float32)
    out = np.zeros((w, h), np.float32)
    tr(drv.Out(out), drv.In(a), np.int32(w), np.int32(h), block=(16, 16, 1), grid=((w + 15) // 16, (h + 15) // 16))
    assert np.array_equal(out, a.T)

    scale = mod.get_function("scale")
    v = np.arange(100, dtype=np.float32)
    scale(drv.InOut(v), np.float32(0.5), np.int32(100), block=(32, 1, 1), grid=(4, 1))
    assert np.array_equal(v, np.arange(100, dtype=np.float32) * 0.5)

    scale.prepare("Pfi")
    d = drv.mem_alloc(v.nbytes)
    drv.memcpy_htod(d, v)
    scale.prepared_call((4, 1), (32, 1, 1), d, np.float32(4.0), np.int32(100))
    back = np.empty_like(v)
    drv.memcpy_dtoh(back, d)
    assert np.array_equal(back, np.arange(100, dtype=np.float32) * 2.0)
    print("pycuda_sourcemodule: ok")


if __name__ == "__main__":
    main()
