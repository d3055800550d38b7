#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, twenty-first session, calls 1, 2 and
# 4: the wgmma decodes' Q stores, three A/Bs on the 8 cases).
#   rerun.sh   from the committed results files: both pairs of each A/B
#              (mlabench compare, base first)
# To re-measure (a GPU machine; here first: harness/gpu_ab.sh prepare BASE,
# and carry .ab): the commands are in README.md (call 1: the tree of
# 9d867ea with MLAB_AB_NEW_CUDA_FLAGS=-DWG_Q_HI=1, base "worktree"; call 2:
# daa69c5 against a74ea71; call 4: 3c97f5e with the change README.md shows
# against 3c97f5e).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: 9d867ea against 9d867ea -DWG_Q_HI=1 (Q stored heads inside)" "$here/s21_c1_ab_base" "$here/s21_c1_ab_new"
report_pairs "call 2: a74ea71 against daa69c5 (the wgmma decodes' Q in swizzled panels)" "$here/s21_c2_ab_base" "$here/s21_c2_ab_new"
report_pairs "call 4: 3c97f5e against 3c97f5e + fp8 Q stored 8 heads x 4 chunks a warp step (README.md)" "$here/s21_c4_ab_base" "$here/s21_c4_ab_new"
