#!/usr/bin/env bash
# bench/run_blas_opencl.sh: SGEMM through the cuBLAS facade on cubridge's
# OpenCL backend (CLBlast on the OpenCL device, PoCL by default) against
# CLBlast called directly on the same device (bench/bench_clblast.c) and
# OpenBLAS called directly on the host (bench/bench_blas.cu's own side).
#
#   bash bench/run_blas_opencl.sh            n = 2048
#   N=1024 ROUNDS=5 bash bench/run_blas_opencl.sh
#
# Each side is the best of ROUNDS after a warm-up call (CLBlast builds its
# kernels on the first call). OPENBLAS_NUM_THREADS and PoCL's
# POCL_MAX_PTHREAD_COUNT set the threads; both default to the CPU count.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
cubridge=${CUBRIDGE:-$root/build/bin/cubridge}
out=${BENCH_DIR:-$root/build/bench}
nvcc=${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}
inc=/usr/include/x86_64-linux-gnu/openblas-pthread
libdir=/usr/lib/x86_64-linux-gnu/openblas-pthread
n=${N:-2048}
[ -x "$cubridge" ] || { echo "bench: $cubridge not found; build first" >&2; exit 1; }
mkdir -p "$out"
[ "$out/bench_blas" -nt bench/bench_blas.cu ] ||
  "$nvcc" -O2 -I"$inc" bench/bench_blas.cu -o "$out/bench_blas" -lcublas -L"$libdir" -lopenblas -Xlinker -rpath="$libdir"
[ "$out/bench_clblast" -nt bench/bench_clblast.c ] ||
  cc -O2 bench/bench_clblast.c -o "$out/bench_clblast" -lclblast -lOpenCL
export CUBRIDGE_SUMMARY=0
res=$(ROUNDS=${ROUNDS:-3} CUBRIDGE_BACKEND=opencl "$cubridge" run -- "$out/bench_blas" "$n")
res="$res
$(ROUNDS=${ROUNDS:-3} "$out/bench_clblast" "$n")"
get() { awk -v k="$1" '$1 == "RESULT" && $2 == k { print $3 }' <<< "$res"; }
f=$(get sgemm_facade) c=$(get sgemm_clblast) o=$(get sgemm_openblas)
echo "# $(date -u '+%Y-%m-%d %H:%M UTC') on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
printf '| %-22s | %12s | %12s | %12s | %16s | %16s |\n' benchmark "facade (CL)" "CLBlast" "OpenBLAS" "CLBlast / facade" "OpenBLAS / facade"
printf '|%s|%s|%s|%s|%s|%s|\n' "------------------------" "--------------" "--------------" "--------------" "------------------" "------------------"
awk -v n="$n" -v f="$f" -v c="$c" -v o="$o" 'BEGIN {
  printf "| SGEMM n=%-13s | %9.1f ms | %9.1f ms | %9.1f ms | %16.3f | %16.3f |\n", n, f * 1e3, c * 1e3, o * 1e3, c / f, o / f }'
for k in dgemm batched; do
  printf '| %-22s | %9.1f ms | %12s | %9.1f ms | %16s | %16.3f |\n' "$k (facade on CL)" "$(awk -v v="$(get ${k}_facade)" 'BEGIN{print v*1e3}')" - \
    "$(awk -v v="$(get ${k}_openblas)" 'BEGIN{print v*1e3}')" - "$(awk -v a="$(get ${k}_facade)" -v b="$(get ${k}_openblas)" 'BEGIN{print b/a}')"
done
