"""CuPy: cupy.fft (fft, ifft, rfft, irfft, fft2, fftn) through cubridge's libcufft,
against numpy.fft in double precision."""
import cupy as cp
import numpy as np


def close(got, want, tol):
    err = np.abs(np.asarray(got) - want).max() / max(1.0, np.abs(want).max())
    assert err < tol, (err, tol)


def main():
    rng = np.random.default_rng(11)
    for n in (1, 8, 97, 1000, 1031):   # powers of two, primes, Bluestein lengths
        x = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)
        close(cp.fft.fft(cp.asarray(x)).get(), np.fft.fft(x.astype(np.complex128)), 1e-5)
        close(cp.fft.ifft(cp.asarray(x)).get(), np.fft.ifft(x.astype(np.complex128)), 1e-5)
        xd = x.astype(np.complex128)
        close(cp.fft.fft(cp.asarray(xd)).get(), np.fft.fft(xd), 1e-12)
    r = rng.standard_normal(100)
    close(cp.fft.rfft(cp.asarray(r.astype(np.float32))).get(), np.fft.rfft(r), 1e-5)
    close(cp.fft.rfft(cp.asarray(r)).get(), np.fft.rfft(r), 1e-12)
    spec = np.fft.rfft(r)
    close(cp.fft.irfft(cp.asarray(spec), n=100).get(), r, 1e-12)
    a = rng.standard_normal((12, 10))
    close(cp.fft.fft2(cp.asarray(a)).get(), np.fft.fft2(a), 1e-12)
    close(cp.fft.fft2(cp.asarray(a.astype(np.complex64))).get(), np.fft.fft2(a), 1e-5)
    b = rng.standard_normal((4, 6, 5))
    close(cp.fft.fftn(cp.asarray(b)).get(), np.fft.fftn(b), 1e-12)
    close(cp.fft.rfftn(cp.asarray(b)).get(), np.fft.rfftn(b), 1e-12)
    close(cp.fft.fft(cp.asarray(a), axis=0).get(), np.fft.fft(a, axis=0), 1e-12)   # strided batches
    print("cupy_fft: ok")


if __name__ == "__main__":
    main()
