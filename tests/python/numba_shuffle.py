"""Numba-CUDA: warp shuffles (shfl_down_sync reduction, shfl_xor_sync butterfly,
shfl_sync broadcast, shfl_up_sync prefix sum) and vote (all_sync, ballot_sync)."""
import numpy as np
from numba import cuda

FULL = 0xFFFFFFFF


@cuda.jit
def warp_ops(x, red, bfly, bcast, prefix, votes):
    i = cuda.grid(1)
    lane = cuda.laneid
    v = x[i]
    s = v
    off = 16
    while off > 0:
        s += cuda.shfl_down_sync(FULL, s, off)
        off //= 2
    if lane == 0:
        red[i // 32] = s
    b = v
    m = 1
    while m < 32:
        b += cuda.shfl_xor_sync(FULL, b, m)
        m *= 2
    bfly[i] = b
    bcast[i] = cuda.shfl_sync(FULL, v, 7)
    p = v
    d = 1
    while d < 32:
        t = cuda.shfl_up_sync(FULL, p, d)
        if lane >= d:
            p += t
        d *= 2
    prefix[i] = p
    ballot = cuda.ballot_sync(FULL, v % 2 == 1)
    if lane == 0:
        votes[i // 32] = ballot


def main():
    n = 128
    x = np.random.default_rng(4).integers(0, 100, n).astype(np.int32)
    red = np.zeros(n // 32, np.int32)
    bfly = np.zeros(n, np.int32)
    bcast = np.zeros(n, np.int32)
    prefix = np.zeros(n, np.int32)
    votes = np.zeros(n // 32, np.uint32)
    warp_ops[2, 64](x, red, bfly, bcast, prefix, votes)
    w = x.reshape(-1, 32)
    assert np.array_equal(red, w.sum(axis=1))
    assert np.array_equal(bfly, np.repeat(w.sum(axis=1), 32))
    assert np.array_equal(bcast, np.repeat(w[:, 7], 32))
    assert np.array_equal(prefix, np.cumsum(w, axis=1).ravel())
    want_votes = [sum(1 << l for l in range(32) if w[k, l] % 2 == 1) for k in range(w.shape[0])]
    assert list(votes) == want_votes, (votes, want_votes)
    print("numba_shuffle: ok")


if __name__ == "__main__":
    main()
