#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, seventeenth session, call 6: 4 x 8192 at forced split counts).
#   rerun.sh   from the committed results files: each run's medians (mlabench report)
# To re-measure (a GPU machine): configure with -DCMAKE_CUDA_FLAGS=-DMLAB_TRACE, record the
# cases (data/record_competition.py), then for S in 8 16 32 64: mlabench run --variants
# fp8_wgmma,mxfp4_wgmma,fp8_exp2rcp,bf16_wgmma --splits S --max-time 0.03 CASE 2> trace.log,
# and python3 harness/tools/trace_summary.py trace.log.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for s in 8 16 32 64; do
  echo "== $s splits"
  report_table "$here/h200_s17_c6_splits$s.h5"
done
