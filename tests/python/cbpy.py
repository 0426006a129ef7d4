"""Helpers shared by the cuda-python tests: checked driver/NVRTC calls and
NVRTC compilation of CUDA C to PTX for the device's compute capability."""
import numpy as np
from cuda.bindings import driver, nvrtc


def check(result):
    """Unwraps a cuda-python (err, *values) tuple, raising on an error."""
    err, *values = result
    if isinstance(err, driver.CUresult) and err != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"driver error {err.name}: {driver.cuGetErrorString(err)[1]}")
    if isinstance(err, nvrtc.nvrtcResult) and err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise RuntimeError(f"NVRTC error {err.name}")
    if not values:
        return None
    return values[0] if len(values) == 1 else values


def skip_under_passthrough(name, what):
    """Exits 0 with a "skipped" line when the test checks cubridge's own
    behaviour (what) and runs under the cuda pass-through, where NVIDIA's
    driver, not cubridge, answers."""
    import os
    import sys
    if os.environ.get("CUBRIDGE_BACKEND") == "cuda":
        print(f"{name}: skipped under the cuda pass-through (it checks {what})")
        sys.exit(0)


def init_context():
    """cuInit, device 0, a new context; returns (device, context)."""
    check(driver.cuInit(0))
    dev = check(driver.cuDeviceGet(0))
    ctx = check(driver.cuCtxCreate(None, 0, dev))
    return dev, ctx


def compile_ptx(source, dev, name=b"prog.cu", options=()):
    """NVRTC: CUDA C -> PTX for compute_XY of the device."""
    major = check(driver.cuDeviceGetAttribute(
        driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev))
    minor = check(driver.cuDeviceGetAttribute(
        driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev))
    prog = check(nvrtc.nvrtcCreateProgram(source.encode(), name, 0, [], []))
    opts = [f"--gpu-architecture=compute_{major}{minor}".encode(), *options]
    err = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)[0]
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        size = check(nvrtc.nvrtcGetProgramLogSize(prog))
        log = b" " * size
        nvrtc.nvrtcGetProgramLog(prog, log)
        raise RuntimeError("NVRTC failed: " + log.decode(errors="replace"))
    size = check(nvrtc.nvrtcGetPTXSize(prog))
    ptx = b" " * size
    check(nvrtc.nvrtcGetPTX(prog, ptx))
    check(nvrtc.nvrtcDestroyProgram(prog))
    return ptx


def args_of(*values):
    """kernelParams for cuLaunchKernel: an array of pointers to each value."""
    holders = [np.array([v]) if not isinstance(v, np.ndarray) else v for v in values]
    ptrs = np.array([h.ctypes.data for h in holders], dtype=np.uint64)
    return ptrs, holders
