"""Numba-CUDA: float16 arrays and arithmetic (cuda.fp16 intrinsics and operators)."""
import numpy as np
from numba import cuda
from numba.cuda import fp16


@cuda.jit
def half_ops(a, b, out_fma, out_ops, out_max):
    i = cuda.grid(1)
    if i < a.size:
        out_fma[i] = fp16.hfma(a[i], b[i], a[i])
        out_ops[i] = (a[i] + b[i]) * a[i] - b[i]
        out_max[i] = fp16.hmax(a[i], b[i])


def main():
    rng = np.random.default_rng(5)
    a = rng.uniform(-4, 4, 300).astype(np.float16)
    b = rng.uniform(-4, 4, 300).astype(np.float16)
    fma = np.zeros_like(a)
    ops = np.zeros_like(a)
    mx = np.zeros_like(a)
    half_ops[(a.size + 127) // 128, 128](a, b, fma, ops, mx)
    want_fma = (a.astype(np.float64) * b + a).astype(np.float16)
    assert np.array_equal(fma, want_fma), np.flatnonzero(fma != want_fma)
    # each operator rounds to half; the PTX's mul.f16 and sub.f16 carry no
    # rounding modifier, so a compiler may contract them into one fma (ptxas
    # does on an H200: its results differ from these exactly where the fused
    # ones do; cubridge does not contract), so the whole array is one or the other
    s = (a + b).astype(np.float16)
    want_ops = ((s * a).astype(np.float16) - b).astype(np.float16)
    want_fused = (s.astype(np.float64) * a - b).astype(np.float16)
    assert np.array_equal(ops, want_ops) or np.array_equal(ops, want_fused), \
        (np.flatnonzero(ops != want_ops), np.flatnonzero(ops != want_fused))
    assert np.array_equal(mx, np.maximum(a, b))
    print("numba_float16: ok")


if __name__ == "__main__":
    main()
