"""CuPy: cupy.random (uniform, normal, seeded reproducibility) through cubridge's
libcurand (CuPy's default generator: XORWOW)."""
import cupy as cp
import numpy as np


def main():
    cp.random.seed(1234)
    u1 = cp.random.uniform(size=100001).get()
    n1 = cp.random.normal(size=100000).get()
    cp.random.seed(1234)
    u2 = cp.random.uniform(size=100001).get()
    n2 = cp.random.normal(size=100000).get()
    assert (u1 == u2).all() and (n1 == n2).all(), "a seed must reproduce its sequence"
    cp.random.seed(4321)
    assert not (cp.random.uniform(size=1000).get() == u1[:1000]).all(), "another seed, another sequence"
    assert u1.min() > 0.0 and u1.max() <= 1.0
    assert abs(u1.mean() - 0.5) < 0.01 and abs(u1.var() - 1.0 / 12) < 0.01
    assert abs(n1.mean()) < 0.02 and abs(n1.std() - 1.0) < 0.02
    f = cp.random.normal(3.0, 2.0, size=50000, dtype=cp.float32).get()
    assert f.dtype == np.float32 and abs(f.mean() - 3.0) < 0.05 and abs(f.std() - 2.0) < 0.05
    g = cp.random.RandomState(7)
    a = g.standard_normal((100, 100)).get()
    b = cp.random.RandomState(7).standard_normal((100, 100)).get()
    assert (a == b).all()
    print("cupy_random: ok")


if __name__ == "__main__":
    main()
