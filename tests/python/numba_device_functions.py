"""Numba-CUDA: device functions (recursive-free helpers, tuples, math) called from kernels."""
import math

import numpy as np
from numba import cuda


@cuda.jit(device=True)
def clamp(v, lo, hi):
    return min(max(v, lo), hi)


@cuda.jit(device=True)
def polar(x, y):
    return math.sqrt(x * x + y * y), math.atan2(y, x)


@cuda.jit(device=True)
def smoothstep(e0, e1, x):
    t = clamp((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


@cuda.jit
def kernel(x, y, r, theta, s):
    i = cuda.grid(1)
    if i < x.size:
        r[i], theta[i] = polar(x[i], y[i])
        s[i] = smoothstep(-1.0, 1.0, x[i])


def main():
    rng = np.random.default_rng(3)
    x = rng.uniform(-2, 2, 777)
    y = rng.uniform(-2, 2, 777)
    r = np.zeros_like(x)
    th = np.zeros_like(x)
    s = np.zeros_like(x)
    kernel[(x.size + 63) // 64, 64](x, y, r, th, s)
    assert np.allclose(r, np.hypot(x, y), rtol=1e-12)
    assert np.allclose(th, np.arctan2(y, x), rtol=1e-12)
    t = np.clip((x + 1.0) / 2.0, 0.0, 1.0)
    assert np.allclose(s, t * t * (3 - 2 * t), rtol=1e-12)
    print("numba_device_functions: ok")


if __name__ == "__main__":
    main()
