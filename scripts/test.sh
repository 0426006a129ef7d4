#!/usr/bin/env bash
# scripts/test.sh [--sanitize]: build cubridge and run the whole test suite.
#
#   bash scripts/test.sh              build/ (RelWithDebInfo), then ctest
#   bash scripts/test.sh --sanitize   build-asan/ with ASan+UBSan, then ctest
#   bash scripts/test.sh --tsan       build-tsan/ with ThreadSanitizer, then
#                                     the concurrency tests (ctest label tsan)
#
# Installs what is missing first (apt-get; sudo only when not root).  The
# suite is the unit tests (tests/unit) and the CUDA programs (tests/cuda),
# each built with nvcc twice and run through `cubridge run`.  With --sanitize
# the nvcc-built programs are not instrumented but load our instrumented
# libcuda.so.1, so the ASan and UBSan runtimes are preloaded into the suite.
# Ends with ctest's summary; the exit status is ctest's.
#
# Environment: BUILD_DIR overrides the build directory; CMAKE_FLAGS adds
# configure flags (e.g. CMAKE_FLAGS=-DCMAKE_BUILD_TYPE=Debug); PLAIN_BUILD_DIR
# is where --sanitize looks for nvcc-built programs to reuse (default build).
set -euo pipefail
cd "$(dirname "$0")/.."

sanitize=0
tsan=0
for arg in "$@"; do
  case $arg in
    --sanitize) sanitize=1 ;;
    --tsan) tsan=1 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done

. scripts/setup_deps.sh
cb_install_missing
jobs=$(nproc)

# ---- --tsan (owner: reliability) -------------------------------------------
# The concurrency tests under ThreadSanitizer: the unit tests that the
# top-level CMakeLists.txt registers with label "tsan" when CUBRIDGE_TSAN is
# on (stress threads, streams, processes sharing a JIT cache). Only the
# unit-test targets are built. docs/reliability.md.
if [ $tsan -eq 1 ]; then
  build=${BUILD_DIR:-build-tsan}
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUBRIDGE_TSAN=ON -DCUBRIDGE_CUDA_TESTS=OFF ${CMAKE_FLAGS:-}
  cmake --build "$build" -j"$jobs" --target cb_tsan_tests
  export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
  exec ctest --test-dir "$build" -L tsan --output-on-failure
fi
# ---- end of --tsan ---------------------------------------------------------

# ---- optional step: a second OpenCL device (tests/opencl/setup_intel_cpu.sh) ----
# Intel's CPU OpenCL runtime from PyPI into $build/intel-opencl, before the
# configure step, which registers the opencl.intel.<X> tests when it is there.
# Set CUBRIDGE_INTEL_OPENCL=0 to leave it out. Not under --sanitize: the
# runtime is not instrumented, and PoCL already runs the OpenCL tests there.
if [ "${CUBRIDGE_INTEL_OPENCL:-1}" != 0 ] && [ $sanitize -eq 0 ]; then
  bash tests/opencl/setup_intel_cpu.sh "${BUILD_DIR:-build}/intel-opencl" \
    || echo "setup: Intel's CPU OpenCL runtime could not be fetched; the opencl.intel tests are left out" >&2
fi
# ---- end of the optional step ---------------------------------------------
if [ $sanitize -eq 1 ]; then
  build=${BUILD_DIR:-build-asan}
  # The plain build's JIT cache, when there is one: the kernels' objects do
  # not depend on the sanitizer, and compiling them again is most of the
  # time of the cuda tests (the compile path runs in the plain suite and in
  # the cache's unit tests).
  plain_cache="$(pwd)/${PLAIN_BUILD_DIR:-build}/cubridge-cache"
  cache_flag=
  [ -d "${PLAIN_BUILD_DIR:-build}" ] && cache_flag="-DCUBRIDGE_TEST_CACHE_DIR=$plain_cache"
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUBRIDGE_SANITIZE=ON -DCUBRIDGE_CUDA_TESTS=ON $cache_flag ${CMAKE_FLAGS:-}
else
  build=${BUILD_DIR:-build}
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUBRIDGE_SANITIZE=OFF -DCUBRIDGE_CUDA_TESTS=ON ${CMAKE_FLAGS:-}
fi
# The nvcc-built test programs do not depend on the sanitizer: reuse those of
# the plain build when it has them (copied with their times, so that make
# rebuilds only the ones older than their sources).
plain=${PLAIN_BUILD_DIR:-build}
if [ $sanitize -eq 1 ] && [ -d "$plain/tests/cuda" ] && [ "$build" != "$plain" ]; then
  mkdir -p "$build/tests/cuda"
  find "$plain/tests/cuda" -maxdepth 1 -type f \( -name '*_static' -o -name '*_shared' \) \
    -exec cp -p -u {} "$build/tests/cuda/" \;
fi
cmake --build "$build" -j"$jobs"

if [ $sanitize -eq 1 ]; then
  asan=$(gcc -print-file-name=libasan.so)
  ubsan=$(gcc -print-file-name=libubsan.so)
  # detect_leaks=0: cudart and the programs are not ours and do not free at exit.
  # allow_user_segv_handler=1: the CPU backend turns a kernel's fault into
  # CUDA_ERROR_ILLEGAL_ADDRESS with its own SIGSEGV handler, installed after
  # ASan's and chaining to it, so ASan still reports crashes of host code
  # (docs/cpu-backend.md, "Sanitizers").  If a runtime mishandles that, run
  # with ASAN_OPTIONS=detect_leaks=0:allow_user_segv_handler=1:handle_segv=0.
  export LD_PRELOAD="$asan $ubsan${LD_PRELOAD:+ $LD_PRELOAD}"
  # verify_asan_link_order=0: `cubridge run` sets an LD_AUDIT module (src/lib/audit), which the
  # loader maps before the preloads, so the runtime is not first in the list; it still is before
  # every instrumented library.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allow_user_segv_handler=1:verify_asan_link_order=0}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
fi
# ---- optional step: JIT clients (tests/python; owner: jit) -----------------
# Creates $build/pyenv with the pinned Numba-CUDA, CuPy, PyCUDA and
# cuda-python (tests/python/requirements*.txt) for the ctest label `python`.
# Set CUBRIDGE_PYTHON_TESTS=0 to leave it out; if it cannot be made, those
# tests are skipped with a message. Not under --sanitize: the clients would
# load the instrumented libcuda.so.1 into an uninstrumented python.
if [ "${CUBRIDGE_PYTHON_TESTS:-1}" != 0 ] && [ $sanitize -eq 0 ]; then
  bash tests/python/setup_venv.sh "$build/pyenv" \
    || echo "setup: the python virtualenv could not be made; the python tests will be skipped" >&2
fi
# ---- end of the optional step ---------------------------------------------

ctest --test-dir "$build" -j"$jobs" --output-on-failure
