#!/bin/sh
# Regenerates the committed PTX from tests/data/ptx/src/*.cu with the installed nvcc.
# Each source gives <name>.ptx (nvcc -ptx, default -O3) and <name>.G.ptx (-G, debug).
# Usage: tests/data/ptx/regen.sh [path/to/nvcc]
set -e
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}
for cu in "$here"/src/*.cu; do
    name=$(basename "$cu" .cu)
    "$nvcc" -ptx -arch=sm_75 -o "$here/$name.ptx" "$cu"
    "$nvcc" -ptx -arch=sm_75 -G -o "$here/$name.G.ptx" "$cu"
done
