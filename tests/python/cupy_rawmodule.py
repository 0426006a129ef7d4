"""CuPy: RawModule with several kernels, a __constant__ variable set from the
host (get_global), and C++ templates instantiated through name_expressions."""
import cupy as cp
import numpy as np

SRC = r"""
__constant__ float coeffs[4];

extern "C" __global__ void poly(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = ((coeffs[3] * v + coeffs[2]) * v + coeffs[1]) * v + coeffs[0];
    }
}

extern "C" __global__ void negate(float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = -y[i];
}

template <typename T> __global__ void twice(T *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = v[i] + v[i];
}
"""


def main():
    mod = cp.RawModule(code=SRC, options=("-std=c++17",), name_expressions=("twice<int>", "twice<double>"))
    c = np.array([1.0, -2.0, 0.5, 0.25], np.float32)
    g = mod.get_global("coeffs")
    cp.ndarray(4, cp.float32, g).set(c)
    n = 333
    hx = np.linspace(-2, 2, n).astype(np.float32)
    x = cp.asarray(hx)
    y = cp.empty_like(x)
    mod.get_function("poly")(((n + 63) // 64,), (64,), (x, y, cp.int32(n)))
    mod.get_function("negate")(((n + 63) // 64,), (64,), (y, cp.int32(n)))
    want = -(((c[3] * hx + c[2]) * hx + c[1]) * hx + c[0])
    assert np.allclose(y.get(), want, rtol=1e-5, atol=1e-6)

    vi = cp.arange(100, dtype=cp.int32)
    mod.get_function("twice<int>")((2,), (64,), (vi, cp.int32(100)))
    assert np.array_equal(vi.get(), 2 * np.arange(100))
    vd = cp.linspace(0, 1, 100)
    mod.get_function("twice<double>")((2,), (64,), (vd, cp.int32(100)))
    assert np.allclose(vd.get(), 2 * np.linspace(0, 1, 100))
    print("cupy_rawmodule: ok")


if __name__ == "__main__":
    main()
