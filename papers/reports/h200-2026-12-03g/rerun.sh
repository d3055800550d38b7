#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-fifth session, call 2: the
# v28 suite with FlashInfer, 4f63885's wgmma decodes beside it, and the GPU test list).
#   rerun.sh [--out DIR]  from the committed results files: report.md and the
#                         figures (PNG; needs gnuplot) into DIR (default: this
#                         folder), the comparisons against the v26 suite,
#                         0f09366 and v7's suite (no case slower by more than
#                         5%), and 4f63885's wgmma decodes against the suite's
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree; for these kernels check out 605050f): the 8
#                         recorded cases with the variants and FlashInfer
#                         (README "Peers": .peers/ carried, PYTHONPATH set),
#                         into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_suite "$here/h200_v28_suite.h5" "$@"
report_history "$here/h200_v28_suite.h5" v28 papers/reports/h200-2026-12-03/h200_v26_suite.h5 v26
report_pair "4f63885's wgmma decodes (base) against the suite's, the same call" "$here/h200_v28_base.h5" "$here/h200_v28_suite.h5"
