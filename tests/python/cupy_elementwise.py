"""CuPy: ElementwiseKernel (typed and generic), broadcasting, in-place output."""
import cupy as cp
import numpy as np


def main():
    axpb = cp.ElementwiseKernel("T x, T a, T b", "T y", "y = a * x + b", "cb_axpb")
    x = cp.arange(1000, dtype=cp.float32) / 7
    y = axpb(x, cp.float32(3), cp.float32(-1))
    assert np.allclose(y.get(), 3 * (np.arange(1000, dtype=np.float32) / 7) - 1, rtol=1e-6)

    dist = cp.ElementwiseKernel("float64 px, float64 py", "float64 d", "d = sqrt(px * px + py * py)", "cb_dist")
    px = cp.linspace(-3, 3, 50).reshape(50, 1)
    py = cp.linspace(-2, 2, 40).reshape(1, 40)
    d = dist(px, py)  # broadcast to 50 x 40
    want = np.hypot(np.linspace(-3, 3, 50).reshape(50, 1), np.linspace(-2, 2, 40).reshape(1, 40))
    assert d.shape == (50, 40) and np.allclose(d.get(), want)

    clip = cp.ElementwiseKernel("int32 v, int32 lo, int32 hi", "int32 r", "r = min(max(v, lo), hi)", "cb_clip")
    v = cp.arange(-50, 50, dtype=cp.int32)
    out = cp.empty_like(v)
    clip(v, -10, 20, out)
    assert np.array_equal(out.get(), np.clip(np.arange(-50, 50), -10, 20))
    print("cupy_elementwise: ok")


if __name__ == "__main__":
    main()
