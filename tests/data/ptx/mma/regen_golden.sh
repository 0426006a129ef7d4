#!/bin/sh
# Records what a real GPU computes for the tensor-core probe kernels
# (mma.ptx: m8n8k4 .f16 quad pairs, fp8, sparse mma.sp, tf32 low bits,
# integer/binary, f64) into mma_golden.bin, which test_cpu_mma_golden
# compares the CPU backend against. Run it on a machine with an sm_90 GPU
# (H100/H200) and the CUDA toolkit, from anywhere:
#   sh tests/data/ptx/mma/regen_golden.sh [OUTFILE]
# then copy mma_golden.bin back into tests/data/ptx/mma/ and commit it.
set -e
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
# mma.ptx and mma_cases.h are committed; regenerate them when python3 is there
if command -v python3 >/dev/null 2>&1; then python3 "$here/gen_mma.py"; fi
cc -O2 -I"$cuda/include" -o /tmp/cb_golden_mma_gpu "$here/golden_mma_gpu.c" -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda
/tmp/cb_golden_mma_gpu "$here" "${1:-$here/mma_golden.bin}"
