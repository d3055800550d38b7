#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, ninth session: the combine that loads ahead against 586b553).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01t
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
for k in 1 2; do
  echo "== pair $k: 586b553 against the combine that loads ahead"
  "$M" compare "$here/h200_combine_base_$k.h5" "$here/h200_combine_new_$k.h5" || [ $? -eq 6 ]
done
