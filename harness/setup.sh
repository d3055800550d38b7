#!/usr/bin/env bash
# setup.sh: install what mlabench needs (Debian 12 / Ubuntu 24.04) and build it
# into ./build. Idempotent. Picks the GPU back end: $MLAB_GPU if set (none,
# cuda, hip), else cuda when nvidia-smi sees a GPU and nvcc exists, hip when
# rocminfo sees a gfx target and hipcc exists, else none (the CPU half).
set -euo pipefail
cd "$(dirname "$0")/.."

. harness/apt_need.sh
mlab_apt_need setup cmake ninja-build gcc g++ make pkg-config libhdf5-dev hdf5-tools libopenblas-dev \
  libssl-dev gnuplot-nox python3 python3-venv python3-pip git

# Python for the test oracles (numpy, h5py, ml_dtypes), in a venv so that
# Debian's externally-managed Python is left alone.
venv=build/venv
if [ ! -x "$venv/bin/python3" ] || ! "$venv/bin/python3" -c 'import numpy, h5py, ml_dtypes' 2>/dev/null; then
  echo "setup: python venv with numpy, h5py, ml_dtypes in $venv" >&2
  mkdir -p build
  python3 -m venv "$venv"
  "$venv/bin/python3" -m pip install -q --upgrade pip >/dev/null
  "$venv/bin/python3" -m pip install -q numpy h5py ml_dtypes
fi

backend=${MLAB_GPU:-}
extra=()
if [ -z "$backend" ]; then
  backend=none
  if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 &&
     { command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; }; then
    backend=cuda
    # awk reads to the end (head -1 could stop the pipe early: SIGPIPE under pipefail)
    cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | awk 'NR == 1' | tr -d ' .')
    [ "$cap" = "90" ] && cap=90a
    extra+=("-DMLAB_CUDA_ARCH=$cap")
    command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
  elif command -v rocminfo >/dev/null && command -v hipcc >/dev/null &&
       arch=$(rocminfo 2>/dev/null | grep -o 'gfx[0-9a-f]*' | awk 'NR == 1') && [ -n "$arch" ]; then
    backend=hip
    extra+=("-DMLAB_HIP_ARCH=$arch")
  fi
fi
echo "setup: GPU back end: $backend ${extra[*]:-}" >&2
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMLAB_GPU="$backend" \
      -DPython3_EXECUTABLE="$PWD/$venv/bin/python3" "${extra[@]}" >/dev/null
cmake --build build
