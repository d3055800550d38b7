#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, tenth session: bulk row copies addressed by eight lanes a warp).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  report_pair "pair $k: one lane a warp against eight" "$here/h200_lanes_base_$k.h5" "$here/h200_lanes_new_$k.h5"
done
