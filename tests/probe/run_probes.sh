#!/bin/sh
# run_probes.sh: builds the probe programs with nvcc, static and shared
# cudart, and runs each against cubridge's libcuda.so.1.
#   tests/probe/run_probes.sh <build dir>        (e.g. build)
# Environment: NVCC (default nvcc), CUDA_HOME (default /usr/local/cuda),
# PROBE_OUT (where binaries go, default <build dir>/probe).
# Each probe prints PASS or FAIL; the script exits non-zero if any failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: run_probes.sh <build dir>}" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=${NVCC:-$cuda/bin/nvcc}
out=${PROBE_OUT:-$build/probe}
mkdir -p "$out"
failed=0

# probe <name> <extra nvcc flags> <expected log regex or ->
probe() {
    name=$1 flags=$2 expect=$3
    for mode in static shared; do
        bin=$out/${name}_$mode
        if ! "$nvcc" -cudart "$mode" $flags -o "$bin" "$here/$name.cu" >"$bin.build.log" 2>&1; then
            echo "FAIL $name ($mode): nvcc failed, see $bin.build.log"; failed=1; continue
        fi
        LD_LIBRARY_PATH="$build/lib:$cuda/lib64" CUBRIDGE_LOG=1 "$bin" >"$bin.out" 2>"$bin.err"
        rc=$?
        if [ $rc -ne 0 ] || ! grep -q '^PASS' "$bin.out"; then
            echo "FAIL $name ($mode): exit $rc"; sed 's/^/    /' "$bin.out" "$bin.err" | tail -20; failed=1; continue
        fi
        if [ "$expect" != - ] && ! grep -q -E "$expect" "$bin.err"; then
            echo "FAIL $name ($mode): stderr lacks /$expect/"; sed 's/^/    /' "$bin.err" | tail -10; failed=1; continue
        fi
        echo "ok   $name ($mode)"
    done
}

probe probe_basic "" -
probe probe_error_strings "" -
probe probe_sass_only "-gencode arch=compute_86,code=sm_86" "no PTX for its kernels"
exit $failed
