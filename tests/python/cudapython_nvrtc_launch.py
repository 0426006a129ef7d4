"""cuda-python: NVRTC compiles CUDA C to PTX; cuModuleLoadData,
cuModuleGetFunction, cuMemAlloc/cuMemcpy, cuLaunchKernel (saxpy and a
shared-memory block sum), cuModuleGetGlobal on a __device__ variable."""
import numpy as np
from cbpy import args_of, check, compile_ptx, init_context
from cuda.bindings import driver

SRC = r"""
__device__ int launches;
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
    if (i == 0) atomicAdd(&launches, 1);
}
extern "C" __global__ void block_sum(const int *x, int *out) {
    __shared__ int s[256];
    s[threadIdx.x] = x[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
"""


def main():
    dev, ctx = init_context()
    ptx = compile_ptx(SRC, dev)
    mod = check(driver.cuModuleLoadData(ptx))
    saxpy = check(driver.cuModuleGetFunction(mod, b"saxpy"))
    n = 4096
    x = np.random.default_rng(13).random(n, dtype=np.float32)
    y = np.ones(n, np.float32)
    dx = check(driver.cuMemAlloc(x.nbytes))
    dy = check(driver.cuMemAlloc(y.nbytes))
    check(driver.cuMemcpyHtoD(dx, x.ctypes.data, x.nbytes))
    check(driver.cuMemcpyHtoD(dy, y.ctypes.data, y.nbytes))
    params, keep = args_of(np.float32(2.5), np.uint64(int(dx)), np.uint64(int(dy)), np.int32(n))
    for _ in range(2):
        check(driver.cuLaunchKernel(saxpy, n // 256, 1, 1, 256, 1, 1, 0, 0, params.ctypes.data, 0))
    check(driver.cuCtxSynchronize())
    out = np.empty_like(y)
    check(driver.cuMemcpyDtoH(out.ctypes.data, dy, out.nbytes))
    assert np.allclose(out, 1 + 2 * 2.5 * x, rtol=1e-6)
    gptr, gsize = check(driver.cuModuleGetGlobal(mod, b"launches"))
    assert gsize == 4
    cnt = np.zeros(1, np.int32)
    check(driver.cuMemcpyDtoH(cnt.ctypes.data, gptr, 4))
    assert cnt[0] == 2

    bs = check(driver.cuModuleGetFunction(mod, b"block_sum"))
    xi = np.arange(8 * 256, dtype=np.int32)
    dxi = check(driver.cuMemAlloc(xi.nbytes))
    dout = check(driver.cuMemAlloc(8 * 4))
    check(driver.cuMemcpyHtoD(dxi, xi.ctypes.data, xi.nbytes))
    params2, keep2 = args_of(np.uint64(int(dxi)), np.uint64(int(dout)))
    check(driver.cuLaunchKernel(bs, 8, 1, 1, 256, 1, 1, 0, 0, params2.ctypes.data, 0))
    sums = np.zeros(8, np.int32)
    check(driver.cuMemcpyDtoH(sums.ctypes.data, dout, sums.nbytes))
    assert np.array_equal(sums, xi.reshape(8, 256).sum(axis=1))
    for p in (dx, dy, dxi, dout):
        check(driver.cuMemFree(p))
    check(driver.cuModuleUnload(mod))
    check(driver.cuCtxDestroy(ctx))
    print("cudapython_nvrtc_launch: ok")


if __name__ == "__main__":
    main()
