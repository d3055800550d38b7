#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-06, fifty-sixth session, call 4: the
# suite of 4f65c56 (the kernels of 8c7a5c5: v57's one-tile overlap, first on
# an H200) with both peers, FlashInfer and FlashMLA).
#   rerun.sh [--out DIR]  from the committed results file: report.md and
#                         the suite's figures (PNG; needs gnuplot) into DIR
#                         (default: this folder)
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree): the 8 recorded cases with the variants,
#                         FlashInfer and FlashMLA (README "Peers": .peers/
#                         carried, with both packs), into $OUT.
#   rerun.sh --history    the comparisons in README.md: against the last H200
#                         suite (h200-2026-12-05g, in us and per read limit),
#                         0f09366's file and v7's suite
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = "--history" ]; then
  report_history "$here/h200_v59_suite.h5" v59 papers/reports/h200-2026-12-05g/h200_v51_suite.h5 v51
  exit
fi
report_suite "$here/h200_v59_suite.h5" "$@"
