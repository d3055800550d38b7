#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, tenth session: bulk row copies addressed by eight lanes a warp).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01zd
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
for k in 1 2; do
  echo "== pair $k: one lane a warp against eight"
  "$M" compare "$here/h200_lanes_base_$k.h5" "$here/h200_lanes_new_$k.h5" || [ $? -eq 6 ]
done
