#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-eighth session, call 2: 90c22f5's
# Q quantization against 1eb3e47, and a split-count sweep).
#   rerun.sh   from the committed results files: both pairs, then the sweep's medians
# To re-measure (a GPU machine, the tree of 90c22f5; harness/gpu_ab.sh prepare
# 1eb3e47 first): harness/gpu_ab.sh run 1eb3e47 --max-time 0.1 --variants
# fp8_wgmma,fp8_wgmma_qrow,mxfp4_wgmma,mxfp4_wgmma_qrow; the traces:
# harness/gpu_trace.sh b4_kv1024 b4_kv8192 b64_kv1024 -- --max-time 0.05
# --variants fp8_wgmma,fp8_wgmma_qrow,mxfp4_wgmma_qrow,bf16_wgmma; the sweep:
# mlabench run --max-time 0.05 --splits N --variants (the same four) over
# b4_kv1024, b4_kv8192, b32_kv1024
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 2: 1eb3e47 against 90c22f5's Q quantization (new)" "$here/s28_c2_base" "$here/s28_c2_new"
for n in 4 8 16 32; do echo "== --splits $n"; report_table "$here/s28_c2_splits_$n.h5"; done
