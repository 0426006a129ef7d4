"""CuPy's linear algebra and sparse matrices, as users call them: cupy.linalg
(solve, inv, cholesky, qr, svd, eigh, det, slogdet, lstsq, norm) runs on
cuSOLVER and cuBLAS, cupyx.scipy.sparse (CSR/CSC/COO products with vectors
and matrices, conversions, transposes, sums, sparse + and -) on cuSPARSE -- cubridge's
facades (docs/libraries.md). Every result is compared with NumPy in double
precision."""
import cupy as cp
import cupyx.scipy.sparse as sp
import numpy as np


def close(got, want, tol, what):
    got = cp.asnumpy(got)
    err = np.abs(got - want).max() / (1 + np.abs(want).max())
    assert err <= tol, f"{what}: relative error {err:.3g} > {tol:g}"


def spd(rng, n, dt):
    a = rng.standard_normal((n, n))
    return (a @ a.T + n * np.eye(n)).astype(dt)


def dense(rng):
    for dt, tol in ((np.float32, 2e-4), (np.float64, 1e-10)):
        n = 40
        a = rng.standard_normal((n, n)).astype(dt) + n * np.eye(n, dtype=dt)
        b = rng.standard_normal((n, 3)).astype(dt)
        ga, gb = cp.asarray(a), cp.asarray(b)
        close(cp.linalg.solve(ga, gb), np.linalg.solve(a.astype(np.float64), b), tol, f"solve {dt.__name__}")
        close(cp.linalg.inv(ga), np.linalg.inv(a.astype(np.float64)), tol, f"inv {dt.__name__}")
        small = a[:8, :8] / n   # a determinant of size one, inside float32's range
        close(cp.linalg.det(cp.asarray(small)), np.linalg.det(small.astype(np.float64)), tol * 10, f"det {dt.__name__}")
        sign, logdet = cp.linalg.slogdet(ga)
        wsign, wlog = np.linalg.slogdet(a.astype(np.float64))
        assert float(sign) == wsign, "slogdet sign"
        close(logdet, wlog, tol, f"slogdet {dt.__name__}")
        s = spd(rng, n, dt)
        lo = cp.linalg.cholesky(cp.asarray(s))
        close(lo @ lo.T, s.astype(np.float64), tol, f"cholesky {dt.__name__}")
        assert np.allclose(cp.asnumpy(cp.triu(lo, 1)), 0), "cholesky is lower"
        m = rng.standard_normal((50, 30)).astype(dt)
        q, r = cp.linalg.qr(cp.asarray(m))
        close(q @ r, m.astype(np.float64), tol, f"qr {dt.__name__}")
        close(q.T @ q, np.eye(30), tol, f"qr orthogonal {dt.__name__}")
        u, sv, vt = cp.linalg.svd(cp.asarray(m), full_matrices=False)
        close(sv, np.linalg.svd(m.astype(np.float64), compute_uv=False), tol, f"svd values {dt.__name__}")
        close((u * sv) @ vt, m.astype(np.float64), tol, f"svd product {dt.__name__}")
        w, v = cp.linalg.eigh(cp.asarray(s))
        close(w, np.linalg.eigvalsh(s.astype(np.float64)), tol, f"eigh values {dt.__name__}")
        close(cp.asarray(s) @ v - v * w, np.zeros((n, n)), tol * 10, f"eigh vectors {dt.__name__}")
        x, _, rank, _ = cp.linalg.lstsq(cp.asarray(m), cp.asarray(m[:, :2] + 0.5), rcond=None)
        wx = np.linalg.lstsq(m.astype(np.float64), m[:, :2] + 0.5, rcond=None)[0]
        close(x, wx, tol * 10, f"lstsq {dt.__name__}")
        assert int(rank) == 30, "lstsq rank"
        close(cp.linalg.norm(ga), np.linalg.norm(a.astype(np.float64)), tol, f"norm {dt.__name__}")
    # complex: solve and inv
    n = 24
    a = (rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n)) + n * np.eye(n)).astype(np.complex128)
    b = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    close(cp.linalg.solve(cp.asarray(a), cp.asarray(b)), np.linalg.solve(a, b), 1e-10, "solve complex128")
    close(cp.linalg.inv(cp.asarray(a)), np.linalg.inv(a), 1e-10, "inv complex128")


def sparse(rng):
    m, n = 300, 200
    d = rng.standard_normal((m, n)) * (rng.random((m, n)) < 0.05)
    x = rng.standard_normal(n)
    y = rng.standard_normal(m)
    b = rng.standard_normal((n, 7))
    for dt, tol in ((np.float32, 1e-5), (np.float64, 1e-12)):
        dd = d.astype(dt)
        for fmt in ("csr", "csc", "coo"):
            a = getattr(sp, f"{fmt}_matrix")(cp.asarray(dd))
            assert a.nnz == np.count_nonzero(dd), f"{fmt} nnz"
            close(a @ cp.asarray(x.astype(dt)), dd.astype(np.float64) @ x, tol, f"{fmt} @ vector {dt.__name__}")
            close(a @ cp.asarray(b.astype(dt)), dd.astype(np.float64) @ b, tol, f"{fmt} @ matrix {dt.__name__}")
            close(a.T @ cp.asarray(y.astype(dt)), dd.T.astype(np.float64) @ y, tol, f"{fmt}.T @ vector {dt.__name__}")
            close(a.toarray(), dd, 0, f"{fmt} toarray {dt.__name__}")
            close(a.sum(axis=0).ravel(), dd.astype(np.float64).sum(axis=0), tol, f"{fmt} column sums {dt.__name__}")
        c = sp.csr_matrix(cp.asarray(dd))
        close(c.tocsc().toarray(), dd, 0, "csr -> csc")
        close(c.tocoo().tocsr().toarray(), dd, 0, "csr -> coo -> csr")
        # sums of sparse matrices: cusparse<t>csrgeam2 (C's pattern: the union of both)
        s2 = c + c
        assert s2.nnz == np.count_nonzero(dd), f"csr + csr nnz {dt.__name__}"
        close(s2.toarray(), 2 * dd.astype(np.float64), tol, f"csr + csr {dt.__name__}")
        d2 = (rng.standard_normal((m, n)) * (rng.random((m, n)) < 0.05)).astype(dt)
        c2 = sp.csr_matrix(cp.asarray(d2))
        diff = c - 2 * c2
        assert diff.nnz == np.count_nonzero((dd != 0) | (d2 != 0)), f"csr - 2 csr nnz {dt.__name__}"
        close(diff.toarray(), dd.astype(np.float64) - 2 * d2.astype(np.float64), tol, f"csr - 2 csr {dt.__name__}")
        sq = sp.csr_matrix(cp.asarray(dd[:, :n] if m >= n else dd))
        close((sq.T @ sq).toarray(), dd.T.astype(np.float64) @ dd, tol * 10, f"csr.T @ csr {dt.__name__}")


def main():
    rng = np.random.default_rng(20261201)
    dense(rng)
    sparse(rng)
    cp.cuda.Device().synchronize()
    print("cupy_linalg: ok")


if __name__ == "__main__":
    main()
