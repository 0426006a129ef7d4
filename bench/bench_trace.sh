#!/bin/bash
# bench_trace.sh [BUILD_DIR] [ITERATIONS] [ROUNDS]: the inspector's overhead on
# a launch-heavy program (bench_launch.cu: an empty kernel launched and waited
# for, ITERATIONS times), measured side by side in one run: inspector off,
# CUBRIDGE_INSPECT=trace, CUBRIDGE_INSPECT=verify. Best of ROUNDS rounds per
# mode, rounds interleaved. Prints a table; results go to bench/RESULTS.md by
# hand. Timings only here, never in tests.
set -eu
BUILD=${1:-build}
ITERS=${2:-2000}
ROUNDS=${3:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$BUILD/bench/bench_launch
if [ ! -x "$BIN" ]; then
    mkdir -p "$BUILD/bench"
    /usr/local/cuda/bin/nvcc -O2 "$ROOT/bench/bench_launch.cu" -o "$BIN"
fi
CUBRIDGE=$BUILD/bin/cubridge
OUT=$(mktemp -d)
export CUBRIDGE_SUMMARY=0
declare -A best
for r in $(seq "$ROUNDS"); do
    for mode in off trace verify; do
        v=$(CUBRIDGE_INSPECT=$mode CUBRIDGE_INSPECT_DIR=$OUT/$mode "$CUBRIDGE" run "$BIN" "$ITERS" 2>/dev/null |
            awk '/^RESULT/ {print $3}')
        cur=${best[$mode]:-}
        if [ -z "$cur" ] || awk "BEGIN{exit !($v < $cur)}"; then best[$mode]=$v; fi
    done
done
rm -rf "$OUT"
printf '| mode | launch + sync (us, best of %s) | ratio to off |\n|---|---|---|\n' "$ROUNDS"
for mode in off trace verify; do
    printf '| %s | %.3f | %.3f |\n' "$mode" "${best[$mode]}" "$(awk "BEGIN{print ${best[$mode]} / ${best[off]}}")"
done
