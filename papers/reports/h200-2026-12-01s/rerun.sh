#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, ninth session: the pipelined fp8 tile loop).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01s
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
for k in 1 2; do
  for v in p4 p3; do
    echo "== run $k: the plain loop against $v"
    "$M" compare "$here/h200_pipe_base_$k.h5" "$here/h200_pipe_${v}_$k.h5" || [ $? -eq 6 ]
  done
done
