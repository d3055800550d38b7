#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-fourth session, call 6: the
# tensor-copy decodes' maps from their kernel parameter (new, 5cd1348),
# against 4f63885 (base) and 5cd1348 -DMLAB_TMAP_PARAM=0 (alt)).
#   rerun.sh   from the committed results files: both pairs of each comparison
# To re-measure (a GPU machine, the tree of 5cd1348, harness/gpu_ab.sh prepare 4f63885 first):
# MLAB_AB_ALT=worktree MLAB_AB_ALT_CUDA_FLAGS=-DMLAB_TMAP_PARAM=0 harness/gpu_ab.sh run 4f63885
# --max-time 0.1 --variants bf16_wgmma,fp8_wgmma,fp8_exp2rcp,mxfp4_wgmma
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 6: 4f63885 against 5cd1348 (the maps from the kernel parameter)" "$here/s24_c6_base" "$here/s24_c6_new"
report_pairs "call 6: 4f63885 against 5cd1348 -DMLAB_TMAP_PARAM=0 (the larger parameter alone)" "$here/s24_c6_base" "$here/s24_c6_alt"
