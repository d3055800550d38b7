#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, seventh session: final run, v10).
#   rerun.sh [--out DIR]  from the committed results files: report.md, the
#                         figures (PNG; needs gnuplot) and the comparison of
#                         v9 (83ba6be) against v10 (e4b7b14), same machine
#   rerun.sh --gpu        re-measure on a GPU machine: the 8 recorded cases
#                         with every variant and FlashInfer (README "Peers":
#                         .peers/ carried, PYTHONPATH set), label v10, into
#                         $OUT, then compare against the committed v10 run
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
SUITE_RUN_ARGS="--max-time 0.25 --label v10 --peers flashinfer" report_suite "$here/h200_v10_suite.h5" "$@"
"$M" compare "$here/h200_v9_same_machine.h5" "$here/h200_v10_suite.h5" || [ $? -eq 6 ]
