#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, eighth session: final figures).
#   rerun.sh   from the committed results files: cf3bfb0 against 107c52b (two runs), the suite's report
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01m
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
for k in 1 2; do
  echo "== 107c52b run $k against cf3bfb0"
  "$M" compare "$here/h200_v11_107c52b_run$k.h5" "$here/h200_v11b_cf3bfb0.h5" || [ $? -eq 6 ]
done
"$M" report "$here/h200_v11_107c52b_suite.h5"
