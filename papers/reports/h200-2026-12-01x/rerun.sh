#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, ninth session: bulk-copy tile loads against cp.async).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01x
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
for k in 1 2; do
  echo "== pair $k: cp.async against bulk copies"
  "$M" compare "$here/h200_bulk_base_$k.h5" "$here/h200_bulk_bulk_$k.h5" || [ $? -eq 6 ]
done
