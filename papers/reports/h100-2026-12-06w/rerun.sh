#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, sixty-first session, call 3: the
# ring of ../h100-2026-12-06u with 3 raw stages (base) against its 5 (new),
# both with 3 e4m3 stages both consumers share: the raw depth alone).
#   rerun.sh        the A/B's tables from the files (as us and over each
#                   run's read limit) and each pair's `mlabench compare`
# To re-measure (a GPU machine): at 75c504a (git show
# 75c504a:papers/wip/mx_ring.patch), on the warm machine after `mxring`:
#   git apply papers/wip/mx_ring.patch && MLAB_AB_RUN_TIMEOUT=60 \
#   MLAB_AB_BASE_CUDA_FLAGS="-DWG_NSTAGE_MX=3 -DWG_NRAW=3" \
#   MLAB_AB_CASES_GLOB='b*_kv8192*.h5' MLAB_AB_SASS=off bash harness/gpu_ab.sh \
#   run worktree --variants mxfp4_wgmma_qrow,mxfp4_wgmma --max-time 0.1
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
p=$here/h100_mxring33
report_ab "3 raw -> 5 raw (3 shared e4m3 stages both)" "${p}_base" "${p}_new"
