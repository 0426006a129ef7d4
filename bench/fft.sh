#!/usr/bin/env bash
# bench/fft.sh: "FFT, 2^20 complex" side by side in one run: cufftExecC2C/Z2Z
# through cubridge's libcufft (bench_fft.cu under `cubridge run`: the facade,
# the stream operation, the copies to and from device memory) against a direct
# call of the FFT it uses (bench/c/fft_direct.c on src/lib/cufft/fft_core.c).
#   bash bench/fft.sh [ROUNDS]       (expects build/bin/cubridge and build/lib/libcufft.so.12)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
cubridge=${CUBRIDGE:-$root/build/bin/cubridge}
out=${BENCH_DIR:-$root/build/bench}
rounds=${1:-10}
nvcc=${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}
mkdir -p "$out"
[ "$out/bench_fft" -nt bench/bench_fft.cu ] || "$nvcc" -O2 bench/bench_fft.cu -o "$out/bench_fft" -lcufft
cc -O3 -std=c11 -D_GNU_SOURCE -I src bench/c/fft_direct.c src/lib/cufft/fft_core.c -o "$out/fft_direct" -lm
export CUBRIDGE_SUMMARY=0
facade=$("$cubridge" run -- "$out/bench_fft" "$rounds" 2>/dev/null)
direct=$("$out/fft_direct" "$rounds")
printf '| benchmark | facade (cufftExec* via cubridge) | direct call of the FFT | ratio facade/direct |\n|---|---|---|---|\n'
for k in fft_2p20_c2c fft_2p20_z2z; do
  f=$(echo "$facade" | awk -v k=$k '$2 == k {print $3}')
  d=$(echo "$direct" | awk -v k=$k '$2 == k {print $3}')
  printf '| %s | %s ms | %s ms | %.2f |\n' "$k" "$f" "$d" "$(echo "$f / $d" | bc -l)"
done
