"""PyCUDA: pycuda.elementwise.ElementwiseKernel (lin_comb) and a module-scope
__constant__ table set through get_global + memcpy_htod."""
import numpy as np
import pycuda.autoinit  # noqa: F401
import pycuda.driver as drv
import pycuda.gpuarray as gpuarray
from pycuda.compiler import SourceModule
from pycuda.elementwise import ElementwiseKernel


def main():
    lin_comb = ElementwiseKernel(
        "float a, float *x, float b, float *y, float *z", "z[i] = a*x[i] + b*y[i]", "cb_lin_comb")
    rng = np.random.default_rng(11)
    x = rng.random(5000).astype(np.float32)
    y = rng.random(5000).astype(np.float32)
    gx, gy = gpuarray.to_gpu(x), gpuarray.to_gpu(y)
    gz = gpuarray.empty_like(gx)
    lin_comb(np.float32(2), gx, np.float32(-3), gy, gz)
    assert np.allclose(gz.get(), 2 * x - 3 * y, rtol=1e-6, atol=1e-6)

    mod = SourceModule("""
    __constant__ int table[8];
    __global__ void lookup(int *out, const int *idx) { out[threadIdx.x] = table[idx[threadIdx.x] & 7]; }
    """)
    ptr, size = mod.get_global("table")
    assert size == 32
    table = np.array([5, 8, 13, 21, 34, 55, 89, 144], np.int32)
    drv.memcpy_htod(ptr, table)
    idx = rng.integers(0, 8, 32).astype(np.int32)
    out = np.zeros(32, np.int32)
    mod.get_function("lookup")(drv.Out(out), drv.In(idx), block=(32, 1, 1), grid=(1, 1))
    assert np.array_equal(out, table[idx])
    print("pycuda_elementwise: ok")


if __name__ == "__main__":
    main()
