#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, sixteenth session: the v19 suite with FlashInfer).
#   rerun.sh [--out DIR]  from the committed results file: report.md and the
#                         figures (PNG; needs gnuplot) into DIR (default: this
#                         folder), and the comparisons against the v18 suite,
#                         0f09366 and v7's suite (no case slower by more than 5%).
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree; for these kernels check out eadc652): the 8
#                         recorded cases with the variants and FlashInfer
#                         (README "Peers": .peers/ carried, PYTHONPATH set),
#                         into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-02i
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
. harness/report_lib.sh
report_suite "$here/h200_v19_suite.h5" "$@"
report_compare "the v18 suite against the v19 suite (no case slower by more than 5%?)" \
  papers/reports/h200-2026-12-02d/h200_v18_suite.h5 "$here/h200_v19_suite.h5"
report_compare "0f09366 against the v19 suite" papers/reports/h200-2026-12-01/h200_ab_0f09366.h5 "$here/h200_v19_suite.h5"
report_compare "v7's suite against the v19 suite" papers/reports/h200-2026-12-01/h200_v7_suite.h5 "$here/h200_v19_suite.h5"
