#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, sixth session: tile loads, e4m3 table).
#   rerun.sh   from the committed results files: the two A/B comparisons
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01h
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
echo "== run 3: v8 (31656f1) against f31ed42 (tile rule, unrolled tile loads)"
"$M" compare "$here/h200_v8_before_loads.h5" "$here/h200_loads_f31ed42.h5" || [ $? -eq 6 ]
echo "== run 4: v8 (31656f1) against ce06fd8 (+ mxfp4_e4m3's table)"
"$M" compare "$here/h200_v8_before_table.h5" "$here/h200_e4m3_table_ce06fd8.h5" || [ $? -eq 6 ]
