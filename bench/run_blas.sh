#!/usr/bin/env bash
# bench/run_blas.sh: cuBLAS through cubridge's facade against OpenBLAS called
# directly, side by side in one process (bench/bench_blas.cu), printed as a
# table: time through the facade, time of OpenBLAS, ratio OpenBLAS/facade
# (the facade's speed relative to OpenBLAS: 1.0 is as fast, the goal for
# SGEMM/DGEMM is >= 0.95), and the facade's overhead per call.
#
#   bash bench/run_blas.sh            n = 2048
#   N=1024 ROUNDS=5 bash bench/run_blas.sh
#
# Both sides run the same OpenBLAS (Debian's libopenblas0-pthread) with its
# own threads (OPENBLAS_NUM_THREADS, default the CPU count).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
cubridge=${CUBRIDGE:-$root/build/bin/cubridge}
out=${BENCH_DIR:-$root/build/bench}
nvcc=${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}
inc=/usr/include/x86_64-linux-gnu/openblas-pthread
libdir=/usr/lib/x86_64-linux-gnu/openblas-pthread
[ -x "$cubridge" ] || { echo "bench: $cubridge not found; build first" >&2; exit 1; }
mkdir -p "$out"
[ "$out/bench_blas" -nt bench/bench_blas.cu ] ||
  "$nvcc" -O2 -I"$inc" bench/bench_blas.cu -o "$out/bench_blas" -lcublas -L"$libdir" -lopenblas -Xlinker -rpath="$libdir"
export CUBRIDGE_SUMMARY=0
res=$(ROUNDS=${ROUNDS:-3} "$cubridge" run -- "$out/bench_blas" "${N:-2048}")
get() { awk -v k="$1" '$1 == "RESULT" && $2 == k { print $3 }' <<< "$res"; }
echo "# $(date -u '+%Y-%m-%d %H:%M UTC') on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
printf '| %-32s | %14s | %14s | %18s |\n' benchmark "facade" "OpenBLAS" "OpenBLAS / facade"
printf '|%s|%s|%s|%s|\n' "----------------------------------" "----------------" "----------------" "--------------------"
row() {
  local name=$1 key=$2 scale=$3 unit=$4 f c
  f=$(get "${key}_facade")
  c=$(get "${key}_openblas")
  printf '| %-32s | %11.3f %-2s | %11.3f %-2s | %18.3f |\n' "$name" "$(awk -v v="$f" -v s="$scale" 'BEGIN{print v*s}')" \
    "$unit" "$(awk -v v="$c" -v s="$scale" 'BEGIN{print v*s}')" "$unit" "$(awk -v a="$f" -v b="$c" 'BEGIN{print b/a}')"
}
n=${N:-2048}
row "SGEMM n=$n" sgemm 1000 ms
row "DGEMM n=$n" dgemm 1000 ms
row "batched SGEMM 10000 x 16x16" batched 1000 ms
row "Saxpy n=1, async (per call)" axpy1 1000000 us
row "Sdot n=1, host result (per call)" dot1 1000000 us
