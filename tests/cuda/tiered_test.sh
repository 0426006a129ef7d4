#!/usr/bin/env bash
# tiered_test.sh CUBRIDGE PROGRAM SOURCE_DIR
#
# run_test.sh under a tiered build (CUBRIDGE_CODEGEN=tiered, the default) with
# CUBRIDGE_TIER_MS=0 (set by the test): a kernel launched more than once is
# built again with its lanes entry after its first launch, and the program's
# later launches run that build. Passes when run_test.sh passes (same output
# as ever), the exit summary counts at least one hot kernel rebuilt, and no
# more kernels compiled than registered.
set -u
if [ $# -ne 3 ]; then
  echo "usage: $0 CUBRIDGE PROGRAM SOURCE_DIR" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CUBRIDGE_CODEGEN=tiered "$here/run_test.sh" "$@" 2> "$tmp/stderr"
status=$?
cat "$tmp/stderr" >&2
[ $status -eq 0 ] || exit 1
if ! grep -Eq '\| [1-9][0-9]* hot kernels rebuilt with lanes entries' "$tmp/stderr"; then
  echo "tiered_test: no kernel was rebuilt hot (the summary counts none)" >&2
  exit 1
fi
# The rebuilds are counted as such, not again as kernels compiled: "N of M
# kernels compiled" never exceeds the M registered.
read -r compiled registered < <(sed -n 's/.* | \([0-9]*\) of \([0-9]*\) kernels compiled.*/\1 \2/p' "$tmp/stderr" | tail -n 1)
if [ -z "${compiled:-}" ] || [ "$compiled" -gt "$registered" ]; then
  echo "tiered_test: the summary counts ${compiled:-no} of ${registered:-no} kernels compiled" >&2
  exit 1
fi
