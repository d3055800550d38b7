#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, ninth session: the phases refactor against fdd094e).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01r
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
for k in 1 2; do
  echo "== pair $k: fdd094e against the phases"
  "$M" compare "$here/h200_fdd094e_run$k.h5" "$here/h200_phases_run$k.h5" || [ $? -eq 6 ]
done
