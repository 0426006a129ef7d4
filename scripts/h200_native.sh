#!/usr/bin/env bash
# h200_native.sh: run each built test program of a directory and write a table
# of (name, exit status, stdout hash, stdout), so that the same binaries can be
# compared between a real NVIDIA GPU (natively) and cubridge.
#
#   scripts/h200_native.sh BIN_DIR [OUT.tsv]        run natively
#   CUBRIDGE=build/bin/cubridge scripts/h200_native.sh BIN_DIR OUT.tsv
#                                                   run each through `cubridge run --`
#   scripts/h200_native.sh --compare A.tsv B.tsv    list the rows that differ
#
# BIN_DIR holds executables such as vector_add_static and vector_add_shared
# (the build puts them in build/tests/cuda).  Each program runs with a time
# limit (TIMEOUT seconds, default 60).  Lines starting with "cubridge:" are
# dropped from stdout.  Where tests/cuda/NAME.expected starts with "# sorted"
# (its program prints in an order the hardware picks), stdout is sorted before
# it is hashed.  The table is tab-separated, one row per program, with stdout's
# newlines written as \n; the first line is a header.
set -u

compare() {
  local a=$1 b=$2
  # name -> status/hash of each file; print rows that differ or are missing.
  awk -F'\t' '
    FNR == 1 { next }
    NR == FNR { sa[$1] = $2; ha[$1] = $3; next }
    { seen[$1] = 1
      if (!($1 in sa)) { printf "only in B: %s\n", $1; diff++; next }
      if (sa[$1] != $2 || ha[$1] != $3) {
        printf "differs: %s: status %s vs %s, stdout %s vs %s\n", $1, sa[$1], $2, ha[$1], $3; diff++ }
      else same++ }
    END { for (k in sa) if (!(k in seen)) { printf "only in A: %s\n", k; diff++ }
          printf "%d same, %d different\n", same, diff; exit diff > 0 }' "$a" "$b"
}

if [ "${1:-}" = "--compare" ]; then
  [ $# -eq 3 ] || { echo "usage: $0 --compare A.tsv B.tsv" >&2; exit 2; }
  compare "$2" "$3"
  exit $?
fi

[ $# -ge 1 ] && [ -d "$1" ] || { echo "usage: $0 BIN_DIR [OUT.tsv]" >&2; exit 2; }
bin_dir=$(cd "$1" && pwd)
out=${2:-h200_native.tsv}
src_dir=${SRC_DIR:-$(cd "$(dirname "$0")/../tests/cuda" 2>/dev/null && pwd)}
limit=${TIMEOUT:-60}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if command -v sha256sum >/dev/null; then hash_cmd=sha256sum; else hash_cmd="shasum -a 256"; fi

printf 'name\tstatus\tstdout_sha256\tstdout\n' > "$out"
total=0 passed=0
for prog in "$bin_dir"/*; do
  [ -f "$prog" ] && [ -x "$prog" ] || continue
  name=$(basename "$prog")
  case $name in
    *_static) base=${name%_static} ;;
    *_shared) base=${name%_shared} ;;
    *) base=$name ;;
  esac
  if [ -n "${CUBRIDGE:-}" ]; then
    cmd=("$CUBRIDGE" run -- "$prog")
  else
    cmd=("$prog")
  fi
  (cd "$tmp" && timeout -k 5 "$limit" "${cmd[@]}" > "$tmp/stdout" 2> "$tmp/stderr" < /dev/null)
  status=$?
  [ $status -eq 124 ] && status=timeout
  grep -v '^cubridge:' "$tmp/stdout" > "$tmp/filtered" || true
  if [ -n "$src_dir" ] && [ -f "$src_dir/$base.expected" ] && head -n1 "$src_dir/$base.expected" | grep -q '^# sorted'; then
    LC_ALL=C sort "$tmp/filtered" -o "$tmp/filtered"
  fi
  hash=$($hash_cmd < "$tmp/filtered" | cut -c1-16)
  text=$(awk '{ gsub(/\t/, "\\t"); printf "%s\\n", $0 }' "$tmp/filtered" | cut -c1-8000)
  printf '%s\t%s\t%s\t%s\n' "$name" "$status" "$hash" "$text" >> "$out"
  total=$((total + 1))
  [ "$status" = 0 ] && passed=$((passed + 1))
  printf '%-32s %-8s %s\n' "$name" "$status" "$(head -c 200 "$tmp/filtered" | tail -n1)"
  if [ "$status" != 0 ]; then sed 's/^/    stderr: /' "$tmp/stderr" | head -n 5; fi
done
echo "$passed/$total exited 0; table in $out"
