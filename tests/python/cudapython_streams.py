"""cuda-python: streams and events around NVRTC kernels: cuMemsetD32Async,
cuMemcpyHtoDAsync/DtoHAsync on pinned memory, two streams ordered by
cuStreamWaitEvent, cuEventElapsedTime, cuLaunchKernel on a stream, and
cuOccupancyMaxPotentialBlockSize."""
import ctypes

import numpy as np
from cbpy import args_of, check, compile_ptx, init_context
from cuda.bindings import driver

SRC = r"""
extern "C" __global__ void add_one(int *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += 1;
}
extern "C" __global__ void times(int *v, int k, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= k;
}
"""


def main():
    dev, ctx = init_context()
    mod = check(driver.cuModuleLoadData(compile_ptx(SRC, dev)))
    add_one = check(driver.cuModuleGetFunction(mod, b"add_one"))
    times = check(driver.cuModuleGetFunction(mod, b"times"))
    n = 10000
    s1 = check(driver.cuStreamCreate(0))
    s2 = check(driver.cuStreamCreate(0))
    e0 = check(driver.cuEventCreate(0))
    e1 = check(driver.cuEventCreate(0))
    host = check(driver.cuMemHostAlloc(n * 4, 0))
    hv = np.ctypeslib.as_array(ctypes.cast(int(host), ctypes.POINTER(ctypes.c_int32)), (n,))
    d = check(driver.cuMemAlloc(n * 4))
    grid, block = check(driver.cuOccupancyMaxPotentialBlockSize(add_one, 0, 0, 0))
    assert 0 < block <= 1024 and grid > 0

    check(driver.cuEventRecord(e0, s1))
    check(driver.cuMemsetD32Async(d, 41, n, s1))
    p1, k1 = args_of(np.uint64(int(d)), np.int32(n))
    check(driver.cuLaunchKernel(add_one, (n + 255) // 256, 1, 1, 256, 1, 1, 0, s1, p1.ctypes.data, 0))
    check(driver.cuEventRecord(e1, s1))
    check(driver.cuStreamWaitEvent(s2, e1, 0))
    p2, k2 = args_of(np.uint64(int(d)), np.int32(3), np.int32(n))
    check(driver.cuLaunchKernel(times, (n + 255) // 256, 1, 1, 256, 1, 1, 0, s2, p2.ctypes.data, 0))
    check(driver.cuMemcpyDtoHAsync(host, d, n * 4, s2))
    check(driver.cuStreamSynchronize(s2))
    assert np.all(hv == 126), hv[:8]
    ms = check(driver.cuEventElapsedTime(e0, e1))
    assert ms >= 0.0

    hv[:] = np.arange(n, dtype=np.int32)
    check(driver.cuMemcpyHtoDAsync(d, host, n * 4, s1))
    check(driver.cuLaunchKernel(add_one, (n + 255) // 256, 1, 1, 256, 1, 1, 0, s1, p1.ctypes.data, 0))
    check(driver.cuMemcpyDtoHAsync(host, d, n * 4, s1))
    check(driver.cuStreamSynchronize(s1))
    assert np.array_equal(hv, np.arange(n, dtype=np.int32) + 1)
    for s in (s1, s2):
        check(driver.cuStreamDestroy(s))
    for e in (e0, e1):
        check(driver.cuEventDestroy(e))
    check(driver.cuMemFree(d))
    check(driver.cuMemFreeHost(host))
    check(driver.cuCtxDestroy(ctx))
    print("cudapython_streams: ok")


if __name__ == "__main__":
    main()
