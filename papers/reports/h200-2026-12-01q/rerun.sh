#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, eighth session: lean epilogue and packed P, run 2).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01q
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
b="$here/h200_7619eb3_run2.h5" e="$here/h200_epilogue_a00db15_run2.h5" n="$here/h200_packedp_107c52b_run2.h5"
echo "== base against the lean epilogue"; "$M" compare "$b" "$e" || [ $? -eq 6 ]
echo "== the lean epilogue against packed P"; "$M" compare "$e" "$n" || [ $? -eq 6 ]
echo "== base against packed P"; "$M" compare "$b" "$n" || [ $? -eq 6 ]
