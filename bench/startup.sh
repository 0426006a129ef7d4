#!/usr/bin/env bash
# bench/startup.sh [BUILD] [BASE_BUILD]
#
# Start-up time of the lazy-loading programs (issue H item 6): wall time of
# `cubridge run -- PROGRAM`, cold (an empty compile cache) and warm (the
# same cache again), lazily (the default) and with CUDA_MODULE_LOADING=EAGER,
# for tests/cuda's generated lazy_2000_kernels (one module of 2,000 kernels,
# 5 launched) and startup_modules (120 modules of 16 kernels, 3 launched).
# With BASE_BUILD (a build of another commit, e.g. main before lazy
# loading), its cubridge runs the same binaries too (its own default mode).
# Prints one Markdown table row per case; results go to bench/RESULTS.md.
# Never part of a test.
set -u
build=${1:-build}
base=${2:-}
progs=${PROGS:-"lazy_2000_kernels startup_modules"}
modes_new=${MODES:-"lazy eager"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# wall and CPU (user + system, the compiler included) seconds of one run,
# then the summary's counts
run_once() {   # cubridge program cache mode
  local cubridge=$1 prog=$2 cache=$3 mode=$4 loading=LAZY
  [ "$mode" = eager ] && loading=EAGER
  [ "$mode" = default ] && loading=
  local st=0
  if [ -n "$loading" ]; then
    CUDA_MODULE_LOADING=$loading CUBRIDGE_CACHE_DIR=$cache /usr/bin/time -f '%e %U %S' -o "$tmp/time" \
      "$cubridge" run -- "$prog" > "$tmp/out" 2> "$tmp/err" < /dev/null || st=1
  else
    CUBRIDGE_CACHE_DIR=$cache /usr/bin/time -f '%e %U %S' -o "$tmp/time" \
      "$cubridge" run -- "$prog" > "$tmp/out" 2> "$tmp/err" < /dev/null || st=1
  fi
  grep -q '^PASS' "$tmp/out" || st=1
  local compiled
  compiled=$(grep -o '[0-9]* of [0-9]* kernels compiled\|[0-9]* kernels translated in [0-9]* modules' "$tmp/err" | paste -sd ';')
  read -r wall user sys < "$tmp/time"
  printf '%.2f s (cpu %.2f s)%s|%s' "$wall" "$(echo "$user + $sys" | bc)" "$([ $st -eq 0 ] || echo ' FAILED')" "$compiled"
}

echo "| program | cubridge | mode | cold | warm | compiled (summary) |"
echo "|---|---|---|---|---|---|"
for p in $progs; do
  prog=$build/tests/cuda/${p}_static
  [ -x "$prog" ] || { echo "missing $prog (build target cuda_lazy_tests)" >&2; exit 1; }
  for side in new base; do
    if [ $side = base ]; then
      [ -n "$base" ] || continue
      cub=$base/bin/cubridge modes=default
    else
      cub=$build/bin/cubridge modes=$modes_new
    fi
    for mode in $modes; do
      cache=$tmp/cache-$p-$side-$mode
      cold=$(run_once "$cub" "$prog" "$cache" "$mode")
      warm=$(run_once "$cub" "$prog" "$cache" "$mode")
      echo "| $p | $side | $mode | ${cold%%|*} | ${warm%%|*} | ${cold#*|} |"
    done
  done
done
