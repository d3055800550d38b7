#!/usr/bin/env bash
# pack_flashinfer.sh: FlashInfer's MLA decode, packed small for a GPU machine
# without network (README, "Peers").
#
# FlashInfer's wheel is ~65 MB and builds its CUDA modules with nvcc on first
# use (minutes of GPU-machine time). This script, run on a machine WITH
# network and nvcc (no GPU needed):
#   1. downloads flashinfer-python and the small packages its import needs,
#      and apache-tvm-ffi (binary) for each Python of $PYVERS;
#   2. builds the two MLA modules mlabench's peers use (backend fa3, bf16 Q,
#      KV bf16 or fp8 e4m3fn, head dims 512 + 64) for $ARCH, and places them
#      where FlashInfer loads prebuilt ("AOT") modules: flashinfer/data/aot/;
#   3. keeps only what `import flashinfer` and the MLA path load (no CUDA
#      headers or sources but the MLA ones its planner reads), checks the
#      slim tree imports and finds both modules prebuilt, and writes
#        OUT/flashinfer-<version>-mla-sm<arch>.tar.xz   the package tree
#        OUT/wheels/apache_tvm_ffi-*.whl                one per Python
#        OUT/INSTALL.txt                                the commands below
# On the GPU machine (the tar and wheels travel with the working tree):
#   mkdir -p /tmp/site && tar -xJf OUT/flashinfer-*.tar.xz -C /tmp/site &&
#   python3 -m pip install -q --no-index --no-deps --find-links OUT/wheels \
#       --target /tmp/site apache-tvm-ffi
#   export PYTHONPATH=/tmp/site
# Needs: a Python with torch and numpy (the PyPI builds; torch imports without
# a GPU; FlashInfer's import needs numpy),
# pip, nvcc (CUDA >= 12.3) on PATH or in /usr/local/cuda, xz.
# Usage: harness/peers/pack_flashinfer.sh [OUT]   (default .peers)
# Env: FLASHINFER_VERSION (0.7.2), ARCH (9.0a), PYVERS ("3.10 3.11 3.12 3.13"),
#      PYTHON (python3), JOBS (2).
set -euo pipefail
VERSION=${FLASHINFER_VERSION:-0.7.2}
ARCH=${ARCH:-9.0a}
PYVERS=${PYVERS:-"3.10 3.11 3.12 3.13"}
PY=${PYTHON:-python3}
case $PY in */*) PY=$(cd "$(dirname "$PY")" && pwd)/$(basename "$PY") ;; esac
JOBS=${JOBS:-2}
OUT=$(mkdir -p "${1:-.peers}" && cd "${1:-.peers}" && pwd)
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
command -v nvcc >/dev/null || { echo "pack_flashinfer: nvcc not found" >&2; exit 1; }
"$PY" -c 'import torch' 2>/dev/null || { echo "pack_flashinfer: $PY has no torch" >&2; exit 1; }
"$PY" -c 'import numpy' 2>/dev/null || { echo "pack_flashinfer: $PY has no numpy (FlashInfer imports it)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# what `import flashinfer` needs besides torch, numpy, jinja2, filelock (torch's own)
PURE="einops tabulate nvidia-ml-py packaging click tqdm requests urllib3 idna certifi"

echo "== download flashinfer-python $VERSION and its import-time packages"
"$PY" -m pip download -q --no-deps -d "$work/dl" "flashinfer-python==$VERSION" $PURE
"$PY" -m pip download -q --no-deps -d "$work/dl" charset-normalizer
for v in $PYVERS; do
  "$PY" -m pip download -q --no-deps --only-binary=:all: --python-version "$v" \
      --platform manylinux_2_28_x86_64 -d "$work/tvm" "apache-tvm-ffi>=0.1.11,<0.2"
done
"$PY" -m pip install -q --no-deps --no-compile --target "$work/site" "$work"/dl/*.whl
# this Python's own, for the build and the checks here (PYVERS may leave it
# out: PYVERS=3.12 on a machine of Python 3.11); not packed unless in PYVERS
here=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
"$PY" -m pip download -q --no-deps --only-binary=:all: --python-version "$here" \
    --platform manylinux_2_28_x86_64 -d "$work/tvm-here" "apache-tvm-ffi>=0.1.11,<0.2"
"$PY" -m pip install -q --no-deps --no-compile --no-index --find-links "$work/tvm-here" \
    --target "$work/tvm-local" apache-tvm-ffi

echo "== build the MLA modules for sm_${ARCH/./} (nvcc $(nvcc --version | grep -o 'release [0-9.]*'))"
cat > "$work/mods.py" <<'EOF'
# the modules the peers load: backend fa3, bf16 Q and output, KV bf16 / e4m3
import sys
import torch
from flashinfer.jit.attention.modules import gen_batch_mla_module
for kv in (torch.bfloat16, torch.float8_e4m3fn):
    spec = gen_batch_mla_module("fa3", torch.bfloat16, kv, torch.bfloat16, torch.int32, 512, 64,
                                False)
    if sys.argv[1] == "build":
        spec.build()
        print(spec.name, spec.jit_library_path)
    else:  # check: found prebuilt, not to be compiled
        assert spec.is_aot, f"{spec.name}: not found prebuilt"
        print("prebuilt:", spec.name)
EOF
export FLASHINFER_CUDA_ARCH_LIST=$ARCH MAX_JOBS=$JOBS FLASHINFER_WORKSPACE_BASE="$work/ws"
export CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(command -v nvcc)")")}
t0=$(date +%s)
PYTHONPATH="$work/site:$work/tvm-local" "$PY" "$work/mods.py" build > "$work/built.txt"
echo "built in $(( $(date +%s) - t0 )) s"
while read -r name so; do
  mkdir -p "$work/site/flashinfer/data/aot/$name"
  cp "$so" "$work/site/flashinfer/data/aot/$name/$name.so"
done < "$work/built.txt"

echo "== keep what the MLA path imports"
cat > "$work/imports.py" <<'EOF'
# import flashinfer and the MLA wrapper, print the files of flashinfer's loaded modules
import sys
import flashinfer
from flashinfer.mla import BatchMLAPagedAttentionWrapper, MLAPlanMetadata  # noqa: F401
import flashinfer.mla._batch_mla._backends.fa3_backend  # noqa: F401
from flashinfer.jit.attention.modules import gen_batch_mla_module  # noqa: F401
for m in list(sys.modules.values()):
    f = getattr(m, "__file__", None) or ""
    if getattr(m, "__name__", "").startswith("flashinfer") and f:
        print(f)
EOF
PYTHONPATH="$work/site:$work/tvm-local" "$PY" "$work/imports.py" > "$work/files.txt"
slim="$work/slim"
mkdir -p "$slim"
( cd "$work/site"
  # every other package (the small deps) and the dist-info folders, whole
  for d in *; do [ "$d" = flashinfer ] || [ "$d" = bin ] || cp -r "$d" "$slim/"; done
  # flashinfer: the imported modules, every __init__.py, the MLA and JIT code
  # whole, the prebuilt modules, and the MLA sources its planner copies
  sed "s|^$work/site/||" "$work/files.txt" | grep '^flashinfer/' > "$work/keep.txt"
  find flashinfer -name __init__.py >> "$work/keep.txt"
  find flashinfer/mla flashinfer/jit -name '*.py' >> "$work/keep.txt"
  find flashinfer/data/aot -type f >> "$work/keep.txt"
  for f in batch_mla_config.jinja batch_mla_sm90_plan.cu batch_mla_sm90_run.cu \
           batch_mla_sm90_binding.cu; do echo "flashinfer/data/csrc/$f"; done >> "$work/keep.txt"
  sort -u "$work/keep.txt" | while read -r f; do
    mkdir -p "$slim/$(dirname "$f")" && cp "$f" "$slim/$f"
  done )
echo "== check the slim tree"
( cd "$work" && env \
    FLASHINFER_WORKSPACE_BASE="$work/ws2" FLASHINFER_DISABLE_JIT=1 \
    PYTHONPATH="$slim:$work/tvm-local" "$PY" "$work/mods.py" check )
name="flashinfer-$VERSION-mla-sm${ARCH/./}.tar.xz"
rm -f "$OUT"/flashinfer-*-mla-*.tar.xz
tar -C "$slim" -cJf "$OUT/$name" .
rm -rf "$OUT/wheels" && mkdir -p "$OUT/wheels" && cp "$work"/tvm/*.whl "$OUT/wheels/"
cat > "$OUT/INSTALL.txt" <<EOF
FlashInfer $VERSION, MLA decode modules prebuilt for sm_${ARCH/./} (pack_flashinfer.sh, $(date -u +%Y-%m-%d)).
On the GPU machine, from the repository root:
  mkdir -p /tmp/site && tar -xJf ${OUT##*/}/$name -C /tmp/site &&
  python3 -m pip install -q --no-index --no-deps --find-links ${OUT##*/}/wheels --target /tmp/site apache-tvm-ffi
  export PYTHONPATH=/tmp/site
EOF
du -sh "$OUT/$name" "$OUT/wheels"
echo "pack_flashinfer: done: $OUT ($(du -sh "$OUT" | cut -f1))"
