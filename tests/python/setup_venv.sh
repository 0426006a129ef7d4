#!/usr/bin/env bash
# tests/python/setup_venv.sh VENV: creates (or updates) the virtualenv the
# JIT-client tests run in, with the pinned clients of requirements*.txt.
#
# The clients use the local CUDA toolkit ($CUDA_HOME, default /usr/local/cuda):
# no NVIDIA wheels are installed. PyCUDA is built from source; if that fails
# the other clients are still installed and the PyCUDA tests are skipped
# (with a message). Exits non-zero only when the venv itself cannot be made.
# A stamp file skips the pip step when the requirements have not changed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
venv=${1:?usage: setup_venv.sh VENV}
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export CUDA_ROOT=$CUDA_HOME
export PATH="$PATH:$CUDA_HOME/bin"

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
need=()
python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
[ -f "$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ] || need+=(python3-dev)
command -v g++ >/dev/null || need+=(g++)
if [ ${#need[@]} -gt 0 ] && command -v apt-get >/dev/null; then
  echo "python tests: installing ${need[*]}"
  $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${need[@]}"
fi

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" || { echo "python tests: cannot create a virtualenv at $venv" >&2; exit 1; }
fi
stamp="$venv/.cubridge-requirements"
want=$(cat "$here/requirements.txt" "$here/requirements-pycuda.txt" | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "python tests: $venv is up to date"
  exit 0
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check -q)
"${pip[@]}" install -r "$here/requirements.txt" \
  || { echo "python tests: installing the JIT clients failed" >&2; exit 1; }
if ! "${pip[@]}" install -r "$here/requirements-pycuda.txt"; then
  echo "python tests: PyCUDA could not be built from source; its tests will be skipped" >&2
  "${pip[@]}" uninstall -y pycuda >/dev/null 2>&1
fi
echo "$want" > "$stamp"
echo "python tests: $venv ready"
