#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, thirteenth session, call 1: fp8_wgmma's tiles by tensor copies).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01zn
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
for k in 1 2; do
  echo "== pair $k: base (78254a8) against new (the tiles by tensor copies)"
  "$M" compare "$here/h200_s13_wgtma_base_$k.h5" "$here/h200_s13_wgtma_new_$k.h5" || [ $? -eq 6 ]
  echo "== pair $k: base against alt (the new tree with -DMLAB_WG_NO_TMAP)"
  "$M" compare "$here/h200_s13_wgtma_base_$k.h5" "$here/h200_s13_wgtma_alt_$k.h5" || [ $? -eq 6 ]
done
