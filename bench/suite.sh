#!/usr/bin/env bash
# bench/suite.sh: the benchmark suite (bench/suite/, bench/README.md) -- eight
# kernels, each as CUDA through cubridge, as C with OpenMP and as OpenCL C on
# PoCL -- measured side by side in one run, then the speed of cubridge
# relative to each (time of the other / time of cubridge: above 1 means
# cubridge is faster) per kernel and as geometric means.
#
#   bash bench/suite.sh                  (expects build/bin/cubridge: bash scripts/demo.sh)
#   ROUNDS=5 UNITS=3 bash bench/suite.sh
#   KERNELS="sgemm nbody" bash bench/suite.sh
#
# A round runs every kernel once in each form, the forms one after the other
# (A B C A B C ...), so that a change in the machine's load hits all three
# alike; each run does one checked warm-up unit and UNITS timed units and
# reports their median, and the table shows the median over ROUNDS rounds.
# Every form uses the same number of threads (CUBRIDGE_THREADS, default the
# CPU count; OMP_NUM_THREADS and POCL_MAX_PTHREAD_COUNT set to it).
# NOPOCL=1 leaves PoCL out; CUBRIDGE_CODEGEN is passed through to cubridge.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
cubridge=${CUBRIDGE:-$root/build/bin/cubridge}
out=${BENCH_DIR:-$root/build/bench}
rounds=${ROUNDS:-3}
units=${UNITS:-3}
threads=${CUBRIDGE_THREADS:-$(nproc)}
kernels=${KERNELS:-"vectoradd saxpy sgemm reduction stencil histogram transpose nbody"}
export CUBRIDGE_THREADS=$threads OMP_NUM_THREADS=$threads POCL_MAX_PTHREAD_COUNT=$threads
export CUBRIDGE_SUMMARY=0
nvcc=${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}
src=bench/suite

[ -x "$cubridge" ] || { echo "suite: $cubridge not found; build first (bash scripts/demo.sh)" >&2; exit 1; }
mkdir -p "$out"
newer() { local t=$1; shift; for f in "$@"; do [ "$t" -nt "$f" ] || return 1; done; }
newer "$out/suite_cuda" $src/suite.cu $src/suite.h || "$nvcc" -O3 -I$src $src/suite.cu -o "$out/suite_cuda"
newer "$out/suite_omp" $src/suite_omp.c $src/suite.h ||
  gcc -O3 -march=native -fno-math-errno -fopenmp -std=c11 $src/suite_omp.c -o "$out/suite_omp" -lm
pocl=1
if [ "${NOPOCL:-0}" != 1 ]; then
  . scripts/setup_deps.sh
  cb_install_bench || echo "suite: could not install PoCL (scripts/setup_deps.sh cb_install_bench)" >&2
fi
if [ "${NOPOCL:-0}" = 1 ]; then
  pocl=0
elif ! newer "$out/suite_ocl" $src/suite_ocl.c $src/suite.h; then
  gcc -O2 -std=c11 -DSUITE_CL_FILE="\"$root/$src/suite.cl\"" $src/suite_ocl.c -o "$out/suite_ocl" -lOpenCL -lm ||
    { echo "suite: no OpenCL build (install pocl-opencl-icd ocl-icd-opencl-dev); PoCL left out" >&2; pocl=0; }
fi

# run FORM KERNEL: prints the form's median ms per unit (empty on failure).
run() {
  local form=$1 k=$2 cmd
  case $form in
    cubridge) cmd=("$cubridge" run -- "$out/suite_cuda" "$k" "$units") ;;
    omp) cmd=("$out/suite_omp" "$k" "$units") ;;
    pocl) cmd=("$out/suite_ocl" "$k" "$units" "$root/$src/suite.cl") ;;
  esac
  "${cmd[@]}" 2>"$out/suite_$form.$k.err" | awk -v k="$k" '$1 == "RESULT" && $2 == k { print $3 }' || true
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print ""; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

forms="cubridge omp"
[ $pocl = 1 ] && forms="$forms pocl"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $threads threads, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $rounds rounds x $units units; cubridge $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')${CUBRIDGE_CODEGEN:+, CUBRIDGE_CODEGEN=$CUBRIDGE_CODEGEN}"
# The first cubridge run of each kernel compiles it (cached); not timed.
for k in $kernels; do run cubridge "$k" > /dev/null; done
for r in $(seq "$rounds"); do
  for k in $kernels; do
    for f in $forms; do
      v=$(run "$f" "$k")
      if [ -z "$v" ]; then
        echo "suite: $f $k failed (round $r): $(tail -n 3 "$out/suite_$f.$k.err" | tr '\n' ' ')" >&2
      else
        echo "$v" >> "$tmp/$f.$k"
      fi
    done
  done
done

printf '| %-10s | %12s | %12s | %12s | %9s | %9s |\n' kernel "cubridge ms" "OpenMP ms" "PoCL ms" "vs OpenMP" "vs PoCL"
printf '|%s|%s|%s|%s|%s|%s|\n' ------------ -------------- -------------- -------------- ----------- -----------
lo=0 lp=0 no=0 np=0
for k in $kernels; do
  cb=$(median < "$tmp/cubridge.$k" 2>/dev/null || true)
  om=$(median < "$tmp/omp.$k" 2>/dev/null || true)
  po=$( [ $pocl = 1 ] && median < "$tmp/pocl.$k" 2>/dev/null || true)
  ro=- rp=-
  if [ -n "$cb" ] && [ -n "$om" ]; then
    ro=$(awk -v a="$om" -v b="$cb" 'BEGIN { printf "%.2fx", a / b }')
    lo=$(awk -v s="$lo" -v a="$om" -v b="$cb" 'BEGIN { printf "%.9f", s + log(a / b) }'); no=$((no + 1))
  fi
  if [ -n "$cb" ] && [ -n "$po" ]; then
    rp=$(awk -v a="$po" -v b="$cb" 'BEGIN { printf "%.2fx", a / b }')
    lp=$(awk -v s="$lp" -v a="$po" -v b="$cb" 'BEGIN { printf "%.9f", s + log(a / b) }'); np=$((np + 1))
  fi
  printf '| %-10s | %12s | %12s | %12s | %9s | %9s |\n' "$k" "${cb:--}" "${om:--}" "${po:--}" "$ro" "$rp"
done
go=- gp=-
[ $no -gt 0 ] && go=$(awk -v s="$lo" -v n="$no" 'BEGIN { printf "%.2fx", exp(s / n) }')
[ $np -gt 0 ] && gp=$(awk -v s="$lp" -v n="$np" 'BEGIN { printf "%.2fx", exp(s / n) }')
printf '| %-10s | %12s | %12s | %12s | %9s | %9s |\n' "geomean" "" "" "" "$go" "$gp"
