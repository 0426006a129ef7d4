"""CuPy: sort, argsort and unique (CuPy runs them as its prebuilt CUB/Thrust
kernels), on several dtypes and sizes, 1-D and along an axis; every result is
compared exactly with NumPy's."""
import cupy as cp
import numpy as np

SIZES = (1, 31, 1000, 4097, 100003)


def data(rng, dtype, n):
    if np.dtype(dtype).kind == "f":
        # small multiples of 1/4: many ties, exact in any order
        return (rng.integers(-400, 400, n) / 4).astype(dtype)
    if np.dtype(dtype).kind == "u":
        return rng.integers(0, 2**31, n).astype(dtype) % np.asarray(5000, dtype)
    return rng.integers(-3000, 3000, n).astype(dtype)


def check_1d(rng, dtype, n):
    h = data(rng, dtype, n)
    x = cp.asarray(h)
    got = cp.sort(x).get()
    assert np.array_equal(got, np.sort(h)), f"sort {dtype} n={n}"
    y = x.copy()
    y.sort()
    assert np.array_equal(y.get(), np.sort(h)), f"ndarray.sort {dtype} n={n}"
    # argsort: CuPy's is stable (a radix sort), so it equals NumPy's stable one
    idx = cp.argsort(x).get()
    assert np.array_equal(idx, np.argsort(h, kind="stable")), f"argsort {dtype} n={n}"
    u = cp.unique(x).get()
    assert np.array_equal(u, np.unique(h)), f"unique {dtype} n={n}"
    return len(u)


def main():
    rng = np.random.default_rng(20261201)
    counts = []
    # each dtype is its own set of CUB kernels (compiling them is most of the
    # test's time: lazy loading compiles only those)
    for dtype in (np.int32, np.uint32, np.int64, np.float32, np.float64):
        for n in SIZES:
            counts.append(check_1d(rng, dtype, n))

    # unique with return_index / return_inverse / return_counts
    h = rng.integers(0, 300, 5000).astype(np.int32)
    u, ui, inv, cnt = cp.unique(cp.asarray(h), return_index=True, return_inverse=True,
                                return_counts=True)
    wu, wi, winv, wcnt = np.unique(h, return_index=True, return_inverse=True, return_counts=True)
    assert np.array_equal(u.get(), wu) and np.array_equal(ui.get(), wi)
    assert np.array_equal(inv.get().ravel(), winv.ravel()) and np.array_equal(cnt.get(), wcnt)

    # sort and argsort along the last axis and along axis 0 of a 2-D array
    m = (rng.integers(-100, 100, (37, 600)) / 2).astype(np.float32)
    xm = cp.asarray(m)
    assert np.array_equal(cp.sort(xm, axis=-1).get(), np.sort(m, axis=-1))
    assert np.array_equal(cp.sort(xm, axis=0).get(), np.sort(m, axis=0))
    am = cp.argsort(xm, axis=-1).get()
    assert np.array_equal(np.take_along_axis(m, am, axis=-1), np.sort(m, axis=-1))
    print(f"cupy_sort_unique: ok, {len(counts)} arrays, {sum(counts)} unique values")


if __name__ == "__main__":
    main()
