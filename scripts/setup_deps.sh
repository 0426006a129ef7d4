# scripts/setup_deps.sh: sourced by demo.sh, test.sh and fuzz.sh.
#
# cb_apt_install PKG...   installs the Debian packages that are missing,
#                         running `apt-get update` only then, with sudo only
#                         when not root.
# cb_install_missing      the build's own needs, and nvcc on PATH (the CUDA
#                         toolkit at $CUDA_HOME or /usr/local/cuda is expected
#                         to be there already).

cb_apt_install() {
  local missing=() p
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
}

cb_install_missing() {
  local tools=()
  command -v cc >/dev/null && command -v make >/dev/null && command -v g++ >/dev/null \
    || tools+=(build-essential)
  command -v cmake >/dev/null || tools+=(cmake)
  command -v pkg-config >/dev/null || tools+=(pkg-config)
  command -v python3 >/dev/null || tools+=(python3)
  cb_apt_install "${tools[@]}" libzstd-dev liblz4-dev libopenblas-dev libdnnl-dev
  # the OpenCL backend: the headers (build), the ICD loader it dlopens, PoCL, the CPU OpenCL
  # device its tests run on, and CLBlast, its BLAS (header at build time, libclblast1 dlopened)
  cb_apt_install opencl-headers ocl-icd-libopencl1 pocl-opencl-icd libclblast-dev
  local nvcc_dir=${CUDA_HOME:-/usr/local/cuda}/bin
  if ! command -v nvcc >/dev/null && [ -x "$nvcc_dir/nvcc" ]; then
    export PATH="$PATH:$nvcc_dir"
  fi
  command -v nvcc >/dev/null || echo "setup: nvcc not found; the tests/cuda programs will not be built" >&2
}

# cb_install_bench: what bench/suite.sh needs beyond the build (optional, never
# part of the default build): an OpenCL ICD loader, its headers and PoCL, the
# CPU OpenCL implementation the suite compares against.
cb_install_bench() {
  cb_apt_install pocl-opencl-icd ocl-icd-opencl-dev opencl-headers
}
