#!/bin/bash
# run_cli_test.sh CASE CUBRIDGE CUDA_TEST_DIR OUT_DIR
#
# The command line as a user meets it (docs/cli.md), each CASE one ctest
# entry `cli.CASE` (tests/CMakeLists.txt). Programs: the small driver-API
# programs of tests/cli and tests/inspect, built here against cubridge's
# libcuda.so.1, and (when built) the tests/cuda programs.
#
#   docs          docs/cubridge.1 and docs/cli.md's reference section are
#                 what the command table prints (scripts/gen_cli_docs.sh --check)
#   exitcode      inspect --error-exitcode N: N when a launch drifts (even
#                 though the program exits 0), the program's status
#                 otherwise; CUBRIDGE_STRICT=1 alone exits 3; 0 turns it off;
#                 --junit FILE writes the verdicts as JUnit XML
#   demangle      kernel names demangled in the terminal table, the error
#                 line and report.json's "demangled" (mangled kept as "name")
#   fault         a fault is reported once, naming kernel, block, thread, the
#                 address and the allocation: 4 bytes after a 1024-byte one;
#                 inside a freed one (err_use_after_free)
#   signal        a program killed by SIGSEGV, SIGABRT or SIGTERM: its
#                 buffered stdout is flushed, stderr says which signal, the
#                 summary line is there, and the wait status is the signal's
#   progress      module translation shows a progress line on a pseudo-
#                 terminal (CUBRIDGE_PROGRESS_AFTER=0: at once), and nothing
#                 when stderr is a pipe
#   no-ptx        the "no PTX" advice fits the binary: a SASS-only fatbin or
#                 a cubin must be rebuilt with PTX (CUBRIDGE_SM cannot help);
#                 PTX only above the reported sm loads
#   backend       CUBRIDGE_BACKEND=bogus: one error line and no summary line;
#                 `devices` under the cuda backend lists NVIDIA's devices (a
#                 mock driver here), or says none was found
#   install       `cmake --install` to a temporary prefix, then
#                 PREFIX/bin/cubridge run -- vectorAdd finds PREFIX/lib/cubridge
set -u
CASE=$1 CUBRIDGE=$2 CUDA_DIR=$3 OUT=$4
SRC=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$SRC/../.." && pwd)
LIB=$(cd "$(dirname "$CUBRIDGE")/../lib" && pwd)
D=$OUT/$CASE
rm -rf "$D"
mkdir -p "$D"
D=$(cd "$D" && pwd)
fail() { echo "FAIL [$CASE]: $*"; exit 1; }
build() {   # build NAME SOURCE: a driver-API program linked to our libcuda.so.1
    cc -Wall -Wextra -Werror -I"${CB_CUDA_INCLUDE:-${CUDA_HOME:-/usr/local/cuda}/include}" "$2" -o "$D/$1" -L"$LIB" -lcuda \
        || fail "cannot build $2"
}

case $CASE in
docs)
    bash "$ROOT/scripts/gen_cli_docs.sh" "$CUBRIDGE" --check > "$D/out.txt" 2>&1 || fail "$(tail -20 $D/out.txt)"
    ;;
exitcode)
    build many_launches "$ROOT/tests/inspect/many_launches.c"
    # clean: the program's status
    "$CUBRIDGE" inspect --verify --error-exitcode=9 --report "$D/clean" -- "$D/many_launches" 6 > "$D/clean.txt" 2>&1
    rc=$?
    [ $rc = 0 ] || fail "a clean run exited $rc: $(tail -3 $D/clean.txt)"
    grep -q "launches: PASS 6 | calls: " "$D/clean.txt" || fail "no status counts: $(grep -A1 'cubridge inspector' $D/clean.txt)"
    # drift (planted), the program exits 0 (--no-check): N
    env CUBRIDGE_FAULT_INJECT=perturb "$CUBRIDGE" inspect --verify --error-exitcode=9 --junit "$D/j.xml" --report "$D/d" -- \
        "$D/many_launches" 6 --no-check > "$D/d.txt" 2>&1
    rc=$?
    [ $rc = 9 ] || fail "a drifting run exited $rc, want 9: $(tail -3 $D/d.txt)"
    grep -q "many_launches: ok" "$D/d.txt" || fail "the program itself did not succeed"
    grep -q "cubridge: inspector: exit status 9 (the program's was 0): 6 launches DRIFT" "$D/d.txt" || fail "no exit line: $(tail -3 $D/d.txt)"
    grep -q "launches: DRIFT 6 | calls: " "$D/d.txt" || fail "the summary does not count DRIFT"
    python3 - "$D/j.xml" "$D/d/junit.xml" "$D/d/report.json" <<'EOF' || fail "junit/report"
import json, sys, xml.etree.ElementTree as ET
for path in sys.argv[1:3]:
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites" and root.get("failures") == "3", (path, root.attrib)
    cases = {c.get("name"): c for c in root.iter("testcase")}
    k = cases["scale(float*, int, float)"]
    assert k.find("failure").get("type") == "DRIFT", ET.tostring(k)
    assert "_Z5scalePfif" in k.find("system-out").text
r = json.load(open(sys.argv[3]))
p = r["program"]
assert p["exit_status"] == 0 and p["exit_status_final"] == 9, p
assert r["summary"]["failures"] == 6 and r["summary"]["error_exitcode"] == 9, r["summary"]
EOF
    # CUBRIDGE_STRICT=1 alone (no CLI): 3
    env CUBRIDGE_INSPECT=verify CUBRIDGE_STRICT=1 CUBRIDGE_FAULT_INJECT=perturb CUBRIDGE_INSPECT_DIR="$D/s" \
        "$CUBRIDGE" run "$D/many_launches" 3 --no-check > "$D/s.txt" 2>&1
    rc=$?
    [ $rc = 3 ] || fail "strict exited $rc, want 3: $(tail -3 $D/s.txt)"
    # --error-exitcode=0: the program's own status even under strict
    env CUBRIDGE_FAULT_INJECT=perturb "$CUBRIDGE" inspect --verify --strict --error-exitcode=0 --report "$D/z" -- \
        "$D/many_launches" 3 --no-check > "$D/z.txt" 2>&1
    rc=$?
    [ $rc = 1 ] || fail "--error-exitcode=0 exited $rc, want the program's 1 (its launches fail under strict)"
    ;;
demangle)
    build many_launches "$ROOT/tests/inspect/many_launches.c"
    "$CUBRIDGE" inspect --report "$D/r" -- "$D/many_launches" 3 --fault > "$D/out.txt" 2>&1 || fail "$(tail -3 $D/out.txt)"
    for k in "kernel scale(float\*, int, float)" "kernel offset(float\*, int, float)" "kernel void detail::fill<int>(int\*, int, int)" \
             "kernel oob_write(float\*, long)"; do
        grep -q "^  $k" "$D/out.txt" || fail "the terminal table lacks '$k': $(grep '^  kernel' $D/out.txt)"
    done
    grep -q "error: kernel oob_write(float\*, long) failed" "$D/out.txt" || fail "the error line is not demangled"
    grep -q "_Z[0-9]" "$D/out.txt" && fail "a mangled name on stderr: $(grep '_Z[0-9]' $D/out.txt | head -3)"
    python3 - "$D/r/report.json" <<'EOF' || fail "report.json names"
import json, sys
r = json.load(open(sys.argv[1]))
k = {x["name"]: x["demangled"] for x in r["kernels"]}
assert k["_Z5scalePfif"] == "scale(float*, int, float)", k
assert k["_ZN6detail4fillIiEEvPT_ii"] == "void detail::fill<int>(int*, int, int)", k
assert r["launches"][0]["kernel"] == "_Z5scalePfif"
assert any(c.get("demangled") == "oob_write(float*, long)" for c in r["calls"] if c["kind"] == "kernel")
EOF
    ;;
fault)
    build many_launches "$ROOT/tests/inspect/many_launches.c"
    "$CUBRIDGE" run -- "$D/many_launches" 3 --fault > "$D/out.txt" 2> "$D/err.txt" || fail "$(tail -3 $D/err.txt)"
    n=$(grep -c "failed" "$D/err.txt")
    [ "$n" = 1 ] || fail "the fault is reported $n times: $(cat $D/err.txt)"
    grep -Eq "^cubridge: error: kernel oob_write\(float\*, long\) failed: block \(0,0,0\), thread \(0,0,0\): illegal address 0x[0-9a-f]+ \(SIGSEGV\); address 0x[0-9a-f]+ is 4 bytes after the 1024-byte device allocation at 0x[0-9a-f]+$" \
        "$D/err.txt" || fail "fault line: $(cat $D/err.txt)"
    if [ -x "$CUDA_DIR/err_use_after_free_static" ]; then
        "$CUBRIDGE" run "$CUDA_DIR/err_use_after_free_static" > "$D/uaf.txt" 2>&1 || fail "err_use_after_free: $(tail -3 $D/uaf.txt)"
        grep -q "failed: block (0,0,0), thread (0,0,0): illegal address .* is inside a freed 268435456-byte (256.0 MiB) device allocation at 0x[0-9a-f]*, 134217728 bytes from its start" \
            "$D/uaf.txt" || fail "use after free: $(grep failed $D/uaf.txt)"
        [ "$(grep -c failed "$D/uaf.txt")" = 1 ] || fail "use after free reported more than once"
    fi
    ;;
signal)
    build signal_death "$SRC/signal_death.c"
    cases="segv:SIGSEGV:139 abort:SIGABRT:134 term:SIGTERM:143"
    # under ASan (scripts/test.sh --sanitize preloads it) SIGSEGV is ASan's own
    # to report, and cubridge leaves a handled signal alone
    case ${LD_PRELOAD:-} in *asan*) cases="abort:SIGABRT:134 term:SIGTERM:143" ;; esac
    for how in $cases; do
        IFS=: read -r arg name status <<< "$how"
        # bash reports a child killed by signal N as 128+N
        bash -c '"$1" run -- "$2" "$3" > "$4.out" 2> "$4.err"; echo $? > "$4.rc"' _ "$CUBRIDGE" "$D/signal_death" "$arg" "$D/$arg"
        rc=$(cat "$D/$arg.rc")
        [ "$rc" = "$status" ] || fail "$arg: status $rc, want $status (death by $name)"
        grep -qx "buffered line before the $arg" "$D/$arg.out" || fail "$arg: the buffered stdout was lost"
        grep -q "^cubridge: signal_death was killed by $name (signal [0-9]*)" "$D/$arg.err" || fail "$arg: no signal line: $(cat $D/$arg.err)"
        grep -q "^cubridge: backend cpu | " "$D/$arg.err" || fail "$arg: no summary line"
    done
    ;;
progress)
    build many_launches "$ROOT/tests/inspect/many_launches.c"
    python3 - "$CUBRIDGE" "$D/many_launches" "$D" <<'EOF' || fail "progress"
import os, subprocess, sys
cli, prog, d = sys.argv[1:4]
def run(tty):
    # eager: the load compiles the module (lazily it only indexes the PTX, docs/cpu-backend.md)
    env = dict(os.environ, CUBRIDGE_PROGRESS_AFTER="0", CUBRIDGE_CACHE_DIR=os.path.join(d, "cache-%d" % tty),
               CUDA_MODULE_LOADING="EAGER")
    if not tty:
        return subprocess.run([cli, "run", prog, "3"], capture_output=True, env=env).stderr.decode()
    master, slave = os.openpty()
    p = subprocess.Popen([cli, "run", prog, "3"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    p.wait()
    return out.decode()
t, p = run(1), run(0)
assert "cubridge: translating module 1, 4 kernels: compiling the C" in t, repr(t)
assert "cubridge: module 1 ready: 4 kernels in" in t, repr(t)
assert "translating" not in p and "\r" not in p, repr(p)
assert "cubridge: backend cpu" in p
EOF
    ;;
no-ptx)
    build load_image "$SRC/load_image.c"
    F=$ROOT/tests/data/fatbin
    "$CUBRIDGE" run "$D/load_image" "$F/add_sass.fatbin" > "$D/sass.txt" 2>&1
    grep -q "cuModuleLoadData: CUDA_ERROR_NO_BINARY_FOR_GPU" "$D/sass.txt" || fail "SASS only: $(cat $D/sass.txt)"
    grep -q "holds no PTX at any architecture" "$D/sass.txt" || fail "SASS only: advice: $(cat $D/sass.txt)"
    grep -q "CUBRIDGE_SM cannot help" "$D/sass.txt" || fail "SASS only: advises CUBRIDGE_SM"
    "$CUBRIDGE" run "$D/load_image" "$F/add86.cubin" > "$D/cubin.txt" 2>&1
    grep -q "holds no PTX at any architecture" "$D/cubin.txt" || fail "a cubin: advice: $(cat $D/cubin.txt)"
    # PTX only above the reported sm runs (the CPU runs any PTX): no advice needed
    "$CUBRIDGE" run --sm 70 "$D/load_image" "$F/add_multi.fatbin" > "$D/high.txt" 2>&1
    grep -q "cuModuleLoadData: CUDA_SUCCESS" "$D/high.txt" || fail "PTX above the reported sm: $(cat $D/high.txt)"
    ;;
backend)
    build many_launches "$ROOT/tests/inspect/many_launches.c"
    env CUBRIDGE_BACKEND=bogus CUBRIDGE_SUMMARY=1 LD_LIBRARY_PATH="$LIB" "$D/many_launches" 1 > "$D/out.txt" 2> "$D/err.txt"
    [ "$(wc -l < "$D/err.txt")" = 1 ] || fail "want one line on stderr: $(cat $D/err.txt)"
    grep -q "CUBRIDGE_BACKEND=bogus: no such backend" "$D/err.txt" || fail "$(cat $D/err.txt)"
    "$CUBRIDGE" run --backend bogus "$D/many_launches" 1 > "$D/cli.txt" 2>&1 && fail "--backend bogus ran"
    grep -q "cubridge: backend" "$D/cli.txt" && fail "--backend bogus printed a summary line"
    cc -Wall -Wextra -Werror -shared -fPIC -I"${CB_CUDA_INCLUDE:-${CUDA_HOME:-/usr/local/cuda}/include}" "$ROOT/tests/inspect/mock_libcuda.c" \
        -o "$D/libmockcuda.so" -ldl || fail "cannot build the mock driver"
    env CUBRIDGE_BACKEND=cuda CUBRIDGE_REAL_LIBCUDA="$D/libmockcuda.so" "$CUBRIDGE" devices > "$D/dev.txt" 2>&1 || fail "devices: $(cat $D/dev.txt)"
    grep -q "^0: Mock GPU" "$D/dev.txt" && grep -q "backend             cuda (NVIDIA's driver, $D/libmockcuda.so)" "$D/dev.txt" \
        || fail "devices under cuda: $(cat $D/dev.txt)"
    grep -q "\[cubridge\]" "$D/dev.txt" && fail "devices under cuda lists cubridge's CPU device"
    env CUBRIDGE_BACKEND=cuda CUBRIDGE_REAL_LIBCUDA="$D/none.so" "$CUBRIDGE" devices > "$D/none.txt" 2>&1 && fail "devices without a driver succeeded"
    grep -q "no usable NVIDIA libcuda.so.1" "$D/none.txt" || fail "$(cat $D/none.txt)"
    ;;
install)
    BUILD=$(cd "$(dirname "$CUBRIDGE")/.." && pwd)
    P=$D/prefix
    cmake --install "$BUILD" --prefix "$P" > "$D/install.txt" 2>&1 || fail "cmake --install: $(tail -5 $D/install.txt)"
    for f in bin/cubridge lib/cubridge/libcuda.so.1 lib/cubridge/libnvJitLink.so.13 share/man/man1/cubridge.1 \
             share/doc/cubridge/cli.md share/doc/cubridge/LICENSE; do
        [ -e "$P/$f" ] || fail "the install lacks $f: $(cd $P && find . | head -30)"
    done
    "$P/bin/cubridge" --help > /dev/null || fail "the installed cubridge does not run"
    # examples/vectorAdd.cu, built once into OUT (nvcc is slow)
    NVCC=${CB_NVCC:-${CUDA_HOME:-/usr/local/cuda}/bin/nvcc}
    prog=$OUT/vectorAdd
    if [ ! -x "$prog" ] || [ "$ROOT/examples/vectorAdd.cu" -nt "$prog" ]; then
        command -v "$NVCC" > /dev/null || { echo "SKIP: no nvcc to build examples/vectorAdd"; exit 77; }
        env -u LD_PRELOAD "$NVCC" "$ROOT/examples/vectorAdd.cu" -o "$prog" > "$D/nvcc.txt" 2>&1 || fail "nvcc: $(tail -3 $D/nvcc.txt)"
    fi
    env -u CUBRIDGE_LIB_DIR "$P/bin/cubridge" run -- "$prog" > "$D/run.txt" 2>&1 || fail "installed run: $(tail -5 $D/run.txt)"
    grep -q "^cubridge: backend cpu | " "$D/run.txt" || fail "no summary line: $(tail -3 $D/run.txt)"
    env -u CUBRIDGE_LIB_DIR "$P/bin/cubridge" run -- sh -c 'printf %s "$LD_LIBRARY_PATH"' > "$D/path.txt" 2>&1
    grep -q "^$P/bin/../lib/cubridge:" "$D/path.txt" || fail "the installed run does not use PREFIX/lib/cubridge: $(cat $D/path.txt)"
    ;;
*)
    fail "unknown case"
    ;;
esac
echo "PASS [$CASE]"
