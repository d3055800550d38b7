#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-fourth session, call 1:
# bf16_wgmma's epilogue with one exchange and the wgmma decodes' first tile
# without a rescale (new, 4dcea9d), against 4f63885 (base) and 4dcea9d
# -DWG_B16_RCP=1 (alt)).
#   rerun.sh   from the committed results files: both pairs of each comparison
# To re-measure (a GPU machine, the tree of 4dcea9d, harness/gpu_ab.sh prepare 4f63885 first):
# MLAB_AB_ALT=worktree MLAB_AB_ALT_CUDA_FLAGS=-DWG_B16_RCP=1 harness/gpu_ab.sh run 4f63885
# --max-time 0.1 --variants bf16_wgmma,fp8_wgmma,mxfp4_wgmma
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: 4f63885 against 4dcea9d (one exchange, first tile unscaled)" "$here/s24_c1_base" "$here/s24_c1_new"
report_pairs "call 1: 4f63885 against 4dcea9d -DWG_B16_RCP=1 (O times 1 / l)" "$here/s24_c1_base" "$here/s24_c1_alt"
