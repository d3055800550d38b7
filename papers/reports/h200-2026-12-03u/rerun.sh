#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, thirtieth session, call 2: v33's
# kernels (a3a10f1, recorded as s30c2) against 4b10cc9, and the same tree
# with -DWG_GATE_LAND=1 as a third build).
#   rerun.sh   from the committed results files: both pairs of the A/B, their
#              table, and the third build against the new one
# To re-measure (a GPU machine, the tree of a3a10f1; harness/gpu_ab.sh
# prepare 4b10cc9 first): MLAB_AB_ALT=worktree
# MLAB_AB_ALT_CUDA_FLAGS=-DWG_GATE_LAND=1 harness/gpu_ab.sh run 4b10cc9
# --max-time 0.1 --variants fp8_wgmma,mxfp4_wgmma,bf16_wgmma; the trace:
# harness/gpu_trace.sh b4_kv1024 b4_kv8192 b64_kv1024 -- --max-time 0.05
# --variants (the same three), a -DMLAB_TRACE -DMLAB_WG_PROF build
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 2: 4b10cc9 against v33's kernels (a3a10f1, new)" "$here/s30_c2_base" "$here/s30_c2_new"
report_ab_table "call 2: 4b10cc9 -> a3a10f1, median us" "$here/s30_c2_base" "$here/s30_c2_new"
report_ab_table "call 2: a3a10f1 -> the same with -DWG_GATE_LAND=1 (alt), median us" "$here/s30_c2_new" "$here/s30_c2_alt"
