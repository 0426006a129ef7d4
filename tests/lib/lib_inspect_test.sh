#!/usr/bin/env bash
# lib_inspect_test.sh CASE CUBRIDGE LIBTEST_DIR OUT_DIR
#
# The dispatch inspector on library calls (docs/libraries.md, "Verify and
# strict"), over the tests/lib programs:
#   verify       cublas_level3, cublaslt_matmul, cudnn_conv, cudnn_ops and cusparse_geam under `inspect --verify`:
#                every library row PASS with its drift, the report PASS
#   trace        trace.jsonl has a "libcall" line per call, with its arguments
#   break        CUBRIDGE_TEST_BREAK_LIB=cublasSgemm_v2: verify reports DRIFT
#                for cublasSgemm_v2 (and the program's own check fails)
#   strict       the same with --strict: the call returns
#                CUBLAS_STATUS_EXECUTION_FAILED (13), and strict says why
#   unsupported  lib_unsupported (calls cublasXtCreate, a stub): the status is
#                CUBLAS_STATUS_NOT_SUPPORTED, the row UNSUPPORTED, strict logs it
#   rpath        lib_rpath pins "NVIDIA's" libcublas.so.13 (the mock) by
#                DT_RPATH: run plainly it gets the mock, under `cubridge run`
#                cubridge's (the LD_AUDIT module)
#   dnn-break    CUBRIDGE_TEST_BREAK_LIB=cudnnConvolutionForward: verify reports
#                DRIFT for it in cudnn_conv (and the program's own check fails)
#   dnn-strict   cudnn_conv under --verify --strict: every cuDNN call passes
#   dnn-backend  cudnn_backend under --verify: every cudnnBackendExecute row
#                PASS with its drift, the refused complex graph's Finalize
#                UNSUPPORTED; with CUBRIDGE_TEST_BREAK_LIB=cudnnBackendExecute, DRIFT
#   dnn-unsupported  dnn_unsupported_v9 and _v8 (a graph holding SDPA_FWD,
#                the RNN stub): the
#                status is cuDNN 9's or 8's NOT_SUPPORTED, the rows UNSUPPORTED
#   passthrough  under CUBRIDGE_BACKEND=cuda, lib_passthrough's calls reach
#                "NVIDIA's" libcublas.so.13 (a mock, in mock/), traced
set -u
case_=$1 cubridge=$2 dir=$3 out=$4/$1
rm -rf "$out"
mkdir -p "$out"
fail() { echo "lib_inspect_test $case_: $*" >&2; exit 1; }
field() { python3 -c "import json,sys; r=json.load(open('$out/report.json')); print(eval(sys.argv[1]))" "$1"; }

case $case_ in
verify)
  for prog in cublas_level3 cublaslt_matmul cudnn_conv cudnn_ops cusparse_geam; do
    [ -x "$dir/$prog" ] || continue
    "$cubridge" inspect --verify --report "$out/$prog" -- "$dir/$prog" > "$out/$prog.out" 2> "$out/$prog.err" \
      || fail "$prog exited with $? under verify"
    grep -qx "PASS $prog" "$out/$prog.out" || fail "$prog did not pass"
    python3 - "$out/$prog/report.json" <<'EOF' || fail "$prog: report"
import json, sys
r = json.load(open(sys.argv[1]))
rows = [c for c in r["calls"] if c["kind"] == "library"]
checked = [c for c in rows if c["checked"]]
bad = [c["entry"] for c in rows if c["status"] not in ("PASS", "OK", "ERROR")]   # ERROR: bad input the test provokes
assert r["summary"]["status"] == "PASS", r["summary"]["status"]
assert checked, "no checked library call"
assert not bad, bad
assert all(c["drift"] is not None for c in checked)
print(f"{len(checked)} library functions checked, all PASS")
EOF
  done
  ;;
trace)
  "$cubridge" inspect --report "$out" -- "$dir/cublas_streams" > "$out/out" 2> "$out/err" || fail "exit $?"
  grep -q '"type":"libcall".*"name":"cublasSgemm_v2".*"m":"8"' "$out/trace.jsonl" || fail "no traced cublasSgemm_v2 with its m"
  grep -q '"type":"libcall".*"name":"cublasSaxpy_v2".*"result":"CUBLAS_STATUS_SUCCESS"' "$out/trace.jsonl" \
    || fail "no traced cublasSaxpy_v2 with its status"
  ;;
break)
  CUBRIDGE_TEST_BREAK_LIB=cublasSgemm_v2 "$cubridge" inspect --verify --report "$out" -- "$dir/cublas_level3" \
    > "$out/out" 2> "$out/err"
  grep -q "DRIFT in cublas cublasSgemm_v2" "$out/err" || fail "no DRIFT logged"
  [ "$(field 'r["summary"]["status"]')" = DRIFT ] || fail "report status is not DRIFT"
  [ "$(field '[c["status"] for c in r["calls"] if c["entry"] == "cublasSgemm_v2"][0]')" = DRIFT ] || fail "row not DRIFT"
  [ "$(field '[c["entry"] for c in r["calls"] if c["kind"] == "library" and c["status"] == "DRIFT"]')" = \
    "['cublasSgemm_v2']" ] || fail "another row than cublasSgemm_v2 is DRIFT"
  ;;
strict)
  CUBRIDGE_TEST_BREAK_LIB=cublasSgemm_v2 "$cubridge" inspect --verify --strict --report "$out" -- "$dir/cublas_level3" \
    > "$out/out" 2> "$out/err" && fail "the program passed under strict"
  grep -q "FAIL .*returned 13" "$out/out" || fail "cublasSgemm did not return CUBLAS_STATUS_EXECUTION_FAILED"
  grep -q "strict: DRIFT in cublas cublasSgemm_v2" "$out/err" || fail "strict did not say why"
  ;;
unsupported)
  # strict gates the run: the program exits 0, the process 3 (docs/inspector.md, "Exit status")
  rc=0
  "$cubridge" inspect --strict --report "$out" -- "$dir/lib_unsupported" > "$out/out" 2> "$out/err" || rc=$?
  [ $rc = 3 ] || fail "exit $rc, want 3"
  grep -qx "PASS lib_unsupported" "$out/out" || fail "no PASS"
  grep -q "strict: cublas cublasXtCreate is UNSUPPORTED" "$out/err" || fail "strict did not log it"
  [ "$(field '[c["status"] for c in r["calls"] if c["entry"] == "cublasXtCreate"][0]')" = UNSUPPORTED ] || fail "row"
  [ "$(field 'r["summary"]["status"]')" = UNSUPPORTED ] || fail "report status"
  # JUnit: the library function is a failing test case, counted in its suite
  python3 - "$out/junit.xml" <<'EOF' || fail "junit.xml"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suite = [s for s in root if s.get("name") == "library calls"][0]
case = [c for c in suite if c.get("name") == "cublasXtCreate"][0]
f = case.find("failure")
assert f is not None and f.get("type") == "UNSUPPORTED", ET.tostring(case)
assert int(suite.get("failures")) >= 1 and int(root.get("failures")) >= 1, (suite.attrib, root.attrib)
EOF
  ;;
rpath)
  "$dir/lib_rpath" > "$out/plain" 2>&1 || fail "plain run: exit $?"
  grep -qx "libcublas: mock" "$out/plain" || fail "the RPATH does not pin the mock: $(cat "$out/plain")"
  CUBRIDGE_AUDIT_LOG=1 "$cubridge" run -- "$dir/lib_rpath" > "$out/out" 2> "$out/err" || fail "exit $?"
  grep -qx "libcublas: cubridge" "$out/out" || fail "cubridge's libcublas did not win: $(cat "$out/out")"
  grep -q "cubridge: audit: libcublas.so.13 -> .*/lib/libcublas.so.13" "$out/err" || fail "no redirect logged"
  ;;
dnn-break)
  CUBRIDGE_TEST_BREAK_LIB=cudnnConvolutionForward "$cubridge" inspect --verify --report "$out" -- "$dir/cudnn_conv" \
    > "$out/out" 2> "$out/err" && fail "cudnn_conv passed with a broken cudnnConvolutionForward"
  grep -q "DRIFT in cudnn cudnnConvolutionForward" "$out/err" || fail "no DRIFT logged"
  [ "$(field 'r["summary"]["status"]')" = DRIFT ] || fail "report status is not DRIFT"
  [ "$(field 'sorted(set(c["entry"] for c in r["calls"] if c["kind"] == "library" and c["status"] == "DRIFT"))')" = \
    "['cudnnConvolutionForward']" ] || fail "another row than cudnnConvolutionForward is DRIFT"
  ;;
dnn-strict)
  "$cubridge" inspect --verify --strict --report "$out" -- "$dir/cudnn_conv" > "$out/out" 2> "$out/err" \
    || fail "exit $? under strict"
  grep -qx "PASS cudnn_conv" "$out/out" || fail "no PASS"
  [ "$(field 'r["summary"]["status"]')" = PASS ] || fail "report status $(field 'r["summary"]["status"]')"
  ;;
dnn-backend)
  "$cubridge" inspect --verify --report "$out" -- "$dir/cudnn_backend" > "$out/out" 2> "$out/err" \
    || fail "cudnn_backend exited with $? under verify"
  grep -qx "PASS cudnn_backend" "$out/out" || fail "cudnn_backend did not pass"
  python3 - "$out/report.json" <<'EOF' || fail "report"
import json, sys
r = json.load(open(sys.argv[1]))
rows = [c for c in r["calls"] if c["entry"] == "cudnnBackendExecute"]
assert rows, "no cudnnBackendExecute row"
assert all(c["status"] == "PASS" and c["checked"] and c["drift"] is not None for c in rows), rows
fin = [c for c in r["calls"] if c["entry"] == "cudnnBackendFinalize"]
assert any(c["status"] == "UNSUPPORTED" for c in fin), fin
bad = [c["entry"] for c in r["calls"] if c["kind"] == "library" and c["status"] not in ("PASS", "OK", "ERROR", "UNSUPPORTED")]
assert not bad, bad
print(f"{len(rows)} cudnnBackendExecute rows, all PASS")
EOF
  # The planted break: the first Execute's output corrupted, verify must say DRIFT.
  CUBRIDGE_TEST_BREAK_LIB=cudnnBackendExecute "$cubridge" inspect --verify --report "$out/break" -- \
    "$dir/cudnn_backend" > "$out/break.out" 2> "$out/break.err" && fail "cudnn_backend passed with a broken Execute"
  grep -q "DRIFT in cudnn cudnnBackendExecute" "$out/break.err" || fail "no DRIFT for the broken Execute"
  ;;
dnn-unsupported)
  for v in 9 8; do
    rc=0
    "$cubridge" inspect --strict --report "$out/v$v" -- "$dir/dnn_unsupported_v$v" > "$out/out$v" 2> "$out/err$v" || rc=$?
    [ $rc = 3 ] || fail "v$v: exit $rc, want 3"
    grep -qx "PASS dnn_unsupported" "$out/out$v" || fail "v$v: no PASS: $(cat "$out/out$v")"
    grep -q "strict: cudnn cudnnBackendFinalize is UNSUPPORTED" "$out/err$v" || fail "v$v: strict did not log it"
    python3 - "$out/v$v/report.json" <<'EOF' || fail "v$v: report"
import json, sys
r = json.load(open(sys.argv[1]))
st = {c["entry"]: c["status"] for c in r["calls"]}
assert st.get("cudnnBackendFinalize") == "UNSUPPORTED", st
assert st.get("cudnnCreateRNNDescriptor") == "UNSUPPORTED", st
assert r["summary"]["status"] == "UNSUPPORTED", r["summary"]["status"]
EOF
  done
  ;;
passthrough)
  CUBRIDGE_BACKEND=cuda CUBRIDGE_REAL_LIB_DIR="$dir/mock" CUBRIDGE_INSPECT=trace CUBRIDGE_INSPECT_DIR="$out" \
    LD_LIBRARY_PATH="$(dirname "$cubridge")/../lib" "$dir/lib_passthrough" > "$out/out" 2> "$out/err" || fail "exit $?"
  grep -qx "PASS lib_passthrough" "$out/out" || fail "no PASS"
  grep -q '"type":"libcall".*"name":"cublasGetVersion_v2"' "$out/trace.jsonl" || fail "the forwarded call was not traced"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "lib_inspect_test $case_: ok"
