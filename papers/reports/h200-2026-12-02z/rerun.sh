#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, twenty-first session, call 3: the v24
# suite with FlashInfer).
#   rerun.sh [--out DIR]  from the committed results file: report.md and the
#                         figures (PNG; needs gnuplot) into DIR (default: this
#                         folder), and the comparisons against the v23 suite,
#                         0f09366 and v7's suite (no case slower by more than 5%).
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree; for these kernels check out 3c97f5e): the 8
#                         recorded cases with the variants and FlashInfer
#                         (README "Peers": .peers/ carried, PYTHONPATH set),
#                         into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_suite "$here/h200_v24_suite.h5" "$@"
report_history "$here/h200_v24_suite.h5" v24 papers/reports/h200-2026-12-02x/h200_v23_suite.h5 v23
