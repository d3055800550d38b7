#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-07, sixty-sixth session, call 4: the
# first compute-sanitizer findings mended, mlab_syncwarp in tile_softmax and
# bf16_wgmma's idle head-pair consumer arriving on WG_BAR_Q; new = 06ddd71's
# kernels, base = d0416b0's, both programs built here and carried).
#   rerun.sh   from the committed results files: both pairs and their tables
#              (the README's)
# To re-measure (a GPU machine): build 06ddd71 and its parent, then
# `MLAB_AB_SASS=off MLAB_AB_NEW_BIN=NEW/mlabench MLAB_AB_BASE_BIN=BASE/mlabench
# bash harness/gpu_ab.sh run worktree --variants bf16,bf16_t32,fp8,fp8_exp2rcp,fp8_xcd,mxfp4,mxfp4_e4m3,mxfp4_unfused,bf16_wgmma --max-time 0.12`;
# the sanitizer's findings: `MLAB_BIN=build/mlabench bash harness/gpu_sanitize.sh`
# (before: d0416b0 with 06ddd71's harness; after: 06ddd71).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "the 8 recorded cases: base (d0416b0's kernels) against new (06ddd71's)" "$here/s66_san_base" "$here/s66_san_new"
report_ab_table "median us" "$here/s66_san_base" "$here/s66_san_new"
report_ab_table_rl "median / the run's read limit" "$here/s66_san_base" "$here/s66_san_new"
