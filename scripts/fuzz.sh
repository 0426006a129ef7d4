#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS] [HARNESS...]: build the libFuzzer harnesses and
# run each for SECONDS (default 60), one after another.
#
#   bash scripts/fuzz.sh                 every harness for 60 s
#   bash scripts/fuzz.sh 300 translate   only fuzz_translate, 5 minutes
#
# Harnesses (tests/fuzz): fatbin (container parser), ptx_parse (lexer, parser,
# verifier), translate (PTX -> IR -> C, not run), lt_attrs (cuBLASLt's
# descriptor attribute setters and getters), cufft_plan (cuFFT's layout
# validation and execution), cudnn_desc (cuDNN's legacy descriptors: tensor,
# filter, convolution, pooling..., their Gets and size queries; built where
# the cuDNN facade is), cudnn_backend (cuDNN's backend API descriptors and
# their attributes), cusparse_desc (cuSPARSE's generic API descriptors:
# sparse and dense matrices and vectors, attributes, batches). Builds with clang in
# build-fuzz/ (-DCUBRIDGE_FUZZ=ON; BUILD_DIR overrides). Each run starts from
# the committed seeds in tests/fuzz/corpus/<harness> plus what earlier runs
# found (build-fuzz/fuzz-work/<harness>/corpus; the committed seeds are never
# written). A crash is saved as build-fuzz/fuzz-work/<harness>/crash-* and the
# harness is restarted for the time left. Prints, per harness, executions,
# seconds and crashes; the exit status is 1 if any harness crashed.
# docs/fuzzing.md says how to turn a crash into a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
harnesses=("$@")
defaults=0
[ ${#harnesses[@]} -gt 0 ] || { defaults=1; harnesses=(fatbin ptx_parse translate lt_attrs cufft_plan cudnn_desc cudnn_backend cusparse_desc); }
# Defined only where their facade is built (NVIDIA's library present):
# left out of the default list elsewhere.
optional=" cudnn_desc cudnn_backend cusparse_desc "
build=${BUILD_DIR:-build-fuzz}

# clang with libFuzzer's runtime: install it when missing (Debian 12 names),
# as the README's commands install what they need.
. scripts/setup_deps.sh
cb_apt_install clang libclang-rt-14-dev || true
if ! command -v clang >/dev/null; then
  echo "fuzz.sh: needs clang with libFuzzer (Debian: apt-get install clang libclang-rt-14-dev)" >&2
  exit 2
fi
mkdir -p "$build"
if ! { cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCUBRIDGE_FUZZ=ON -DCUBRIDGE_CUDA_TESTS=OFF \
         -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
       kept=() && for h in "${harnesses[@]}"; do
         if [ $defaults -eq 0 ] || [[ $optional != *" $h "* ]] || [ -d "$build/CMakeFiles/fuzz_$h.dir" ]; then
           kept+=("$h")
         fi
       done && harnesses=("${kept[@]}") &&
       targets=() && for h in "${harnesses[@]}"; do targets+=("fuzz_$h"); done &&
       cmake --build "$build" --target "${targets[@]}" -j"${JOBS:-2}"; } >"$build/fuzz-build.log" 2>&1; then
  tail -30 "$build/fuzz-build.log" >&2
  echo "fuzz.sh: the build failed (log: $build/fuzz-build.log)" >&2
  exit 2
fi

# Runs one harness for its time; prints "harness execs seconds crashes".
fuzz_one() {
  local h=$1 work="$build/fuzz-work/$1"
  mkdir -p "$work/corpus"
  local start end left execs=0 crashes=0 n
  start=$(date +%s)
  end=$((start + seconds))
  while :; do
    left=$((end - $(date +%s)))
    [ $left -gt 0 ] || break
    local log="$work/last.log"
    set +e
    "$build/fuzz/fuzz_$h" -max_total_time=$left -print_final_stats=1 -timeout=20 -rss_limit_mb=2048 \
      -artifact_prefix="$work/" "$work/corpus" "tests/fuzz/corpus/$h" >"$log" 2>&1
    local rc=$?
    set -e
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    execs=$((execs + ${n:-0}))
    if [ $rc -ne 0 ]; then
      crashes=$((crashes + 1))
      echo "fuzz_$h: finding (exit $rc), log $work/crash-log-$crashes.txt:" >&2
      cp "$log" "$work/crash-log-$crashes.txt"
      grep -m3 -E "ERROR|SUMMARY|artifact" "$log" >&2 || true
    fi
  done
  printf '%-10s executions %-10s seconds %-6s crashes %s\n' "$h" "$execs" "$(( $(date +%s) - start ))" "$crashes"
  [ $crashes -eq 0 ]
}

status=0 passed=0 failed=0
for h in "${harnesses[@]}"; do
  if fuzz_one "$h"; then passed=$((passed + 1)); else failed=$((failed + 1)); status=1; fi
done
# A harness passes when its run found nothing.
echo "$passed passed, $failed failed"
exit $status
