#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-06, sixty-second session, call 2: the
# suite of 7a958b7 (the kernels of 8c7a5c5 with b88dca2's GPU watchdog) with
# both peers, FlashInfer and FlashMLA).
#   rerun.sh [--out DIR]  from the committed results file: report.md and
#                         the suite's figures (PNG; needs gnuplot) into DIR
#                         (default: this folder)
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree): the 8 recorded cases with the variants,
#                         FlashInfer and FlashMLA (README "Peers": .peers/
#                         carried, with both packs), into $OUT.
#   rerun.sh --history    the comparisons in README.md: against the last H200
#                         suite (h200-2026-12-06, v59, in us and per read
#                         limit), 0f09366's file and v7's suite
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = "--history" ]; then
  report_history "$here/h200_v65_suite.h5" v65 papers/reports/h200-2026-12-06/h200_v59_suite.h5 v59
  exit
fi
report_suite "$here/h200_v65_suite.h5" "$@"
