#!/usr/bin/env bash
# bench/run.sh: build the benchmarks and run them side by side in one run --
# each CUDA program through `cubridge run` and its hand-written C/OpenMP twin --
# then print the times and the ratio cubridge / C (lower is better; 1.0 means
# as fast as the C code).
#
#   bash bench/run.sh            (expects build/bin/cubridge: bash scripts/demo.sh builds it)
#   ROUNDS=5 bash bench/run.sh   rounds per pair (default 3; the best of each is kept)
#
# Both sides use every CPU: cubridge's workers (CUBRIDGE_THREADS, default the
# CPU count) and OpenMP's threads (OMP_NUM_THREADS, set to the same count).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
cubridge=${CUBRIDGE:-$root/build/bin/cubridge}
out=${BENCH_DIR:-$root/build/bench}
rounds=${ROUNDS:-3}
threads=${CUBRIDGE_THREADS:-$(nproc)}
export OMP_NUM_THREADS=$threads
export CUBRIDGE_SUMMARY=0   # no dispatch summary lines in the table
nvcc=${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}

[ -x "$cubridge" ] || { echo "bench: $cubridge not found; build first (bash scripts/demo.sh)" >&2; exit 1; }
mkdir -p "$out"
for p in bench_launch bench_vectoradd; do
  [ "$out/$p" -nt "bench/$p.cu" ] || "$nvcc" -O2 "bench/$p.cu" -o "$out/$p"
done
[ "$out/vectoradd_omp" -nt bench/c/vectoradd_omp.c ] ||
  cc -O2 -std=c11 -fopenmp bench/c/vectoradd_omp.c -o "$out/vectoradd_omp"

# result KEY CMD...: runs CMD, prints the value of its "RESULT KEY v" line.
result() {
  local key=$1
  shift
  "$@" 2>/dev/null | awk -v k="$key" '$1 == "RESULT" && $2 == k { print $3 }'
}

# best CMD...: the smallest of `rounds` values (a time: less is better).
best_of() {
  local key=$1
  shift
  local b="" v
  for _ in $(seq "$rounds"); do
    v=$(result "$key" "$@")
    [ -n "$v" ] || { echo "bench: no $key from: $*" >&2; return 1; }
    if [ -z "$b" ] || awk -v a="$v" -v b="$b" 'BEGIN { exit !(a < b) }'; then b=$v; fi
  done
  echo "$b"
}

echo "# $(date -u +%Y-%m-%d) on $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $threads threads"
# A first run of each CUDA program fills cubridge's kernel cache (not timed).
"$cubridge" run -- "$out/bench_launch" 10 > /dev/null
"$cubridge" run -- "$out/bench_vectoradd" 1 > /dev/null

printf '| %-20s | %14s | %14s | %16s |\n' benchmark cubridge "C (OpenMP)" "ratio cubridge/C"
printf '|%s|%s|%s|%s|\n' "----------------------" "----------------" "----------------" "------------------"
row() {
  local name=$1 unit=$2 cb=$3 c=$4
  printf '| %-20s | %11s %-2s | %11s %-2s | %16s |\n' "$name" "$cb" "$unit" "$c" "$unit" \
    "$(awk -v a="$cb" -v b="$c" 'BEGIN { printf "%.2f", a / b }')"
}
cb=$(best_of launch_sync_us "$cubridge" run -- "$out/bench_launch")
c=$(best_of launch_sync_us "$out/vectoradd_omp" launch)
row "launch + sync" us "$cb" "$c"
cb=$(best_of vectoradd_ms "$cubridge" run -- "$out/bench_vectoradd")
c=$(best_of vectoradd_ms "$out/vectoradd_omp" vectoradd)
row "vectoradd 2^24 f32" ms "$cb" "$c"
