#!/usr/bin/env bash
# scripts/demo.sh: build cubridge, compile examples/vectorAdd.cu with plain
# nvcc, and run it on the CPU through `cubridge run`.  Prints the program's
# result and cubridge's one-line dispatch summary.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup_deps.sh
cb_install_missing
command -v nvcc >/dev/null || { echo "demo: nvcc is needed (CUDA toolkit at /usr/local/cuda)" >&2; exit 1; }

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build -j"$(nproc)" --target cubridge cuda

mkdir -p build/examples
echo "+ nvcc examples/vectorAdd.cu -o build/examples/vectorAdd"
nvcc examples/vectorAdd.cu -o build/examples/vectorAdd
echo "+ build/bin/cubridge run -- build/examples/vectorAdd"
CUBRIDGE_SUMMARY=1 build/bin/cubridge run -- build/examples/vectorAdd
