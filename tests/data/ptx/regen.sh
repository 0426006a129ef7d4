#!/bin/sh
# Regenerates the committed PTX from tests/data/ptx/src/*.cu with the installed nvcc.
# Sources named *_sm80.cu are built for sm_80 (bf16 arithmetic), the rest for sm_75.
# Each source gives <name>.ptx (nvcc -ptx, default -O3) and <name>.debug.ptx (-G, debug).
# Usage: tests/data/ptx/regen.sh [path/to/nvcc]
set -e
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}
for cu in "$here"/src/*.cu; do
    name=$(basename "$cu" .cu)
    arch=sm_75
    case "$name" in *_sm80) arch=sm_80 ;; esac
    "$nvcc" -ptx -arch=$arch -o "$here/$name.ptx" "$cu"
    "$nvcc" -ptx -arch=$arch -G -o "$here/$name.debug.ptx" "$cu"
done
