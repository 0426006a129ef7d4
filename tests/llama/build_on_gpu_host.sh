#!/usr/bin/env bash
# build_on_gpu_host.sh SRC_DIR BUILD_DIR
#
# Builds llama.cpp's test-backend-ops with the CUDA backend as PTX only
# (compute_80: no SASS, so cubridge translates every kernel), static ggml and
# libstdc++, no OpenMP or NCCL, so that the binary runs on Debian 12 through
# cubridge (docs/llama-cpp.md). SRC_DIR: llama.cpp's source, as vendored in
# the llama-cpp-python sdist (vendor/llama.cpp). Needs nvcc, cmake, ninja, gcc.
set -eu
src=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
gcc -O2 -c "$here/glibc_compat.c" -o "$out/glibc_compat.o"
cmake -S "$src" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=80-virtual -DBUILD_SHARED_LIBS=OFF \
  -DLLAMA_BUILD_TESTS=ON -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF \
  -DLLAMA_BUILD_APP=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
  -DGGML_NATIVE=OFF -DGGML_OPENMP=OFF -DGGML_CUDA_NCCL=OFF \
  "-DCMAKE_EXE_LINKER_FLAGS=-static-libstdc++ -static-libgcc $out/glibc_compat.o -lm"
cmake --build "$out" --target test-backend-ops -j"$(nproc)"
echo "built $out/bin/test-backend-ops"
