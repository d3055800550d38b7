#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-04, thirty-second session, call 4: the
# v35 suite with FlashInfer, 8453537's kernels).
#   rerun.sh [--out DIR]  from the committed results file: report.md and
#                         the suite's figures (PNG; needs gnuplot) into DIR
#                         (default: this folder); the suite against the v33
#                         suite, 0f09366 and v7's suite (no case slower by
#                         more than 5%?)
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree; for these kernels check out d3a96d5): the 8
#                         recorded cases with the variants and FlashInfer
#                         (README "Peers": .peers/ carried), into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_suite "$here/h200_v35_suite.h5" "$@"
[ "${1:-}" = "--gpu" ] && exit 0
report_history "$here/h200_v35_suite.h5" v35 papers/reports/h200-2026-12-03v/h200_v33_suite.h5 v33
