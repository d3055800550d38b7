#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, tenth session: three prepared changes against 988c458).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01y
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
for k in 1 2; do
  echo "== pair $k: 988c458 against the three changes"
  "$M" compare "$here/h200_v13_base_$k.h5" "$here/h200_v13_new_$k.h5" || [ $? -eq 6 ]
done
