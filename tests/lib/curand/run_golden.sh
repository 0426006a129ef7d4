#!/usr/bin/env bash
# run_golden.sh CUBRIDGE RECORDER COMPARER GOLDEN_DIR
#
# The end-to-end test of the libcurand facade: runs NVIDIA-linked curand_record
# (host API only) through `cubridge run`, so that our libcurand.so.10 answers it,
# then compares its recording with the one an H200 made (test_curand_golden
# --recording): statuses equal, values bit for bit (float normals: close).
set -u
cubridge=$1 rec=$2 cmp=$3 gold=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cubridge" run -- "$rec" --no-kernels "$tmp" > "$tmp/stdout" 2> "$tmp/stderr" < /dev/null || {
  echo "run_golden: the recorder failed"; cat "$tmp/stdout" "$tmp/stderr"; exit 1; }
cat "$tmp/stdout"
"$cmp" --recording "$tmp" "$gold"
