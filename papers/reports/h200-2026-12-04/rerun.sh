#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-04, thirty-second session, calls 1, 3, 5:
# the combine run dry before its grid wait (call 1, new), its parameters
# held before the wait (call 3, new) and its lines loaded before the wait
# (call 5, new), each against the build without).
#   rerun.sh   from the committed results files: both pairs of each A/B
#              and their tables (the README's)
# To re-measure (a GPU machine): call 3, the current tree:
# MLAB_AB_BASE_CUDA_FLAGS=-DMLAB_COMB_PARAMS_EARLY=0 harness/gpu_ab.sh run worktree --max-time 0.1 --variants bf16_wgmma,fp8_wgmma,fp8_wgmma_qrow,mxfp4_wgmma_qrow
# call 5, the tree of branch wip/comb-touch-ld:
# MLAB_AB_NEW_CUDA_FLAGS=-DMLAB_COMB_TOUCH_LD=1 harness/gpu_ab.sh run worktree --max-time 0.1 --variants bf16_wgmma,fp8_wgmma,fp8_wgmma_qrow,mxfp4_wgmma_qrow
# call 1, the tree of branch wip/comb-warm:
# MLAB_AB_NEW_CUDA_FLAGS=-DMLAB_COMB_WARM=1 harness/gpu_ab.sh run worktree --max-time 0.1 --variants bf16_wgmma,fp8_wgmma_qrow,mxfp4_wgmma_qrow
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 3: parameters read after the wait (base) against held before it (new)" "$here/s32_c3_base" "$here/s32_c3_new"
report_ab_table "call 3: base -> parameters held (new), median us" "$here/s32_c3_base" "$here/s32_c3_new"
report_pairs "call 1: the default build (base) against the combine run dry before its wait (new)" "$here/s32_c1_base" "$here/s32_c1_new"
report_ab_table "call 1: base -> the combine run dry (new), median us" "$here/s32_c1_base" "$here/s32_c1_new"
report_pairs "call 5: the default build (base) against the combine's lines loaded before its wait (new)" "$here/s32_c5_base" "$here/s32_c5_new"
report_ab_table "call 5: base -> lines loaded before the wait (new), median us" "$here/s32_c5_base" "$here/s32_c5_new"
