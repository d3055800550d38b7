#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-fifth session, call 1: bf16_wgmma's
# consumers split the heads and the wgmma producers' first fills in landing order
# (new, 14056be: WG_B16_HS=1, WG_GATE_LAND=2), against 4f63885 (base) and the same
# tree with -DWG_GATE_LAND=1 (alt: one tile in flight in the first fills)).
#   rerun.sh   from the committed results files: both pairs of each comparison
# To re-measure (a GPU machine, the tree of 14056be, harness/gpu_ab.sh prepare 4f63885 first):
# MLAB_AB_ALT=worktree MLAB_AB_ALT_CUDA_FLAGS=-DWG_GATE_LAND=1 harness/gpu_ab.sh run 4f63885
# --max-time 0.1 --variants fp8_wgmma,bf16_wgmma,mxfp4_wgmma; the trace:
# harness/gpu_trace.sh b4_kv8192 b32_kv1024 b4_kv1024 -- --variants fp8_wgmma,bf16_wgmma
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: 4f63885 against 14056be (head split, first fills 2 in flight)" "$here/s25_c1_base" "$here/s25_c1_new"
report_pairs "call 1: 4f63885 against 14056be -DWG_GATE_LAND=1 (first fills 1 in flight)" "$here/s25_c1_base" "$here/s25_c1_alt"
