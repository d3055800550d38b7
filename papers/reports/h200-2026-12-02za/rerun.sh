#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, twenty-second session, call 1:
# v24's prepared WG_Q_STAGE against the default build, fp8_wgmma on the 8
# cases).
#   rerun.sh   from the committed results files: both pairs (mlabench
#              compare, base first)
# To re-measure: the knob was removed (f296513); on the tree of d87ae8a
# (a GPU machine): MLAB_AB_NEW_CUDA_FLAGS=-DWG_Q_STAGE=1
# harness/gpu_ab.sh run worktree --max-time 0.1 --variants fp8_wgmma.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: d87ae8a against d87ae8a -DWG_Q_STAGE=1 (fp8_wgmma's Q staged)" "$here/s22_c1_qstage_base" "$here/s22_c1_qstage_new"
