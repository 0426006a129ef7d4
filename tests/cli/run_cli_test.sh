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
#                 inside a freed one (err_use_after_free); a fault and an
#                 assert in a run of blocks run as one set of lanes name the
#                 thread's own block, and so does the warning for a lane that
#                 left before a shuffle naming it (lanes_block_runs)
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
#   opencl-devices  `devices --backend opencl` lists every OpenCL device with
#                 its capabilities, each as clinfo reports it (when clinfo is
#                 there); CUBRIDGE_OPENCL_DEVICE marks the one picked, or
#                 fails naming what matched nothing
#   opencl-cache  program binaries in the compile cache: a second run is
#                 served from it (summary and `cache stats` counts), an
#                 entry whose bytes were changed or whose binary the driver
#                 refuses is rebuilt, other build options miss, `cache
#                 clear` empties it
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
        # whichever of the 4 blocks of 64 threads faults first is reported (they run at once): its first
        # thread, at middle + 256 bytes per block
        grep -Eq "failed: block \(([0-3]),0,0\), thread \(0,0,0\): illegal address .* is inside a freed 268435456-byte \(256.0 MiB\) device allocation at 0x[0-9a-f]*, 1342(17728|17984|18240|18496) bytes from its start" \
            "$D/uaf.txt" || fail "use after free: $(grep failed $D/uaf.txt)"
        blk=$(sed -n 's/.*failed: block (\([0-3]\),0,0).*/\1/p' "$D/uaf.txt" | head -n 1)
        grep -q ", $((134217728 + 256 * ${blk:-0})) bytes from its start" "$D/uaf.txt" ||
            fail "use after free: the offset is not block $blk's first thread: $(grep failed $D/uaf.txt)"
        [ "$(grep -c failed "$D/uaf.txt")" = 1 ] || fail "use after free reported more than once"
    fi
    # a run of blocks run as one set of lanes (CUBRIDGE_CODEGEN=fast): the fault and the
    # assert name the thread's own block, 13, not the run's first
    if [ -x "$CUDA_DIR/lanes_block_runs_static" ]; then
        for how in fault assert; do
            CUBRIDGE_CODEGEN=fast "$CUBRIDGE" run -- "$CUDA_DIR/lanes_block_runs_static" $how > "$D/runs-$how.txt" 2>&1 ||
                fail "lanes_block_runs $how: $(tail -3 $D/runs-$how.txt)"
            grep -q "^cubridge: error: kernel one_fails(int\*, int, int, int, int) failed: block (13,0,0), thread (37,0,0): " \
                "$D/runs-$how.txt" || fail "lanes_block_runs $how: $(grep -i fail $D/runs-$how.txt)"
        done
        grep -q "block: \[13,0,0\], thread: \[37,0,0\] Assertion \`!bad\` failed" "$D/runs-assert.txt" ||
            fail "lanes_block_runs assert: the assert line: $(grep Assert $D/runs-assert.txt)"
        # the warning for a lane that left before a shuffle naming it: its block and its warp in the block
        CUBRIDGE_CODEGEN=fast CUBRIDGE_LOG=2 "$CUBRIDGE" run -- "$CUDA_DIR/lanes_block_runs_static" gone > "$D/runs-gone.txt" 2>&1 ||
            fail "lanes_block_runs gone: $(tail -3 $D/runs-gone.txt)"
        grep -q "block (13,0,0), warp 1: lanes 0x00000020 had exited" "$D/runs-gone.txt" ||
            fail "lanes_block_runs gone: $(grep -i exited $D/runs-gone.txt)"
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
opencl-devices)
    "$CUBRIDGE" devices --backend opencl > "$D/dev.txt" 2> "$D/err.txt"
    rc=$?
    grep -q "no OpenCL\|backend opencl\|no such backend" "$D/err.txt" && { echo "SKIP: no OpenCL device: $(cat $D/err.txt)"; exit 77; }
    [ $rc = 0 ] || fail "devices --backend opencl exited $rc: $(cat $D/err.txt)"
    grep -q "backend             opencl" "$D/dev.txt" || fail "no CUDA device of the opencl backend: $(cat $D/dev.txt)"
    grep -q "^[0-9]* OpenCL devices\? (CUBRIDGE_OPENCL_DEVICE" "$D/dev.txt" || fail "no OpenCL list: $(cat $D/dev.txt)"
    grep -q "^\* [0-9]*:[0-9]*  " "$D/dev.txt" || fail "no device marked as picked: $(cat $D/dev.txt)"
    for what in "platform  " "version   " "compute units" "memory    " "work-group size" "sub-groups" "fp16   " \
                "fp64   " "64-bit atomics" "SVM    " "images    " "cubridge uses"; do
        grep -q "^   $what" "$D/dev.txt" || fail "no '$what' line: $(cat $D/dev.txt)"
    done
    # the first device's answers against clinfo's (another program asking the same driver)
    if command -v clinfo > /dev/null && clinfo --raw > "$D/clinfo.txt" 2>/dev/null; then
        first() { grep -m1 " $1 " "$D/clinfo.txt" | sed 's/^\[[^]]*\] *[A-Z_0-9]* *//'; }
        dev0=$(sed -n '/^[* ] 0:0  /,/^[* ] [0-9]*:[0-9]*  /p' "$D/dev.txt")
        ext=$(first CL_DEVICE_EXTENSIONS)
        want() { echo "$dev0" | grep -q "^   $1 *$2" || fail "0:0 $1: want '$2' ($3): $(echo "$dev0" | grep "^   $1")"; }
        case " $ext " in *" cl_khr_fp64 "*) want fp64 yes "clinfo lists cl_khr_fp64";; *) want fp64 no "no cl_khr_fp64";; esac
        case " $ext " in *" cl_khr_fp16 "*) want fp16 yes "clinfo lists cl_khr_fp16";; *) want fp16 no "no cl_khr_fp16";; esac
        case " $ext " in *" cl_khr_int64_base_atomics "*) want "64-bit atomics" yes "cl_khr_int64_base_atomics";;
                         *) want "64-bit atomics" no "no cl_khr_int64_base_atomics";; esac
        case " $ext " in *" cl_khr_subgroups "*) want sub-groups yes "cl_khr_subgroups";; esac
        [ "$(first CL_DEVICE_MAX_NUM_SUB_GROUPS)" = 0 ] && ! case " $ext " in *" cl_khr_subgroups "*) true;; *) false;; esac &&
            want sub-groups "none (no cl_khr_subgroups; CL_DEVICE_MAX_NUM_SUB_GROUPS 0)" "clinfo: 0 sub-groups"
        [ "$(first CL_DEVICE_IMAGE_SUPPORT)" = CL_TRUE ] && want images yes "CL_DEVICE_IMAGE_SUPPORT"
        [ "$(first CL_DEVICE_IMAGE_SUPPORT)" = CL_FALSE ] && want images no "CL_DEVICE_IMAGE_SUPPORT"
        svm=$(first CL_DEVICE_SVM_CAPABILITIES)
        case "$svm" in *COARSE_GRAIN_BUFFER*) want SVM "coarse-grained buffer yes" "$svm";; esac
        case "$svm" in *FINE_GRAIN_BUFFER*) want SVM ".*fine-grained buffer yes" "$svm";; esac
        name=$(first CL_DEVICE_NAME)
        echo "$dev0" | grep -q "^[* ] 0:0  $name (" || fail "0:0 is not clinfo's first device '$name': $dev0"
    fi
    # picking by P:D marks it; a name that matches nothing fails and says so, still listing what there is
    CUBRIDGE_OPENCL_DEVICE=0:0 "$CUBRIDGE" devices --backend opencl > "$D/pick.txt" 2>&1 || fail "0:0: $(cat $D/pick.txt)"
    grep -q "^\* 0:0  " "$D/pick.txt" || fail "0:0 is not marked: $(cat $D/pick.txt)"
    CUBRIDGE_OPENCL_DEVICE=no-such-device "$CUBRIDGE" devices --backend opencl > "$D/none.txt" 2>&1 && fail "no-such-device succeeded"
    grep -q 'no OpenCL device matches CUBRIDGE_OPENCL_DEVICE="no-such-device"' "$D/none.txt" || fail "$(cat $D/none.txt)"
    grep -q "^  0:0  " "$D/none.txt" || fail "the list is not printed, unmarked, when nothing matches: $(cat $D/none.txt)"
    "$CUBRIDGE" devices --backend bogus > "$D/bogus.txt" 2>&1 && fail "--backend bogus succeeded"
    grep -q "this build has: cpu, cuda, opencl" "$D/bogus.txt" || fail "$(cat $D/bogus.txt)"
    ;;
opencl-cache)
    P=$CUDA_DIR/vector_add_static M=$CUDA_DIR/templates_static
    [ -x "$P" ] && [ -x "$M" ] || { echo "SKIP: tests/cuda programs not built"; exit 77; }
    "$CUBRIDGE" devices --backend opencl > /dev/null 2>&1 || { echo "SKIP: no OpenCL device"; exit 77; }
    export CUBRIDGE_CACHE_DIR=$D/cache CUBRIDGE_BACKEND=opencl CUBRIDGE_SUMMARY=1
    unset CUBRIDGE_OPENCL_BUILD_OPTIONS
    # run NAME PROGRAM N: runs it, which must pass with N of its modules from the cache
    run() {
        "$CUBRIDGE" run -- "$2" > "$D/$1.txt" 2>&1 || fail "$1: $2 failed: $(tail -5 $D/$1.txt)"
        grep -q "modules ($3 from cache)" "$D/$1.txt" || fail "$1: want $3 from cache: $(grep 'cubridge: backend' $D/$1.txt)"
    }
    stat_is() { "$CUBRIDGE" cache stats > "$D/stats.txt" 2>&1; grep -q "^  $1 *$2" "$D/stats.txt" || fail "cache stats: want '$1 $2': $(cat $D/stats.txt)"; }
    run cold "$P" 0
    n=$(ls "$D/cache" | grep -c '^[0-9a-f]\{64\}\.clbin$')
    [ "$n" = 1 ] || fail "want one .clbin entry, found $n: $(ls $D/cache)"
    entry=$(ls "$D/cache"/*.clbin)
    [ -f "${entry%.clbin}.cl" ] || fail "no source beside the entry"
    run warm "$P" 1
    CUBRIDGE_LOG=3 "$CUBRIDGE" run -- "$P" > "$D/log.txt" 2>&1
    grep -q "opencl: cache hit [0-9a-f]\{64\}: program from its binary" "$D/log.txt" || fail "no hit in the log: $(grep opencl $D/log.txt)"
    stat_is "opencl entries" "1 (.clbin files"
    stat_is "opencl hits" "2 (66.7% of 3 loads"
    stat_is "opencl misses" "1 (builds from source)"
    stat_is "opencl rebuilt" "0"
    stat_is "entries" "0"
    # a changed byte: refused before it reaches the driver, rebuilt, then a hit again
    python3 - "$entry" <<'PYEOF' || fail "cannot damage the entry"
import sys
p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[len(b) // 3] ^= 0x40; open(p, "wb").write(b)
PYEOF
    run damaged "$P" 0
    grep -q "JIT cache entry .*\.clbin is refused: its bytes do not match the SHA-256 in its trailer (modified); rebuilding it" \
        "$D/damaged.txt" || fail "no refusal: $(grep -i cache $D/damaged.txt)"
    run rebuilt "$P" 1
    stat_is "opencl rebuilt" "1 (entries found bad"
    # an entry that proves itself but holds no program binary: the driver refuses it; rebuilt
    python3 - "$entry" <<'PYEOF' || fail "cannot forge the entry"
import hashlib, struct, sys
p = sys.argv[1]; b = open(p, "rb").read(); t = b[-112:]
body = b"not a program binary" * 40
head = t[:8] + struct.pack("<Q", len(body)) + t[16:80]
open(p, "wb").write(body + head + hashlib.sha256(body + head).digest())
PYEOF
    run forged "$P" 0
    grep -q "JIT cache entry .*\.clbin is refused: clCreateProgramWithBinary refused it\|JIT cache entry .*\.clbin is refused: clBuildProgram on the binary failed" \
        "$D/forged.txt" || fail "the driver's refusal is not reported: $(grep -i cache $D/forged.txt)"
    run reforged "$P" 1
    stat_is "opencl rebuilt" "2 (entries found bad"
    # other build options: another key (a miss), whose entry then hits; the first still hits
    CUBRIDGE_OPENCL_BUILD_OPTIONS=-cl-opt-disable run opt "$P" 0
    CUBRIDGE_OPENCL_BUILD_OPTIONS=-cl-opt-disable run opt2 "$P" 1
    n=$(ls "$D/cache" | grep -c '\.clbin$')
    [ "$n" = 2 ] || fail "want two entries (two option sets), found $n"
    run plain "$P" 1
    # a program of several kernels: each is a program of its own (lazy loading), each from the cache
    run multi "$M" 0
    k=$(sed -n 's/.* | \([0-9]*\) of [0-9]* kernels compiled.*/\1/p' "$D/multi.txt")
    [ -n "$k" ] && [ "$k" -ge 2 ] || fail "want several kernels: $(grep 'cubridge: backend' $D/multi.txt)"
    run multi2 "$M" "$k"
    "$CUBRIDGE" cache clear > "$D/clear.txt" 2>&1 || fail "cache clear: $(cat $D/clear.txt)"
    [ -z "$(ls "$D/cache")" ] || fail "cache clear left $(ls $D/cache)"
    "$CUBRIDGE" cache stats > "$D/stats.txt" 2>&1
    grep -q "^  opencl" "$D/stats.txt" && fail "cleared, yet: $(cat $D/stats.txt)"
    run after-clear "$P" 0
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
