#!/usr/bin/env bash
# run_backend_ops.sh CUBRIDGE TEST_BACKEND_OPS [OPS...]
#
# Runs llama.cpp's test-backend-ops on its CUDA backend through cubridge (the
# CPU backend), one op at a time, against ggml's own CPU backend, and prints
# each op's count of passing cases. Default ops: the eight of issue K.
set -u
cubridge=$1 tbo=$2
shift 2
ops=${*:-ADD MUL RMS_NORM GET_ROWS SOFT_MAX CPY ROPE MUL_MAT}
for op in $ops; do
  log=$(mktemp)
  "$cubridge" run -- "$tbo" -b CUDA0 -o "$op" > "$log" 2>&1
  rc=$?
  echo "$op: exit $rc, $(grep -a -o '[0-9]*/[0-9]* tests passed' "$log" | head -n 1)"
  grep -a -E '^\s+[A-Z_]+\(.*\): .*FAIL' "$log" | sed 's/\x1b\[[0-9;]*m//g' | head -n 20
  rm -f "$log"
done
