"""PyCUDA: GPUArray arithmetic, math functions, comparisons, slicing and fill."""
import numpy as np
import pycuda.autoinit  # noqa: F401
import pycuda.cumath as cumath
import pycuda.gpuarray as gpuarray


def main():
    rng = np.random.default_rng(10)
    a = rng.random(1000).astype(np.float32) + 0.1
    b = rng.random(1000).astype(np.float32)
    ga = gpuarray.to_gpu(a)
    gb = gpuarray.to_gpu(b)
    assert np.allclose((ga + gb).get(), a + b)
    assert np.allclose((ga * gb - 3).get(), a * b - 3)
    assert np.allclose((ga / gb).get(), a / b, rtol=1e-6)
    assert np.allclose((2 * ga ** 2).get(), 2 * a ** 2, rtol=1e-6)
    assert np.allclose(cumath.sqrt(ga).get(), np.sqrt(a), rtol=1e-6)
    assert np.allclose(cumath.exp(gb).get(), np.exp(b), rtol=1e-6)
    assert np.array_equal(gpuarray.maximum(ga, gb).get(), np.maximum(a, b))
    z = gpuarray.zeros(64, np.int32)
    z.fill(7)
    assert np.array_equal(z.get(), np.full(64, 7, np.int32))
    r = gpuarray.arange(0, 50, 1, dtype=np.float32)
    assert np.array_equal(r.get(), np.arange(0, 50, 1, dtype=np.float32))
    print("pycuda_gpuarray: ok")


if __name__ == "__main__":
    main()
