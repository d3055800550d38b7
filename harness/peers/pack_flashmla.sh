#!/usr/bin/env bash
# pack_flashmla.sh: FlashMLA's decode kernels, packed small for a GPU machine
# without network (README, "Peers").
#
# FlashMLA (DeepSeek's MLA decode for Hopper) has no wheel of its own on
# PyPI; vLLM's wheel carries it prebuilt: vllm/_flashmla_C.abi3.so (the dense
# bf16 decode, torch op namespace _flashmla_C) and
# vllm/_flashmla_extension_C.abi3.so (the dense fp8 decode, FP8 Q and KV with
# per-tensor descales, namespace _flashmla_extension_C), each ~2 MB with
# sm_90a cubins. They are torch extensions: they load only into the torch
# version vLLM pinned. This script, run on a machine WITH network (no GPU,
# no nvcc needed):
#   1. reads the pin of vllm==$VLLM_VERSION from its metadata and refuses
#      where it is not torch==$TORCH (the GPU machine's torch);
#   2. downloads that wheel (~300 MB, to a temporary folder) and keeps the
#      two libraries and vLLM's license, in
#        OUT/flashmla/_flashmla_C.abi3.so, _flashmla_extension_C.abi3.so,
#        LICENSE, VERSION ("vllm <v> torch <t>": the peer checks the torch
#        it runs under against it and skips otherwise)
#   3. checks both libraries hold sm_90a code (cuobjdump, where found).
# On the GPU machine: `. harness/peers/use_pack.sh` exports
# MLAB_FLASHMLA_DIR=OUT/flashmla; `mlabench run --peers flashmla` then runs
# flashmla_bf16 and flashmla_fp8 (harness/peers/peer_server.py, FlashMLAPeer).
# Usage: harness/peers/pack_flashmla.sh [OUT]   (default .peers)
# Env: VLLM_VERSION (0.26.0), TORCH (2.11.0), PYTHON (python3).
set -euo pipefail
VLLM=${VLLM_VERSION:-0.26.0}
TORCH=${TORCH:-2.11.0}
PY=${PYTHON:-python3}
OUT=$(mkdir -p "${1:-.peers}" && cd "${1:-.peers}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== vllm $VLLM's torch pin"
"$PY" -m pip install -q --dry-run --no-deps --ignore-installed --report "$work/report.json" "vllm==$VLLM"
pin=$("$PY" - "$work/report.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))["install"][0]["metadata"]
print(next((r.split("==", 1)[1].split(";")[0].strip() for r in m.get("requires_dist", [])
            if r.replace(" ", "").startswith("torch==")), ""))
EOF
)
if [ "$pin" != "$TORCH" ]; then
  echo "pack_flashmla: vllm $VLLM pins torch==${pin:-?}, not $TORCH (the GPU machine's): pick the vLLM release that pins it (VLLM_VERSION=...)" >&2
  exit 1
fi
echo "torch==$pin"

echo "== download vllm $VLLM and keep FlashMLA's two libraries"
"$PY" -m pip download -q --no-deps --only-binary=:all: --platform manylinux_2_28_x86_64 \
    -d "$work/dl" "vllm==$VLLM"
whl=$(ls "$work"/dl/vllm-*.whl | head -1)
rm -rf "$OUT/flashmla" && mkdir -p "$OUT/flashmla"
"$PY" - "$whl" "$OUT/flashmla" <<'EOF'
import os, sys, zipfile
z, out = zipfile.ZipFile(sys.argv[1]), sys.argv[2]
want = {"vllm/_flashmla_C.abi3.so": "_flashmla_C.abi3.so",
        "vllm/_flashmla_extension_C.abi3.so": "_flashmla_extension_C.abi3.so"}
lic = [n for n in z.namelist() if n.endswith(".dist-info/licenses/LICENSE") or n.endswith(".dist-info/LICENSE")]
for src, dst in list(want.items()) + [(n, "LICENSE") for n in lic[:1]]:
    if src not in z.namelist():
        sys.exit(f"pack_flashmla: {os.path.basename(sys.argv[1])} has no {src}")
    with z.open(src) as f, open(os.path.join(out, dst), "wb") as g:
        g.write(f.read())
EOF
echo "vllm $VLLM torch $TORCH" > "$OUT/flashmla/VERSION"

CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump || true)}
if [ -n "$CUOBJDUMP" ]; then
  for so in "$OUT"/flashmla/*.so; do
    n=$("$CUOBJDUMP" --list-elf "$so" 2>/dev/null | grep -c sm_90a || true)
    [ "$n" -gt 0 ] || { echo "pack_flashmla: $so has no sm_90a code" >&2; exit 1; }
    echo "$(basename "$so"): $n sm_90a cubins"
  done
else
  echo "(no cuobjdump: the libraries' architectures not checked)"
fi
du -sh "$OUT/flashmla"
echo "pack_flashmla: $OUT/flashmla (vllm $VLLM, torch $TORCH)"
