"""Numba-CUDA: cuda.atomic.add (histogram, float sum), atomic.max/min, compare_and_swap."""
import numpy as np
from numba import cuda


@cuda.jit
def histogram(data, bins):
    i = cuda.grid(1)
    if i < data.size:
        cuda.atomic.add(bins, data[i], 1)


@cuda.jit
def stats(x, acc, mx, mn):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(acc, 0, x[i])
        cuda.atomic.max(mx, 0, x[i])
        cuda.atomic.min(mn, 0, x[i])


@cuda.jit
def first_claim(owner):
    i = cuda.grid(1)
    cuda.atomic.compare_and_swap(owner, -1, i)


def main():
    rng = np.random.default_rng(2)
    data = rng.integers(0, 16, 5000).astype(np.int32)
    bins = cuda.to_device(np.zeros(16, dtype=np.int32))
    histogram[(data.size + 255) // 256, 256](cuda.to_device(data), bins)
    assert np.array_equal(bins.copy_to_host(), np.bincount(data, minlength=16))

    x = rng.integers(-1000, 1000, 3000).astype(np.int64)
    acc = cuda.to_device(np.zeros(1, np.int64))
    mx = cuda.to_device(np.array([np.iinfo(np.int64).min], np.int64))
    mn = cuda.to_device(np.array([np.iinfo(np.int64).max], np.int64))
    stats[(x.size + 127) // 128, 128](cuda.to_device(x), acc, mx, mn)
    assert acc.copy_to_host()[0] == x.sum()
    assert mx.copy_to_host()[0] == x.max() and mn.copy_to_host()[0] == x.min()

    owner = cuda.to_device(np.array([-1], np.int32))
    first_claim[4, 64](owner)
    o = owner.copy_to_host()[0]
    assert 0 <= o < 256, o
    print("numba_atomics: ok")


if __name__ == "__main__":
    main()
