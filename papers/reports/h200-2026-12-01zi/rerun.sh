#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, eleventh session: the v14 suite with FlashInfer).
#   rerun.sh [--out DIR]  from the committed results file: report.md and the
#                         figures (PNG; needs gnuplot) into DIR (default: this
#                         folder), and the comparisons against the v13 suite
#                         and against 0f09366 (no case slower by more than 5%).
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree; for these kernels check out 2b085cf): the 8
#                         recorded cases with the variants and FlashInfer
#                         (README "Peers": .peers/ carried, PYTHONPATH set),
#                         into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
SUITE_RUN_ARGS="--max-time 0.25 --label rerun --peers flashinfer" report_suite "$here/h200_v14_suite.h5" "$@"
report_compare "the v13 suite against the v14 suite (no case slower by more than 5%?)" papers/reports/h200-2026-12-01zb/h200_v13_suite.h5 "$here/h200_v14_suite.h5"
report_compare "0f09366 against the v14 suite" papers/reports/h200-2026-12-01/h200_ab_0f09366.h5 "$here/h200_v14_suite.h5"
report_compare "v7's suite against the v14 suite" papers/reports/h200-2026-12-01/h200_v7_suite.h5 "$here/h200_v14_suite.h5"
