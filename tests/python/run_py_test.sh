#!/usr/bin/env bash
# tests/python/run_py_test.sh CUBRIDGE VENV CLIENT SCRIPT: runs one JIT-client
# test through `cubridge run` with the venv's python. Exits 77 (ctest: skipped)
# with a message when the venv, or the client in it, is missing.
set -u
abs() { (cd "$(dirname "$1")" 2>/dev/null && echo "$(pwd)/$(basename "$1")") || echo "$1"; }
cubridge=$(abs "$1") venv=$(abs "$2") client=$3 script=$(abs "$4")
py="$venv/bin/python"
if [ ! -x "$py" ]; then
  echo "SKIP: no virtualenv at $venv (scripts/test.sh creates it: tests/python/setup_venv.sh)"
  exit 77
fi
if ! "$py" -c "import importlib.metadata as m, sys; m.version(sys.argv[1])" "$client" 2>/dev/null; then
  echo "SKIP: $client is not installed in $venv (see tests/python/setup_venv.sh output)"
  exit 77
fi
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH="$PATH:$CUDA_HOME/bin"
export CUPY_CACHE_DIR="$venv/cache/cupy"
cd "$(dirname "$script")" || exit 1
exec "$cubridge" run -- "$py" -W ignore::Warning "$script"
