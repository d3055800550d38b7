#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, sixth session).
#   rerun.sh [--out DIR]  from the committed results files: report.md, the
#                         figures (PNG; needs gnuplot) and the comparison of
#                         v8 (31656f1) against v9 (6f6ee29), same machine
#   rerun.sh --gpu        re-measure on a GPU machine: the 8 recorded cases
#                         with every variant and FlashInfer (README "Peers":
#                         .peers/ carried, PYTHONPATH set), label v9, into
#                         $OUT, then compare against the committed v9 run
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
SUITE_RUN_ARGS="--max-time 0.25 --label v9 --peers flashinfer" report_suite "$here/h200_v9_suite.h5" "$@"
"$M" compare "$here/h200_v8_same_machine.h5" "$here/h200_v9_suite.h5" || [ $? -eq 6 ]
