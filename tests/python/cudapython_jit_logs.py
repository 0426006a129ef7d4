"""cuda-python: cuModuleLoadDataEx with JIT options. Good PTX loads and the
info log says what cubridge did; PTX the translator rejects fails with
CUDA_ERROR_INVALID_PTX and the error log names the line and the reason;
a SASS-only image fails with CUDA_ERROR_NO_BINARY_FOR_GPU."""
import ctypes

from cbpy import skip_under_passthrough, check, compile_ptx, init_context
from cuda.bindings import driver

GOOD = r"""extern "C" __global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }"""


def load_ex(image):
    info = bytes(2048)
    err = bytes(2048)
    J = driver.CUjit_option
    opts = [J.CU_JIT_INFO_LOG_BUFFER, J.CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, J.CU_JIT_ERROR_LOG_BUFFER,
            J.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, J.CU_JIT_MAX_REGISTERS]
    vals = [info, 2048, err, 2048, 64]
    res = driver.cuModuleLoadDataEx(image, len(opts), opts, vals)
    return res, info.split(b"\0")[0], err.split(b"\0")[0]


def main():
    skip_under_passthrough("cudapython_jit_logs", "cubridge's own JIT logs")
    dev, ctx = init_context()
    ptx = compile_ptx(GOOD, dev)
    (res, mod), info, err = load_ex(ptx)
    assert res == driver.CUresult.CUDA_SUCCESS, res
    assert b"translated 1 kernels from PTX" in info, info
    assert err == b"", err
    check(driver.cuModuleUnload(mod))

    broken = ptx.replace(b"ret;", b"frobnicate.u32 %r1;", 1)
    (res, _), info, err = load_ex(broken)
    assert res == driver.CUresult.CUDA_ERROR_INVALID_PTX, res
    assert b"PTX translation failed" in err and b"frobnicate" in err, err

    elf = b"\x7fELF\x02\x01\x01" + b"\0" * 57
    (res, _), info, err = load_ex(elf)
    assert res in (driver.CUresult.CUDA_ERROR_INVALID_IMAGE, driver.CUresult.CUDA_ERROR_NO_BINARY_FOR_GPU), res
    assert err.startswith(b"cubridge: "), err
    check(driver.cuCtxDestroy(ctx))
    print("cudapython_jit_logs: ok")


if __name__ == "__main__":
    main()
