#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, twentieth session, call 1: the v22
# suite, the variants only).
#   rerun.sh [--out DIR]  from the committed results file: report.md and the
#                         figures (PNG; needs gnuplot) into DIR (default: this
#                         folder), and the comparisons against the v21 suite,
#                         0f09366 and v7's suite (no case slower by more than 5%).
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree; for these kernels check out 03674f2): the 8
#                         recorded cases with the variants (and FlashInfer
#                         where it imports: README "Peers"), into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_suite "$here/h200_v22_suite.h5" "$@"
report_history "$here/h200_v22_suite.h5" v22 papers/reports/h200-2026-12-02p/h200_v21_suite.h5 v21
