#!/bin/sh
# cuda_backend_check.sh: on an NVIDIA machine, runs each tests/cuda program
# through `cubridge inspect --backend cuda --verify` (the pass-through to the
# real driver, each launch checked against cubridge's CPU reference; with
# BACKEND=opencl, `--backend opencl`: the translation on the machine's OpenCL
# device, OCL_ICD_VENDORS and CUBRIDGE_OPENCL_DEVICE picking NVIDIA's) and
# writes OUT/summary.tsv: program, exit status, the report's status, launches
# (PASS / DRIFT / SKIPPED / FAILED), the worst relative L1 and absolute
# drift, and whether stdout matches the native H200 run
# (tests/cuda/h200_reference.tsv, hashed as scripts/h200_native.sh does).
# One report directory per program (OUT/<program>/report.json ...).
#
# Then the JIT clients: each tests/python/numba_*.py, cupy_*.py and
# cudapython_*.py, run with $PYTHON (default python3, which must have
# numba-cuda / cupy / cuda-python) through the
# same `cubridge inspect --backend cuda --verify`, into OUT/python/ with
# OUT/python/summary.tsv: test, exit status, whether it printed its "ok"
# line, the report's status, the launches that reached the GPU (forwarded
# and refused, from the exit summary), the real device's name, the checked
# launches (PASS / DRIFT / SKIPPED / FAILED) and the worst drift. A client
# that is not installed is listed as "not installed".
#
# usage: scripts/cuda_backend_check.sh CUBRIDGE_DIR PROGRAM_DIR OUT
#   CUBRIDGE_DIR  has bin/cubridge and lib/libcuda.so.1
#   PROGRAM_DIR   the nvcc-built tests/cuda programs (*_static, *_shared)
#   OUT           everything goes under it (created)
#   JOBS=8        programs run at once; TIMEOUT=60 seconds each
#   PY_JOBS=5     Python tests run at once; PY_TIMEOUT=90 seconds each
#   PYTHON=python3
#   BACKEND=cuda  the backend under check (cuda, opencl)
# Run it from the repository root (relative CUBRIDGE_HOST_CC paths resolve there).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --one ]; then
    cb=$2 out=$3 prog=$4
    name=$(basename "$prog")
    rep="$out/$name"
    timeout -k 5 "${TIMEOUT:-60}" "$cb/bin/cubridge" inspect --backend "${BACKEND:-cuda}" --verify --report "$rep" -- "$prog" \
        > "$out/$name.stdout" 2> "$out/$name.stderr" < /dev/null
    rc=$?
    [ $rc -eq 124 ] && rc=timeout
    status=$(grep -o '"status": *"[A-Z]*"' "$rep/report.json" 2>/dev/null | head -1 | sed 's/.*"\([A-Z]*\)"$/\1/')
    counts=$(awk '/"type":"launch"/ {
            n++; v = $0; sub(/.*"verdict":"/, "", v); sub(/".*/, "", v); c[v]++
            if (match($0, /"max_rel_l1":[-0-9.e+naif]*/)) { x = substr($0, RSTART + 13, RLENGTH - 13) + 0; if (x > rel) rel = x }
            if (match($0, /"max_abs":[-0-9.e+naif]*/)) { x = substr($0, RSTART + 10, RLENGTH - 10) + 0; if (x > ab) ab = x }
        } END { printf "%d\t%d\t%d\t%d\t%d\t%g\t%g", n, c["PASS"], c["DRIFT"], c["SKIPPED"], c["FAILED"], rel, ab }' \
        "$rep/trace.jsonl" 2>/dev/null)
    [ -n "$counts" ] || counts="0	0	0	0	0	0	0"
    base=${name%_static}; base=${base%_shared}
    grep -v '^cubridge:' "$out/$name.stdout" > "$out/$name.filtered"
    if head -n1 "$top/tests/cuda/$base.expected" 2>/dev/null | grep -q '^# sorted'; then
        LC_ALL=C sort "$out/$name.filtered" -o "$out/$name.filtered"
    fi
    got=$(sha256sum < "$out/$name.filtered" | cut -c1-16)
    want=$(awk -F '\t' -v n="$name" '$1 == n { print $3 }' "$top/tests/cuda/h200_reference.tsv")
    same=unknown
    [ -n "$want" ] && { [ "$want" = "$got" ] && same=yes || same=no; }
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$rc" "${status:-none}" "$counts" "$same" > "$out/rows/$name.tsv"
    exit 0
fi
if [ "${1:-}" = --one-py ]; then
    cb=$2 out=$3 script=$4
    name=$(basename "$script" .py)
    rep="$out/$name"
    case $name in numba_*) mod=numba.cuda ;; cupy_*) mod=cupy ;; *) mod=cuda.bindings.driver ;; esac
    if ! "${PYTHON:-python3}" -c "import $mod" > /dev/null 2>&1; then
        printf '%s\tnot installed\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\n' "$name" > "$out/rows/$name.tsv"
        exit 0
    fi
    (cd "$(dirname "$script")" && timeout -k 5 "${PY_TIMEOUT:-90}" "$cb/bin/cubridge" inspect --backend "${BACKEND:-cuda}" --verify \
        --report "$rep" -- "${PYTHON:-python3}" -W ignore::Warning "$script") \
        > "$out/$name.stdout" 2> "$out/$name.stderr" < /dev/null
    rc=$?
    [ $rc -eq 124 ] && rc=timeout
    ok=no
    grep -q "^$name: ok" "$out/$name.stdout" && ok=yes
    status=$(grep -o '"status": *"[A-Z]*"' "$rep/report.json" 2>/dev/null | head -1 | sed 's/.*"\([A-Z]*\)"$/\1/')
    # the exit summary: backend cuda (pass-through to ...) | device "X" | N launches forwarded (M refused) | ...
    line=$(grep '^cubridge: backend cuda (pass-through' "$out/$name.stderr" | tail -1)
    fwd=$(printf '%s' "$line" | sed -n 's/.*| \([0-9]*\) launches forwarded (\([0-9]*\) refused).*/\1\t\2/p')
    [ -n "$fwd" ] || fwd="-	-"
    dev=$(printf '%s' "$line" | sed -n 's/.*| device "\([^"]*\)".*/\1/p')
    counts=$(awk '/"type":"launch"/ {
            n++; v = $0; sub(/.*"verdict":"/, "", v); sub(/".*/, "", v); c[v]++
            if (match($0, /"max_rel_l1":[-0-9.e+naif]*/)) { x = substr($0, RSTART + 13, RLENGTH - 13) + 0; if (x > rel) rel = x }
            if (match($0, /"max_abs":[-0-9.e+naif]*/)) { x = substr($0, RSTART + 10, RLENGTH - 10) + 0; if (x > ab) ab = x }
        } END { printf "%d\t%d\t%d\t%d\t%d\t%g\t%g", n, c["PASS"], c["DRIFT"], c["SKIPPED"], c["FAILED"], rel, ab }' \
        "$rep/trace.jsonl" 2>/dev/null)
    [ -n "$counts" ] || counts="0	0	0	0	0	0	0"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$rc" "$ok" "${status:-none}" "$fwd" "${dev:-none}" "$counts" \
        > "$out/rows/$name.tsv"
    exit 0
fi
[ $# -eq 3 ] || { echo "usage: $0 CUBRIDGE_DIR PROGRAM_DIR OUT" >&2; exit 2; }
start=$(date +%s)
cb=$(cd "$1" && pwd) progs=$(cd "$2" && pwd) out=$3
mkdir -p "$out/rows"
out=$(cd "$out" && pwd)
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ls "$progs" | grep -E '_(static|shared)$' | sed "s|^|$progs/|" |
    xargs -P "${JOBS:-8}" -n 1 "$0" --one "$cb" "$out"
{
    printf 'program\texit\tstatus\tlaunches\tpass\tdrift\tskipped\tfailed\tworst_rel_l1\tworst_abs\tstdout_as_native\n'
    cat "$out"/rows/*.tsv | LC_ALL=C sort
} > "$out/summary.tsv"
cat "$out/summary.tsv"

# The JIT clients (tests/python), through the same pass-through.
py=$out/python
mkdir -p "$py/rows"
ls "$top"/tests/python/numba_*.py "$top"/tests/python/cupy_*.py "$top"/tests/python/cudapython_*.py 2>/dev/null |
    xargs -P "${PY_JOBS:-5}" -n 1 "$0" --one-py "$cb" "$py"
{
    printf 'test\texit\tprinted_ok\tstatus\tlaunches_forwarded\trefused\tdevice\tchecked\tpass\tdrift\tskipped\tfailed\tworst_rel_l1\tworst_abs\n'
    cat "$py"/rows/*.tsv | LC_ALL=C sort
} > "$py/summary.tsv"
echo
cat "$py/summary.tsv"
echo
echo "cuda_backend_check: $(($(date +%s) - start)) s; tables in $out/summary.tsv and $py/summary.tsv"
