#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, twenty-second session, call 4: the
# split epilogue without its head maximum; mxfp4_wgmma against fp8_wgmma at
# 256 x 8192 in six alternating runs).
#   rerun.sh   from the committed results files: the diagnostic's two pairs
#              (mlabench compare, base first), then each alternating run's
#              medians (mlabench report's first table)
# To re-measure (a GPU machine): on the tree of 16075d7,
# MLAB_AB_NEW_CUDA_FLAGS=-DMLAB_DIAG_NO_HEADMAX=1 harness/gpu_ab.sh run
# worktree --max-time 0.1 --variants bf16,bf16_wgmma,mxfp4_e4m3,bf16_t32;
# then mlabench run --max-time 0.3 --variants mxfp4_wgmma,fp8_wgmma (and
# the reverse) on the recorded 256 x 8192 case.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 4: 16075d7 against 16075d7 -DMLAB_DIAG_NO_HEADMAX=1 (no head maximum)" "$here/s22_c4_diag_base" "$here/s22_c4_diag_new"
for k in 1 2 3 4 5 6; do
  echo "== call 4: run $k at 256 x 8192"
  report_table "$here/s22_c4_mx_$k.h5"
done
