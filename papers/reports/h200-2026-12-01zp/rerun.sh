#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, thirteenth session: the v16 suite with FlashInfer).
#   rerun.sh [--out DIR]  from the committed results file: report.md and the
#                         figures (PNG; needs gnuplot) into DIR (default: this
#                         folder), and the comparisons against the v15 suite,
#                         0f09366 and v7's suite (no case slower by more than 5%).
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree; for these kernels check out 223fdab): the 8
#                         recorded cases with the variants and FlashInfer
#                         (README "Peers": .peers/ carried, PYTHONPATH set),
#                         into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
SUITE_RUN_ARGS="--max-time 0.1 --label rerun --peers flashinfer" report_suite "$here/h200_v16_suite.h5" "$@"
report_compare "the v15 suite against the v16 suite (no case slower by more than 5%?)" papers/reports/h200-2026-12-01zl/h200_v15_suite.h5 "$here/h200_v16_suite.h5"
report_compare "0f09366 against the v16 suite" papers/reports/h200-2026-12-01/h200_ab_0f09366.h5 "$here/h200_v16_suite.h5"
report_compare "v7's suite against the v16 suite" papers/reports/h200-2026-12-01/h200_v7_suite.h5 "$here/h200_v16_suite.h5"
