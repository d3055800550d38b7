#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, tenth session: bf16 in one stage a block; the fp8 core's deep instance).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01z
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
for x in onestage deep; do
  for k in 1 2; do
    echo "== $x, pair $k: base against new"
    "$M" compare "$here/h200_${x}_base_$k.h5" "$here/h200_${x}_new_$k.h5" || [ $? -eq 6 ]
  done
done
