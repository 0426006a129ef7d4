#!/usr/bin/env bash
# run_test.sh CUBRIDGE PROGRAM SOURCE_DIR
#
# Runs one tests/cuda program through `CUBRIDGE run -- PROGRAM`.  It passes
# when the program exits 0 and prints "PASS <name>" (name = the program's file
# name without _static/_shared), and, where SOURCE_DIR/<name>.expected exists,
# its stdout minus lines starting with "cubridge:" equals that file, line for
# line -- or as sorted sets of lines when the file's first line is "# sorted".
# RUN_TEST_EXPECTED names another file of SOURCE_DIR to compare with instead
# (a run under other settings, e.g. CUBRIDGE_WARP_SIZE=64).
set -u
if [ $# -ne 3 ]; then
  echo "usage: $0 CUBRIDGE PROGRAM SOURCE_DIR" >&2
  exit 2
fi
cubridge=$1 prog=$2 src=$3
name=$(basename "$prog")
case $name in
  *_static) name=${name%_static} ;;
  *_shared) name=${name%_shared} ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$cubridge" run -- "$prog" > "$tmp/stdout" < /dev/null
status=$?
cat "$tmp/stdout"
if [ $status -ne 0 ]; then
  echo "run_test: $name exited with status $status" >&2
  exit 1
fi
grep -v '^cubridge:' "$tmp/stdout" > "$tmp/got" || true
if ! grep -qx "PASS $name" "$tmp/got"; then
  echo "run_test: $name exited 0 but did not print 'PASS $name'" >&2
  exit 1
fi
expected="$src/${RUN_TEST_EXPECTED:-$name.expected}"
if [ -f "$expected" ]; then
  if head -n 1 "$expected" | grep -qx '# sorted'; then
    tail -n +2 "$expected" | LC_ALL=C sort > "$tmp/want"
    LC_ALL=C sort "$tmp/got" -o "$tmp/got"
  else
    cp "$expected" "$tmp/want"
  fi
  if ! diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
    echo "run_test: $name: stdout differs from $expected (- expected, + got):" >&2
    cat "$tmp/diff" >&2
    exit 1
  fi
fi
exit 0
