#!/bin/sh
# Regenerates tests/data/ptx/isa: the PTX (gen_isa.py) and, on a machine with
# an NVIDIA GPU and the CUDA toolkit, isa_golden.bin (golden_gpu.c).
# Usage: tests/data/ptx/isa/regen_golden.sh [OUTFILE]
set -e
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
python3 "$here/gen_isa.py"
cc -O2 -I"$cuda/include" -o /tmp/cb_golden_gpu "$here/golden_gpu.c" -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda
/tmp/cb_golden_gpu "$here" "${1:-$here/isa_golden.bin}"
