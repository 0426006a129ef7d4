"""Numba-CUDA: the built-in @cuda.reduce (sum, max, min; int and float) on
sizes that leave partial warps and partial blocks. Its kernels call
cuda.syncwarp() (full mask) in lanes whose warp-mates have returned or never
call it: those lanes count as arrived, as on the GPU (issue H, item 1)."""
import numpy as np
from numba import cuda


@cuda.reduce
def sum_reduce(a, b):
    return a + b


@cuda.reduce
def max_reduce(a, b):
    return max(a, b)


@cuda.reduce
def min_reduce(a, b):
    return min(a, b)


def main():
    rng = np.random.default_rng(7)
    for n in (1, 5, 31, 32, 33, 100, 127, 128, 129, 1000, 4099, 70001):
        xi = rng.integers(-1000, 1000, n).astype(np.int64)
        assert sum_reduce(xi) == xi.sum(), (n, sum_reduce(xi), xi.sum())
        # the reduction always folds init in (0 by default): start min/max from an element
        assert max_reduce(xi, init=xi[0]) == xi.max(), n
        assert min_reduce(xi, init=xi[0]) == xi.min(), n
        assert sum_reduce(xi, init=5) == xi.sum() + 5, n
        xf = rng.standard_normal(n).astype(np.float64)
        got = sum_reduce(cuda.to_device(xf))
        assert abs(got - xf.sum()) <= 1e-9 * max(1.0, np.abs(xf).sum()), (n, got, xf.sum())
        assert max_reduce(xf, init=xf[0]) == xf.max(), n
    # a device result array
    x = np.arange(1, 1001, dtype=np.int32)
    res = cuda.device_array(1, dtype=np.int32)
    sum_reduce(cuda.to_device(x), res=res)
    assert res.copy_to_host()[0] == 500500
    print("numba_reduce: ok")


if __name__ == "__main__":
    main()
