#!/bin/sh
# Rebuilds the fatbin test inputs with the installed nvcc (CUDA 13).
# Run from anywhere: sh tests/data/fatbin/regen.sh
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-${CUDA_HOME:-/usr/local/cuda}/bin/nvcc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ptx75="-gencode arch=compute_75,code=compute_75"

# One PTX entry for sm_75, stored three ways (default mode is zstd).
"$NVCC" -fatbin $ptx75 add.cu -o add_zstd.fatbin
"$NVCC" -fatbin $ptx75 --compress-mode=speed add.cu -o add_lz4.fatbin
"$NVCC" -fatbin $ptx75 --compress-mode=none add.cu -o add_none.fatbin
# The same PTX as nvcc -ptx prints it (with comments and indentation).
"$NVCC" -ptx -arch=compute_75 add.cu -o add75.ptx

# PTX for sm_75, sm_80 and sm_90 plus SASS for sm_80, everything compressed.
"$NVCC" -fatbin -Xfatbin=-compress-all add.cu -o add_multi.fatbin \
    -gencode arch=compute_75,code=compute_75 -gencode arch=compute_80,code=[sm_80,compute_80] \
    -gencode arch=compute_90,code=compute_90
# PTX only for an architecture above any reported one (CuPy ships CUB this way).
"$NVCC" -fatbin -gencode arch=compute_120,code=compute_120 add.cu -o add_120.fatbin
# SASS only: nothing to run.
"$NVCC" -fatbin -Xfatbin=-compress-all -gencode arch=compute_75,code=sm_75 add.cu -o add_sass.fatbin
"$NVCC" -cubin -arch=sm_86 add.cu -o add86.cubin

# A second translation unit, for the wrapper (v2, prelinked array) tests.
"$NVCC" -fatbin $ptx75 scale.cu -o scale_zstd.fatbin

# The .nv_fatbin section of a real two-file program: a SASS-only linked
# fatbin followed by one fatbin per translation unit.
"$NVCC" -Xfatbin=-compress-all -cudart shared main.cu add.cu scale.cu -o "$T/prog"
objcopy -O binary --only-section=.nv_fatbin "$T/prog" prog.nv_fatbin
ls -l
