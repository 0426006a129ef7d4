"""CuPy: array operations that need no cuBLAS/cuFFT/cuRAND: arithmetic, ufuncs,
broadcasting, indexing, boolean masks, where, astype, cumsum, transpose copies."""
import cupy as cp
import numpy as np


def main():
    rng = np.random.default_rng(8)
    h = rng.standard_normal((30, 40))
    a = cp.asarray(h)
    assert np.allclose((a * 2 + 1).get(), h * 2 + 1)
    assert np.allclose(cp.exp(cp.sin(a)).get(), np.exp(np.sin(h)))
    assert np.allclose((a - a.mean(axis=0)).get(), h - h.mean(axis=0))
    assert np.array_equal(a[::3, 5:20:2].get(), h[::3, 5:20:2])
    assert np.array_equal(cp.ascontiguousarray(a.T).get(), h.T)
    mask = a > 0.5
    assert np.array_equal(a[mask].get(), h[h > 0.5])
    assert int(cp.count_nonzero(mask)) == int((h > 0.5).sum())
    assert np.array_equal(cp.where(a < 0, 0, a).get(), np.where(h < 0, 0, h))
    assert np.array_equal(a.astype(cp.int16).get(), h.astype(np.int16))
    hi = rng.integers(0, 100, 5000)
    assert np.array_equal(cp.cumsum(cp.asarray(hi)).get(), np.cumsum(hi))
    idx = rng.integers(0, 40, 17)
    assert np.array_equal(a[:, cp.asarray(idx)].get(), h[:, idx])
    b = cp.zeros(10, cp.float32)
    b[cp.asarray([1, 3, 5])] = 7
    assert b.get().tolist() == [0, 7, 0, 7, 0, 7, 0, 0, 0, 0]
    assert np.allclose(cp.linalg.norm(a[0]).get(), np.linalg.norm(h[0]))
    print("cupy_array_ops: ok")


if __name__ == "__main__":
    main()
