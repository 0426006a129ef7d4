"""cuda-python: the JIT linker. Two NVRTC PTX modules (-rdc: a kernel in one
calls a device function defined in the other) joined with cuLinkCreate /
cuLinkAddData / cuLinkComplete, the result loaded with cuModuleLoadData; the
info log buffer carries cubridge's message, the wall time is filled; an
LTO-IR input is refused with a reason in the error log."""
import ctypes

import numpy as np
from cbpy import skip_under_passthrough, args_of, check, compile_ptx, init_context
from cuda.bindings import driver

LIB = r"""
extern "C" __device__ float poly3(float v) { return (v * v - 2.0f) * v + 1.0f; }
"""
MAIN = r"""
extern "C" __device__ float poly3(float v);
extern "C" __global__ void apply(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = poly3(x[i]);
}
"""


def main():
    skip_under_passthrough("cudapython_link", "cubridge's own JIT linker")
    dev, ctx = init_context()
    ptx_lib = compile_ptx(LIB, dev, b"lib.cu", (b"-rdc=true",))
    ptx_main = compile_ptx(MAIN, dev, b"main.cu", (b"-rdc=true",))
    info = bytes(1024)
    err = bytes(1024)
    J = driver.CUjit_option
    opts = [J.CU_JIT_INFO_LOG_BUFFER, J.CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, J.CU_JIT_ERROR_LOG_BUFFER,
            J.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, J.CU_JIT_WALL_TIME, J.CU_JIT_OPTIMIZATION_LEVEL]
    vals = [info, 1024, err, 1024, 0, 4]
    state = check(driver.cuLinkCreate(len(opts), opts, vals))
    check(driver.cuLinkAddData(state, driver.CUjitInputType.CU_JIT_INPUT_PTX, ptx_main, len(ptx_main),
                               b"main.ptx", 0, None, None))
    check(driver.cuLinkAddData(state, driver.CUjitInputType.CU_JIT_INPUT_PTX, ptx_lib, len(ptx_lib),
                               b"lib.ptx", 0, None, None))
    res, bad = driver.cuLinkAddData(state, driver.CUjitInputType.CU_JIT_INPUT_NVVM, b"BC\xc0\xde", 4,
                                    b"fake.ltoir", 0, None, None), None
    assert res[0] == driver.CUresult.CUDA_ERROR_NOT_SUPPORTED, res
    assert b"LTO-IR" in err.split(b"\0")[0], err.split(b"\0")[0]
    image, size = check(driver.cuLinkComplete(state))
    assert size > 0
    assert info.split(b"\0")[0].startswith(b"cubridge: linked 2 PTX modules"), info.split(b"\0")[0]
    blob = ctypes.string_at(int(image), size)
    mod = check(driver.cuModuleLoadData(blob))
    check(driver.cuLinkDestroy(state))

    fn = check(driver.cuModuleGetFunction(mod, b"apply"))
    n = 500
    x = np.linspace(-2, 2, n).astype(np.float32)
    dx = check(driver.cuMemAlloc(x.nbytes))
    dy = check(driver.cuMemAlloc(x.nbytes))
    check(driver.cuMemcpyHtoD(dx, x.ctypes.data, x.nbytes))
    params, keep = args_of(np.uint64(int(dx)), np.uint64(int(dy)), np.int32(n))
    check(driver.cuLaunchKernel(fn, (n + 127) // 128, 1, 1, 128, 1, 1, 0, 0, params.ctypes.data, 0))
    y = np.empty_like(x)
    check(driver.cuMemcpyDtoH(y.ctypes.data, dy, y.nbytes))
    assert np.allclose(y, (x * x - 2) * x + 1, rtol=1e-5, atol=1e-6)
    check(driver.cuCtxDestroy(ctx))
    print("cudapython_link: ok")


if __name__ == "__main__":
    main()
