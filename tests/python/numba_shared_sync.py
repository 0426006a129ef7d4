"""Numba-CUDA: a shared array and cuda.syncthreads (block-wise tree sum and reversal)."""
import numpy as np
from numba import cuda, float32

TPB = 128


@cuda.jit
def block_sum(x, out):
    s = cuda.shared.array(TPB, dtype=float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    s[tid] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    step = TPB // 2
    while step > 0:
        if tid < step:
            s[tid] += s[tid + step]
        cuda.syncthreads()
        step //= 2
    if tid == 0:
        out[cuda.blockIdx.x] = s[0]


@cuda.jit
def block_reverse(x, y):
    s = cuda.shared.array(TPB, dtype=float32)
    tid = cuda.threadIdx.x
    base = cuda.blockIdx.x * TPB
    s[tid] = x[base + tid]
    cuda.syncthreads()
    y[base + tid] = s[TPB - 1 - tid]


def main():
    n = 1000
    x = np.random.default_rng(1).random(n, dtype=np.float32)
    blocks = (n + TPB - 1) // TPB
    d_out = cuda.device_array(blocks, dtype=np.float32)
    block_sum[blocks, TPB](cuda.to_device(x), d_out)
    got = d_out.copy_to_host()
    want = np.array([x[b * TPB:(b + 1) * TPB].sum() for b in range(blocks)], dtype=np.float32)
    assert np.allclose(got, want, rtol=1e-5), (got, want)

    x2 = np.arange(4 * TPB, dtype=np.float32)
    d_y = cuda.device_array_like(x2)
    block_reverse[4, TPB](cuda.to_device(x2), d_y)
    want2 = x2.reshape(4, TPB)[:, ::-1].ravel()
    assert np.array_equal(d_y.copy_to_host(), want2)
    print("numba_shared_sync: ok")


if __name__ == "__main__":
    main()
