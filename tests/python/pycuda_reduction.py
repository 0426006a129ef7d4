"""PyCUDA: gpuarray.sum/dot and ReductionKernel.

PyCUDA's reduction kernel finishes each block with an implicitly
warp-synchronous tail (`if (tid < 32)` then unsynchronised updates through a
`volatile` shared pointer), which relies on the 32 lanes of a warp running in
lockstep. The CPU backend makes each volatile access a warp convergence
point for exactly this code; see docs/jit-clients.md."""
import numpy as np
import pycuda.autoinit  # noqa: F401
import pycuda.gpuarray as gpuarray
from pycuda.reduction import ReductionKernel


def main():
    rng = np.random.default_rng(12)
    a = rng.random(10000).astype(np.float32)
    b = rng.random(10000).astype(np.float32)
    ga, gb = gpuarray.to_gpu(a), gpuarray.to_gpu(b)
    assert np.allclose(gpuarray.sum(ga).get(), a.sum(dtype=np.float64), rtol=1e-4)
    assert np.allclose(gpuarray.dot(ga, gb).get(), np.dot(a.astype(np.float64), b), rtol=1e-4)
    sumsq = ReductionKernel(np.float32, neutral="0", reduce_expr="a+b", map_expr="x[i]*x[i]",
                            arguments="float *x")
    assert np.allclose(sumsq(ga).get(), (a.astype(np.float64) ** 2).sum(), rtol=1e-4)
    print("pycuda_reduction: ok")


if __name__ == "__main__":
    main()
