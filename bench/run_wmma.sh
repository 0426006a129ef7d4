#!/usr/bin/env bash
# bench/run_wmma.sh: the wmma f16 GEMM (bench/bench_wmma.cu: nvcuda::wmma,
# m16n16k16 fragments, f32 accumulators) through cubridge, side by side with
# its plain C twin (bench/c/wmma_c.c: the same fp16 inputs converted to float,
# an f32 i-k-j loop with OpenMP, gcc -O3 -march=native -fopenmp), then the
# times and the speed of cubridge relative to C (C's time / cubridge's: 1.0 is
# as fast as the C loop).
#
#   bash bench/run_wmma.sh                 n = 4096, ROUNDS=2
#   N=1024 ROUNDS=3 bash bench/run_wmma.sh
#
# Each round runs cubridge then C (the best time of each side is kept); each
# side times one GEMM after a warm-up at n = 64 (for cubridge: the JIT
# compile, cached) and checks its result exactly (the inputs make it exact).
# Both sides use CUBRIDGE_THREADS threads (default: the CPU count; OpenMP's
# OMP_NUM_THREADS is set to it). Besides the wall time each side reports the
# CPU time its process used in the GEMM, which wanders less on a shared
# machine. cubridge runs with CUBRIDGE_CODEGEN=fast (override it to compare):
# under the default tiered build a kernel moves to its lanes entry between
# launches, and this program's one long launch would run on the first tier.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
cubridge=${CUBRIDGE:-$root/build/bin/cubridge}
out=${BENCH_DIR:-$root/build/bench}
rounds=${ROUNDS:-2}
n=${N:-4096}
threads=${CUBRIDGE_THREADS:-$(nproc)}
export CUBRIDGE_THREADS=$threads OMP_NUM_THREADS=$threads CUBRIDGE_SUMMARY=0
export CUBRIDGE_CODEGEN=${CUBRIDGE_CODEGEN:-fast}
nvcc=${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}

[ -x "$cubridge" ] || { echo "run_wmma: $cubridge not found; build first (bash scripts/demo.sh)" >&2; exit 1; }
mkdir -p "$out"
[ "$out/bench_wmma" -nt bench/bench_wmma.cu ] && [ "$out/bench_wmma" -nt bench/wmma_inputs.h ] ||
  "$nvcc" -O3 -Ibench bench/bench_wmma.cu -o "$out/bench_wmma"
[ "$out/wmma_c" -nt bench/c/wmma_c.c ] && [ "$out/wmma_c" -nt bench/wmma_inputs.h ] ||
  gcc -O3 -march=native -fopenmp -std=c11 bench/c/wmma_c.c -o "$out/wmma_c"

# side KEY CMD...: runs CMD (its check must pass); prints "wall cpu" from its RESULT lines.
side() {
  local key=$1 res
  shift
  res=$("$@" 2>&1 >/dev/null) || { echo "run_wmma: $* failed: $res" >&2; exit 1; }
  awk -v k="$key" '$1 == "RESULT" && $2 == k { w = $3 } $1 == "RESULT" && $2 == k "_cpu" { c = $3 }
                   END { print w, c }' <<< "$res"
}

echo "# $(date -u '+%Y-%m-%d %H:%M UTC') on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $threads threads, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# n = $n, $rounds rounds (best of each side); cubridge $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), CUBRIDGE_CODEGEN=$CUBRIDGE_CODEGEN"
bw="" bc="" cw="" cc=""
for r in $(seq "$rounds"); do
  read -r w c < <(side wmma_f16 "$cubridge" run -- "$out/bench_wmma" "$n")
  echo "# round $r: cubridge $w ms ($c ms CPU), load $(cut -d' ' -f1 /proc/loadavg)"
  [ -z "$bw" ] || awk -v a="$w" -v b="$bw" 'BEGIN { exit !(a < b) }' && bw=$w bc=$c
  read -r w c < <(side wmma_c "$out/wmma_c" "$n")
  echo "# round $r: C        $w ms ($c ms CPU), load $(cut -d' ' -f1 /proc/loadavg)"
  [ -z "$cw" ] || awk -v a="$w" -v b="$cw" 'BEGIN { exit !(a < b) }' && cw=$w cc=$c
done
printf '| %-28s | %16s | %16s | %12s | %12s |\n' benchmark "cubridge ms" "C loop ms" "C / cubridge" "(CPU time)"
printf '|%s|%s|%s|%s|%s|\n' "------------------------------" "------------------" "------------------" "--------------" "--------------"
printf '| %-28s | %16.1f | %16.1f | %11.3fx | %11.3fx |\n' "wmma f16 GEMM n=$n" "$bw" "$cw" \
  "$(awk -v a="$bw" -v b="$cw" 'BEGIN { print b / a }')" "$(awk -v a="$bc" -v b="$cc" 'BEGIN { print b / a }')"
