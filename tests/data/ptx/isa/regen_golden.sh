#!/bin/sh
# Regenerates the ISA conformance corpus of tests/data/ptx/isa: the PTX files
# and isa_cases.h (gen_isa.py), then, on a machine with an NVIDIA GPU, the
# CUDA driver and a C compiler, isa_golden.bin (golden_gpu.c runs every
# kernel on GPU 0). Needs python3, cc, the CUDA headers and libcuda.
# Usage, from anywhere: sh tests/data/ptx/isa/regen_golden.sh [OUTFILE]
# (default OUTFILE: isa_golden.bin next to this script). Exit status 2: the
# file was written but some kernels failed on the GPU (listed on stderr).
set -e
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
out=${1:-$here/isa_golden.bin}
bin=$(mktemp -d)/cb_golden_gpu
python3 "$here/gen_isa.py"
cc -O2 -std=c11 -Wall -I"$cuda/include" -o "$bin" "$here/golden_gpu.c" -L"$cuda/lib64" -L"$cuda/lib64/stubs" -lcuda
status=0
"$bin" "$here" "$out" || status=$?
rm -rf "$(dirname "$bin")"
exit $status
