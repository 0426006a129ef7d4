"""CuPy: ReductionKernel (L2 norm, arg-free max, per-axis sums) and built-in reductions."""
import cupy as cp
import numpy as np


def main():
    l2 = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "cb_l2norm")
    rng = np.random.default_rng(6)
    h = rng.standard_normal((64, 100)).astype(np.float32)
    x = cp.asarray(h)
    assert np.allclose(float(l2(x)), np.sqrt((h.astype(np.float64) ** 2).sum()), rtol=1e-5)
    assert np.allclose(l2(x, axis=1).get(), np.sqrt((h ** 2).sum(axis=1)), rtol=1e-5)

    vmax = cp.ReductionKernel("int64 x", "int64 y", "x", "max(a, b)", "y = a", "-9223372036854775807 - 1", "cb_max")
    hi = rng.integers(-10**12, 10**12, 100000)
    assert int(vmax(cp.asarray(hi))) == hi.max()

    assert np.allclose(x.sum(axis=0).get(), h.sum(axis=0), rtol=1e-4, atol=1e-4)
    assert np.allclose(float(x.mean()), h.mean(), rtol=1e-4, atol=1e-6)
    assert int(x.argmax()) == int(h.argmax())
    assert float(x.min()) == h.min() and float(x.max()) == h.max()
    print("cupy_reduction: ok")


if __name__ == "__main__":
    main()
