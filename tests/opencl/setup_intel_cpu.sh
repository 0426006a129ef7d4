#!/usr/bin/env bash
# tests/opencl/setup_intel_cpu.sh DIR: fetches Intel's CPU OpenCL runtime into
# DIR as a second OpenCL test device beside PoCL: an Intel driver, with
# sub-groups (cl_intel_required_subgroup_size: 4 to 64 lanes), cl_khr_fp16 and
# fine-grained SVM, which PoCL 3.1 lacks. It runs on any x86-64 CPU with SSE4.2
# (AMD's too).
#
# The runtime is Intel's (the Intel Simplified Software License), published on
# PyPI as the wheels below; nothing of it is linked into cubridge or
# redistributed with it: the tests opencl.intel.<X> name it to the ICD loader
# with OCL_ICD_VENDORS (tests/cuda/CMakeLists.txt). The wheels are unpacked
# with Python's zipfile, not installed. Writes:
#   DIR/icd/intel.icd   the ICD file (the path of libintelocl.so)
#   DIR/ld_path         the LD_LIBRARY_PATH its libraries need (TBB, Intel's math runtime)
# A stamp skips the download when DIR already holds the pinned versions.
# Exits non-zero (and the tests are not registered) when pip cannot fetch them.
set -uo pipefail
dir=${1:?usage: setup_intel_cpu.sh DIR}
# pinned: the versions checked with cubridge (2026-12-04)
wheels=(intel-opencl-rt==2026.2.0 intel-cmplr-lib-rt==2026.2.0 tbb==2023.2.0)
want=$(printf '%s\n' "${wheels[@]}")
if [ -f "$dir/.stamp" ] && [ "$(cat "$dir/.stamp")" = "$want" ] && [ -f "$dir/icd/intel.icd" ]; then
  echo "intel opencl: $dir is up to date"
  exit 0
fi
rm -rf "$dir"
mkdir -p "$dir/wheels" "$dir/icd" || exit 1
if ! python3 -m pip --version > /dev/null 2>&1 && command -v apt-get > /dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "intel opencl: installing python3-pip"
  $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q python3-pip
fi
if ! python3 -m pip download --disable-pip-version-check -q --no-deps -d "$dir/wheels" "${wheels[@]}"; then
  echo "intel opencl: pip could not fetch ${wheels[*]}; the opencl.intel tests are left out" >&2
  rm -rf "$dir"
  exit 1
fi
python3 - "$dir" <<'EOF' || { echo "intel opencl: unpacking failed" >&2; rm -rf "$dir"; exit 1; }
import filecmp, glob, os, sys, zipfile
d = sys.argv[1]
for w in glob.glob(os.path.join(d, "wheels", "*.whl")):
    zipfile.ZipFile(w).extractall(os.path.join(d, "x"))
    os.remove(w)
libs = sorted({os.path.dirname(p) for p in glob.glob(os.path.join(d, "x", "*", "data", "lib", "*.so*"))})
# wheels hold copies where the packages had symbolic links (libX.so, libX.so.N -> libX.so.N.M): link them again
for lib in libs:
    names = sorted(os.listdir(lib), key=len, reverse=True)
    for short in names:
        for full in names:
            a, b = os.path.join(lib, short), os.path.join(lib, full)
            if (full != short and full.startswith(short + ".") and not os.path.islink(a) and not os.path.islink(b)
                    and filecmp.cmp(a, b, shallow=False)):
                os.remove(a)
                os.symlink(full, a)
                break
ocl = glob.glob(os.path.join(d, "x", "*", "data", "lib", "libintelocl.so"))
if not ocl:
    sys.exit("no libintelocl.so in the wheels")
open(os.path.join(d, "icd", "intel.icd"), "w").write(os.path.abspath(ocl[0]) + "\n")
open(os.path.join(d, "ld_path"), "w").write(":".join(os.path.abspath(p) for p in libs) + "\n")
EOF
printf '%s' "$want" > "$dir/.stamp"
echo "intel opencl: $(cat "$dir/icd/intel.icd")"
