#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, twenty-third session, call 1: the
# wgmma decodes' epilogue with its kind chosen once, and the unit's end by
# both consumers, against 29517c8, the three wgmma decodes on the 8 cases).
#   rerun.sh   from the committed results files: base against new, base
#              against alt, alt against new, both pairs (mlabench compare)
# To re-measure (a GPU machine, the tree of 28b9bd6, 29517c8 prepared):
# MLAB_AB_ALT=worktree MLAB_AB_ALT_CUDA_FLAGS=-DWG_SPLIT_END=0
# harness/gpu_ab.sh run 29517c8 --max-time 0.1 --variants
# bf16_wgmma,fp8_wgmma,mxfp4_wgmma.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: 29517c8 against 28b9bd6 (halves and the epilogue)" "$here/s23_c1_base" "$here/s23_c1_new"
report_pairs "call 1: 29517c8 against 28b9bd6 -DWG_SPLIT_END=0 (the epilogue)" "$here/s23_c1_base" "$here/s23_c1_alt"
report_pairs "call 1: the epilogue alone against both (alt against new)" "$here/s23_c1_alt" "$here/s23_c1_new"
