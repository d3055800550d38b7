#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, nineteenth session, call 3: the tensor
# maps' L2 promotion at 128 bytes against b82b8df's 256, A/B on the 8 cases).
#   rerun.sh   from the committed results files: both A/B pairs (mlabench
#              compare, base first)
# To re-measure (a GPU machine; here first: harness/gpu_ab.sh prepare b82b8df,
# and carry .ab): check out 06b620e, then harness/gpu_ab.sh run b82b8df
# --max-time 0.1 --variants fp8,fp8_exp2rcp,fp8_xcd,fp8_wgmma,bf16_wgmma (or,
# one build: MLAB_AB_BASE_ENV=MLAB_TMAP_L2=256 harness/gpu_ab.sh run worktree ...)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 3: b82b8df (L2 promotion 256) against 06b620e (128)" "$here/s19_c3_ab_base" "$here/s19_c3_ab_new"
