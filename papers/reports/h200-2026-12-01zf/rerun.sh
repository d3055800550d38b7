#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, eleventh session, call 2: a8w8 stages by tensor copies).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01zf
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
for k in 1 2; do
  echo "== pair $k: padded rows by bulk copies against tensor copies"
  "$M" compare "$here/h200_tmap2_base_$k.h5" "$here/h200_tmap2_new_$k.h5" || [ $? -eq 6 ]
done
