#!/usr/bin/env bash
# bench/run_conv.sh: cuDNN convolutions through cubridge's facade against
# oneDNN called directly, side by side in one process (bench/bench_conv.cu),
# at ResNet-50 layer shapes, forward, backward data and backward filter, f32.
# Printed as a table: time through the facade, time of oneDNN on plain
# NCHW/OIHW memory (what cubridge's backend asks oneDNN for), the ratio
# oneDNN / facade (the facade's speed relative to oneDNN: 1.0 is as fast,
# the goal is >= 0.8), and, for information, oneDNN on the layouts it picks
# itself (format_tag any, blocked: the execution alone, and with the
# reorders from and to plain NCHW that the facade would need on every call,
# since its operands are the caller's plain memory), with their ratios.
#
#   bash bench/run_conv.sh                 N = 8, ROUNDS = 5 (best of)
#   N=2 ROUNDS=3 SHAPES=conv4 bash bench/run_conv.sh
#   BLOCKED=0 bash bench/run_conv.sh       without the blocked-layout column
#
# Both sides run the same libdnnl (Debian's libdnnl2, OpenMP threads:
# OMP_NUM_THREADS, default the CPU count).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
cubridge=${CUBRIDGE:-$root/build/bin/cubridge}
out=${BENCH_DIR:-$root/build/bench}
nvcc=${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}
[ -x "$cubridge" ] || { echo "bench: $cubridge not found; build first" >&2; exit 1; }
mkdir -p "$out"
[ "$out/bench_conv" -nt bench/bench_conv.cu ] ||
  "$nvcc" -O2 bench/bench_conv.cu -o "$out/bench_conv" -lcudnn -ldnnl
export CUBRIDGE_SUMMARY=0
res=$(ROUNDS=${ROUNDS:-5} BLOCKED=${BLOCKED:-1} "$cubridge" run -- "$out/bench_conv" "${N:-8}")
echo "# $(date -u '+%Y-%m-%d %H:%M UTC') on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc --all) CPUs, ${OMP_NUM_THREADS:-$(nproc --all)} threads, load $(cut -d' ' -f1 /proc/loadavg), N=${N:-8}, best of ${ROUNDS:-5}"
awk '
  $1 == "GFLOP" { gf[$2] = $3; order[++ns] = $2 }
  $1 == "RESULT" { v[$2] = $3 }
  $1 == "IMPL" { impl[$2] = $3 }
  function ms(t) { return t == "" ? "-" : sprintf("%.2f", t * 1000) }
  function ratio(t, f) { return t == "" ? "-" : sprintf("%.2f", t / f) }
  END {
    split("fwd bwdd bwdf", dirs, " ")
    printf "| layer | dir | GFLOP | facade ms | oneDNN NCHW ms | **NCHW / facade** | oneDNN any ms | any / facade | any + reorders ms | (any + reorders) / facade | oneDNN impl (NCHW / any) |\n"
    printf "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n"
    for (i = 1; i <= ns; i++) for (j = 1; j <= 3; j++) {
      s = order[i]; k = s "_" dirs[j]; f = v[k "_facade"]; d = v[k "_onednn"]; b = v[k "_blocked"]; br = v[k "_reordered"]
      if (f == "") continue
      printf "| %s | %s | %.2f | %.2f | %.2f | **%.2f** | %s | %s | %s | %s | %s |\n", s, dirs[j], gf[s], f * 1000, d * 1000, d / f, ms(b), ratio(b, f), ms(br), ratio(br, f), impl[k] (b == "" ? "" : " / " impl[k "_blocked"])
      lg += log(d / f); if (b != "") { lb += log(b / f); lr += log(br / f) } ; nr++
    }
    if (nr) printf "| geometric mean | | | | | **%.2f** | | %s | | %s | |\n", exp(lg / nr), lb == "" ? "-" : sprintf("%.2f", exp(lb / nr)), lr == "" ? "-" : sprintf("%.2f", exp(lr / nr))
  }' <<< "$res"
awk '$1 == "RESULT" && $2 == "call_fwd_facade" { f = $3 } $1 == "RESULT" && $2 == "call_fwd_onednn" { d = $3 }
  END { if (f != "") printf "\nCost of one call (forward, 1x8x8x8 by 8 1x1 filters, synchronized): facade %.1f us, oneDNN %.1f us, facade overhead %.1f us\n", f * 1e6, d * 1e6, (f - d) * 1e6 }' <<< "$res"
