#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-third session, call 3: the
# v26 suite with FlashInfer, and the wgmma decodes of 29517c8 in the same call).
#   rerun.sh [--out DIR]  from the committed results files: report.md and the
#                         figures (PNG; needs gnuplot) into DIR (default: this
#                         folder), the comparisons against the v24 suite,
#                         0f09366 and v7's suite (no case slower by more than
#                         5%), and 29517c8's wgmma decodes against the suite's
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree; for these kernels check out d679560): the 8
#                         recorded cases with the variants and FlashInfer
#                         (README "Peers": .peers/ carried, PYTHONPATH set),
#                         into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_suite "$here/h200_v26_suite.h5" "$@"
report_history "$here/h200_v26_suite.h5" v26 papers/reports/h200-2026-12-02z/h200_v24_suite.h5 v24
report_pair "29517c8's wgmma decodes (base) against the suite's, the same call" "$here/h200_v26_base.h5" "$here/h200_v26_suite.h5"
