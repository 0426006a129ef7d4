"""CuPy on cuBLAS/cuBLASLt (cubridge's facades, docs/libraries.md): matmul
(f32, f64, f16, complex64; batched), dot, vdot, inner/outer, tensordot,
einsum (contraction through cuBLAS), gemv-shaped products, and which
libcublas the process loaded: cubridge's, even though CuPy finds it with
cuda-pathfinder (site-packages, then the loader's search, then CUDA_HOME)."""
import ctypes
import os
import sys

import cupy as cp
import numpy as np


def loaded_libcublas():
    """The file the process maps as libcublas.so.*."""
    with open("/proc/self/maps") as f:
        for line in f:
            path = line.split()[-1]
            if "libcublas.so" in path and "Lt" not in path:
                return path
    return None


def main():
    rng = np.random.default_rng(3)
    for dt, tol in ((np.float32, 1e-5), (np.float64, 1e-12), (np.complex64, 1e-5), (np.float16, 3e-2)):
        ha = rng.standard_normal((37, 29)).astype(dt)
        hb = rng.standard_normal((29, 41)).astype(dt)
        if np.iscomplexobj(ha):
            ha = ha + 1j * rng.standard_normal(ha.shape).astype(np.float32)
        got = (cp.asarray(ha) @ cp.asarray(hb)).get()
        want = ha.astype(np.complex128 if np.iscomplexobj(ha) else np.float64) @ hb.astype(np.float64)
        assert np.allclose(got, want, rtol=tol, atol=tol * 30), (dt, np.abs(got - want).max())
    # batched matmul (cublasGemmStridedBatchedEx), transposed views
    ha = rng.standard_normal((6, 8, 5)).astype(np.float32)
    hb = rng.standard_normal((6, 5, 7)).astype(np.float32)
    assert np.allclose(cp.matmul(cp.asarray(ha), cp.asarray(hb)).get(), ha @ hb, rtol=1e-5, atol=1e-5)
    assert np.allclose((cp.asarray(hb).transpose(0, 2, 1) @ cp.asarray(ha).transpose(0, 2, 1)).get(),
                       hb.transpose(0, 2, 1) @ ha.transpose(0, 2, 1), rtol=1e-5, atol=1e-5)
    # dot, vdot, inner, outer, tensordot, matrix-vector
    hx = rng.standard_normal(1000)
    hy = rng.standard_normal(1000)
    assert np.allclose(float(cp.dot(cp.asarray(hx), cp.asarray(hy))), hx @ hy)
    assert np.allclose(complex(cp.vdot(cp.asarray(hx + 1j * hy), cp.asarray(hy))), np.vdot(hx + 1j * hy, hy))
    hm = rng.standard_normal((50, 1000))
    assert np.allclose(cp.dot(cp.asarray(hm), cp.asarray(hx)).get(), hm @ hx)
    assert np.allclose(cp.inner(cp.asarray(hm), cp.asarray(hm)).get(), np.inner(hm, hm))
    assert np.allclose(cp.outer(cp.asarray(hx[:30]), cp.asarray(hy[:20])).get(), np.outer(hx[:30], hy[:20]))
    ht = rng.standard_normal((4, 5, 6))
    hu = rng.standard_normal((6, 5, 3))
    assert np.allclose(cp.tensordot(cp.asarray(ht), cp.asarray(hu), axes=([1, 2], [1, 0])).get(),
                       np.tensordot(ht, hu, axes=([1, 2], [1, 0])))
    # einsum contractions (CuPy turns them into cuBLAS products)
    assert np.allclose(cp.einsum("ij,jk->ik", cp.asarray(hm[:, :40]), cp.asarray(hm[:40, :7])).get(),
                       np.einsum("ij,jk->ik", hm[:, :40], hm[:40, :7]))
    assert np.allclose(cp.einsum("bij,bjk->bik", cp.asarray(ha), cp.asarray(hb)).get(),
                       np.einsum("bij,bjk->bik", ha, hb), rtol=1e-5, atol=1e-5)
    assert np.allclose(cp.einsum("ijk,kj->i", cp.asarray(ht), cp.asarray(hu[:, :, 0])).get(),
                       np.einsum("ijk,kj->i", ht, hu[:, :, 0]))
    cp.cuda.Device().synchronize()
    lib = loaded_libcublas()
    assert lib, "no libcublas in the process"
    here = os.environ.get("CUBRIDGE_LIB_DIR")
    if here and os.environ.get("CUBRIDGE_BACKEND", "cpu") != "cuda":
        # under cubridge's own backends, cubridge's libcublas must have won
        assert os.path.realpath(os.path.dirname(lib)) == os.path.realpath(here), (lib, here)
    print(f"libcublas: {lib}", file=sys.stderr)
    print("cupy_blas: ok")


if __name__ == "__main__":
    main()
