#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-04, thirty-third session, calls 1-3: a
# tile's landing gates, the MXFP4 one-tile block converted by both
# producers, the combine's 32-split instance, the tiles prefetched into L2).
#   rerun.sh   from the committed results files: both pairs of each A/B
#              and their tables (the README's)
# To re-measure (a GPU machine), the current tree:
# call 2: MLAB_AB_BASE_CUDA_FLAGS="-DWG_LAND_GATES16=1 -DWG_MX_SPLIT1=0" harness/gpu_ab.sh run worktree --max-time 0.1 --variants bf16_wgmma,mxfp4_wgmma,mxfp4_wgmma_qrow
# call 3 (without its alt, whose code was removed): MLAB_AB_BASE_CUDA_FLAGS=-DMLAB_COMBINE_AHEAD32=0 harness/gpu_ab.sh run worktree --max-time 0.1 --variants bf16_wgmma,fp8_wgmma,fp8_wgmma_qrow,mxfp4_wgmma,mxfp4_wgmma_qrow
# call 5, the tree of branch wip/mx-splitl: MLAB_AB_NEW_CUDA_FLAGS=-DWG_MX_SPLITL=1 harness/gpu_ab.sh run worktree --max-time 0.1 --variants mxfp4_wgmma,mxfp4_wgmma_qrow
# call 1 ran a tree of the session's first form of the gates (not committed:
# its WG_LAND_GATES set fp8 and bf16 tiles alike, its WG_LAND_GATES_MX the MXFP4
# producers'); in the current tree its new is close to
# MLAB_AB_BASE_CUDA_FLAGS="-DWG_LAND_GATES16=1 -DWG_MX_SPLIT1=0" MLAB_AB_NEW_CUDA_FLAGS="-DWG_LAND_GATES=3 -DWG_MX_SPLIT1=0"
# (the MXFP4 gates' code is gone) and its alt MLAB_AB_ALT_CUDA_FLAGS="-DWG_LAND_GATES=9 -DWG_LAND_GATES16=9 -DWG_MX_SPLIT1=0".
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: one gate a stage (base) against three (new)" "$here/s33_c1_base" "$here/s33_c1_new"
report_ab_table "call 1: base -> three gates (new), median us" "$here/s33_c1_base" "$here/s33_c1_new"
report_ab_table "call 1: base -> nine gates (alt), median us" "$here/s33_c1_base" "$here/s33_c1_alt"
report_pairs "call 2: bf16 tiles on one gate, the MXFP4 one-tile block by producer 0 (base) against three gates and both producers (new)" "$here/s33_c2_base" "$here/s33_c2_new"
report_ab_table "call 2: base -> new, median us" "$here/s33_c2_base" "$here/s33_c2_new"
report_pairs "call 3: 17-32 splits merged by the 64-split combine (base) against the 32-split one (new)" "$here/s33_c3_base" "$here/s33_c3_new"
report_ab_table "call 3: base -> the 32-split combine (new), median us" "$here/s33_c3_base" "$here/s33_c3_new"
report_ab_table "call 3: new -> the tiles prefetched into L2 one ring ahead (alt), median us" "$here/s33_c3_new" "$here/s33_c3_alt"
report_pairs "call 5: the default build (base) against an MXFP4 short block's last tile converted by both producers (new)" "$here/s33_c5_base" "$here/s33_c5_new"
report_ab_table "call 5: base -> the last tile by both producers (new), median us" "$here/s33_c5_base" "$here/s33_c5_new"
