#!/usr/bin/env bash
# lazy_counts.sh CUBRIDGE PROGRAM TEXT...
#
# Runs PROGRAM through `CUBRIDGE run --` with a compile cache of its own and
# passes when it prints its PASS line and cubridge's exit summary contains
# every TEXT ("5 kernels translated in 1 modules", "5 of 2000 kernels
# compiled (lazy loading)"): lazy loading translates and compiles only what
# the program uses. Counts, never times.
set -u
if [ $# -lt 3 ]; then
  echo "usage: $0 CUBRIDGE PROGRAM TEXT..." >&2
  exit 2
fi
cubridge=$1 prog=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CUBRIDGE_CACHE_DIR="$tmp/cache" "$cubridge" run -- "$prog" > "$tmp/stdout" 2> "$tmp/stderr" < /dev/null
status=$?
cat "$tmp/stdout"
summary=$(grep '^cubridge: backend' "$tmp/stderr" | tail -n 1)
echo "$summary"
if [ $status -ne 0 ] || ! grep -q '^PASS ' "$tmp/stdout"; then
  echo "lazy_counts: $(basename "$prog") failed (status $status)" >&2
  tail -n 20 "$tmp/stderr" >&2
  exit 1
fi
for want in "$@"; do
  case $summary in
    *"$want"*) ;;
    *) echo "lazy_counts: the summary lacks \"$want\"" >&2; exit 1 ;;
  esac
done
echo "lazy_counts: ok"
