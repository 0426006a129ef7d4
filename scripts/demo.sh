#!/usr/bin/env bash
# scripts/demo.sh: build cubridge, compile examples/vectorAdd.cu with plain
# nvcc, and run it on the CPU through `cubridge run`.  Prints the program's
# result and cubridge's one-line dispatch summary.
set -euo pipefail
cd "$(dirname "$0")/.."
# Installs what the build needs with apt-get: only what is missing, running
# `apt-get update` only then, with sudo only when not root.  The CUDA toolkit
# (nvcc at /usr/local/cuda or $CUDA_HOME) is expected to be there already.
cb_install_missing() {
  local missing=()
  command -v cc >/dev/null && command -v make >/dev/null && command -v g++ >/dev/null \
    || missing+=(build-essential)
  command -v cmake >/dev/null || missing+=(cmake)
  command -v pkg-config >/dev/null || missing+=(pkg-config)
  command -v python3 >/dev/null || missing+=(python3)
  dpkg -s libzstd-dev >/dev/null 2>&1 || missing+=(libzstd-dev)
  dpkg -s liblz4-dev >/dev/null 2>&1 || missing+=(liblz4-dev)
  if [ ${#missing[@]} -gt 0 ]; then
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    echo "setup: installing ${missing[*]}"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
  fi
  local nvcc_dir=${CUDA_HOME:-/usr/local/cuda}/bin
  if ! command -v nvcc >/dev/null && [ -x "$nvcc_dir/nvcc" ]; then
    export PATH="$PATH:$nvcc_dir"
  fi
  command -v nvcc >/dev/null || echo "setup: nvcc not found; the tests/cuda programs will not be built" >&2
}
cb_install_missing
command -v nvcc >/dev/null || { echo "demo: nvcc is needed (CUDA toolkit at /usr/local/cuda)" >&2; exit 1; }

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build -j"$(nproc)" --target cubridge cuda

mkdir -p build/examples
echo "+ nvcc examples/vectorAdd.cu -o build/examples/vectorAdd"
nvcc examples/vectorAdd.cu -o build/examples/vectorAdd
echo "+ build/bin/cubridge run -- build/examples/vectorAdd"
CUBRIDGE_SUMMARY=1 build/bin/cubridge run -- build/examples/vectorAdd
