#!/bin/bash
# run_audit_test.sh CASE CUBRIDGE OUT_DIR
#
# `cubridge audit` (docs/audit.md) end to end, each CASE one ctest entry
# `cli.audit-CASE` (tests/CMakeLists.txt). Reports go under OUT_DIR/CASE.
#
#   conv2d-bwd  --preset conv2d-bwd --precision fp16: every case (backward
#               data and filter in both modes, with groups, stride, alpha and
#               beta; backward bias) PASS with a measured drift on stdout;
#               the inspector's table on stderr has a row per case with status
#               and drift, and rows of the facade's own checks
#               (cudnnConvolutionBackwardData ...); report.json and
#               report.html hold the same rows
#   sdpa        --preset sdpa (fp32, fp16, bf16): the contiguous, strided
#               q/k/v, broadcast-mask and causal graphs PASS with drift in
#               each precision; the fused SDPA_FWD operation is UNSUPPORTED
#               (refused at Finalize), in the table, the JSON and the HTML;
#               exit 0 (UNSUPPORTED is an answer, not a failure)
#   presets     gemm, conv2d-fwd, softmax, layernorm, reduce and fft in fp32
#               and bf16, with --batch/--seq: every case PASS; the kernel
#               presets' launches are verified (kernel rows PASS)
#   break       a planted wrong result (CUBRIDGE_TEST_BREAK_LIB on
#               cudnnConvolutionBackwardFilter): the audit's own row for it
#               says DRIFT and names the element, the others still PASS, and
#               the run exits 1
#   warp64      --warp-size 64: softmax.rows (one warp of 32 threads per
#               block) still PASSes, softmax.rows4 (tid / 32 warps, a
#               broadcast from lane 0) is DRIFT and the run exits 1, while at
#               --warp-size 32 both PASS; the header says 64-lane warps; the
#               reduce preset PASSes with 64-lane warps; CUBRIDGE_WARP_SIZE=48
#               stops the device with the reason, run --warp-size 48 exits 2
#   usage       no --preset, an unknown preset, a bad --precision, --batch 0,
#               an operand, --warp-size 48, and --warp-size 64 on the cuda
#               backend exit 2
set -u
CASE=$1 CUBRIDGE=$2 OUT=$3
D=$OUT/audit-$CASE
rm -rf "$D"
mkdir -p "$D"
D=$(cd "$D" && pwd)
fail() { echo "FAIL [audit-$CASE]: $*"; exit 1; }
[ -x "$(dirname "$CUBRIDGE")/../lib/cubridge-workloads" ] || { echo "SKIP: cubridge-workloads is not built"; exit 77; }

# audit NAME ARGS...: runs `cubridge audit ARGS --report $D/NAME`; stdout in
# $D/NAME.out, stderr in $D/NAME.err, the status in $rc.
audit() {
    local name=$1; shift
    "$CUBRIDGE" audit "$@" --report "$D/$name" > "$D/$name.out" 2> "$D/$name.err"
    rc=$?
}

# want_case NAME CASE STATUS: the case's line on stdout has STATUS (and a
# drift number for PASS/DRIFT).
want_case() {
    local line
    line=$(grep -E "^$2 " "$D/$1.out") || fail "$1: no line for $2 on stdout: $(cat $D/$1.out)"
    case $3 in
    PASS|DRIFT) echo "$line" | grep -Eq "^$2 +$3 +[0-9]\.[0-9]{2}e[-+][0-9]{2} " || fail "$1: $2 is not $3 with a drift: $line" ;;
    *) echo "$line" | grep -Eq "^$2 +$3 " || fail "$1: $2 is not $3: $line" ;;
    esac
}

# want_rows NAME STATUS CASE...: the inspector's terminal table, report.json
# and report.html each have the row of every CASE with STATUS.
want_rows() {
    local name=$1 status=$2; shift 2
    for c in "$@"; do
        grep -Eq "^  $c +.* audit +$status +" "$D/$name.err" || fail "$name: the inspector's table has no $status row for $c: $(grep -E " audit " $D/$name.err | head -20)"
    done
    python3 - "$D/$name" "$status" "$@" <<'EOF' || fail "$name: report.json/report.html"
import json, re, sys
d, status, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
r = json.load(open(d + "/report.json"))
rows = {c["entry"]: c for c in r["calls"] if c.get("subsystem") == "audit"}
page = open(d + "/report.html").read()
m = re.search(r'<script id="report-data" type="application/json">(.*?)</script>', page, re.S)
embedded = json.loads(m.group(1)) if m else None
for c in cases:
    assert c in rows, "no report.json row for %s: %s" % (c, sorted(rows))
    row = rows[c]
    assert row["status"] == status, (c, row)
    if status in ("PASS", "DRIFT"):
        assert isinstance(row["drift"], (int, float)), (c, row)
    assert embedded is None or any(e["entry"] == c and e["status"] == status for e in embedded["calls"]), \
        "report.html's data lacks %s %s" % (c, status)
    assert c in page, "report.html does not name %s" % c
EOF
}

case $CASE in
conv2d-bwd)
    audit r --preset conv2d-bwd --precision fp16
    [ $rc = 0 ] || fail "exit $rc: $(tail -5 $D/r.err)"
    cases="conv2d-bwd.data.fp16 conv2d-bwd.data-conv-g2-ab.fp16 conv2d-bwd.filter.fp16 conv2d-bwd.filter-conv-s2-ab.fp16 conv2d-bwd.bias.fp16"
    for c in $cases; do want_case r "$c" PASS; done
    grep -q "^cubridge audit: conv2d-bwd: 5 PASS, 0 DRIFT, 0 UNSUPPORTED, 0 FAIL$" "$D/r.out" || fail "summary: $(tail -1 $D/r.out)"
    grep -q "^cubridge inspector: PASS | backend cpu" "$D/r.err" || fail "no inspector summary: $(grep 'cubridge inspector' $D/r.err)"
    # shellcheck disable=SC2086
    want_rows r PASS $cases
    for f in cudnnConvolutionBackwardData cudnnConvolutionBackwardFilter cudnnConvolutionBackwardBias; do
        grep -Eq "^  $f +.* cudnn +PASS +[0-9]" "$D/r.err" || fail "the facade's own check of $f is not a PASS row: $(grep $f $D/r.err)"
    done
    for f in report.html report.json junit.xml trace.jsonl; do [ -s "$D/r/$f" ] || fail "no $f"; done
    cat "$D/r.out"
    ;;
sdpa)
    audit r --preset sdpa
    [ $rc = 0 ] || fail "exit $rc: $(tail -5 $D/r.err)"
    pass=""
    for p in fp32 fp16 bf16; do
        for c in contiguous noncontig-qkv mask-bcast-11ss mask-bcast-b11s causal; do
            want_case r "sdpa.$c.$p" PASS
            pass="$pass sdpa.$c.$p"
        done
        want_case r "sdpa.fused-op.$p" UNSUPPORTED
        grep -E "^sdpa.fused-op.$p " "$D/r.out" | grep -q "cudnnBackendFinalize: CUDNN_STATUS_NOT_SUPPORTED" \
            || fail "the fused op's refusal does not say where: $(grep fused-op.$p $D/r.out)"
    done
    grep -q "^cubridge audit: sdpa: 15 PASS, 0 DRIFT, 3 UNSUPPORTED, 0 FAIL$" "$D/r.out" || fail "summary: $(tail -1 $D/r.out)"
    # shellcheck disable=SC2086
    want_rows r PASS $pass
    want_rows r UNSUPPORTED sdpa.fused-op.fp32 sdpa.fused-op.fp16 sdpa.fused-op.bf16
    grep -Eq "^  cudnnBackendExecute +.* cudnn +PASS +[0-9]" "$D/r.err" || fail "cudnnBackendExecute's own check is not PASS"
    cat "$D/r.out"
    ;;
presets)
    for p in fp32 bf16; do
        for preset in gemm conv2d-fwd softmax layernorm reduce fft; do
            audit "$preset-$p" --preset $preset --precision $p --batch 1 --seq 48
            [ $rc = 0 ] || fail "$preset $p: exit $rc: $(cat $D/$preset-$p.out; tail -5 $D/$preset-$p.err)"
            n=$(grep -cE "^$preset\.[a-z0-9-]+\.$p +PASS +[0-9]" "$D/$preset-$p.out")
            [ "$n" -ge 1 ] || fail "$preset $p: no PASS case: $(cat $D/$preset-$p.out)"
            grep -Eq "^cubridge audit: $preset: $n PASS, 0 DRIFT, 0 UNSUPPORTED, 0 FAIL$" "$D/$preset-$p.out" \
                || fail "$preset $p: $(tail -1 $D/$preset-$p.out)"
        done
        for k in softmax layernorm reduce; do
            suffix=$([ $p = fp32 ] && echo f32 || echo $p)
            grep -Eq "^  kernel ${k}_$suffix +PTX -> C -> backend +kernels +PASS " "$D/$k-$p.err" \
                || fail "$k $p: the launch was not verified PASS: $(grep 'kernel ' $D/$k-$p.err)"
        done
    done
    grep -q "batch 1, m 48 n 48 k 64" "$D/gemm-fp32.out" || fail "--batch/--seq not applied: $(cat $D/gemm-fp32.out)"
    grep -q "n 1009, C2C inverse" "$D/fft-fp32.out" || fail "no prime-length FFT: $(cat $D/fft-fp32.out)"
    ;;
break)
    env CUBRIDGE_TEST_BREAK_LIB=cudnnConvolutionBackwardFilter "$CUBRIDGE" audit --preset conv2d-bwd --precision fp16 \
        --report "$D/r" > "$D/r.out" 2> "$D/r.err"
    rc=$?
    [ $rc = 1 ] || fail "a planted drift exited $rc, not 1: $(tail -3 $D/r.out)"
    want_case r conv2d-bwd.filter.fp16 DRIFT
    want_case r conv2d-bwd.data.fp16 PASS
    want_case r conv2d-bwd.bias.fp16 PASS
    grep -q "inspector: DRIFT in audit conv2d-bwd.filter.fp16: output out element \[0\]: got" "$D/r.err" \
        || fail "the drift does not name the element: $(grep DRIFT $D/r.err | head -3)"
    want_rows r DRIFT conv2d-bwd.filter.fp16
    ;;
warp64)
    audit s32 --preset softmax --warp-size 32 --batch 1 --seq 64
    [ $rc = 0 ] || fail "softmax at --warp-size 32 exited $rc: $(cat $D/s32.out)"
    want_case s32 softmax.rows.fp32 PASS
    want_case s32 softmax.rows4.fp32 PASS
    audit s64 --preset softmax --warp-size 64 --batch 1 --seq 64
    [ $rc = 1 ] || fail "softmax at --warp-size 64 exited $rc, not 1: $(cat $D/s64.out)"
    grep -q "^cubridge audit: preset softmax, precision fp32, 64-lane warps$" "$D/s64.out" \
        || fail "the header does not say 64-lane warps: $(head -1 $D/s64.out)"
    want_case s64 softmax.rows.fp32 PASS
    want_case s64 softmax.rows4.fp32 DRIFT
    grep -q "^cubridge audit: softmax: 1 PASS, 1 DRIFT, 0 UNSUPPORTED, 0 FAIL$" "$D/s64.out" \
        || fail "summary: $(tail -1 $D/s64.out)"
    want_rows s64 DRIFT softmax.rows4.fp32
    audit r64 --preset reduce --warp-size 64 --seq 64
    [ $rc = 0 ] || fail "reduce at --warp-size 64 exited $rc: $(cat $D/r64.out)"
    want_case r64 reduce.rows.fp32 PASS
    # a width the backend does not have: the device does not start, and says why
    env CUBRIDGE_WARP_SIZE=48 "$CUBRIDGE" audit --preset reduce --report "$D/bad" > "$D/bad.out" 2> "$D/bad.err"
    rc=$?
    [ $rc != 0 ] || fail "CUBRIDGE_WARP_SIZE=48 exited 0"
    grep -q "CUBRIDGE_WARP_SIZE=48: the warp size must be 32 or 64" "$D/bad.err" || fail "no reason: $(cat $D/bad.err)"
    "$CUBRIDGE" run --warp-size 48 -- true > /dev/null 2> "$D/run.err"
    rc=$?
    [ $rc = 2 ] || fail "run --warp-size 48 exited $rc, not 2"
    grep -q "^cubridge run: --warp-size wants 32 or 64" "$D/run.err" || fail "run --warp-size 48: $(cat $D/run.err)"
    cat "$D/s64.out"
    ;;
usage)
    audit w32 --preset reduce --warp-size 32 --seq 64
    [ $rc = 0 ] || fail "--warp-size 32 exited $rc"
    for args in "" "--preset nope" "--preset gemm --precision fp64" "--preset gemm --batch 0" "--preset gemm extra" \
                "--preset gemm --warp-size 48" "--preset softmax --warp-size 64 --backend cuda"; do
        # shellcheck disable=SC2086
        "$CUBRIDGE" audit $args > "$D/u.out" 2> "$D/u.err"
        rc=$?
        [ $rc = 2 ] || fail "'audit $args' exited $rc, not 2"
        grep -q "^cubridge audit: " "$D/u.err" || fail "'audit $args': no message: $(cat $D/u.err)"
    done
    ;;
*)
    fail "unknown case"
    ;;
esac
echo "PASS [audit-$CASE]"
