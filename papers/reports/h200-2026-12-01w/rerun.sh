#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, ninth session: the trace build's timings).
#   rerun.sh   from the committed results files (the traces themselves were
#              the trace build's stderr: harness/tools/trace_summary.py)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01w
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
for k in 1 2; do
  echo "== run $k"
  "$M" report "$here/h200_trace_qpath_run$k.h5"
done
