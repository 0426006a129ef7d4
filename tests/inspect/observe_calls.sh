#!/bin/bash
# observe_calls.sh BUILD_DIR [OUT]: runs every tests/cuda program of BUILD_DIR
# (the _static builds) under CUBRIDGE_INSPECT=trace and writes the driver
# entry points each one called, "NAME TEST" per line, sorted and unique, to
# OUT (default data/coverage/observed_calls.txt). scripts/gen_coverage.py
# reads it: that is how the runtime-API test programs, which reach the driver
# only through cudart, count as tests of what they call (docs/coverage.md).
set -eu
BUILD=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${2:-$ROOT/data/coverage/observed_calls.txt}
TMP=$(mktemp -d)
mkdir -p "$(dirname "$OUT")"
for p in "$BUILD"/tests/cuda/*_static; do
    n=$(basename "$p" _static)
    CUBRIDGE_INSPECT=trace CUBRIDGE_INSPECT_DIR=$TMP/$n CUBRIDGE_SUMMARY=0 \
        "$BUILD/bin/cubridge" run "$p" > /dev/null 2>&1 || true
    [ -f "$TMP/$n/trace.jsonl" ] || continue
    grep -o '"type":"call","t_ns":[0-9]*,"dur_ns":[0-9]*,"thread":[0-9]*,"name":"[A-Za-z0-9_]*"' "$TMP/$n/trace.jsonl" |
        sed 's/.*"name":"\([A-Za-z0-9_]*\)"/\1/' | sort -u | sed "s|\$| tests/cuda/$n.cu|"
done | sort -u -k1,1 > "$OUT"
rm -rf "$TMP"
echo "$OUT: $(wc -l < "$OUT") entry points observed"
