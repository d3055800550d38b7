#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-sixth session, call 3: the v29
# suite with FlashInfer, the _qrow variants in it, and the GPU test list).
#   rerun.sh [--out DIR]  from the committed results file: report.md and the
#                         figures (PNG; needs gnuplot) into DIR (default: this
#                         folder), the comparisons against the v28 suite,
#                         0f09366 and v7's suite (no case slower by more than 5%)
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree; for these kernels check out 965242f): the 8
#                         recorded cases with the variants and FlashInfer
#                         (README "Peers": .peers/ carried), into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_suite "$here/h200_v29_suite.h5" "$@"
report_history "$here/h200_v29_suite.h5" v29 papers/reports/h200-2026-12-03g/h200_v28_suite.h5 v28
