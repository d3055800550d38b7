#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, twenty-third session, call 2:
# bf16_wgmma's staging by stmatrix.trans and mxfp4_wgmma's one-tile units
# ended alone, each against the tree of 231579f built without it).
#   rerun.sh   from the committed results files: base against new (stmatrix),
#              base against alt (mxfp4_wgmma alone), both pairs
# To re-measure (a GPU machine, the tree of 231579f): MLAB_AB_BASE_CUDA_FLAGS=-DWG_STMATRIX=0
# MLAB_AB_ALT=worktree MLAB_AB_ALT_CUDA_FLAGS=-DWG_MX_SOLO=1 harness/gpu_ab.sh run worktree
# --max-time 0.1 --variants bf16_wgmma,mxfp4_wgmma; the trace: a build with
# -DCMAKE_CUDA_FLAGS="-DMLAB_TRACE -DMLAB_WG_PROF", mlabench run --max-time 0.05
# CASE 2> trace.log, harness/tools/trace_summary.py trace.log.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 2: 231579f -DWG_STMATRIX=0 against 231579f (stmatrix.trans)" "$here/s23_c2_base" "$here/s23_c2_new"
report_pairs "call 2: 231579f -DWG_STMATRIX=0 against 231579f -DWG_MX_SOLO=1 (mxfp4_wgmma alone)" "$here/s23_c2_base" "$here/s23_c2_alt"
