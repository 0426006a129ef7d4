#!/bin/bash
# run_inspect_test.sh CASE CUBRIDGE CUDA_TEST_DIR OUT_DIR
#
# End-to-end tests of the dispatch inspector (docs/inspector.md), each CASE
# one ctest entry (tests/CMakeLists.txt, "inspector" block). Programs are the
# nvcc-built tests/cuda binaries; reports go under OUT_DIR/CASE.
#
#   trace       CUBRIDGE_INSPECT=trace: trace.jsonl has calls with readable
#               arguments and the launch; trace.perfetto.json is valid Chrome
#               trace JSON with a stream track
#   pass        `cubridge inspect --verify --strict` on several programs: PASS
#   fault-F     CUBRIDGE_FAULT_INJECT=F (zero, nan, perturb, skip): verify
#               reports DRIFT naming the kernel; strict turns it into
#               cudaErrorLaunchFailure at the next synchronisation
#   unsupported strict: an unimplemented entry point fetched through
#               cuGetProcAddress returns CUDA_ERROR_NOT_SUPPORTED, is logged
#               UNSUPPORTED and the report's status is UNSUPPORTED
#   probe       cudart's probes (cuGetProcAddress -> CUDA_ERROR_NOT_FOUND, a
#               refused cuGetExportTable of an optional table) are expected
#               refusals: status PROBE in the text and JSON reports, counted
#               as probe_refusals, not call_errors; strict does not fail on
#               them; a real error (cuEventElapsedTime on an unrecorded
#               event) stays ERROR. Static and -cudart shared programs
#   passthrough the cuda backend against a mock NVIDIA driver
#               (mock_libcuda.c): a client that dlsym()s every entry point
#               (dlsym_client.c, like Numba/CuPy through ctypes) reaches the
#               mock for every call, traced and verified; a symbol the
#               mock lacks is UNSUPPORTED; the exit summary shows backend
#               cuda, the mock's device, the launches and memory forwarded;
#               with no usable driver every call is CUDA_ERROR_NO_DEVICE
#   ranges      cuProfilerStart/Stop and NVTX ranges and marks (profiler_nvtx,
#               C API and nvtx3.hpp, through NVTX_INJECTION64_PATH, which
#               `cubridge run` sets) appear in trace.jsonl, the Perfetto trace
#               (on the host thread's track) and the report's timeline
#   warn        lanes that exited while named in a warp collective's mask
#               (warp_exit_collectives): the launches succeed under
#               strict; the text report, trace.jsonl and report.json
#               (summary.warnings, launches[].warning, kernel rows) carry
#               the WARNING with the kernel, block, warp, lanes, instruction
#   coverage    `cubridge coverage` prints mapped N/M for the driver
#   html        headless Chromium renders report.html (check_report.py: no
#               JavaScript error, nothing wider than the viewport, status
#               counts, demangled kernel names, the header) and saves
#               build/reports/inspector-dashboard.png
#   audit-html  `cubridge audit --preset sdpa`'s dashboard in headless
#               Chromium: a call row per case with its status and drift,
#               the fused SDPA operation UNSUPPORTED, the status card's
#               library counts (PASS, UNSUPPORTED), a non-blank
#               screenshot build/reports/audit-dashboard.png
#   report-1, report-2000, report-drift-fault
#               the same checks on a 1-launch report, a 2,000-launch one
#               (many_launches.c: three kernels, an aggregated timeline) and
#               one with DRIFT (a planted fault) and a FAILED launch (a
#               write 4 bytes past a 1024-byte allocation, named in the
#               page); screenshots build/reports/CASE.png
set -u
CASE=$1 CUBRIDGE=$2 CUDA_DIR=$3 OUT=$4
SRC=$(cd "$(dirname "$0")" && pwd)
D=$OUT/$CASE
rm -rf "$D"
mkdir -p "$D"
D=$(cd "$D" && pwd)
OUT=$(cd "$OUT" && pwd)
fail() { echo "FAIL [$CASE]: $*"; exit 1; }
json_field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval('d'+sys.argv[2]))" "$@"; }
ensure_chromium() {
    command -v chromium > /dev/null || command -v chromium-browser > /dev/null && return 0
    # several of these tests start together on a fresh machine: one installs, the others wait for it
    # (apt's own lock fails at once without a timeout)
    (flock 9; command -v chromium > /dev/null ||
        apt-get install -y -o DPkg::Lock::Timeout=300 chromium > "$D/apt.txt" 2>&1) 9> "${TMPDIR:-/tmp}/cubridge-apt.lock" || true
    command -v chromium > /dev/null || fail "chromium is not installed and could not be installed"
}

# Runs PROGRAM under the inspector with extra environment; output in $D/out.txt.
inspect_run() {
    local dir=$1; shift
    env CUBRIDGE_INSPECT_DIR="$dir" "$@" > "$D/out.txt" 2>&1
}

case $CASE in
trace)
    inspect_run "$D/r" CUBRIDGE_INSPECT=trace "$CUBRIDGE" run "$CUDA_DIR/vector_add_static" || fail "program failed: $(tail -5 $D/out.txt)"
    J=$D/r/trace.jsonl
    [ -s "$J" ] || fail "no trace.jsonl"
    grep -q '"name":"cuMemAlloc_v2","args":{"dptr":"-> 0x[0-9a-f]* device","bytesize":"[0-9]*"}' "$J" || fail "cuMemAlloc_v2 not traced with readable arguments"
    grep -q '"name":"cuDeviceGetAttribute","args":{"pi":"-> [0-9-]*","attrib":"CU_DEVICE_ATTRIBUTE_' "$J" || fail "enum arguments not named"
    grep -q '"name":"cuLaunchKernel","args":{"f":"0x[0-9a-f]* kernel _Z10vector_add' "$J" || fail "launch call without the kernel name"
    grep -q '"type":"launch".*"kernel":"_Z10vector_addPKfS0_Pfi","grid":\[[0-9]*,1,1\],"block":\[256,1,1\],"smem":[0-9]*,"regs":[0-9]*,"stream":[0-9]*' "$J" || fail "launch record incomplete"
    grep -q '"mem_used":[0-9]*' "$J" || fail "no device memory in the trace"
    python3 - "$D/r/trace.perfetto.json" <<'EOF' || fail "perfetto trace invalid"
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
assert any(e.get("ph") == "X" and e.get("cat") == "kernel" for e in ev), "no kernel slice"
assert any(e.get("ph") == "M" and e["args"]["name"].startswith("stream") for e in ev), "no stream track"
assert any(e.get("ph") == "C" and e["name"] == "device memory" for e in ev), "no memory counter"
EOF
    json_field "$D/r/report.json" '["summary"]["status"]' | grep -qx TRACED || fail "status is not TRACED"
    ;;
ranges)
    for v in static shared; do
        "$CUBRIDGE" inspect --report "$D/$v" -- "$CUDA_DIR/profiler_nvtx_$v" > "$D/$v.txt" 2>&1 || fail "profiler_nvtx_$v failed: $(tail -3 $D/$v.txt)"
        J=$D/$v/trace.jsonl
        grep -q '"type":"range","source":"profiler","name":"cuProfilerStart","thread":0,' "$J" || fail "$v: no profiler range"
        [ "$(grep -c '"source":"profiler"' "$J")" = 1 ] || fail "$v: a repeated start or stop made another profiler range"
        for name in outer inner "copy and square" "scoped (nvtx3.hpp)" "solver: in the solver domain" "pushed with attributes"; do
            grep -q "\"type\":\"range\",\"source\":\"nvtx\",\"name\":\"$name\"" "$J" || fail "$v: no NVTX range '$name'"
        done
        grep -q '"type":"mark","source":"nvtx","name":"before the work"' "$J" || fail "$v: no NVTX mark"
        grep -q '"type":"mark","source":"nvtx","name":"solver: a mark in the solver domain"' "$J" || fail "$v: no domain mark"
        python3 - "$D/$v/trace.perfetto.json" "$D/$v/report.json" <<'EOF' || fail "$v: ranges missing from the Perfetto trace or the report"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
nvtx = [e for e in ev if e.get("cat") == "nvtx"]
assert any(e["ph"] == "X" and e["name"] == "outer" and e["pid"] == 1 for e in nvtx), nvtx
assert any(e["ph"] == "i" and e["name"] == "before the work" for e in nvtx), nvtx
prof = [e for e in ev if e.get("cat") == "profiler"]
assert len(prof) == 1 and prof[0]["ph"] == "X" and prof[0]["dur"] > 0, prof
outer = [e for e in nvtx if e["name"] == "outer"][0]
inner = [e for e in nvtx if e["name"] == "inner"][0]
assert outer["ts"] <= inner["ts"] and inner["ts"] + inner["dur"] <= outer["ts"] + outer["dur"], (outer, inner)
kernels = [e for e in ev if e.get("cat") == "kernel"]
assert any(prof[0]["ts"] <= k["ts"] <= prof[0]["ts"] + prof[0]["dur"] for k in kernels), "no kernel inside the profiler range"
r = json.load(open(sys.argv[2]))
kinds = {t["kind"] for t in r["timeline"]}
assert {"range", "mark"} <= kinds, kinds
rows = {c["entry"]: c for c in r["calls"]}
assert rows["cuProfilerStart"]["status"] == "OK" and rows["cuProfilerStop"]["status"] == "OK", rows["cuProfilerStart"]
EOF
    done
    ;;
probe)
    for v in static shared; do
        "$CUBRIDGE" inspect --strict --report "$D/$v" -- "$CUDA_DIR/vector_add_$v" > "$D/$v.txt" 2>&1 || fail "vector_add_$v failed under strict: $(tail -3 $D/$v.txt)"
        grep -Eq "^  cuGetProcAddress_v2 .* PROBE .*expected refusals \(CUDA_ERROR_NOT_FOUND\)" "$D/$v.txt" || fail "$v: no PROBE row in the text report: $(grep cuGetProcAddress $D/$v.txt)"
        grep -q " ERROR " "$D/$v.txt" && fail "$v: an ERROR in the text report: $(grep ' ERROR ' $D/$v.txt | head -3)"
        J=$D/$v/trace.jsonl
        grep -q '"name":"cuGetProcAddress_v2","args":{"symbol":"[A-Za-z_0-9]*",.*"result":"CUDA_ERROR_NOT_FOUND","probe":true' "$J" || fail "$v: probe not marked in trace.jsonl"
        grep -q '"name":"cuGetProcAddress_v2","args":{"symbol":"cuMemAlloc",' "$J" || fail "$v: symbol names not in the trace"
        grep -q '"pExportTableId":"f8cff951-2146-8b4e-b9e2-fb469e7c0dd9"},"result":"CUDA_ERROR_INVALID_VALUE","probe":true' "$J" || fail "$v: the refused export table is not a probe"
        python3 - "$D/$v/report.json" <<'EOF' || fail "$v: report.json"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema"] == "cubridge-inspect-report/3.2", r["schema"]
s = r["summary"]
assert s["status"] == "TRACED", s["status"]
assert s["probe_refusals"] > 0 and s["call_errors"] == 0, s
rows = {c["entry"]: c for c in r["calls"]}
assert rows["cuGetProcAddress_v2"]["status"] == "PROBE", rows["cuGetProcAddress_v2"]
assert "expected refusals" in rows["cuGetProcAddress_v2"]["notes"]
assert rows["cuGetExportTable"]["status"] == "PROBE", rows["cuGetExportTable"]
bad = [c for c in r["calls"] if c["status"] not in ("OK", "PROBE", "TRACED")]
assert not bad, bad
assert any(t.get("probe") and t["ok"] for t in r["timeline"]), "no probe in the timeline"
EOF
    done
    # a real error stays one
    "$CUBRIDGE" inspect --report "$D/err" -- "$CUDA_DIR/event_elapsed_static" > "$D/err.txt" 2>&1 || fail "event_elapsed failed"
    python3 - "$D/err/report.json" <<'EOF' || fail "a real error is not ERROR"
import json, sys
r = json.load(open(sys.argv[1]))
rows = {c["entry"]: c for c in r["calls"]}
assert rows["cuEventElapsedTime_v2"]["status"] == "ERROR", rows["cuEventElapsedTime_v2"]
assert r["summary"]["call_errors"] > 0
EOF
    grep -Eq "^  cuEventElapsedTime_v2 .* ERROR " "$D/err.txt" || fail "no ERROR row in the text report"
    ;;
passthrough)
    LIB=$(cd "$(dirname "$CUBRIDGE")/../lib" && pwd)
    cc -Wall -Wextra -Werror -shared -fPIC -I/usr/local/cuda/include "$SRC/mock_libcuda.c" -o "$D/libmockcuda.so" -ldl || fail "cannot build mock_libcuda.c"
    cc -Wall -Wextra -Werror -I/usr/local/cuda/include "$SRC/dlsym_client.c" -o "$D/dlsym_client" -ldl || fail "cannot build dlsym_client.c"
    MOCK=$D/libmockcuda.so
    # trace, through the CLI (which sets CUBRIDGE_SUMMARY=1)
    env CUBRIDGE_REAL_LIBCUDA="$MOCK" MOCK_LIBCUDA_LOG="$D/mock.log" "$CUBRIDGE" inspect --backend cuda --report "$D/t" -- \
        "$D/dlsym_client" "$LIB/libcuda.so.1" "$MOCK" > "$D/t.txt" 2>&1 || fail "dlsym client failed: $(tail -5 $D/t.txt)"
    grep -q "dlsym client: PASS" "$D/t.txt" || fail "no PASS line"
    grep -qx "cuLaunchKernel 1" "$D/mock.log" || fail "the launch did not reach the mock: $(cat $D/mock.log)"
    grep -qF 'cubridge: backend cuda (pass-through to '"$MOCK"') | device "Mock GPU" | 1 launches forwarded (0 refused) | 1 allocations, peak 800 bytes device memory' "$D/t.txt" || fail "summary: $(grep 'cubridge: backend' $D/t.txt)"
    grep -q "1 unsupported calls: cuArrayCreate_v2" "$D/t.txt" || fail "the missing symbol is not counted"
    J=$D/t/trace.jsonl
    for c in cuInit cuDeviceGetName cuMemAlloc_v2 cuMemcpyHtoD_v2 cuModuleLoadDataEx cuLaunchKernel cuMemcpyDtoH_v2 cuMemFree_v2; do
        grep -q "\"name\":\"$c\"" "$J" || fail "$c not traced"
    done
    grep -q '"name":"cuModuleGetFunction","args":{"hfunc":"-> 0x[0-9a-f]*","hmod":"0x[0-9a-f]* host","name":"scale"}' "$J" || fail "cuModuleGetFunction arguments: $(grep cuModuleGetFunction $J)"
    python3 - "$D/t/report.json" <<'EOF' || fail "trace report.json"
import json, sys
r = json.load(open(sys.argv[1]))
s = r["summary"]
assert s["backend"] == "cuda" and s["device"] == "Mock GPU", s
assert s["peak_device_bytes"] == 800, s
rows = {c["entry"]: c for c in r["calls"]}
assert rows["cuArrayCreate_v2"]["status"] == "UNSUPPORTED", rows["cuArrayCreate_v2"]
assert rows["cuArrayCreate_v2"]["target"] == "-", rows["cuArrayCreate_v2"]
assert rows["cuArrayCreate_v2"]["notes"].startswith("not exported by NVIDIA's libcuda.so.1"), rows["cuArrayCreate_v2"]
assert rows["cuLaunchKernel"]["target"] == "NVIDIA libcuda.so.1 (pass-through)", rows["cuLaunchKernel"]
assert rows["cuMemAlloc_v2"]["status"] == "OK"
EOF
    # no usable driver: every call answers CUDA_ERROR_NO_DEVICE, and the log says why
    env CUBRIDGE_BACKEND=cuda CUBRIDGE_REAL_LIBCUDA="$D/no-such-libcuda.so.1" "$D/dlsym_client" "$LIB/libcuda.so.1" --no-driver \
        > "$D/n.txt" 2>&1 || fail "no driver: $(tail -5 $D/n.txt)"
    grep -q "dlsym client: no driver: PASS" "$D/n.txt" || fail "no driver: no PASS line"
    grep -q "CUBRIDGE_REAL_LIBCUDA=$D/no-such-libcuda.so.1 is not a usable CUDA driver" "$D/n.txt" || fail "no driver: not logged"
    # verify: the mock's launch checked against the CPU reference
    env CUBRIDGE_REAL_LIBCUDA="$MOCK" "$CUBRIDGE" inspect --backend cuda --verify --report "$D/v" -- \
        "$D/dlsym_client" "$LIB/libcuda.so.1" "$MOCK" > "$D/v.txt" 2>&1 || fail "verify: $(tail -5 $D/v.txt)"
    python3 - "$D/v/report.json" <<'EOF' || fail "verify report.json"
import json, sys
r = json.load(open(sys.argv[1]))
l = r["launches"]
assert len(l) == 1 and l[0]["kernel"] == "scale" and l[0]["verdict"] == "PASS", l
assert r["summary"]["verified"] == 1
EOF
    # a kernel that faults on the GPU, under verify: the launch call still
    # succeeds and the sticky fault surfaces at the next synchronisation
    env CUBRIDGE_REAL_LIBCUDA="$MOCK" MOCK_LIBCUDA_FAULT=1 "$CUBRIDGE" inspect --backend cuda --verify --report "$D/f" -- \
        "$D/dlsym_client" "$LIB/libcuda.so.1" "$MOCK" --fault > "$D/f.txt" 2>&1 || fail "fault under verify: $(tail -5 $D/f.txt)"
    grep -q "dlsym client: fault: PASS" "$D/f.txt" || fail "fault: no PASS line"
    # a kernel that reads a texture object: run, and its check skipped with the reason
    env CUBRIDGE_REAL_LIBCUDA="$MOCK" "$CUBRIDGE" inspect --backend cuda --verify --report "$D/x" -- \
        "$D/dlsym_client" "$LIB/libcuda.so.1" "$MOCK" --texture > "$D/x.txt" 2>&1 || fail "texture under verify: $(tail -5 $D/x.txt)"
    python3 - "$D/x/report.json" <<'EOF' || fail "texture: report.json"
import json, sys
l = json.load(open(sys.argv[1]))["launches"]
assert len(l) == 2 and l[0]["verdict"] == "PASS", l
assert l[1]["verdict"] == "SKIPPED" and "texture or surface objects" in json.dumps(l[1]), l[1]
EOF
    ;;
pass)
    for p in saxpy vector_add matmul_tiled streams_events half_precision atomics_int device_globals graph_capture; do
        "$CUBRIDGE" inspect --verify --strict --report "$D/$p" -- "$CUDA_DIR/${p}_static" > "$D/$p.txt" 2>&1 || fail "$p failed under verify+strict: $(grep -E 'DRIFT|error' $D/$p.txt | head -3)"
        s=$(json_field "$D/$p/report.json" '["summary"]["status"]')
        [ "$s" = PASS ] || fail "$p: status $s, want PASS"
        v=$(json_field "$D/$p/report.json" '["summary"]["verified"]')
        [ "$v" -ge 1 ] || fail "$p: no launch verified"
    done
    ;;
fault-*)
    F=${CASE#fault-}
    inspect_run "$D/verify" CUBRIDGE_INSPECT=verify CUBRIDGE_FAULT_INJECT=$F "$CUBRIDGE" run "$CUDA_DIR/saxpy_static"
    grep -q "inspector: DRIFT in kernel saxpy(int, float, float const\*, float\*): param 3 (f32)" "$D/out.txt" || fail "verify did not catch fault $F: $(tail -3 $D/out.txt)"
    s=$(json_field "$D/verify/report.json" '["summary"]["status"]')
    [ "$s" = DRIFT ] || fail "status $s, want DRIFT"
    inspect_run "$D/strict" CUBRIDGE_INSPECT=verify CUBRIDGE_STRICT=1 CUBRIDGE_FAULT_INJECT=$F "$CUBRIDGE" run "$CUDA_DIR/saxpy_static" && fail "strict: the program succeeded"
    grep -q "cudaErrorLaunchFailure" "$D/out.txt" || fail "strict: no cudaErrorLaunchFailure: $(tail -3 $D/out.txt)"
    grep -q "strict: DRIFT in kernel saxpy(int, float, float const\*, float\*)" "$D/out.txt" || fail "strict: the log does not name the kernel"
    ;;
warn)
    # lanes that exited while named in a warp collective's mask: the launch
    # succeeds, and the inspector reports a WARNING naming the kernel, the
    # block, the warp, the lanes and the instruction; strict passes. (Not
    # verify: the filter kernel scatters through atomic results, an order
    # the reference run does not repeat.)
    P=$CUDA_DIR/warp_exit_collectives_static
    "$CUBRIDGE" inspect --strict --report "$D/r" -- "$P" > "$D/out.txt" 2>&1 || fail "program failed under strict: $(tail -5 $D/out.txt)"
    grep -q "PASS warp_exit_collectives" "$D/out.txt" || fail "the program did not pass"
    grep -Eq "^  WARNING kernel partial_reduce\(int const\*, int\*, int\): block \(7,0,0\), warp 3: lanes 0xffffff00 had exited while named in the mask 0xffffffff of shfl.sync.down .*\(2 of its launches\)" "$D/out.txt" || fail "no WARNING line in the text report: $(grep -i warn $D/out.txt | head -3)"
    grep -q "launches with warnings" "$D/out.txt" || fail "the exit summary does not count the warnings"
    grep -q '"type":"launch".*"kernel":"_Z10numba_tailPKiPi".*"warnings":1,"warning":"block (0,0,0), warp 0: lanes 0xfffffffc had exited while named in the mask 0xffffffff of bar.warp.sync' "$D/r/trace.jsonl" || fail "trace.jsonl lacks the warning"
    python3 - "$D/r/report.json" <<'EOF' || fail "report.json"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema"] == "cubridge-inspect-report/3.2", r["schema"]
s = r["summary"]
assert s["status"] == "TRACED", s["status"]
assert s["warnings"] == 3, s["warnings"]
for l in r["launches"]:
    assert l["result"] == "CUDA_SUCCESS" and l["verdict"] == "TRACED", l
    assert (l["warnings"] > 0) == (l["kernel"] != "_Z6filterPiS_PKiii"), l
    if l["kernel"] == "_Z14partial_reducePKiPii":
        assert "lanes 0x" in l["warning"] and "shfl.sync.down" in l["warning"], l["warning"]
rows = {c["entry"]: c for c in r["calls"] if c["kind"] == "kernel"}
k = rows["kernel _Z14partial_reducePKiPii"]
assert k["warnings"] == 2 and k["status"] == "TRACED" and "WARNING (2 launches)" in k["notes"], k
assert rows["kernel _Z6filterPiS_PKiii"]["warnings"] == 0
EOF
    ;;
unsupported)
    LIB=$(dirname "$CUBRIDGE")/../lib
    cc -I/usr/local/cuda/include "$SRC/unsupported_call.c" -o "$D/unsupported_call" -L"$LIB" -lcuda || fail "cannot build unsupported_call.c"
    # strict gates the run: the program exits 0, the process 3 (docs/inspector.md, "Exit status")
    inspect_run "$D/r" CUBRIDGE_INSPECT=trace CUBRIDGE_STRICT=1 LD_LIBRARY_PATH="$LIB" "$D/unsupported_call"
    rc=$?
    [ $rc = 3 ] || fail "unsupported_call under strict exited $rc, want 3: $(tail -3 $D/out.txt)"
    grep -q "cuGraphicsUnregisterResource -> 801" "$D/out.txt" || fail "the program did not see CUDA_ERROR_NOT_SUPPORTED: $(tail -3 $D/out.txt)"
    grep -q "cubridge: inspector: exit status 3 (the program's was 0): 0 launches DRIFT, 0 FAILED, 1 UNSUPPORTED calls" "$D/out.txt" || fail "no exit status line: $(tail -3 $D/out.txt)"
    grep -q "strict: cuGraphicsUnregisterResource is UNSUPPORTED" "$D/out.txt" || fail "no strict UNSUPPORTED log"
    s=$(json_field "$D/r/report.json" '["summary"]["status"]')
    [ "$s" = UNSUPPORTED ] || fail "status $s, want UNSUPPORTED"
    python3 - "$D/r/report.json" <<'EOF' || fail "no UNSUPPORTED row"
import json, sys
rows = json.load(open(sys.argv[1]))["calls"]
assert any(r["entry"] == "cuGraphicsUnregisterResource" and r["status"] == "UNSUPPORTED" for r in rows)
EOF
    ;;
coverage)
    "$CUBRIDGE" coverage > "$D/out.txt" 2>&1 || fail "coverage failed"
    grep -Eq "^driver +mapped +[0-9]+/637 +implemented +[0-9]+ +NOT_SUPPORTED +[0-9]+" "$D/out.txt" || fail "no driver line: $(head -4 $D/out.txt)"
    grep -Eq "^cudart +mapped" "$D/out.txt" || fail "no cudart line"
    "$CUBRIDGE" coverage driver --list | grep -Eq "cuMemAlloc_v2 +implemented +tests/" || fail "cuMemAlloc_v2 not implemented+tested"
    ;;
html)
    # a real program's report: DOM and layout checked in headless Chromium (check_report.py)
    inspect_run "$D/r" CUBRIDGE_INSPECT=verify "$CUBRIDGE" run "$CUDA_DIR/streams_events_static" || fail "program failed"
    ensure_chromium
    SHOT_DIR=$OUT/../reports
    mkdir -p "$SHOT_DIR"
    python3 "$SRC/check_report.py" "$D/r" "$SHOT_DIR/inspector-dashboard.png" --open-first --want-count PASS \
        --want-kernels 2 --want-text "stage1(float*, int, int)" --want-text "cuLaunchKernel" --want-text "PROBE" \
        --want-text "MAPPED EXPORTS" --want-text "Drift per kernel" --want-text "Dispatch path" > "$D/check.txt" 2>&1 \
        || fail "$(cat $D/check.txt)"
    cat "$D/check.txt"
    ;;
audit-html)
    # `cubridge audit`'s dashboard (docs/audit.md): the sdpa preset's report in headless Chromium, one
    # call row per case with its status (PASS with a drift, the fused operation UNSUPPORTED), the facade's
    # own rows, no JavaScript error, nothing wider than the viewport, a screenshot that is not blank
    [ -x "$(dirname "$CUBRIDGE")/../lib/cubridge-workloads" ] || { echo "SKIP: no cubridge-workloads"; exit 0; }
    "$CUBRIDGE" audit --preset sdpa --precision fp16 --report "$D/r" > "$D/out.txt" 2> "$D/err.txt" \
        || fail "cubridge audit --preset sdpa: $(tail -5 $D/err.txt)"
    ensure_chromium
    SHOT_DIR=$OUT/../reports
    mkdir -p "$SHOT_DIR"
    set --
    for c in contiguous noncontig-qkv mask-bcast-11ss mask-bcast-b11s causal; do set -- "$@" --want-call "sdpa.$c.fp16=PASS"; done
    python3 "$SRC/check_report.py" "$D/r" "$SHOT_DIR/audit-dashboard.png" --want-kernels 0 \
        --want-count "library PASS" --want-count "library UNSUPPORTED" "$@" --want-call "sdpa.fused-op.fp16=UNSUPPORTED" --want-call "cudnnBackendExecute=PASS" \
        --want-text "cubridge-workloads" --want-text "cudnnBackendFinalize: CUDNN_STATUS_NOT_SUPPORTED" \
        > "$D/check.txt" 2>&1 || fail "$(cat $D/check.txt)"
    cat "$D/check.txt"
    ;;
report-1|report-2000|report-drift-fault)
    # the three report sizes of docs/inspector.md, "The HTML report", in headless Chromium
    LIB=$(dirname "$CUBRIDGE")/../lib
    cc -Wall -Wextra -Werror -I/usr/local/cuda/include "$SRC/many_launches.c" -o "$D/many_launches" -L"$LIB" -lcuda \
        || fail "cannot build many_launches.c"
    ensure_chromium
    SHOT_DIR=$OUT/../reports
    mkdir -p "$SHOT_DIR"
    case $CASE in
    report-1)
        "$CUBRIDGE" inspect --verify --report "$D/r" -- "$CUDA_DIR/vector_add_static" > "$D/out.txt" 2>&1 || fail "vector_add: $(tail -3 $D/out.txt)"
        set -- --want-count PASS --want-kernels 1 --want-launches 1 --want-text "vector_add(float const*, float const*, float*, int)" ;;
    report-2000)
        "$CUBRIDGE" inspect --verify --report "$D/r" -- "$D/many_launches" 2000 > "$D/out.txt" 2>&1 || fail "many_launches: $(tail -3 $D/out.txt)"
        set -- --want-count PASS --want-kernels 3 --want-launches 2000 --want-text "void detail::fill<int>(int*, int, int)" \
            --want-text "bins per lane" ;;
    report-drift-fault)
        env CUBRIDGE_FAULT_INJECT=perturb "$CUBRIDGE" inspect --verify --report "$D/r" -- "$D/many_launches" 30 --fault --no-check \
            > "$D/out.txt" 2>&1 || fail "many_launches --fault: $(tail -3 $D/out.txt)"
        set -- --want-count DRIFT --want-count FAILED --want-kernels 4 --want-launches 31 \
            --want-text "4 bytes after the 1024-byte device allocation" ;;
    esac
    python3 "$SRC/check_report.py" "$D/r" "$SHOT_DIR/$CASE.png" --open-first "$@" > "$D/check.txt" 2>&1 || fail "$(cat $D/check.txt)"
    cat "$D/check.txt"
    ;;
*)
    fail "unknown case"
    ;;
esac
echo "PASS [$CASE]"
