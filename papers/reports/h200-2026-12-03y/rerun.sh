#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, thirty-first session, call 2: the
# combine's and the wgmma decodes' lines asked for early (new), the
# combine's weights loads first (alt), against the default build (base):
# one tree, three builds).
#   rerun.sh   from the committed results files: both pairs of each A/B
#              and their tables (the README's)
# To re-measure (a GPU machine, the tree of branch wip/comb-touch, which
# keeps the knobs main does not have):
# MLAB_AB_NEW_CUDA_FLAGS="-DMLAB_COMB_TOUCH=1 -DMLAB_DEC_TOUCH=1"
# MLAB_AB_ALT=worktree MLAB_AB_ALT_CUDA_FLAGS="-DMLAB_COMB_LSE_FIRST=1"
# harness/gpu_ab.sh run worktree --max-time 0.1 --variants fp8_wgmma_qrow,bf16_wgmma,mxfp4_wgmma_qrow
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 2: the default build (base) against the lines asked for early (new)" "$here/s31_c2_base" "$here/s31_c2_new"
report_ab_table "call 2: base -> lines asked for early (new), median us" "$here/s31_c2_base" "$here/s31_c2_new"
report_ab_table "call 2: base -> weights loads first (alt), median us" "$here/s31_c2_base" "$here/s31_c2_alt"
