#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, thirteenth session, call 1: fp8_wgmma's tiles by tensor copies).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  report_pair "pair $k: base (78254a8) against new (the tiles by tensor copies)" "$here/h200_s13_wgtma_base_$k.h5" "$here/h200_s13_wgtma_new_$k.h5"
  report_pair "pair $k: base against alt (the new tree with -DMLAB_WG_NO_TMAP)" "$here/h200_s13_wgtma_base_$k.h5" "$here/h200_s13_wgtma_alt_$k.h5"
done
