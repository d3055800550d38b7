#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, sixth session: tile loads, e4m3 table).
#   rerun.sh   from the committed results files: the two A/B comparisons
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pair "run 3: v8 (31656f1) against f31ed42 (tile rule, unrolled tile loads)" "$here/h200_v8_before_loads.h5" "$here/h200_loads_f31ed42.h5"
report_pair "run 4: v8 (31656f1) against ce06fd8 (+ mxfp4_e4m3's table)" "$here/h200_v8_before_table.h5" "$here/h200_e4m3_table_ce06fd8.h5"
